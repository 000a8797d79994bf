#!/usr/bin/env python3
"""Summary of a StarPU task trace (the tasks.rec that starpu_fxt_tool writes from an FxT trace):
time per codelet and per worker, and each worker's idle time over the traced window.

    starpu_fxt_tool -i DIR/prof_file_*      # writes tasks.rec (and paje.trace for ViTE) here
    tools/trace_summary.py tasks.rec [--window FIRST_CODELET]

--window NAME starts the window at the first task of codelet NAME (for example qf_wilson_gather, to
skip the set-up of a solve); without it the window spans all tasks. Times in the trace are in ms."""
import argparse
import collections
import sys


def records(path):
    rec = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if rec:
                    yield rec
                rec = {}
                continue
            key, _, value = line.partition(": ")
            rec[key] = value
    if rec:
        yield rec


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks_rec")
    ap.add_argument("--window", metavar="CODELET", help="start the window at this codelet's first task")
    args = ap.parse_args()

    tasks = []
    for r in records(args.tasks_rec):
        if "StartTime" not in r or "EndTime" not in r or "WorkerId" not in r:
            continue  # submitted but not executed in the trace
        tasks.append((float(r["StartTime"]), float(r["EndTime"]), int(r["WorkerId"]), r.get("Name", "?")))
    if not tasks:
        sys.exit(f"{args.tasks_rec}: no executed tasks (was the trace recorded with STARPU_FXT_TRACE=1?)")
    tasks.sort()
    if args.window:
        first = next((t[0] for t in tasks if t[3] == args.window), None)
        if first is None:
            sys.exit(f"{args.tasks_rec}: no task of codelet {args.window}")
        tasks = [t for t in tasks if t[0] >= first]
    t0, t1 = tasks[0][0], max(t[1] for t in tasks)
    span = t1 - t0

    per_codelet = collections.defaultdict(lambda: [0, 0.0])
    per_worker = collections.defaultdict(lambda: [0, 0.0])
    for s, e, w, name in tasks:
        per_codelet[name][0] += 1
        per_codelet[name][1] += e - s
        per_worker[w][0] += 1
        per_worker[w][1] += e - s
    print(f"window        {span:.3f} ms, {len(tasks)} tasks")
    print(f"{'codelet':32s} {'tasks':>8s} {'total ms':>10s} {'mean us':>9s}")
    for name, (n, tot) in sorted(per_codelet.items(), key=lambda kv: -kv[1][1]):
        print(f"{name:32s} {n:8d} {tot:10.3f} {1e3 * tot / n:9.1f}")
    print(f"{'worker':>6s} {'tasks':>8s} {'busy ms':>10s} {'idle %':>7s}")
    for w, (n, busy) in sorted(per_worker.items()):
        print(f"{w:6d} {n:8d} {busy:10.3f} {100 * (1 - busy / span):7.1f}")


if __name__ == "__main__":
    main()
