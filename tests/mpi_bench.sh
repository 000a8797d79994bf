#!/bin/sh
# A benchmark of timed task graphs on several processes: every process must take the timing loop's
# decisions (how many applications a probe, how many a round) alike and the run must end with its
# figures. Each deciding alone from its own clock, one stopped while another still sent it faces, and
# both waited for ever.
#   mpi_bench.sh MPIEXEC QUARKFLOW NP BENCH-ARGS...
set -u
mpiexec=$1 qf=$2 np=$3
shift 3
out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 150 "$mpiexec" --oversubscribe --bind-to none \
    -np "$np" -x STARPU_NCPU=1 -x STARPU_NCUDA=0 -x STARPU_WORKERS_NOBIND=1 -x STARPU_FXT_TRACE=0 \
    "$qf" bench "$@" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^(path|task graph|ratio|quarkflow: error)' | head -8
[ "$rc" -ne 124 ] || { echo "FAIL: bench $* on $np processes did not end within 150 s"; exit 1; }
[ "$rc" -eq 0 ] || { echo "FAIL: bench $* on $np processes exited with status $rc"; exit 1; }
printf '%s\n' "$out" | grep -q '^task graph .* applications in' \
  || { echo "FAIL: bench $* on $np processes printed no task-graph timing"; exit 1; }
echo "ok: bench $* on $np processes ended with its figures"
