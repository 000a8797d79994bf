#!/usr/bin/env python3
# Cuts a Paje trace (StarPU's paje.trace) to the window [t0, t1] ms, times shifted to start at 0:
# definitions kept, containers created at 0 and destroyed at the end, timed events inside the window
# kept (a state entered before t0 shows from its next change). ViTE 1.2's export (-e) ignores -t and
# writes the whole trace: export the cut instead.
#   tools/paje-window.py DIR/paje.trace window.trace T0 T1 && vite -e window.svg window.trace
import re, sys
if len(sys.argv) != 5:
    sys.exit("usage: paje-window.py PAJE_IN PAJE_OUT T0_MS T1_MS")
src, dst, t0, t1 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
untimed = {"1", "2", "3", "4", "5", "6"}
event = re.compile(r"(\S+)(\s+)(\S+)(.*)", re.S)
with open(src) as f, open(dst, "w") as out:
    for line in f:
        m = event.match(line)
        if line.startswith("%") or not m or m.group(1) in untimed:
            out.write(line); continue
        try: t = float(m.group(3))
        except ValueError:
            out.write(line); continue
        kind = m.group(1)
        if kind == "7": t = 0.0
        elif kind == "8": t = t1 - t0
        elif t0 <= t <= t1: t -= t0
        else: continue
        out.write("%s%s%.6f%s" % (m.group(1), m.group(2), t, m.group(4)))
