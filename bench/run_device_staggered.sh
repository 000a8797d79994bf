#!/usr/bin/env bash
# The GPU-machine runs behind bench/RESULTS.md's staggered figures: run here `tools/pack-device.sh`, then
# on the GPU machine (with .deploy carried):
#   bench/run_device_staggered.sh PARTS [OUTDIR]
# PARTS, comma-separated: tests (test_staggered with CUDA workers alone and with CPU workers, MILC's
# sample included), dslash (bench dslash --action asqtad in single and double on 32^4, 24^4 and 16^4),
# masses (bench staggered on 32^4: the link smearing, and 12 masses by multi-shift CG against 12 CG
# solves, in double/single and double), cpu (the smearing on 24^4 on CPU workers alone), gpus (on a
# machine of 2 GPUs: the smearing of a 32^3 x 64 field by both algorithms on one GPU, on two GPUs of one
# process, and on two processes of one GPU each, twice, alternated; the first build of each run).
# Logs go to OUTDIR/staggered-logs.tgz (OUTDIR: default $OUT or /tmp); summary lines are printed.
set -u
parts=${1:-tests,dslash,masses}
dest=${2:-${OUT:-/tmp}}
out=$dest/staggered-logs
mkdir -p "$out"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=$top/.deploy/run.sh
export STARPU_HOME=${STARPU_HOME:-/tmp/quarkflow-staggered-home}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader > "$out/gpu.txt" 2>&1
has() { case ",$parts," in *",$1,"*) return 0 ;; esac; return 1; }
bench() { # name, args...
  local name=$1; shift
  timeout 300 "$run" quarkflow "$@" > "$out/$name.txt" 2>&1
  echo "== $name: quarkflow $* (exit $?)"
  grep -E "^(links|multi-mass|one by one|  mass|task graph|direct|ceiling|ratio|check|quarkflow: error)" "$out/$name.txt"
}
if has tests; then
  for env in "STARPU_NCPU=0 STARPU_NCUDA=1 STARPU_SCHED=dmda" "STARPU_NCUDA=1 STARPU_SCHED=dmdas"; do
    env $env QF_TEST_REQUIRE_CUDA=1 timeout 300 "$run" test_staggered "$top/.deploy/data" > "$out/test_staggered.txt" 2>&1
    echo "== test_staggered ($env): exit $?"
    grep -E "^(FAIL|MILC|[0-9]+ passed)" "$out/test_staggered.txt"
  done
fi
if has dslash; then
  for dim in 32 24 16; do
    for prec in single double; do
      [ "$dim" != 32 ] && [ "$prec" = double ] && continue
      bench "dslash${dim}_$prec" --ncpu 0 --ncuda 1 bench dslash --action asqtad --dim $dim $dim $dim $dim --prec $prec
    done
  done
fi
if has masses; then
  for s in single double; do
    bench "masses32_$s" --ncpu 0 --ncuda 1 bench staggered --dim 32 32 32 32 --masses 12 --sloppy $s
  done
fi
if has cpu; then
  bench "links24_cpu" --ncuda 0 bench staggered --dim 24 24 24 24 --masses 1 --repeat 1 --tol 1e-6
fi
if has gpus; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  field=$out/weak32x64.ildg
  timeout 300 "$run" quarkflow --ncpu 1 --ncuda 1 gauge generate --dim 32 32 32 64 --start weak --sweeps 1 --out "$field" \
    --to ildg > "$out/field.txt" 2>&1
  echo "== field: exit $?"
  for round in 1 2; do
    for s in standard extended; do
      for where in ${QF_STAGGERED_WHERE:-one two mpi}; do
        case $where in
        one) cmd=("$run" quarkflow --ncpu 0 --ncuda 1) ;;
        two) cmd=("$run" quarkflow --ncpu 0 --ncuda 2) ;;
        mpi) cmd=(mpirun --bind-to none -np 2 -x LD_LIBRARY_PATH -x STARPU_HOME -x STARPU_SILENT -x STARPU_NCPU=0 \
                  -x STARPU_NCUDA=1 "$run" quarkflow) ;;
        esac
        blocks=()
        [ $where = two ] && blocks=(--blocks 1 1 1 2)
        timeout 300 "${cmd[@]}" links "$field" --u0 0.9 --smearing $s "${blocks[@]}" > "$out/links_${where}_${s}_$round.txt" 2>&1
        echo "== links on $where GPUs, $s, round $round (exit $?): $(grep -E '^links|error' "$out/links_${where}_${s}_$round.txt")"
      done
    done
  done
  rm -f "$field"
fi
tar czf "$dest/staggered-logs.tgz" -C "$dest" staggered-logs
