#!/usr/bin/env bash
# Where a run's GPU time goes, kernel by kernel: Nsight Compute around a packed quarkflow command on
# the GPU machine. Run here tools/pack-device.sh, then there (with .deploy carried):
#   bench/run_device_ncu.sh [--kernels REGEX] -- QUARKFLOW-ARGS...
# e.g. the tables of bench/RESULTS.md "Where a 32^4 mixed solve's GPU time goes":
#   bench/run_device_ncu.sh -- --ncpu 0 --ncuda 1 solve --dim 32 32 32 32 --csw 1 --kappa 0.125 \
#     --source random --recon-sloppy 12 --sloppy half
# ncu runs the kernels one at a time and times each (one metric, one pass; --clock-control none keeps
# the card's clocks as found), about 0.06 s a launch: a 110-iteration 32^4 solve takes 3 minutes;
# --kernels times only the kernels whose names match (the others run untimed). The whole ncu output
# goes to $OUT/ncu.txt (or /tmp), the table of tools/ncu-kernels.py to the terminal.
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
filter=()
[ "${1:-}" = --kernels ] && { filter=(--kernel-name "regex:$2"); shift 2; }
[ "${1:-}" = -- ] || { echo "run_device_ncu: the quarkflow arguments follow '--'" >&2; exit 2; }
shift
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
[ -x "$ncu" ] || { echo "run_device_ncu: Nsight Compute (ncu) not found: on the GPU machine it is in /usr/local/cuda/bin" >&2; exit 2; }
out=${OUT:-/tmp}/ncu.txt
export LD_LIBRARY_PATH="$top/.deploy/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export STARPU_HOME=${STARPU_HOME:-/tmp/quarkflow-ncu-home} STARPU_SILENT=${STARPU_SILENT:-1}
"$ncu" --clock-control none "${filter[@]}" --metrics gpu__time_duration.sum --print-summary per-kernel \
  "$top/.deploy/bin/quarkflow" "$@" > "$out" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "run_device_ncu: ncu exited with $rc; the end of $out:" >&2; tail -5 "$out" >&2; exit $rc; }
python3 "$top/tools/ncu-kernels.py" "$out"
