#!/usr/bin/env bash
# On the GPU machine (after QF_DEVICE_MPI=ON tools/pack-device.sh, carrying .deploy): the GPU tests,
# then gauge and fermion files written and read in parts by 1 and 2 processes sharing the GPU, whose
# checksums and numbers must agree. Writes $OUT/summary.txt and $OUT/ctest-gpu.log.
#   bash bench/run_device_io.sh
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out"
{
echo "== ctest-gpu"
.deploy/run.sh ctest-gpu > "$out/ctest-gpu.log" 2>&1; echo "ctest-gpu exit $?"
grep -E "passed|failed|FAIL" "$out/ctest-gpu.log" | tail -40
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
here=$(pwd)/.deploy
export LD_LIBRARY_PATH="$here/lib:/usr/local/cuda/lib64" STARPU_HOME=/tmp/sh STARPU_SILENT=1 STARPU_FXT_TRACE=0
q=$here/bin/quarkflow
d=/tmp/io; mkdir -p $d
for np in 1 2; do
  echo "== $np process(es): heatbath 16^4 on the GPU, written as NERSC; read back by a solve that writes its solution"
  mpirun --bind-to none -np $np -x LD_LIBRARY_PATH -x STARPU_HOME -x STARPU_SILENT -x STARPU_FXT_TRACE \
    $q gauge generate --dim 16 16 16 16 --sweeps 3 --or 1 --out $d/g$np.nersc 2>&1 | tail -4
  mpirun --bind-to none -np $np -x LD_LIBRARY_PATH -x STARPU_HOME -x STARPU_SILENT -x STARPU_FXT_TRACE \
    $q solve $d/g$np.nersc --csw 1 --kappa 0.12 --source random --tol 1e-10 --out $d/x$np.sci 2>&1 | grep -E "gauge|solved|\|x\||wrote|error"
  grep -a '^CHECKSUM' $d/g$np.nersc
  $q gauge load $d/g$np.nersc 2>&1 | grep -E "checksum|plaquette  "
  $q apply $d/g$np.nersc --source $d/x$np.sci --op M --dim 16 16 16 16 --csw 1 --kappa 0.12 2>&1 | grep -E "source|error"
done
echo "== propagator on 2 processes from the file, each reading its part"
mpirun --bind-to none -np 2 -x LD_LIBRARY_PATH -x STARPU_HOME -x STARPU_SILENT -x STARPU_FXT_TRACE \
  $q propagator $d/g2.nersc --csw 1 --kappa 0.12 --tol 1e-9 2>&1 | grep -E "gauge|propagator| 0  | 1  |error" | head
} 2>&1 | tee "$out/summary.txt"
