#!/bin/sh
# The exploration guard (runtime/task_scope.c) on a GPU node: on a fresh StarPU home (no performance
# models), a solve with CPU and CUDA workers under dmdas runs no Dirac task and no reduction (alone or
# in a chain of BLAS calls) on a CPU core: at 32^4 each Dirac task would take about a second only to be timed (bench/RESULTS.md, "A fresh
# mixed node"); on a small lattice (12^4, tasks under 4 MiB) the reductions of vectors that live on the
# GPU would move them to the host and back every iteration ("Tasks whose inputs live on the GPU").
# Usage: explore_guard.sh QUARKFLOW [L]   (an L^4 lattice, default 32)
q=${1:?usage: explore_guard.sh QUARKFLOW [L]}
L=${2:-32}
home=$(mktemp -d)
out=$(STARPU_HOME=$home "$q" --ncuda 1 --sched dmdas solve --dim $L $L $L $L --sloppy single 2>&1)
rc=$?
rm -rf "$home"
if [ $rc -ne 0 ]; then
  echo "$out"
  exit 1
fi
echo "$out" | grep -E "^solved|^workers"
echo "$out" | awk '
  # a row holds the codelet counts in the header'"'"'s order, aligned at the right end
  function at(name) { return (name in col) ? $(NF - (hn - col[name])) + 0 : 0 }
  $1 == "worker" && $2 == "tasks" { for (i = 1; i <= NF; i++) col[$i] = i; hn = NF; table = 1; next }
  table && $1 == "CPU" { oncpu += at("gather") + at("interior") + at("exterior") + at("block") + at("reduce") + at("chain") }
  table && $1 == "all" { total = at("interior") + at("block") }
  END {
    if (!table || !total) { print "explore_guard: no workers table with Dirac tasks"; exit 1 }
    if (oncpu) { print "explore_guard: " oncpu " Dirac or reduction tasks ran on CPU cores of a fresh node"; exit 1 }
    print "explore_guard: no Dirac or reduction task on a CPU core (" total " interior or fused block tasks, all on the GPU)"
  }'
