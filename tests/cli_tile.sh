#!/bin/sh
# --tile: a gauge file's field replicated along the lattice is the same field on every copy. With the
# 8^4 DDalphaAMG field tiled to 8 8 8 16, |M delta_x|^2 at a point of the second copy equals the
# untiled field's at the same point of the first (and differs at a neighbouring point, so that the
# comparison can fail); the propagator's and solve's gauge lines name the tiled lattice.
#   cli_tile.sh QUARKFLOW GAUGE_FILE
set -u
qf=$1
file=$2
fail() { echo "FAIL: $*"; exit 1; }
norm() {
  out=$("$qf" apply "$file" --csw 1.769 --kappa 0.13 "$@") || fail "apply $* exited with $?: $out"
  printf '%s\n' "$out" | sed -n 's/^|result|^2 *\([^ ]*\).*/\1/p'
}
first=$(norm --point 1 2 3 4 0 0)
second=$(norm --tile 1 1 1 2 --point 1 2 3 12 0 0)
other=$(norm --tile 1 1 1 2 --point 1 2 3 13 0 0)
echo "|M delta|^2: untiled (1 2 3 4) $first, tiled (1 2 3 12) $second, tiled (1 2 3 13) $other"
[ -n "$first" ] && [ "$first" = "$second" ] || fail "the second copy's |M delta|^2 $second is not the file's $first"
[ "$other" != "$first" ] || fail "|M delta|^2 is the same at a neighbouring point: the comparison cannot fail"
out=$("$qf" solve "$file" --tile 2 1 1 1 --csw 1.769 --kappa 0.12 --source random --tol 1e-8) ||
  fail "solve on the tiled field exited with $?: $out"
printf '%s\n' "$out" | grep -q "tiled 2 1 1 1 times to 16 8 8 8" || fail "solve's gauge line does not name the tiled lattice: $out"
printf '%s\n' "$out" | grep -q "^solved" || fail "solve on the tiled field did not converge: $out"
out=$("$qf" propagator "$file" --tile 1 1 1 2 --kappa 0.12 --tol 1e-8) || fail "propagator on the tiled field exited with $?: $out"
printf '%s\n' "$out" | grep -q "lattice 8 8 8 16 (the file's field tiled)" || fail "propagator's gauge line: $out"
echo "tile: ok"
