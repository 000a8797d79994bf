#!/usr/bin/env bash
# The Wilson operator on a GPU node's CPU cores alone (--ncuda 0), in the three graphs a CPU-only run of
# one process can take for a hop (tasks/stencil.h): each block's hop as one task reading its neighbour
# blocks (direct: QF_STENCIL_DIRECT, the default from 650295a), both hops of Mhat as one task a block
# (pair: QF_STENCIL_FUSE=auto takes it where the fields exceed the last-level cache), and the stencil's
# gather, interior and exterior. The runs behind bench/RESULTS.md's "Hops that read the neighbour blocks".
# Run here `tools/pack-device.sh`, then on the GPU machine: bench/run_device_cpu_hops.sh [OUTDIR] [ROUNDS].
# Prints one line a run: the graph's best round and the direct kernels' (bench dslash), us an application,
# and ns a site and core (time x CPU workers / volume), the figure openQCD's Dwhat was compared by.
set -u
out=${1:-${OUT:-/tmp}}
rounds=${2:-2}
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=$top/.deploy/run.sh
lscpu > "$out/lscpu.txt" 2>&1
for round in $(seq 1 "$rounds"); do
  for dim in 32 16; do
    for prec in double single; do
      for graph in direct pair stencil; do
        case $graph in
          direct) fuse=never direct=always ;;
          pair) fuse=always direct=never ;;
          stencil) fuse=never direct=never ;;
        esac
        [ "$dim" = 16 ] && [ "$graph" = pair ] && continue # the pair's tasks are too long at 16^4 (RESULTS.md)
        f="$out/dslash${dim}_${prec}_${graph}_r$round.txt"
        QF_STENCIL_FUSE=$fuse QF_STENCIL_DIRECT=$direct timeout 120 "$run" quarkflow --ncuda 0 bench dslash \
          --dim $dim $dim $dim $dim --prec $prec --recon 12 > "$f" 2>&1
        awk -v tag="$dim^4 $prec $graph round $round" -v vol=$((dim * dim * dim * dim)) '
          /^path/ { for (i = 1; i <= NF; i++) if ($i == "graph" && $(i + 1) == "on") nw = $(i + 2) }
          /^task graph/ { getline; g = $5 } /^direct / { getline; d = $5 }
          END { printf "%-28s graph %9.1f us  direct %9.1f us  graph %6.1f ns a site and core (%s workers)\n",
                tag, g, d, g * 1000 * nw / vol, nw }' "$f"
      done
    done
  done
done
