#!/usr/bin/env bash
# Everything a fresh Debian bookworm machine needs before quarkflow runs: the dependencies
# (tools/install-deps.sh: Debian packages and StarPU 1.3.10 with FxT, MPI and CUDA when nvcc exists),
# then a CMake configure and build into build/ (QF_BUILD_DIR overrides). Quick when nothing changed.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${QF_BUILD_DIR:-$top/build}

bash "$top/tools/install-deps.sh" >&2
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${QF_CMAKE_ARGS:-} >&2
fi
cmake --build "$build" -j"$(nproc)" >&2
