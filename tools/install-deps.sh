#!/usr/bin/env bash
# Installs what quarkflow needs on a Debian bookworm machine: the Debian packages of the build, and
# StarPU 1.3.10 built from Debian's source package with FxT tracing, MPI and (when nvcc exists) CUDA.
# Debian's own libstarpu-dev is CPU-only and has no FxT, hence the source build. It is configured with
# blocking drivers: an idle worker sleeps instead of polling its core, so that the threads of a CPU
# team (codelets/cpu_team.h) get the cores of the workers that wait for their result (the coarse
# multigrid solve on the H100 node 2.6x faster, the 2-core CPU solve 8-15%; no cost measured on the
# GPU's task latency: bench/RESULTS.md, "Blocking drivers").
#
#   tools/install-deps.sh [--prefix DIR] [--no-cuda] [--cuda-peer] [--jobs N]
#
# --cuda-peer builds StarPU with CUDA peer copies: one process driving several GPUs then sends a face
# from GPU to GPU directly (NVLink) instead of through host memory, 5-9% faster on 2-4 H100s, but one
# GPU's solve is about 12% slower (bench/RESULTS.md, "Four H100s, and faces copied GPU to GPU").
# Without it, the default, faces between GPUs of one process travel through host memory.
# QF_CUDA_PEER=1 in the environment does the same (QF_CUDA_PEER=1 tools/pack-device.sh).
#
# Environment: QF_DEPS_PREFIX (default /opt/quarkflow/starpu-1.3.10), QF_DEPS_BUILD (scratch folder),
# CUDA_HOME (default /usr/local/cuda). A second run finds the stamp file in the prefix and returns at
# once. Prints the line to export PKG_CONFIG_PATH at the end.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix=${QF_DEPS_PREFIX:-/opt/quarkflow/starpu-1.3.10}
build=${QF_DEPS_BUILD:-/tmp/quarkflow-deps-build}
cuda_home=${CUDA_HOME:-/usr/local/cuda}
jobs=$(nproc)
want_cuda=auto
cuda_peer=no
[ "${QF_CUDA_PEER:-0}" != 1 ] || cuda_peer=yes

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --no-cuda) want_cuda=no; shift ;;
    --cuda-peer) cuda_peer=yes; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf '[install-deps] %s\n' "$*"; }
die() { printf '[install-deps] error: %s\n' "$*" >&2; exit 1; }

nvcc=""
if [ "$want_cuda" != no ]; then
  if command -v nvcc >/dev/null 2>&1; then nvcc=$(command -v nvcc)
  elif [ -x "$cuda_home/bin/nvcc" ]; then nvcc=$cuda_home/bin/nvcc; fi
fi
flavour=$([ -n "$nvcc" ] && echo cuda || echo cpu)
[ -n "$nvcc" ] || cuda_peer=no
# a prefix from before blocking drivers, or built with the other choice of peer copies, is rebuilt
stamp="$prefix/.quarkflow-deps-$flavour-blocking"
[ "$cuda_peer" = no ] || stamp="$stamp-peer"

# --- Debian packages -------------------------------------------------------------------------
packages=(build-essential cmake pkg-config dpkg-dev patch autoconf automake libtool
          hwloc libhwloc-dev libfxt-dev fxt-tools libopenmpi-dev openmpi-bin
          librandom123-dev libglpk-dev libltdl-dev zlib1g-dev
          vite gnuplot-nox)  # vite: the paje.trace check of the tests; gnuplot: trace gantt, bench sched --plot
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] || die "missing Debian packages (${missing[*]}); run this script as root or install them with apt-get"
  say "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ -f "$stamp" ]; then
  say "StarPU already installed in $prefix ($flavour build); nothing to do"
  echo "export PKG_CONFIG_PATH=$prefix/lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
  exit 0
fi

# --- StarPU source from Debian ------------------------------------------------------------------
mkdir -p "$build"
cd "$build"
if ! ls starpu_1.3.10*.dsc >/dev/null 2>&1; then
  if ! apt-get source --download-only starpu=1.3.10+dfsg-2 >/dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || die "apt-get source starpu failed and adding a deb-src entry needs root"
    # The image ships binary sources only: add the matching deb-src entry for the configured mirror.
    mirror=$(grep -rhE '^[[:space:]]*(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
             | grep -oE 'https?://[^ ]+/debian/?' | grep -v security | head -n 1 || true)
    [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
    say "adding deb-src entry for $mirror"
    cat > /etc/apt/sources.list.d/quarkflow-deb-src.sources <<EOF
Types: deb-src
URIs: $mirror
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -qq
    apt-get source --download-only starpu=1.3.10+dfsg-2 >/dev/null 2>&1 \
      || die "could not fetch the StarPU 1.3.10 source package (apt-get source starpu)"
  fi
fi
rm -rf starpu-1.3.10+dfsg
dpkg-source --no-check -x starpu_1.3.10+dfsg-2.dsc >/dev/null
cd starpu-1.3.10+dfsg

config=(--prefix="$prefix" --enable-maxcpus=128 --enable-maxcudadev=8 --with-fxt
        --enable-mpi --disable-build-doc --disable-build-examples --disable-build-tests
        --disable-opencl --disable-socl --disable-fortran --disable-starpufft
        --disable-mlr --disable-sc-hypervisor --disable-starpurm --enable-blocking-drivers)
if [ -n "$nvcc" ]; then
  # CUDA 13 removed cudaDeviceProp::computeMode and the legacy cublas.h API.
  patch -p1 -s < "$here/patches/starpu-1.3.10-cuda13.patch"
  cuda_dir=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
  config+=(--enable-cuda --with-cuda-dir="$cuda_dir")
  # peer copies (--cuda-peer, see above): StarPU enables them per GPU pair at start-up
  # (STARPU_ENABLE_CUDA_GPU_GPU_DIRECT=0 turns them off at run time)
  [ "$cuda_peer" = yes ] || config+=(--disable-cuda-memcpy-peer)
  export NVCCFLAGS="${NVCCFLAGS:--arch=sm_90}"
  export PATH="$cuda_dir/bin:$PATH"
  say "building StarPU 1.3.10 with CUDA ($cuda_dir), FxT and MPI into $prefix"
else
  config+=(--disable-cuda)
  say "no nvcc found: building StarPU 1.3.10 without CUDA, with FxT and MPI, into $prefix"
fi

./configure "${config[@]}" > "$build/configure.log" 2>&1 \
  || { tail -n 30 "$build/configure.log" >&2; die "StarPU configure failed (full log: $build/configure.log)"; }
make -j"$jobs" > "$build/make.log" 2>&1 \
  || { tail -n 40 "$build/make.log" >&2; die "StarPU build failed (full log: $build/make.log)"; }
make install > "$build/install.log" 2>&1 || die "StarPU install failed (log: $build/install.log)"

pc="$prefix/lib/pkgconfig"
PKG_CONFIG_PATH="$pc" pkg-config --exists starpu-1.3 starpumpi-1.3 \
  || die "StarPU installed but pkg-config cannot find starpu-1.3 and starpumpi-1.3 in $pc"
grep -q '^#define STARPU_USE_FXT 1' "$prefix/include/starpu/1.3/starpu_config.h" \
  || die "StarPU was built without FxT (is libfxt-dev installed?)"
grep -q '^/\* #undef STARPU_NON_BLOCKING_DRIVERS \*/' "$prefix/include/starpu/1.3/starpu_config.h" \
  || die "StarPU was built with non-blocking drivers although configured with --enable-blocking-drivers"
if [ -n "$nvcc" ]; then
  grep -q '^#define STARPU_USE_CUDA 1' "$prefix/include/starpu/1.3/starpu_config.h" \
    || die "StarPU was built without CUDA although nvcc exists (see $build/configure.log)"
fi
rm -f "$prefix"/.quarkflow-deps-"$flavour"-* # the stamp of the build this one replaced
touch "$stamp"
rm -rf "$build/starpu-1.3.10+dfsg"
say "done"
echo "export PKG_CONFIG_PATH=$pc\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
