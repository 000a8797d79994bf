#!/usr/bin/env bash
# Alternates builds of libquarkflow on one machine, so that a change is measured against the code
# before it under the same neighbours (the GPU machine's host is shared: its 2-core triad moves by
# +-25% between runs, more than most kernel changes). Every variant runs the packed command of
# .deploy/ (tools/pack-device.sh) with its own libquarkflow.so; rounds alternate the variants.
#
#   bench/run_device_ab.sh ROUNDS [taskset -c CPUS] NAME=LIBFILE|NAME=DEPLOYDIR ... -- QUARKFLOW-ARGS...
#
# LIBFILE is a libquarkflow.so.* built from another commit (a worktree's build, stripped, carried
# with the call), or a folder packed by tools/pack-device.sh from another commit (its command and
# library both, for commits whose library interface differs); the name "packed" stands for
# .deploy's own. Libraries beside LIBFILE named *.so.*
# go into the variant too: an ordinary build links StarPU-MPI (libstarpumpi-1.3.so.3), which
# .deploy's single-process build lacks, and the GPU machine has the OpenMPI it needs. Logs go to
# $OUT (or /tmp) as ab_CPUS_NAME_ROUND.txt; the figures of each run are printed (bench dslash's and
# bench kernels' timing, ceiling and ratio lines, bench solver's Mhat line and table). Example (the
# issue's 2-core CPU target, the current build against the one before a change):
#   bench/run_device_ab.sh 3 taskset -c 0,1 packed=- old=.ab/old.so -- --ncuda 0 --ncpu 2 bench dslash
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${OUT:-/tmp}
rounds=$1
shift
pin=()
[ "${1:-}" = taskset ] && { pin=(taskset -c "$3"); shift 3; }
names=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  name=${1%%=*} lib=${1#*=}
  dir=/tmp/qf-ab-$name
  rm -rf "$dir"
  cp -r "$top/.deploy" "$dir"
  if [ -d "$lib" ]; then # a whole packed build of another commit (its command and library)
    rm -rf "$dir"
    cp -r "$lib" "$dir"
  elif [ "$name" != packed ]; then
    [ -f "$lib" ] || { echo "run_device_ab: no library '$lib' for variant $name" >&2; exit 2; }
    cp "$lib" "$dir/lib/$(basename "$(readlink -f "$top"/.deploy/lib/libquarkflow.so)")"
    for extra in "$(dirname "$lib")"/*.so.*; do [ -f "$extra" ] && cp "$extra" "$dir/lib/"; done
  fi
  names+=("$name")
  shift
done
[ "${1:-}" = -- ] || { echo "run_device_ab: the quarkflow arguments follow '--'" >&2; exit 2; }
shift
cpus=${pin[2]:-all}
for ((r = 1; r <= rounds; r++)); do
  for name in "${names[@]}"; do
    log=$out/ab_${cpus//,/-}_${name}_$r.txt
    timeout 300 "${pin[@]}" /tmp/qf-ab-$name/run.sh quarkflow "$@" > "$log" 2>&1
    echo "== $name, round $r: ${pin[*]} quarkflow $*"
    grep -E "^(task graph|direct|ceiling|ratio|in cache|out of cache|Mhat|solver|BiCGStab|CGNR|CGNE|CG|GCR|MR|MG) |rror" "$log"
  done
done
