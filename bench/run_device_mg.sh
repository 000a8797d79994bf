#!/usr/bin/env bash
# The GPU-node runs behind bench/RESULTS.md's "Multigrid" section. Run here `tools/pack-device.sh`,
# then on the GPU machine (with .deploy carried): bench/run_device_mg.sh PART [OUTDIR]; logs go to
# OUTDIR (default $OUT or /tmp), the tables are printed.
#   check: the multigrid and Schwarz tests on CUDA workers alone (dmda) and on CUDA + CPU workers (dmdas);
#   ddalpha: bench mg on the DDalphaAMG 8^4 field, GPU alone, m0 from -0.20 to -0.33;
#   h100: a 32^4 quenched field at beta 6.0 generated here (200 sweeps), bench mg over kappa up to
#         near the critical value on the GPU alone (QF_MG_KAPPAS, QF_MG_ARGS);
#   h100cpu: the same field at QF_MG_KAPPA with the coarse level on the CPU cores (--mg-location
#         gpu,cpu) and with every worker under dmdas (not run yet);
#   half: the same field, the multigrid solve at QF_MG_KAPPA (default 0.135) with the finest level's
#         smoother in the hierarchy's precision and in half (--mg-smoother-prec), two rounds;
#   trace: a 16^4 field at beta 6.0, one multigrid solve at QF_MG_KAPPA on every worker (dmdas) with
#         the coarse level forced onto the CPU cores (--mg-location gpu,cpu), FxT-traced: tasks.rec and
#         paje.trace.gz (ViTE) to OUTDIR/mgtrace, for docs/'s picture (quarkflow trace gantt);
#   team: the 16^4 field, the multigrid solve on the GPU alone, with the coarse level on the CPU cores
#         (a team of 14 threads, cpu_team.h; QF_CPU_TEAM=1, one core; and 14 threads beside a single
#         CPU worker, so that the other cores are free of spinning workers), and placed by the
#         scheduler (auto), two rounds;
#   params: one solve at QF_MG_KAPPA per line of QF_MG_VARIANTS (name, then options);
#   levels3: three levels on 16^4 and 32^4 fields (beta 6.0) at QF_MG_KAPPA: the GPU alone, the
#         coarsest level (2^4 or 4^4 sites) forced onto the CPU team (--mg-location gpu,gpu,cpu) and
#         placed by the scheduler (auto), against two levels on the GPU alone; QF_MG_ROUNDS rounds (2);
#   auto: three levels at QF_MG_KAPPA on the lattices QF_MG_SIZES (16 32 48; beta 6.0 fields generated
#         here, 48^4 after QF_MG_SWEEPS48 sweeps, default 100): the GPU alone, the coarsest level and
#         both coarse levels forced onto the CPU team (the latter at 16^4 only: at 32^4 its setup alone
#         outlasts 120 s), and auto (every worker,
#         the setup's timed placement); QF_MG_ROUNDS rounds (2) alternated, 48^4 once;
#   cycle: three levels at QF_MG_KAPPA on 16^4 and 32^4 fields (beta 6.0): the middle level's solves as
#         task graphs with the coarsest in one task (--mg-coarse-one-task 2) against the whole coarse
#         hierarchy in one task a level-1 solve (3), on the GPU alone and on every worker (auto),
#         QF_MG_ROUNDS rounds (2) alternated; then bench mg on the 32^4 field (mixed BiCGStab against
#         three levels with 3) at QF_MG_KAPPAS (0.1350,0.1352);
#   final: the GPU test, bench mg at kappa 0.135 with 24 and 32 vectors, three levels near critical;
#   sap: the 32^4 field, bench mg at QF_MG_KAPPA (default 0.13515) on the GPU alone with the finest
#         level smoothed by even-odd MR (the default; "sap0") and by 2 and 4 Schwarz cycles, two rounds
#         alternated;
#   halflinks: the 32^4 field, bench mg at QF_MG_KAPPA (default 0.1351) with three levels, the coarse
#         links in the hierarchy's precision and in half (--mg-link-prec), QF_MG_ROUNDS rounds (2)
#         alternated: mixed BiCGStab, the multigrid solve and each coarse operator's application.
# The field is generated again in each part: the device machine keeps nothing between calls.
set -u
part=${1:?usage: run_device_mg.sh check|ddalpha|h100|h100cpu|half|sap|trace|team|params|levels3|auto|cycle|final|halflinks [OUTDIR]}
out=${2:-${OUT:-/tmp}}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=$top/.deploy/run.sh
data=$top/.deploy/data
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader > "$out/gpu.txt" 2>&1
step() { # name, seconds, environment and program args...
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  timeout "$limit" env "$@" > "$out/$name.txt" 2>&1
  local rc=$?
  echo "== $name (exit $rc, $((SECONDS - t0)) s): $*"
  grep -E "passed|failed|FAIL|error|^kappa|^[0-9.]+ +-?[0-9.]+ \||^ +level|^level|^solved|^multigrid +setup|^MG " "$out/$name.txt" | head -24
}
gpu="STARPU_NCPU=0 STARPU_NCUDA=1 STARPU_SCHED=dmda"
case $part in
check)
  step test_mg_gpu 200 $gpu QF_TEST_REQUIRE_CUDA=1 "$run" test_mg
  step test_mg_gpu_cpu 200 STARPU_NCUDA=1 STARPU_SCHED=dmdas QF_TEST_REQUIRE_CUDA=1 "$run" test_mg
  step test_sap_gpu 200 $gpu QF_TEST_REQUIRE_CUDA=1 "$run" test_sap
  step test_sap_gpu_cpu 200 STARPU_NCUDA=1 STARPU_SCHED=dmdas QF_TEST_REQUIRE_CUDA=1 "$run" test_sap
  ;;
ddalpha)
  step ddalpha_gpu 300 "$run" quarkflow --ncpu 0 --ncuda 1 bench mg "$data/8x8x8x8b6.0000id3n1" --csw 1.769 \
    --kappa 0.131579,0.134,0.135,0.136240 --plot "$out/ddalpha_gpu.svg"
  ;;
h100)
  t0=$SECONDS
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 32 32 32 32 --beta 6 --sweeps 200 --out /tmp/g32.nersc \
    > "$out/generate.txt" 2>&1
  echo "== generate (exit $?, $((SECONDS - t0)) s)"; grep -E "plaquette|wrote" "$out/generate.txt" | tail -3
  step h100_scan 420 "$run" quarkflow --ncpu 0 --ncuda 1 bench mg /tmp/g32.nersc --csw 1.769 \
    --kappa ${QF_MG_KAPPAS:-0.1300,0.1340,0.1350,0.1355} ${QF_MG_ARGS:-}
  ;;
half)
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 32 32 32 32 --beta 6 --sweeps 200 --out /tmp/g32.nersc \
    > "$out/generate.txt" 2>&1
  for round in 1 2; do
    for sp in hierarchy half; do
      step h100_smoother_${sp}_$round 200 "$run" quarkflow --ncpu 0 --ncuda 1 solve /tmp/g32.nersc --csw 1.769 \
        --kappa ${QF_MG_KAPPA:-0.135} --solver mg --source random --mg-smoother-prec $sp
    done
  done
  ;;
sap)
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 32 32 32 32 --beta 6 --sweeps 200 --out /tmp/g32.nersc \
    > "$out/generate.txt" 2>&1
  for round in 1 2; do
    for cycles in 0 2 4; do
      smoother=""
      [ "$cycles" = 0 ] || smoother="--mg-smoother sap --mg-sap-cycles $cycles"
      step h100_sap${cycles}_$round 200 "$run" quarkflow --ncpu 0 --ncuda 1 bench mg /tmp/g32.nersc --csw 1.769 \
        --kappa ${QF_MG_KAPPA:-0.13515} $smoother
    done
  done
  ;;
halflinks)
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 32 32 32 32 --beta 6 --sweeps 200 --out /tmp/g32.nersc \
    > "$out/generate.txt" 2>&1
  for round in $(seq 1 "${QF_MG_ROUNDS:-2}"); do
    for lp in hierarchy half; do
      step h100_links_${lp}_$round 300 "$run" quarkflow --ncpu 0 --ncuda 1 bench mg /tmp/g32.nersc --csw 1.769 \
        --kappa ${QF_MG_KAPPA:-0.1351} --mg-levels 3 --mg-link-prec $lp
    done
  done
  ;;
trace)
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 16 16 16 16 --beta 6 --sweeps 100 --out /tmp/g16.nersc \
    > "$out/generate16.txt" 2>&1
  step mg_trace_cpu_coarse 200 "$run" quarkflow --ncuda 1 --sched dmdas --trace /tmp/mgtrace solve /tmp/g16.nersc \
    --csw 1.769 --kappa ${QF_MG_KAPPA:-0.135} --solver mg --source random --mg-location gpu,cpu
  mkdir -p "$out/mgtrace" && cp /tmp/mgtrace/tasks.rec "$out/mgtrace/" 2>/dev/null
  gzip -c /tmp/mgtrace/paje.trace > "$out/mgtrace/paje.trace.gz" 2>/dev/null
  ls -la "$out/mgtrace"
  ;;
team)
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 16 16 16 16 --beta 6 --sweeps 100 --out /tmp/g16.nersc \
    > "$out/generate16.txt" 2>&1
  args="solve /tmp/g16.nersc --csw 1.769 --kappa ${QF_MG_KAPPA:-0.135} --solver mg --source random"
  for round in 1 2; do
    step team_gpu_alone_$round 120 "$run" quarkflow --ncpu 0 --ncuda 1 $args
    step team_coarse_cpu_$round 120 "$run" quarkflow --ncuda 1 --sched dmdas $args --mg-location gpu,cpu
    step team_coarse_cpu_one_$round 200 QF_CPU_TEAM=1 "$run" quarkflow --ncuda 1 --sched dmdas $args --mg-location gpu,cpu
    step team_coarse_cpu_free_$round 120 QF_CPU_TEAM=14 "$run" quarkflow --ncpu 1 --ncuda 1 --sched dmdas $args \
      --mg-location gpu,cpu
    step team_auto_$round 120 "$run" quarkflow --ncuda 1 --sched dmdas $args
  done
  ;;
levels3)
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 16 16 16 16 --beta 6 --sweeps 100 --out /tmp/g16.nersc \
    > "$out/generate16.txt" 2>&1
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 32 32 32 32 --beta 6 --sweeps 200 --out /tmp/g32.nersc \
    > "$out/generate32.txt" 2>&1
  for round in $(seq 1 "${QF_MG_ROUNDS:-2}"); do
    for L in 16 32; do
      args="solve /tmp/g$L.nersc --csw 1.769 --kappa ${QF_MG_KAPPA:-0.135} --solver mg --source random"
      step l2_gpu_alone_${L}_$round 120 "$run" quarkflow --ncpu 0 --ncuda 1 $args
      step l3_gpu_alone_${L}_$round 120 "$run" quarkflow --ncpu 0 --ncuda 1 $args --mg-levels 3
      step l3_coarsest_cpu_${L}_$round 120 "$run" quarkflow --ncuda 1 --sched dmdas $args --mg-levels 3 \
        --mg-location gpu,gpu,cpu
      step l3_auto_${L}_$round 120 "$run" quarkflow --ncuda 1 --sched dmdas $args --mg-levels 3
    done
  done
  ;;
auto)
  sizes=${QF_MG_SIZES:-16 32 48}
  for L in $sizes; do
    sweeps=$([ "$L" -ge 48 ] && echo "${QF_MG_SWEEPS48:-100}" || ([ "$L" -ge 32 ] && echo 200 || echo 100))
    t0=$SECONDS
    "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim $L $L $L $L --beta 6 --sweeps "$sweeps" \
      --out /tmp/g$L.nersc > "$out/generate$L.txt" 2>&1
    echo "== generate $L^4, $sweeps sweeps (exit $?, $((SECONDS - t0)) s)"; grep -E "plaquette" "$out/generate$L.txt" | tail -1
  done
  for round in $(seq 1 "${QF_MG_ROUNDS:-2}"); do
    for L in $sizes; do
      [ "$L" -ge 48 ] && [ "$round" -gt 1 ] && continue
      limit=$([ "$L" -ge 48 ] && echo 300 || echo 120)
      args="solve /tmp/g$L.nersc --csw 1.769 --kappa ${QF_MG_KAPPA:-0.135} --solver mg --source random --mg-levels 3"
      step auto_gpu_alone_${L}_$round $limit "$run" quarkflow --ncpu 0 --ncuda 1 $args
      step auto_coarsest_cpu_${L}_$round $limit "$run" quarkflow --ncuda 1 --sched dmdas $args --mg-location gpu,gpu,cpu
      [ "$L" -lt 32 ] && step auto_coarse_cpu_${L}_$round $limit "$run" quarkflow --ncuda 1 --sched dmdas $args \
        --mg-location gpu,cpu
      step auto_auto_${L}_$round $limit "$run" quarkflow --ncuda 1 --sched dmdas $args
      grep -E "multigrid placement" "$out/auto_auto_${L}_$round.txt"
    done
  done
  ;;
cycle)
  for L in 16 32; do
    "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim $L $L $L $L --beta 6 --sweeps $([ "$L" -ge 32 ] && echo 200 || echo 100) \
      --out /tmp/g$L.nersc > "$out/generate$L.txt" 2>&1
  done
  for round in $(seq 1 "${QF_MG_ROUNDS:-2}"); do
    for L in 16 32; do
      args="solve /tmp/g$L.nersc --csw 1.769 --kappa ${QF_MG_KAPPA:-0.135} --solver mg --source random --mg-levels 3"
      for ot in 2 3; do
        step cycle_gpu_alone_${L}_ot${ot}_$round 120 "$run" quarkflow --ncpu 0 --ncuda 1 $args --mg-coarse-one-task $ot
        step cycle_auto_${L}_ot${ot}_$round 120 "$run" quarkflow --ncuda 1 --sched dmdas $args --mg-coarse-one-task $ot
        grep -E "multigrid placement" "$out/cycle_auto_${L}_ot${ot}_$round.txt"
      done
    done
  done
  step cycle_bench_32 400 "$run" quarkflow --ncpu 0 --ncuda 1 bench mg /tmp/g32.nersc --csw 1.769 \
    --kappa ${QF_MG_KAPPAS:-0.1350,0.1352} --mg-levels 3 --mg-coarse-one-task 3
  ;;
h100cpu)
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 32 32 32 32 --beta 6 --sweeps 200 --out /tmp/g32.nersc \
    > "$out/generate.txt" 2>&1
  step h100_coarse_cpu 240 "$run" quarkflow --ncuda 1 solve /tmp/g32.nersc --csw 1.769 --kappa ${QF_MG_KAPPA:-0.1355} \
    --solver mg --source random --mg-location gpu,cpu
  step h100_all_workers 240 STARPU_SCHED=dmdas "$run" quarkflow --ncuda 1 solve /tmp/g32.nersc --csw 1.769 \
    --kappa ${QF_MG_KAPPA:-0.1355} --solver mg --source random
  ;;
esac
# params: the 32^4 field at one kappa (QF_MG_KAPPA, default 0.135), GPU alone, one solve per variant of
# the multigrid parameters, each with its per-level statistics.
if [ "$part" = params ]; then
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 32 32 32 32 --beta 6 --sweeps 200 --out /tmp/g32.nersc \
    > "$out/generate.txt" 2>&1
  k=${QF_MG_KAPPA:-0.135}
  while read -r name args; do
    [ -n "$name" ] || continue
    step "params_$name" 120 "$run" quarkflow --ncpu 0 --ncuda 1 solve /tmp/g32.nersc --csw 1.769 --kappa "$k" \
      --solver mg --source random --max-iter 400 --check-every 5 $args
  done <<< "${QF_MG_VARIANTS:-default
setup6 --mg-setup-iter 6
krylov24 --mg-setup-krylov 24
coarse300 --mg-coarse-max-iter 300
smooth8 --mg-smoother-steps 8
levels3 --mg-levels 3}"
fi
# final: the GPU test, then on the 32^4 field bench mg at kappa 0.135 with 24 and 32 vectors (each
# coarse operator's bandwidth against the device copy), and three levels near the critical kappa.
if [ "$part" = final ]; then
  step test_mg_gpu 200 $gpu QF_TEST_REQUIRE_CUDA=1 "$run" test_mg
  "$run" quarkflow --ncpu 0 --ncuda 1 gauge generate --dim 32 32 32 32 --beta 6 --sweeps 200 --out /tmp/g32.nersc \
    > "$out/generate.txt" 2>&1
  for nvec in 24 32; do
    step "bench_n$nvec" 200 "$run" quarkflow --ncpu 0 --ncuda 1 bench mg /tmp/g32.nersc --csw 1.769 --kappa 0.135 \
      --mg-nvec $nvec
    grep -E "^ceiling|^level 1 " "$out/bench_n$nvec.txt"
  done
  for k in ${QF_MG_LEVELS3_KAPPAS:-0.135 0.1353}; do
    step "levels3_$k" 150 "$run" quarkflow --ncpu 0 --ncuda 1 solve /tmp/g32.nersc --csw 1.769 --kappa "$k" --solver mg \
      --mg-levels 3 --source random --max-iter 400 --check-every 5
  done
fi
