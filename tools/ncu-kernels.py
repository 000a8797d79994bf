#!/usr/bin/env python3
# Sums the per-kernel summary that `ncu --metrics gpu__time_duration.sum --print-summary per-kernel`
# prints (one block per kernel name and launch grid): each kernel's total time over the run, its
# launches and mean, largest total first, and the sum. bench/RESULTS.md's tables of where a solve's
# GPU time goes come from it (bench/run_device_ncu.sh runs ncu and this).
#   tools/ncu-kernels.py NCU_OUTPUT...
import re, sys
if len(sys.argv) < 2:
    sys.exit("usage: ncu-kernels.py NCU_OUTPUT...")
head = re.compile(r"\s+(?:void )?(\w+(?:<[^>]*>)?)\(.*\) \((\d+), (\d+), (\d+)\)x\((\d+), \d+, \d+\).*Invocations (\d+)")
metric = re.compile(r"\s+gpu__time_duration\.sum\s+(\w+)\s+[\d.,]+\s+[\d.,]+\s+([\d.,]+)")
unit_us = {"ns": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3, "s": 1e6, "second": 1e6}
for path in sys.argv[1:]:
    rows, kernel = [], None
    with open(path) as f:
        for line in f:
            m = head.match(line)
            if m:
                kernel = m
                continue
            m = metric.match(line)
            if kernel and m and m.group(1) in unit_us:
                mean = float(m.group(2).replace(",", "")) * unit_us[m.group(1)]
                n = int(kernel.group(6))
                rows.append((mean * n, kernel.group(1), int(kernel.group(2)), n, mean))
                kernel = None
    if not rows:
        sys.exit(f"ncu-kernels.py: {path} holds no per-kernel summary of gpu__time_duration.sum")
    print(f"{path}: {sum(r[0] for r in rows) / 1e3:.1f} ms in {sum(r[3] for r in rows)} launches")
    print(f"  {'total us':>10}  {'kernel':<44} {'blocks':>8} {'launches':>8} {'mean us':>9}")
    for total, name, blocks, n, mean in sorted(rows, reverse=True):
        print(f"  {total:10.0f}  {name:<44} {blocks:8d} {n:8d} {mean:9.2f}")
