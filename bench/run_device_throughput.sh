#!/usr/bin/env bash
# The GPU-machine runs behind bench/RESULTS.md's operator-throughput figures (compressed links, half
# precision): run here `tools/pack-device.sh`, then on the GPU machine (with .deploy carried):
#   bench/run_device_throughput.sh PARTS [OUTDIR]
# PARTS, comma-separated: tests (the GPU runs of the tests of compressed links and of the operator),
# recon (bench dslash for every reconstruction, precision and size), solver (mixed-precision solves
# with compressed sloppy links), fuse (bench dslash and bench solver with one task a hop on the
# one-block lattice, QF_STENCIL_FUSE=auto, against three, never), half (bench dslash in half with whole
# and two-row links against single, and mixed double/half solves against double/single, alternated),
# tasks (bench tasks: the runtime's cost a task on the GPU alone and on the whole node, beside bench
# dslash at 16^4, whose Mhat kernels last about as long as the 35 us probe on an H200), targets (each
# of issue 21's performance figures once more, two or three rounds alternated: 32^4 single with whole
# and two-row links and half with two-row links; the task graph at 16^4, 24^4 and 32^4 single, one
# task an application and 18 applications a chain; double/single against double/half BiCGStab and CGNR
# at 32^4).
# Logs go to OUTDIR/throughput-logs.tgz (OUTDIR: default $OUT or /tmp);
# summary lines are printed.
set -u
parts=${1:-tests,recon,solver}
dest=${2:-${OUT:-/tmp}}
out=$dest/throughput-logs
mkdir -p "$out"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=$top/.deploy/run.sh
export STARPU_HOME=${STARPU_HOME:-/tmp/quarkflow-throughput-home}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
has() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }
bench() { # name, args... (QF_STENCIL_FUSE from the caller's environment)
  local name=$1; shift
  timeout 300 "$run" quarkflow "$@" > "$out/$name.txt" 2>&1
  echo "== $name: quarkflow $*"
  grep -E "^(links|task graph|direct|ceiling|ratio|check|BiCGStab|CGNR|solver|bench tasks) |^\||workers \(" "$out/$name.txt"
}
if has tests; then
  for t in test_half test_recon test_dirac test_sap test_solver test_mg test_linop; do
    for env in "STARPU_NCPU=0 STARPU_NCUDA=1 STARPU_SCHED=dmda" "STARPU_NCUDA=1 STARPU_SCHED=dmdas"; do
      env $env QF_TEST_REQUIRE_CUDA=1 QF_TEST_QUICK=1 timeout 300 "$run" "$t" > "$out/$t.txt" 2>&1
      echo "== $t ($env): exit $?, $(tail -1 "$out/$t.txt")"
    done
  done
fi
if has recon; then
  dims=${QF_RECON_DIMS:-32 24 16}
  for dim in $dims; do
    for prec in single double; do
      [ "$dim" != 32 ] && [ "$prec" = double ] && continue
      for r in 18 12 8; do
        bench "dslash${dim}_${prec}_r$r" --ncpu 0 --ncuda 1 bench dslash --dim $dim $dim $dim $dim --prec $prec --recon $r
      done
    done
  done
fi
if has solver; then # alternated, three rounds: solves vary from run to run
  for round in 1 2 3; do
    for r in 18 12 8; do
      bench "solver32_r${r}_$round" --ncpu 0 --ncuda 1 bench solver --dim 32 32 32 32 --solver bicgstab \
        --sloppy single --recon 18 --recon-sloppy $r
    done
  done
fi
if has fuse; then
  for dim in 16 24 32; do
    for f in never auto; do
      QF_STENCIL_FUSE=$f bench "fuse${dim}_$f" --ncpu 0 --ncuda 1 bench dslash --dim $dim $dim $dim $dim --prec single
    done
  done
  for f in never auto; do
    for r in 18 12; do
      QF_STENCIL_FUSE=$f bench "fuse_solver32_${f}_r$r" --ncpu 0 --ncuda 1 bench solver --dim 32 32 32 32 \
        --solver bicgstab --sloppy single --recon-sloppy $r
    done
  done
fi
if has half; then
  dims=${QF_RECON_DIMS:-32 24 16}
  for dim in $dims; do
    for pr in single_18 single_12 half_18 half_12; do
      bench "dslash${dim}_$pr" --ncpu 0 --ncuda 1 bench dslash --dim $dim $dim $dim $dim --prec ${pr%_*} --recon ${pr#*_}
    done
  done
  for round in 1 2 3; do
    for s in single half; do
      bench "solver32_${s}_$round" --ncpu 0 --ncuda 1 bench solver --dim 32 32 32 32 --solver bicgstab,cgnr \
        --sloppy $s --recon-sloppy 12
    done
  done
fi
if has tasks; then
  bench tasks_gpu --ncpu 0 --ncuda 1 bench tasks --wait-us 0,10,20,35,70,150,300
  bench tasks_gpu_1buffer --ncpu 0 --ncuda 1 bench tasks --wait-us 0,35 --buffers 1
  bench tasks_node bench tasks --wait-us 0,35,100
  bench dslash16_tasks --ncpu 0 --ncuda 1 bench dslash --dim 16 16 16 16 --prec single
fi
if has targets; then
  for round in 1 2; do
    for pr in single_18 single_12 half_12; do
      bench "target_dslash32_${pr}_$round" --ncpu 0 --ncuda 1 bench dslash --dim 32 32 32 32 \
        --prec ${pr%_*} --recon ${pr#*_}
    done
    for dim in 16 24 32; do
      bench "target_latency${dim}_$round" --ncpu 0 --ncuda 1 bench dslash --dim $dim $dim $dim $dim \
        --prec single --chain 18
    done
  done
  for round in 1 2 3; do
    bench "target_solver32_$round" --ncpu 0 --ncuda 1 bench solver --dim 32 32 32 32 --solver bicgstab,cgnr \
      --sloppy single,half --recon-sloppy 12
  done
fi
tar czf "$dest/throughput-logs.tgz" -C "$dest" throughput-logs && rm -rf "$out"
