#!/bin/sh
# Configures and builds the sanitized Debug build (-O0, AddressSanitizer and UBSan, CPU only) of the
# targets given, in its own tree: what a developer debugging quarkflow builds, with the CPU kernels
# compiled out of line as -O0 leaves them, which a Release build never exercises.
#   sanitized_build.sh SOURCE_DIR BUILD_DIR TARGET...
set -e
src=$1
bin=$2
shift 2
if [ ! -f "$bin/CMakeCache.txt" ]; then
  cmake -S "$src" -B "$bin" -DCMAKE_BUILD_TYPE=Debug -DQF_SANITIZE=ON -DQF_ENABLE_CUDA=OFF -DQF_ENABLE_MPI=OFF \
    > "$bin.configure.log" 2>&1 || { cat "$bin.configure.log"; exit 1; }
fi
cmake --build "$bin" -j2 --target "$@"
