#!/usr/bin/env bash
# The GPU-node runs behind bench/RESULTS.md's "Many processes" section. Run here
# `QF_DEVICE_MPI=ON tools/pack-device.sh` (a build with StarPU-MPI for the machine's OpenMPI), then on
# the GPU machine (with .deploy carried): bench/run_device_mpi.sh PART [OUTDIR]; logs, traces (tar)
# and summary lines go to OUTDIR (default $OUT or /tmp).
#   trace: a solve on 2 processes of 7 CPU workers each, traced (the share of MPI messages hidden
#          behind tasks), against the same solve on one process of 14 workers;
#   procs: the same solve on the node's CPUs as 1, 2, 4 and 8 processes (StarPU's default workers:
#          each process's core slice less one);
#   gpus:  strong scaling on 32^3 x 64 (a beta 6 field generated first) over 1, 2, 4 and 8 GPUs (as
#          many as the machine has), as one process driving all GPUs and as one process per GPU: the
#          Dslash, mixed BiCGStab and the multigrid solve; then a traced 2-GPU solve. Knobs:
#          QF_GPUS_COUNTS (GPU counts, default "1 2 4 8"), QF_GPUS_MG=0 (no multigrid runs),
#          QF_GPUS_MG_OPTS (more multigrid options), QF_GPUS_TRACE=0 (no traced solve),
#          QF_GPUS_PEER_AB=1 (the one-process runs also with StarPU's GPU-to-GPU copies off,
#          STARPU_ENABLE_CUDA_GPU_GPU_DIRECT=0: the faces through host memory).
set -u
part=${1:?usage: run_device_mpi.sh trace|procs|gpus [OUTDIR]}
out=${2:-${OUT:-/tmp}}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=$top/.deploy/run.sh
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1
lscpu | grep -E "Model name|^CPU\(s\)" > "$out/cpu.txt"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi="mpirun --bind-to none -x LD_LIBRARY_PATH -x STARPU_HOME -x STARPU_SILENT"
step() { # name, seconds, command...
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" > "$out/$name.txt" 2>&1
  echo "== $name (exit $?, $((SECONDS - t0)) s): $*"
  grep -E "^(solved|communication|critical|StarPU workers|task graph|direct|ratio|multigrid|quarkflow: error|path|  level)|best of" "$out/$name.txt" | head -12
}
# .deploy/run.sh sets the library path; under mpirun each rank runs it
case $part in
trace)
  solve="solve --dim 16 16 16 32 --csw 1 --kappa 0.12 --source random"
  step one_proc 120 "$run" quarkflow --ncpu 14 --ncuda 0 $solve
  step one_proc_again 120 "$run" quarkflow --ncpu 14 --ncuda 0 $solve
  step two_procs 120 $mpi -np 2 -x STARPU_NCPU=7 -x STARPU_NCUDA=0 "$run" quarkflow $solve
  step two_procs_traced 180 $mpi -np 2 -x STARPU_NCPU=7 -x STARPU_NCUDA=0 "$run" quarkflow --trace "$out/trace_mpi2" $solve
  rm -f "$out"/trace_mpi2/prof_file_* "$out"/trace_mpi2/trace.rec "$out"/trace_mpi2/*.data "$out"/trace_mpi2/dag.dot
  (cd "$out" && tar czf trace_mpi2.tgz trace_mpi2 && rm -rf trace_mpi2)
  ;;
procs)
  solve="solve --dim 16 16 16 32 --csw 1 --kappa 0.12 --source random"
  step warm 120 "$run" quarkflow --ncpu 14 --ncuda 0 $solve
  for n in 1 2 4 8; do
    step "procs_$n" 150 $mpi -np "$n" -x STARPU_NCUDA=0 "$run" quarkflow $solve
  done
  ;;
gpus)
  # A 32^3 x 64 quenched field at beta 6 (one GPU), then on 1, 2, 4 and 8 GPUs (as many as the machine
  # has), as one process driving them all and as one process per GPU: the Dslash alone, mixed-precision
  # BiCGStab (twice: the second with the performance models of the first) and the multigrid solve;
  # last a BiCGStab solve on 2 GPUs, one process each, traced (trace summary, tasks.rec and paje.trace
  # in trace_gpus2.tgz for `quarkflow trace gantt` and ViTE where gnuplot is).
  ngpu=$(nvidia-smi -L | wc -l)
  g=/tmp/g3264.nersc
  cat > "$out/one_gpu_each.sh" <<'WRAP'
#!/bin/sh
# one GPU per process: the rank's GPU alone is visible to it
CUDA_VISIBLE_DEVICES=$OMPI_COMM_WORLD_LOCAL_RANK exec "$@"
WRAP
  chmod +x "$out/one_gpu_each.sh"
  step generate 180 "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 32 32 32 64 --beta 6 \
    --sweeps ${QF_GPUS_SWEEPS:-200} --out $g
  dslash="bench dslash --dim 32 32 32 64 --prec single"
  bicg="solve $g --csw 1.769 --kappa ${QF_GPUS_KAPPA:-0.1300} --source random --sloppy single"
  mg="solve $g --csw 1.769 --kappa ${QF_GPUS_MG_KAPPA:-0.1350} --source random --solver mg ${QF_GPUS_MG_OPTS:-}"
  mg_on=${QF_GPUS_MG:-1}
  for n in ${QF_GPUS_COUNTS:-1 2 4 8}; do
    [ "$n" -le "$ngpu" ] || continue
    one="$run quarkflow --ncpu 0 --ncuda $n"
    each="$mpi -np $n -x STARPU_NCPU=0 -x STARPU_NCUDA=1 $out/one_gpu_each.sh $run quarkflow"
    step "dslash_${n}gpu" 60 $one $dslash
    step "bicgstab_${n}gpu_first" 60 $one $bicg
    step "bicgstab_${n}gpu" 60 $one $bicg
    [ "$mg_on" = 0 ] || step "mg_${n}gpu" 120 $one $mg
    [ "$n" -gt 1 ] || continue
    if [ "${QF_GPUS_PEER_AB:-0}" = 1 ]; then
      step "dslash_${n}gpu_nopeer" 60 env STARPU_ENABLE_CUDA_GPU_GPU_DIRECT=0 $one $dslash
      step "bicgstab_${n}gpu_nopeer" 60 env STARPU_ENABLE_CUDA_GPU_GPU_DIRECT=0 $one $bicg
    fi
    step "dslash_${n}x1gpu" 60 $each $dslash
    step "bicgstab_${n}x1gpu_first" 90 $each $bicg
    step "bicgstab_${n}x1gpu" 90 $each $bicg
    [ "$mg_on" = 0 ] || step "mg_${n}x1gpu" 150 $each $mg
  done
  if [ "$ngpu" -ge 2 ] && [ "${QF_GPUS_TRACE:-1}" != 0 ]; then
    step bicgstab_2x1gpu_traced 150 $mpi -np 2 -x STARPU_NCPU=0 -x STARPU_NCUDA=1 "$out/one_gpu_each.sh" \
      "$run" quarkflow --trace "$out/trace_gpus2" $bicg
    "$run" quarkflow trace summary "$out/trace_gpus2" > "$out/trace_gpus2_summary.txt" 2>&1
    grep -E "^communication|^critical|idle" "$out/trace_gpus2_summary.txt" | head -8
    rm -f "$out"/trace_gpus2/prof_file_* "$out"/trace_gpus2/*.data "$out"/trace_gpus2/dag.dot
    (cd "$out" && tar czf trace_gpus2.tgz trace_gpus2 && rm -rf trace_gpus2)
  fi
  ;;
*) echo "run_device_mpi.sh: unknown part $part (trace, procs or gpus)" >&2; exit 2 ;;
esac
