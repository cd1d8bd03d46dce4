#pragma once
// How OpenMP's idle threads wait. libgomp's default spins each waiting thread for up to 300,000 rounds
// (milliseconds) at every barrier before it sleeps. When another process competes for a core, that
// spinning is taken from the thread the barrier waits for, and the scheduler's time slices
// (milliseconds) are paid at each of the dozens of barriers per layer: on this 2-core machine shared
// with compilers, embedding 1,000 short lines with the fixture model took 3 s with the default and
// 0.6 s with a spin of 1,000 rounds, libgomp's own value for an oversubscribed machine, which a
// thread that is on time still meets.
//
// libgomp reads its environment once, in its constructor, before main() (and before the program's
// .preinit_array, which glibc 2.34+ runs from __libc_start_main): the only way to set it is in the
// environment the program starts with. So main() sets GOMP_SPINCOUNT and executes itself again, once
// (a few milliseconds), unless the user chose a wait policy (OMP_WAIT_POLICY or GOMP_SPINCOUNT set),
// the run has one thread (--threads 1, or one CPU allowed), which waits at no barrier, or nothing else
// is running as it starts, when spinning is fastest and costs no one anything.
namespace bertkit::cli {

inline constexpr const char* kSpinCount = "1000";

// Call first in main(). Returns only when the runtime already waits as it should (or the re-execution
// failed: the program then runs with libgomp's default).
void set_openmp_wait_policy(char** argv);

}  // namespace bertkit::cli
