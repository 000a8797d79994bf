#!/bin/sh
# Files written by several processes, each writing its own part into the one file, equal the files one
# process writes: a heatbath field as NERSC and ILDG (bit-identical on any process grid, so the same
# checksums: every stored word) and the Wilson-clover operator's result as a SciDAC Dirac fermion
# (the same suma/sumb: the same blocks of 2 x 4 x 4 x 4 sites on every process grid, so that every
# site's hops add in the same order; QF_STENCIL_DIRECT=never, since one process would otherwise take
# each block's hops in one task from its neighbours' blocks, which adds the same terms in another order);
# and every file reads back, its header facts verified by gauge load, the fermion as a source read in
# parts by the same processes.
#   mpi_write.sh MPIEXEC QUARKFLOW NP...
set -u
mpiexec=$1 qf=$2
shift 2
dir=$(mktemp -d "${TMPDIR:-/tmp}/qf_mpi_write.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
run() { # NP ARGS...
    np=$1
    shift
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$mpiexec" --oversubscribe --bind-to none -np "$np" \
        -x STARPU_NCPU=1 -x STARPU_NCUDA=0 -x STARPU_WORKERS_NOBIND=1 -x STARPU_FXT_TRACE=0 -x QF_STENCIL_DIRECT=never \
        "$qf" "$@" > "$dir/log" 2>&1 ||
        { echo "FAIL [$np processes]: quarkflow $*"; tail -20 "$dir/log"; exit 1; }
}
# the checksums a file carries, as one line
sums() {
    case $1 in
    *.nersc) grep -a '^CHECKSUM' "$1" ;;
    *) grep -ao '<suma>[0-9a-f]*</suma><sumb>[0-9a-f]*</sumb>' "$1" | tr -d '\n' ;;
    esac
}
status=0
for np in "$@"; do
    run "$np" gauge generate --dim 4 4 4 8 --sweeps 1 --or 1 --out "$dir/g$np.nersc" --to nersc
    run "$np" gauge generate --dim 4 4 4 8 --sweeps 1 --or 1 --out "$dir/g$np.ildg" --to ildg --out-prec single
    case $np in
    1) blocks="--blocks 2 1 1 2" ;;
    2) blocks="--grid 1 1 1 2 --blocks 2 1 1 1" ;;
    4) blocks="--grid 2 1 1 2 --blocks 1 1 1 1" ;;
    *) echo "mpi_write.sh: no block grid for $np processes"; exit 2 ;;
    esac
    # shellcheck disable=SC2086
    run "$np" apply --dim 4 4 4 8 --csw 1 --source random --op M --out "$dir/x$np.sci" $blocks
    for f in "$dir/g$np.nersc" "$dir/g$np.ildg"; do
        "$qf" gauge load "$f" > "$dir/load" 2>&1 || { echo "FAIL [$np processes]: $f does not read back:"; cat "$dir/load"; exit 1; }
    done
    run "$np" apply --dim 4 4 4 8 --source "$dir/x$np.sci" --op M # each process reads its part of the source
    for f in g.nersc g.ildg x.sci; do
        name=${f%%.*}$np.${f#*.}
        ref=${f%%.*}$1.${f#*.}
        if [ "$(sums "$dir/$name")" = "$(sums "$dir/$ref")" ] && [ -n "$(sums "$dir/$name")" ]; then
            echo "ok   [$np processes] $f: $(sums "$dir/$name")"
        else
            echo "FAIL [$np processes] $f: checksums $(sums "$dir/$name") against $(sums "$dir/$ref") from $1 process(es)"
            status=1
        fi
    done
    ls "$dir" | grep -q 'tmp-' && { echo "FAIL [$np processes]: a temporary file was left: $(ls "$dir")"; status=1; }
done
exit $status
