#!/bin/sh
# The multigrid setup's refinement cycles improve the hierarchy: on the DDalphaAMG 8^4 field near the
# critical mass, one round of inverse iteration then one refinement cycle gives fewer outer
# iterations than the round alone (90 against 40 when written), and both reach the tolerance.
#   mg_refine.sh QUARKFLOW GAUGE_FILE
set -u
qf=$1 gauge=$2
args="solve $gauge --csw 1.769 --kappa 0.136240 --source random --solver mg --mg-nvec 8 --mg-block 2 2 2 2 --max-iter 300 --mg-setup-iter 1"
iterations() { # the outer iterations of a solve that converged, or nothing
    "$qf" $args "$@" 2>&1 | sed -n 's/^solved *\([0-9]*\) iterations.*/\1/p'
}
plain=$(iterations)
refined=$(iterations --mg-setup-refine 1)
echo "outer iterations: $plain without refinement, $refined after one refinement cycle"
[ -n "$plain" ] && [ -n "$refined" ] || { echo "FAIL: a solve did not converge"; exit 1; }
[ "$refined" -lt "$plain" ] || { echo "FAIL: the refinement cycle did not lower the iterations"; exit 1; }
