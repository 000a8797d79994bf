#!/usr/bin/env bash
# The GPU-machine run behind bench/RESULTS.md: the GPU-labelled tests, then the Dirac-operator and
# solver benchmarks. Run here `tools/pack-device.sh`, then on the GPU machine (with .deploy
# carried): bench/run_device.sh [OUTDIR]. Logs go to OUTDIR (default $OUT or /tmp); the summary
# lines are printed last.
set -u
out=${1:-${OUT:-/tmp}}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=$top/.deploy/run.sh
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
lscpu | grep -E "Model name|^CPU\(s\)" > "$out/cpu.txt"
echo "== GPU-labelled tests"
timeout 300 "$run" ctest-gpu > "$out/ctest-gpu.txt" 2>&1
echo "ctest-gpu exit $?: $(grep -c 'passed' "$out/ctest-gpu.txt") summary lines, failures: $(grep -c '^FAIL' "$out/ctest-gpu.txt")"
bench() { # name, [taskset -c CPUS], args...
  local name=$1 pin=(); shift
  [ "$1" = taskset ] && { pin=(taskset -c "$3"); shift 3; }
  timeout 300 "${pin[@]}" "$run" quarkflow "$@" > "$out/$name.txt" 2>&1
  echo "== $name: ${pin[*]} quarkflow $*"
  grep -E "^(path|task graph|direct|ceiling|ratio|check|workers|Mhat|solver|CGNR|CGNE|BiCGStab|GCR|MR) " "$out/$name.txt"
}
bench gpu32_single --ncpu 0 --ncuda 1 bench dslash --dim 32 32 32 32 --prec single
bench gpu32_double --ncpu 0 --ncuda 1 bench dslash --dim 32 32 32 32 --prec double
bench gpu16_single --ncpu 0 --ncuda 1 bench dslash --dim 16 16 16 16 --prec single
bench cpu16_single --ncuda 0 bench dslash --dim 16 16 16 16 --prec single
# the issue's CPU target on two of the host's cores (StarPU sees the cores taskset allows)
for i in 1 2 3; do bench cpu2_16_single_$i taskset -c 0,1 --ncuda 0 --ncpu 2 bench dslash --dim 16 16 16 16 --prec single; done
bench gpu32_solver --ncpu 0 --ncuda 1 bench solver --dim 32 32 32 32
bench cpu16_solver --ncuda 0 bench solver --dim 16 16 16 16
