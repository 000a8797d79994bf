#!/usr/bin/env bash
# StarPU built with blocking drivers (idle workers sleep on a condition variable, as
# tools/install-deps.sh configures it) against a build with polling drivers (idle workers spin on
# their core, StarPU's default before), on one GPU node: the runs behind bench/RESULTS.md's "Blocking
# drivers". Run here `tools/pack-device.sh` (its libstarpu is the blocking one), build a polling StarPU
# (tools/install-deps.sh of commit 264ef9f with --prefix DIR) and copy its libstarpu-1.3.so.9 and
# libstarpumpi-1.3.so.3 into .deploy/lib-polling; then on the GPU machine:
# bench/run_device_blocking.sh [OUTDIR]. Each round swaps the two builds' libraries into .deploy/lib,
# polling first; summary lines are printed.
#   latency: bench dslash on the GPU alone (16^4 and 32^4 single: the graph against the direct kernels);
#   mixed:   a 32^4 solve and the 16^4 multigrid solve with quarkflow's default workers (14 CPU + 1 CUDA);
#   team:    the 16^4 multigrid solve with its coarse level forced onto the CPU team (--mg-location gpu,cpu),
#            where polling workers share their cores with the team's threads.
set -u
out=${1:-${OUT:-/tmp}}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=$top/.deploy/run.sh
lib=$top/.deploy/lib
[ -f "$top/.deploy/lib-polling/libstarpu-1.3.so.9" ] || { echo "no .deploy/lib-polling (see the header)" >&2; exit 2; }
mkdir -p "$top/.deploy/lib-blocking"
cp "$lib"/libstarpu-1.3.so.9 "$lib"/libstarpumpi-1.3.so.3 "$top/.deploy/lib-blocking/"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1
step() { # name, seconds, quarkflow args...
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  timeout "$limit" "$run" quarkflow --watchdog 60 "$@" > "$out/$name.txt" 2>&1
  echo "== $name (exit $?, $((SECONDS - t0)) s): quarkflow $*"
  grep -E "^(solved|task graph|direct|ratio|multigrid) |best of|coarse solves" "$out/$name.txt" | head -9
}
"$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 16 16 16 16 --beta 6 --sweeps 100 --out /tmp/g16.nersc \
  > "$out/generate16.txt" 2>&1
mg="solve /tmp/g16.nersc --csw 1.769 --kappa 0.135 --solver mg --source random"
for round in 1 2; do
  for build in polling blocking; do
    cp "$top/.deploy/lib-$build"/* "$lib/"
    r=${build}_$round
    step dslash16_$r 60 --ncpu 0 --ncuda 1 bench dslash --dim 16 16 16 16 --prec single
    step dslash32_$r 60 --ncpu 0 --ncuda 1 bench dslash --dim 32 32 32 32 --prec single
    step solve32_$r 60 solve --dim 32 32 32 32 --sloppy single
    step mg16_default_$r 90 $mg
    step mg16_coarse_cpu_$r 120 --ncuda 1 --sched dmdas $mg --mg-location gpu,cpu
  done
done
cp "$top/.deploy/lib-blocking"/* "$lib/"
