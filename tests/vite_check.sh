#!/bin/sh
# Every paje.trace quarkflow writes opens in ViTE: a traced solve, then Debian's vite headless
# exporting the trace to SVG; ViTE must report 0 errors and write the picture. Skipped (77) where
# vite is not installed (tools/install-deps.sh installs it).
#   vite_check.sh QUARKFLOW WORKDIR
set -u
qf=$1
dir=$2/vite-check
command -v vite > /dev/null 2>&1 || { echo "vite is not installed: skipped"; exit 77; }
rm -rf "$dir"
"$qf" --trace "$dir" solve --dim 4 4 4 4 > "$dir.log" 2>&1 || { cat "$dir.log"; echo "FAIL: the traced solve failed"; exit 1; }
[ -s "$dir/paje.trace" ] || { cat "$dir.log"; echo "FAIL: no paje.trace in $dir"; exit 1; }
out=$(cd "$dir" && QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}" timeout 120 vite paje.trace -e out.svg 2>&1)
echo "$out" | tail -3
echo "$out" | grep -q "^0 errors and [0-9]* warnings were found during parsing" || { echo "FAIL: ViTE reported errors"; exit 1; }
[ -s "$dir/out.svg" ] || { echo "FAIL: ViTE wrote no picture"; exit 1; }
echo "ok   ViTE opened $dir/paje.trace with 0 errors and wrote $dir/out.svg ($(wc -c < "$dir/out.svg") bytes)"
