#!/bin/sh
# A corrupt gauge file read by several processes, each reading its own part: every process must find
# the damage (the checksum is combined over the parts), all must stop with the same clear message and
# a non-zero exit status, and none may wait forever for the others.
#   mpi_corrupt_file.sh MPIEXEC QUARKFLOW FILE NP
set -u
mpiexec=$1 qf=$2 file=$3 np=$4
copy=$(mktemp "${TMPDIR:-/tmp}/qf_corrupt.XXXXXX") || exit 2
trap 'rm -f "$copy"' EXIT
cp "$file" "$copy" && chmod u+w "$copy" || exit 2
# one byte of the last site's links: in the last process's part
printf 'Z' | dd of="$copy" bs=1 seek=$(($(wc -c < "$copy") - 5)) conv=notrunc 2>/dev/null
out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 "$mpiexec" --oversubscribe --bind-to none \
    -np "$np" -x STARPU_NCPU=1 -x STARPU_NCUDA=0 -x STARPU_WORKERS_NOBIND=1 -x STARPU_FXT_TRACE=0 \
    "$qf" gauge load "$copy" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v '^-\|^ *$' | head -8
[ "$rc" -ne 124 ] || { echo "FAIL: the processes did not stop within 120 s"; exit 1; }
[ "$rc" -ne 0 ] || { echo "FAIL: a corrupt file was accepted"; exit 1; }
n=$(printf '%s\n' "$out" | grep -c 'quarkflow: error: .*checksum mismatch')
[ "$n" -eq "$np" ] || { echo "FAIL: $n of $np processes reported the checksum mismatch"; exit 1; }
echo "ok: all $np processes stopped with the checksum mismatch (exit status $rc)"
