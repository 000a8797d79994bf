#!/bin/sh
# The same solve under several placements gives the same iteration count (within 1, or
# QF_INVARIANT_ITER_SLACK) and the same
# solution (|x|^2 within 1e-9 relative): quarkflow solve runs once per configuration (a quoted list
# of options added to the solve: scheduler, worker counts, block grid) on one problem, and the results are
# compared with the first's.
#   solve_invariance.sh QUARKFLOW 'SOLVE OPTIONS' 'CONFIG 1' 'CONFIG 2' ...
set -u
qf=$1
solve=$2
shift 2
first_iter= first_x2=
status=0
for config in "$@"; do
    # shellcheck disable=SC2086
    out=$("$qf" solve $solve $config 2>&1) || { echo "FAIL [$config]: quarkflow solve failed:"; echo "$out"; exit 1; }
    iter=$(echo "$out" | sed -n 's/^solved *\([0-9]*\) iterations.*/\1/p')
    x2=$(echo "$out" | sed -n 's/^|x|^2 *//p')
    [ -n "$iter" ] && [ -n "$x2" ] || { echo "FAIL [$config]: no 'solved' or '|x|^2' line:"; echo "$out"; exit 1; }
    if [ -z "$first_iter" ]; then
        first_iter=$iter first_x2=$x2
        echo "ok   [$config] $iter iterations, |x|^2 = $x2 (reference)"
        continue
    fi
    if awk -v a="$iter" -v b="$first_iter" -v x="$x2" -v y="$first_x2" -v s="${QF_INVARIANT_ITER_SLACK:-1}" \
        'BEGIN { d = a - b; r = (x - y) / y; exit !((d <= s && d >= -s) && (r <= 1e-9 && r >= -1e-9)) }'; then
        echo "ok   [$config] $iter iterations, |x|^2 = $x2"
    else
        echo "FAIL [$config] $iter iterations, |x|^2 = $x2; the first configuration gave $first_iter and $first_x2"
        status=1
    fi
done
exit $status
