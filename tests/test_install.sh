#!/bin/sh
# Installs the build into a scratch prefix, then builds and runs a program against it twice: through
# the CMake package (find_package(quarkflow)) and through pkg-config.
#   test_install.sh BUILD_DIR SOURCE_DIR STARPU_PKGCONFIG_DIR
set -eu
build=$1 src=$2 starpu_pc=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$src/tests/install_consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/consumer" >/dev/null
"$scratch/consumer/consumer"
libdir=$(ls -d "$scratch"/prefix/lib*/pkgconfig | head -n 1)
export PKG_CONFIG_PATH="$libdir:$starpu_pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
cc -std=c11 -o "$scratch/consumer_pc" "$src/tests/install_consumer/consumer.c" $(pkg-config --cflags --libs quarkflow) \
   -Wl,-rpath,"$(dirname "$libdir")" $(pkg-config --libs-only-L starpu-1.3 | sed 's/-L/-Wl,-rpath,/g')
"$scratch/consumer_pc"
echo "installed package works through find_package and pkg-config"
