#!/usr/bin/env bash
# The GPU-node runs behind bench/RESULTS.md's "Scheduling policies" section, in two parts that each
# fit a 10-minute call. Run here `tools/pack-device.sh`, then on the GPU machine (with .deploy
# carried): bench/run_device_sched.sh PART [OUTDIR]; logs and tables go to OUTDIR (default $OUT or
# /tmp), summary lines are printed.
#   check: the GPU-labelled tests, the CPU and GPU operator benchmarks, a solve with the defaults
#          (dmdas, one block a GPU) on all the node's workers, and a traced one;
#   prop:  the propagator (12 solves) under the model-based policies on CPU + GPU workers and on the
#          GPU alone, models calibrated first (greedy policies are left out on the mixed node: they
#          hand the GPU-sized block to a CPU core, 17x slower, RESULTS);
#   blocks: the CPU operator on 16 cores over block grids, and the mixed-node propagator again;
#   guard: the regression guard of issue 20: quarkflow's default on every worker of the node against
#          the GPU alone, for the solve, propagator, Dslash, multigrid and gauge-generation workloads,
#          in one run (fails when the default is more than 5% slower);
#   gauge: gauge generation alone (50 sweeps, the propagator's field of issue 20's table, and 32^4):
#          the default on every worker, the GPU alone and the CPU cores alone.
set -u
part=${1:?usage: run_device_sched.sh check|prop|blocks|guard|gauge [OUTDIR]}
out=${2:-${OUT:-/tmp}}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=$top/.deploy/run.sh
dims="--dim 32 32 32 32"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1
lscpu | grep -E "Model name|^CPU\(s\)" > "$out/cpu.txt"
step() { # name, seconds, quarkflow args...
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  timeout "$limit" "$run" quarkflow --watchdog 60 "$@" > "$out/$name.txt" 2>&1
  local rc=$?
  echo "== $name (exit $rc, $((SECONDS - t0)) s): quarkflow $*"
  grep -E "^\| |^(solved|communication|critical|span|task graph|direct|ceiling|ratio|StarPU workers|time|iterations) " "$out/$name.txt" | head -20
}
case $part in
check)
  t0=$SECONDS
  timeout 200 "$run" ctest-gpu > "$out/ctest-gpu.txt" 2>&1
  echo "== ctest-gpu (exit $?, $((SECONDS - t0)) s): $(grep -c '^== ' "$out/ctest-gpu.txt") steps, $(grep -ci 'fail' "$out/ctest-gpu.txt") lines saying fail"
  tail -3 "$out/ctest-gpu.txt"
  step cpu16_single 60 --ncuda 0 bench dslash --dim 16 16 16 16 --prec single
  step gpu32_single 60 --ncpu 0 --ncuda 1 bench dslash $dims --prec single
  step solve_default 120 --verbose solve $dims
  step solve_default_again 60 solve $dims
  step trace_default 90 --trace "$out/trace_default" solve $dims
  rm -f "$out"/trace_default/prof_file_* "$out"/trace_default/trace.rec "$out"/trace_default/*.data "$out"/trace_default/dag.dot
  (cd "$out" && tar czf trace_default.tgz trace_default && rm -rf trace_default)
  ;;
prop)
  step prop_mixed 330 bench sched $dims --workload propagator --policies dmda,dmdas --warmup-solves 1 \
    --md "$out/prop_mixed.md" --csv "$out/prop_mixed.csv"
  step prop_gpu 200 --ncpu 0 bench sched $dims --workload propagator --policies eager,dmdas --warmup-solves 1 \
    --md "$out/prop_gpu.md" --csv "$out/prop_gpu.csv"
  ;;
blocks)
  # the CPU operator's block grid on 16 cores, and the propagator with scalar arithmetic on the GPU
  for b in "2 2 4 4" "2 2 2 4" "2 2 2 2" "1 2 2 2" "1 1 2 2"; do
    step "cpu16_blocks_${b// /}" 60 --ncuda 0 bench dslash --dim 16 16 16 16 --prec single --blocks $b
  done
  step cpu32_default 90 --ncuda 0 bench dslash $dims --prec single
  step cpu32_blocks_2224 90 --ncuda 0 bench dslash $dims --prec single --blocks 2 2 2 4
  step prop_mixed_scalar_gpu 200 bench sched $dims --workload propagator --policies dmdas --warmup-solves 1 \
    --md "$out/prop_mixed2.md" --csv "$out/prop_mixed2.csv"
  ;;
guard)
  step guard 560 bench sched $dims --sloppy single --policies default --workload solve,propagator,dslash,mg,gauge \
    --sweeps 50 --warmup-solves 1 --versus-ncpu 0 --max-ratio 1.05 --md "$out/guard.md" --csv "$out/guard.csv"
  grep -E "^guard|time / reference" "$out/guard.txt"
  ;;
gauge)
  for d in "16 16 16 32" "32 32 32 32"; do
    n=${d// /x}
    step gauge_$n 200 bench sched --dim $d --workload gauge --sweeps 50 --policies default --warmup-solves 1 \
      --versus-ncpu 0 --md "$out/gauge_$n.md"
    step gauge_cpu_$n 300 --ncuda 0 bench sched --dim $d --workload gauge --sweeps 50 --policies default \
      --warmup-solves 1 --md "$out/gauge_cpu_$n.md"
  done
  ;;
*) echo "run_device_sched.sh: unknown part $part (check, prop, blocks, guard or gauge)" >&2; exit 2 ;;
esac
