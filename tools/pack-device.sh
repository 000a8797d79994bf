#!/usr/bin/env bash
# Packs a CUDA build of quarkflow for a GPU machine that has the CUDA 13 runtime and libraries but no
# package registry: the command, the test programs, libquarkflow, and the non-system libraries they
# need (StarPU, FxT, GLPK, SuiteSparse parts, libltdl, GMP, hwloc) go into .deploy/ (git-ignored),
# with StarPU's starpu_fxt_tool, the sample gauge files and a run script. Built single-process
# (QF_DEVICE_MPI=ON: with StarPU-MPI, for the GPU machine's OpenMPI), for sm_90 unless
# CMAKE_CUDA_ARCHITECTURES says otherwise.
#
#   tools/pack-device.sh            then, on the GPU machine:   .deploy/run.sh COMMAND [ARGS...]
#   e.g. .deploy/run.sh ctest-gpu   .deploy/run.sh quarkflow info   .deploy/run.sh test_fields
#   .deploy/run.sh memcheck-gpu     every test program's CUDA kernels under compute-sanitizer memcheck
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${QF_DEVICE_BUILD_DIR:-$top/build-device}
deploy=$top/.deploy
arch=${CMAKE_CUDA_ARCHITECTURES:-90}

command -v nvcc >/dev/null 2>&1 || export PATH=/usr/local/cuda/bin:$PATH
command -v nvcc >/dev/null 2>&1 || { echo "pack-device: nvcc not found: a CUDA build needs the CUDA toolkit" >&2; exit 1; }
bash "$top/tools/install-deps.sh" >&2
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DQF_ENABLE_MPI="${QF_DEVICE_MPI:-OFF}" -DCMAKE_CUDA_ARCHITECTURES="$arch" >&2
cmake --build "$build" -j"$(nproc)" >&2
grep -q '#define QF_HAVE_CUDA 1' "$build/include/quarkflow/qf_config.h" \
  || { echo "pack-device: the build has no CUDA codelets (is StarPU built with CUDA?)" >&2; exit 1; }

rm -rf "$deploy"
mkdir -p "$deploy/bin" "$deploy/lib" "$deploy/data"
cp "$build/bin/quarkflow" "$deploy/bin/"
find "$build/tests" -maxdepth 1 -type f -executable -name 'test_*' ! -name '*_sanitized' -exec cp {} "$deploy/bin/" \;
cp -P "$build"/libquarkflow.so* "$deploy/lib/"
# --trace runs it beside the program to turn FxT traces into paje.trace and tasks.rec
starpu_bin=${QF_DEPS_PREFIX:-/opt/quarkflow/starpu-1.3.10}/bin
[ -x "$starpu_bin/starpu_fxt_tool" ] && cp "$starpu_bin/starpu_fxt_tool" "$deploy/bin/"

# Every library the programs load that a bare CUDA machine lacks: skip the C library, the CUDA
# libraries (the GPU machine has its own, matching its driver) and MPI with its libevent (the machine's OpenMPI is used where the build has MPI).
skip='^(linux-vdso|libc\.|libm\.|libpthread|libdl\.|librt\.|ld-linux|libgcc_s|libstdc\+\+|libcu|libnv|libmpi|libopen-|libevent)'
for bin in "$deploy"/bin/* "$deploy"/lib/libquarkflow.so.*.*; do
  ldd "$bin" | awk '$3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  if ! grep -Eq "$skip" <<<"$name"; then cp -L "$path" "$deploy/lib/$name"; fi
done
strip --strip-unneeded "$deploy"/lib/*.so* "$deploy"/bin/* 2>/dev/null || true
cp "$top"/../shared/data/* "$deploy/data/" 2>/dev/null || true
cp "$top/tests/solve_invariance.sh" "$top/tests/explore_guard.sh" "$deploy/"

cat > "$deploy/run.sh" <<'EOF'
#!/usr/bin/env bash
# Runs a packed quarkflow program on the GPU machine: .deploy/run.sh PROGRAM [ARGS...]
# 'ctest-gpu' runs the GPU-labelled tests (CUDA workers only, then CUDA + CPU workers);
# 'memcheck-gpu' the test programs' CUDA kernels under compute-sanitizer's memcheck.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LD_LIBRARY_PATH="$here/lib:/usr/local/cuda/lib64:/usr/local/cuda/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export STARPU_HOME=${STARPU_HOME:-/tmp/quarkflow-starpu-home} STARPU_SILENT=${STARPU_SILENT:-1}
prog=$1
shift
# a test program on the CUDA worker alone (quick sizes), and beside CPU workers
cuda_only=(env STARPU_NCPU=0 STARPU_NCUDA=1 STARPU_SCHED=dmda QF_TEST_REQUIRE_CUDA=1 QF_TEST_QUICK=1)
cuda_cpu=(env STARPU_NCUDA=1 STARPU_SCHED=dmdas QF_TEST_REQUIRE_CUDA=1 QF_TEST_QUICK=1)
if [ "$prog" = ctest-gpu ]; then
  set -e
  echo "== test_fields, CUDA workers only (STARPU_NCPU=0 STARPU_NCUDA=1, dmda)"
  STARPU_NCPU=0 STARPU_NCUDA=1 STARPU_SCHED=dmda QF_TEST_REQUIRE_CUDA=1 "$here/bin/test_fields"
  echo "== test_fields, CUDA + CPU workers (STARPU_NCUDA=1, dmdas)"
  STARPU_NCUDA=1 STARPU_SCHED=dmdas QF_TEST_REQUIRE_CUDA=1 "$here/bin/test_fields"
  for t in "$here"/bin/test_*; do
    case $t in */test_fields|*/test_gauge_io*|*/test_geometry|*/test_fermion_io|*/test_dirac_reference|*/test_watchdog) continue ;; esac
    echo "== $(basename "$t"), CUDA workers only"
    "${cuda_only[@]}" "$t"
    echo "== $(basename "$t"), CUDA + CPU workers (dmdas)"
    "${cuda_cpu[@]}" "$t"
  done
  for solver in bicgstab "bicgstab --sloppy half" "gcr --sloppy single --inner-mr 2" "mg --mg-nvec 6 --mg-block 2 2 2 2"; do
    echo "== the same $solver solve on CPU workers, a CUDA worker, and both"
    sh "$here/solve_invariance.sh" "$here/bin/quarkflow" \
      "--dim 8 8 8 8 --csw 1 --kappa 0.12 --source random --tol 1e-11 --check-every 1 --solver $solver" \
      "--ncuda 0 --sched eager" "--ncpu 0 --ncuda 1" "--ncuda 1 --sched dmdas --blocks 2 1 1 2"
  done
  echo "== a fresh node's first solves with CPU + CUDA workers (32^4, 12^4): no Dirac or reduction task timed on a CPU core"
  sh "$here/explore_guard.sh" "$here/bin/quarkflow"
  sh "$here/explore_guard.sh" "$here/bin/quarkflow" 12
  echo "== bench tasks on the CUDA and CPU workers (each measurement checks that every task ran, in its turn, where asked)"
  "$here/bin/quarkflow" --ncpu 2 --ncuda 1 bench tasks --tasks 200 --wait-us 0,20 --rounds 1
  echo "== bench dslash on the GPU alone, half with two-row links (the direct kernels, back to back and each waited, checked against the graph)"
  "$here/bin/quarkflow" --ncpu 0 --ncuda 1 bench dslash --dim 8 8 8 8 --prec half --recon 12 --iters 20
  exit 0
fi
if [ "$prog" = memcheck-gpu ]; then
  # compute-sanitizer's memcheck on every test program's CUDA kernels (the GPU's counterpart of the
  # CPU kernels' fenced test): CUDA workers only, the quick sizes; programs that never call CUDA
  # (CPU kernels and references) are skipped. Exit status 1 if any reports an error or fails.
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  [ -x "$cs" ] || { echo "memcheck-gpu: compute-sanitizer not found (CUDA toolkit's bin)" >&2; exit 2; }
  bad=0
  for t in "$here"/bin/test_*; do
    log=$("${cuda_only[@]}" "$cs" --tool memcheck --leak-check no --error-exitcode 3 "$t" 2>&1)
    rc=$?
    if grep -q 'terminated before first instrumented API call' <<<"$log"; then
      echo "skip $(basename "$t"): no CUDA call"
    elif [ $rc -eq 0 ]; then
      echo "ok   $(basename "$t"): $(grep -E '[0-9]+ passed' <<<"$log" | tail -1), $(grep 'ERROR SUMMARY' <<<"$log" | sed 's/=* *//')"
    else
      echo "FAIL $(basename "$t") (exit $rc):"; grep -E 'Invalid|ERROR SUMMARY|FAIL|at 0x|by thread' <<<"$log" | head -12
      bad=1
    fi
  done
  exit $bad
fi
[ -x "$here/bin/$prog" ] && prog="$here/bin/$prog"
exec "$prog" "$@"
EOF
chmod +x "$deploy/run.sh"
du -sh "$deploy" >&2
echo "packed into $deploy" >&2
