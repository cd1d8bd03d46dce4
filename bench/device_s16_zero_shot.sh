#!/bin/bash
# Issue 32: zero-shot over 1,000 texts x 8 labels against classify of the same 8,000 pairs, DeBERTa-v3-base shape, 16 threads.
# Session 16, run on the 16-core device from a folder holding bertkit-new, make_nli_head.py (bench/) and libs.tar.xz
# (as bench/device_wave3.sh); figures in the session-16 note.
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/out}; mkdir -p "$O"; L="$O/log7.txt"
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
mkdir -p /tmp/bk-libs && tar -xJf libs.tar.xz -C /tmp/bk-libs; export LD_LIBRARY_PATH=/tmp/bk-libs
./bertkit-new bench --shape deberta-v3-base --save /tmp/deb >> "$L" 2>&1
python3 make_nli_head.py /tmp/deb 1000 /tmp/zs >> "$L" 2>&1
echo "model at $(el)s" >> "$L"
t() { local s=$(date +%s.%N); "$@" > /dev/null 2>>"$L"; python3 -c "import time; print('$1 $2', round(time.time()-$s,2), 's')" >> "$L"; }
for rep in 1 2; do
  (( $(el) < 130 )) && t ./bertkit-new zero-shot -m /tmp/deb --threads 16 --labels "$(cat /tmp/zs/labels.txt)" -i /tmp/zs/texts.txt -o /tmp/zs/zs.jsonl
  (( $(el) < 130 )) && t ./bertkit-new classify -m /tmp/deb --threads 16 --pairs -i /tmp/zs/pairs.txt -o /tmp/zs/cl.jsonl
done
wc -l /tmp/zs/*.jsonl >> "$L"; echo "all done at $(el)s" >> "$L"
