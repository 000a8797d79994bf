#!/bin/sh
# The exploration guard (runtime/task_scope.c) on a GPU node: on a fresh StarPU home (no performance
# models), a 32^4 solve with CPU and CUDA workers under dmdas runs no Dirac task on a CPU core, where
# each would take about a second only to be timed (bench/RESULTS.md, "A fresh mixed node").
# Usage: explore_guard.sh QUARKFLOW
q=${1:?usage: explore_guard.sh QUARKFLOW}
home=$(mktemp -d)
out=$(STARPU_HOME=$home "$q" --ncuda 1 --sched dmdas solve --dim 32 32 32 32 --sloppy single 2>&1)
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
  table && $1 == "CPU" { oncpu += at("gather") + at("interior") + at("exterior") + at("block") }
  table && $1 == "all" { total = at("interior") + at("block") }
  END {
    if (!table || !total) { print "explore_guard: no workers table with Dirac tasks"; exit 1 }
    if (oncpu) { print "explore_guard: " oncpu " Dirac tasks ran on CPU cores of a fresh node"; exit 1 }
    print "explore_guard: no Dirac task on a CPU core (" total " interior or fused block tasks, all on the GPU)"
  }'
