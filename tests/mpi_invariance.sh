#!/bin/sh
# The same command on 1, 2 and 4 processes gives the same numbers: quarkflow runs under mpirun with
# each process count, and every number the check extracts from its output must agree with the
# one-process run's within a relative tolerance (iteration counts within 1, or itol). Processes share the
# machine (--oversubscribe, one CPU worker each, unbound: a CI box has 2 cores).
#   mpi_invariance.sh MPIEXEC QUARKFLOW CHECK 'COMMAND AND OPTIONS' NP...
# CHECK: plaquette (gauge measure: plaquette, link trace, Polyakov loop; 1e-12), apply (|result|^2;
# 1e-12; apply_half 1e-5), solve (iterations, |x|^2; 1e-9), masses (each mass's iterations and |x|^2 of
# a multi-mass solve; 1e-9), propagator (the pion and rho correlators; 1e-8), links (the asqtad links'
# check lines: averages of Re Tr and |link|^2, some near 0, summed in another order; 1e-10), solve_half
# (as solve, the iterations within 3).
set -u
mpiexec=$1 qf=$2 check=$3 cmd=$4 itol=1
shift 4
case $check in
plaquette) tol=1e-12 pattern='^ +plaquette|^Polyakov' ;; # the task graph's lines (a file's own facts come first)
apply) tol=1e-12 pattern='^\|result\|\^2' ;;
# half: a face site's partial hop sum is stored in half between the interior and exterior kernels, so
# the result depends on the process grid at half's rounding (3e-5 of a site's largest)
apply_half) tol=1e-5 pattern='^\|result\|\^2' ;;
solve) tol=1e-9 pattern='^solved|^\|x\|\^2' ;; # iterations (the residual and time are cut off) and |x|^2
# half: a hop through a block face passes a 16-bit half spinor, a hop inside a block (or around a block
# that spans its direction) does not, and the process grid decides which are which: the iterated
# residual follows another rounding path, the solution to the tolerance is the same
solve_half) tol=1e-9 itol=3 pattern='^solved|^\|x\|\^2' ;;
masses) tol=1e-9 pattern='^mass ' ;;
links) tol=1e-10 pattern='^(fat|Naik) links' ;;
propagator) tol=1e-8 pattern='^ *[0-9]+ +[0-9.e+-]+ +[0-9.e+-]+' ;;
*) echo "mpi_invariance.sh: unknown check $check"; exit 2 ;;
esac
# the numbers of the lines that matter, one a line; iteration counts tagged so they compare within 1
numbers() {
    grep -E "$pattern" | sed -e 's/iterations,.*|x|^2/iterations |x|^2/' -e 's/iterations,.*/iterations/' -e 's/|^2//' |
        grep -oE '(-|\+)?[0-9]+\.?[0-9]*(e[-+]?[0-9]+)?( iterations)?' | sed 's/ iterations/ it/'
}
ref= status=0
for np in "$@"; do
    # shellcheck disable=SC2086
    out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$mpiexec" --oversubscribe --bind-to none -np "$np" \
        -x STARPU_NCPU=1 -x STARPU_NCUDA=0 -x STARPU_WORKERS_NOBIND=1 -x STARPU_FXT_TRACE=0 "$qf" $cmd 2>&1) ||
        { echo "FAIL [$np processes]: quarkflow $cmd failed:"; echo "$out" | tail -20; exit 1; }
    got=$(echo "$out" | numbers)
    [ -n "$got" ] || { echo "FAIL [$np processes]: none of the expected lines in:"; echo "$out" | tail -20; exit 1; }
    if [ -z "$ref" ]; then
        ref=$got
        echo "ok   [$np processes] $(echo "$got" | wc -l) numbers (reference): $(echo "$got" | head -4 | tr '\n' ' ')"
        continue
    fi
    if printf '%s\n---\n%s\n' "$ref" "$got" | awk -v tol="$tol" -v itol="$itol" '
        /^---$/ { second = 1; next }
        !second { a[++n] = $1; it[n] = ($2 == "it"); next }
        { m++; b = $1; d = b - a[m]; if (d < 0) d = -d
          s = a[m] < 0 ? -a[m] : a[m]
          if (it[m] ? d > itol : d > tol * (s > 1e-300 ? s : 1)) { bad = 1; printf "  differs: %s against %s\n", b, a[m] } }
        END { exit bad || m != n }'; then
        echo "ok   [$np processes] the same $(echo "$got" | wc -l) numbers within $tol"
    else
        echo "FAIL [$np processes] numbers differ from the 1-process run (or their count does):"
        echo "$out" | grep -E "$pattern" | head -20
        status=1
    fi
done
exit $status
