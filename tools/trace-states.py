#!/usr/bin/env python3
# What the runtime's threads and memory managers were doing: reads the paje.trace (or paje.trace.gz) that
# starpu_fxt_tool writes (quarkflow --trace DIR leaves it in DIR) and, between two times, sums for each
# container (a worker, a thread, a memory node's manager) the time in each state (FetchingInput,
# Executing, DriverCopyAsync, Allocating ...), lists the longest state intervals, and the transfers
# between memory nodes by kind (fetch, prefetch, idle fetch) with their bytes and rates. A worker in
# FetchingInput while a memory manager copies in idle time is waiting for that copy: that is how the
# first solve after a multigrid setup was found to wait for StarPU's clean-buffer write-backs
# (bench/RESULTS.md). Times in ms, as in the trace.
#   tools/trace-states.py DIR/paje.trace[.gz] [--from MS] [--to MS] [--top N]
import argparse, collections, gzip, re, sys

ap = argparse.ArgumentParser(description="time in each state per container, and transfers, of a paje.trace")
ap.add_argument("paje")
ap.add_argument("--from", dest="t0", type=float, default=float("-inf"), help="window start, ms")
ap.add_argument("--to", dest="t1", type=float, default=float("inf"), help="window end, ms")
ap.add_argument("--top", type=int, default=20, help="rows of each list (default 20)")
opt = ap.parse_args()

SET_STATE, PUSH_STATE, POP_STATE = {"10", "20", "21"}, "11", "12"
START_LINK, END_LINK = "18", "19"
names = {}                               # container alias -> name (PajeCreateContainer)
values = {}                              # (state type, alias) -> name (PajeDefineEntityValue)
managers = set()                         # the memory managers: links between them are transfers
VALUE = re.compile(r'^6\s+(\S+)\s+(\S+)\s+("[^"]*"|\S+)')
stacks = collections.defaultdict(list)   # (container, state type) -> [(state, since)]
total = collections.Counter()            # (container, state) -> ms in the window
intervals = []                           # (ms, start, container, state)
links = {}                               # key -> (start, kind, bytes, from)
transfers = collections.defaultdict(lambda: [0, 0, 0.0, 0.0])  # (kind, from, to) -> count, bytes, ms, longest


def close(key, state, start, end):
    container, name = key[0], values.get((key[1], state), state)
    s, e = max(start, opt.t0), min(end, opt.t1)
    if e > s:
        total[(container, name)] += e - s
        intervals.append((end - start, start, container, name))


opener = gzip.open if opt.paje.endswith(".gz") else open
lineno = 0
try:
    with opener(opt.paje, "rt", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            p = line.split()
            if not p or p[0][0] in "%#": continue
            ev = p[0]
            if ev == "6":
                m = VALUE.match(line)
                if m: values[(m.group(2), m.group(1))] = " ".join(m.group(3).strip('"').split())
            elif ev == "7" and len(p) >= 6:
                names[p[2]] = p[5]
                if p[3] == "Mm": managers.add(p[2])
            elif ev in SET_STATE and len(p) >= 5:
                t, key, value = float(p[1]), (p[2], p[3]), p[4].strip('"')
                st = stacks[key]
                if st:
                    close(key, st[-1][0], st[-1][1], t)
                    st[-1] = (value, t)
                else:
                    st.append((value, t))
            elif ev == PUSH_STATE and len(p) >= 5:
                t, key, value = float(p[1]), (p[2], p[3]), p[4].strip('"')
                st = stacks[key]
                if st: close(key, st[-1][0], st[-1][1], t)
                st.append((value, t))
            elif ev == POP_STATE and len(p) >= 4:
                t, key = float(p[1]), (p[2], p[3])
                st = stacks[key]
                if st:
                    value, since = st.pop()
                    close(key, value, since, t)
                    if st: st[-1] = (st[-1][0], t)
            elif ev == START_LINK and len(p) >= 7:
                links[p[6]] = (float(p[1]), p[2], int(p[4]) if p[4].isdigit() else 0, p[5])
            elif ev == END_LINK and len(p) >= 7 and p[6] in links:
                start, kind, size, src = links.pop(p[6])
                end = float(p[1])
                if end > opt.t0 and start < opt.t1 and src in managers and p[5] in managers:
                    tr = transfers[(kind, src, p[5])]
                    tr[0] += 1
                    tr[1] += size
                    tr[2] += end - start
                    tr[3] = max(tr[3], end - start)
except OSError as e:
    sys.exit(f"trace-states.py: {e}")
except ValueError as e:  # a time or size that is not a number: a damaged or foreign file
    sys.exit(f"trace-states.py: {opt.paje}, line {lineno}: {e}: not a paje.trace from starpu_fxt_tool, or damaged")
if not total: sys.exit(f"trace-states.py: no state intervals in {opt.paje} between {opt.t0} and {opt.t1} ms")

label = lambda c: f"{c} ({names[c]})" if c in names else c
print(f"time in each state between {opt.t0} and {opt.t1} ms (ms)")
for (c, state), ms in total.most_common(opt.top):
    print(f"  {label(c):28s} {state:28s} {ms:10.1f}")
print("longest state intervals: ms, start ms, container, state")
for ms, start, c, state in sorted(intervals, reverse=True)[:opt.top]:
    print(f"  {ms:10.1f} {start:12.1f}  {label(c)} {state}")
print("transfers: kind (F fetch, PF prefetch, IF idle fetch, ...), from -> to: count, MB, ms, longest ms, GB/s")
for (kind, src, dst), (n, size, ms, longest) in sorted(transfers.items(), key=lambda kv: -kv[1][2]):
    rate = size / (ms * 1e6) if ms > 0 else 0.0
    print(f"  {kind:4s} {label(src)} -> {label(dst)}: {n} transfers, {size / 1e6:.1f} MB, {ms:.1f} ms, "
          f"longest {longest:.1f} ms, {rate:.2f} GB/s")
