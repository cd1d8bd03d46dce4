#!/usr/bin/env bash
# Every test bertkit has, in seven stages (each one's wall time is printed at the end):
#   release      the release build's suite
#   portable     the goldens again on the path of a CPU without AVX2 (BERTKIT_CPU=portable)
#   trixie       Debian 13 (oneDNN 3.x, GCC 14, a newer Unicode): bertkit and its golden tests built and
#                run in a debootstrap root (tests/trixie_check.sh; the root downloads during the release stage)
#   arm64        64-bit ARM: bertkit and its golden tests cross-compiled (tests/arm64_check.sh); the goldens
#                run under qemu-user-static during the next stage
#   asan+fuzz+arm64-goldens
#                one clang build with address + undefined-behaviour sanitizers (and libFuzzer's
#                coverage): the whole suite (corpus sweeps on every 8th line: kSweepStride in
#                tests/support.h; not bertkit-bench(1)'s examples, timing loops by design, whose code
#                other tests drive, nor the five slowest cases, below),
#                then every fuzz target for 6 seconds from its seed corpus (BPE and Unigram ones 12)
#                (a smoke run: tests/fuzz/README.md has the ten-minute runs)
#   tsan         a ThreadSanitizer build of the multithreaded tests, doctest's test suite "threads"
#                (tokenize and the model commands with --threads 2, the encoder and attention with OpenMP)
# Reads the goldens from ../shared.
# CI has 2 cores and 60 minutes for all of it, from a clean clone without ccache. Ninja (not make) lets
# every target's files compile as soon as a core is free instead of waiting for the libraries before
# them, which keeps both cores busy through the library builds' batched (unity) files.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
timings=()
stage_start=$SECONDS
end_stage() {
  timings+=("$(printf '%-10s %4d s' "$1" $((SECONDS - stage_start)))")
  stage_start=$SECONDS
}

# Ninja for a new build folder; a folder configured before (README's first command, or a make build of
# the user's own) keeps its generator, since CMake refuses to switch one.
configure() {
  local dir=$1
  shift
  local generator=(-G Ninja)
  [ -f "$dir/CMakeCache.txt" ] && generator=()
  cmake -S . -B "$dir" "${generator[@]}" "$@"
}

bash tests/setup.sh
end_stage setup

# Debian 13's root is mostly download and unpacking: made while the release stage keeps the cores busy.
mkdir -p build
tests/trixie_check.sh "" "$jobs" root >build/trixie-root.log 2>&1 &
trixie_root=$!

configure build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
end_stage release

# The machine's default is the best path it has; this is the one of a CPU without AVX2: bertkit's
# portable kernels, oneDNN capped to SSE4.1 (bertkit(1), ENVIRONMENT). The kernel table's tests check
# that the path was taken. Left out, as such a CPU cannot pass them today: the bf16 and int8 types
# (oneDNN 2.6 has no bf16 matmul below AVX-512, and its int8 matmul without VNNI falls below the int8
# bound) and the test of a layout no machine packs in (SSE4.1's oneDNN keeps f32 weights plain).
BERTKIT_CPU=portable build/tests/bertkit_tests --source-file='*/golden/*,*/ops_kernel_table_test.cpp' \
  --test-case-exclude='reduced types:*,embed: f16*,convert: f32*,convert: a file packed in another layout*'
end_stage portable

if ! wait $trixie_root; then
  cat build/trixie-root.log >&2
  exit 1
fi
tests/trixie_check.sh "" "$jobs"
end_stage trixie

tests/arm64_check.sh build-arm64 "$jobs" build
end_stage arm64

configure build-asan -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
      -DBERTKIT_FUZZ=ON
cmake --build build-asan -j"$jobs" --target bertkit bertkit_tests fuzz
# The arm64 goldens under emulation run beside the sanitizer stage's tests, whose children leave a core
# idle much of the time (the fuzz targets then run for their fixed seconds all the same).
tests/arm64_check.sh build-arm64 "$jobs" goldens >build-arm64/goldens.log 2>&1 &
arm64_goldens=$!
# Left out under the sanitizers, to keep CI within its hour (the release stage runs them): the five slowest
# there (4.9 of its 22 serial minutes), each the volume version of code lighter tests drive under the
# sanitizers: DeBERTa's classify and ner pipelines over every record (its fill-mask and zero-shot stay),
# tokenize of a 32 MB line (the 32 MB embed and long-text tests stay), a killed and resumed embed in every
# format (the other resume tests stay), and many questions over one long document (the other qa tests stay).
slow_volume='^deberta-v3 classify: |^deberta-v3 ner: |^a 32 MB line: tokenize |^resume: embed, killed and resumed|^qa: many questions about one long document'
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -j"$jobs" \
  -E "bertkit-bench\\(1\\): every example|$slow_volume"
tests/fuzz/run.sh build-asan 6 "$jobs"
if ! wait $arm64_goldens; then
  tail -n 60 build-arm64/goldens.log >&2
  echo "tests/run.sh: the arm64 goldens failed (build-arm64/goldens.log)" >&2
  exit 1
fi
tail -n 4 build-arm64/goldens.log
end_stage asan+fuzz+arm64-goldens

configure build-tsan -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
      -DBERTKIT_TSAN=ON
cmake --build build-tsan -j"$jobs" --target bertkit bertkit_thread_tests
# Archer (clang's OpenMP tool) tells TSan about OpenMP's fork, join and barriers. The OpenMP runtime
# and oneDNN are not instrumented: ignore_noninstrumented_modules keeps TSan from judging the memset and
# mutex calls made inside them, whose synchronisation it cannot see. Our code is instrumented, and a race
# in it (a shared sum in an omp loop, say) is still reported. Nothing is suppressed.
OMP_TOOL_LIBRARIES=$(clang++ -print-resource-dir)/../../libarcher.so OMP_NUM_THREADS=2 \
  TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1" \
  build-tsan/tests/bertkit_thread_tests --test-suite=threads
end_stage tsan

printf '%s\n' "${timings[@]}"
