#!/usr/bin/env python3
# Where a worker waits: reads the tasks.rec of a trace (quarkflow --trace DIR writes DIR/tasks.rec) and,
# per worker, sums the idle time before each task (from the latest end of the worker's earlier tasks to
# the task's start) by task name, then lists the largest gaps with the tasks on either side and the
# task's submission time. A gap before a task submitted long before it started is a wait inside the
# runtime (its data, an allocation), not the host's; one before a task submitted just before it is the
# host's. From the first task whose name starts with WINDOW on (e.g. c_cycle: a multigrid solve).
#   tools/trace-gaps.py DIR/tasks.rec [WINDOW] [--top N]
import argparse, collections, sys

ap = argparse.ArgumentParser(description="idle time of each worker before each task of a tasks.rec")
ap.add_argument("tasks_rec")
ap.add_argument("window", nargs="?", help="start at the first task whose name starts with this")
ap.add_argument("--top", type=int, default=20, help="task names and gaps listed (default 20)")
opt = ap.parse_args()
top = opt.top

records, cur = [], {}
with open(opt.tasks_rec) as f:
    for line in f:
        line = line.rstrip("\n")
        if not line:
            if cur: records.append(cur)
            cur = {}
        elif ": " in line:
            key, value = line.split(": ", 1)
            cur[key] = value
if cur: records.append(cur)
tasks = sorted((r for r in records if "StartTime" in r and "EndTime" in r), key=lambda r: float(r["StartTime"]))
if opt.window:
    first = next((i for i, r in enumerate(tasks) if r.get("Name", "").startswith(opt.window)), None)
    if first is None: sys.exit(f"trace-gaps.py: no task named {opt.window}* in {opt.tasks_rec}")
    tasks = tasks[first:]
if not tasks: sys.exit(f"trace-gaps.py: no executed tasks in {opt.tasks_rec}")

by_worker = collections.defaultdict(list)
for r in tasks: by_worker[r.get("WorkerId", "?")].append(r)
for worker, rs in sorted(by_worker.items()):
    idle, count, gaps, last = collections.Counter(), collections.Counter(), [], None
    for r in rs:
        name, start, end = r.get("Name", "?"), float(r["StartTime"]), float(r["EndTime"])
        if last is not None and start > last[1]:
            idle[name] += start - last[1]
            count[name] += 1
            gaps.append((start - last[1], last[0], name, start, r.get("SubmitTime", "-")))
        if last is None or end > last[1]: last = (name, end)
    span = float(rs[-1]["EndTime"]) - float(rs[0]["StartTime"])
    print(f"worker {worker}: {len(rs)} tasks over {span:.3f} ms, idle {sum(idle.values()):.3f} ms before them")
    print(f"  {'idle before':32s} {'ms':>10s} {'gaps':>6s}")
    for name, ms in idle.most_common(top):
        print(f"  {name:32s} {ms:10.3f} {count[name]:6d}")
    print("  largest gaps: ms, after -> before, start ms (submitted ms)")
    for g in sorted(gaps, reverse=True)[:top]:
        print("  %10.3f  %s -> %s  at %.3f (%s)" % g)
