#!/bin/sh
# A fresh StarPU home (no performance models: dmda places tasks while it calibrates) and the same home
# once populated give the same solve: iterations within 1 and |x|^2 within 1e-9 (solve_invariance.sh's
# comparison, run once per home state).
#   models_invariance.sh QUARKFLOW 'SOLVE OPTIONS'
set -u
qf=$1 solve=$2
home=$(mktemp -d "${TMPDIR:-/tmp}/qf-models.XXXXXX") || exit 1
trap 'rm -rf "$home"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
# the first configuration meets the empty home, the second the models the first one saved
STARPU_HOME=$home sh "$here/solve_invariance.sh" "$qf" "$solve" "--sched dmda" "--sched dmda" || exit 1
[ -n "$(find "$home" -path '*sampling/codelets*' -type f 2>/dev/null | head -1)" ] ||
    { echo "FAIL: the first run saved no performance model under $home"; exit 1; }
echo "ok   models saved under the fresh home by the first run, read by the second"
