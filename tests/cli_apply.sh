#!/bin/sh
# quarkflow apply writes a SciDAC Dirac-fermion file that the library's reader reads back with the
# norm the command printed, and that apply itself takes as a source; a source of the wrong lattice
# size is refused with a message naming both sizes.
#   cli_apply.sh QUARKFLOW TEST_FERMION_IO
set -u
qf=$1
checker=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/cli_apply.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out=$("$qf" apply --dim 4 4 4 4 --csw 1 --op Mhat --source random --seed 3 --prec single --out "$dir/x.lime") ||
  fail "apply exited with $?: $out"
printf '%s\n' "$out"
result=$(printf '%s\n' "$out" | sed -n 's/^|result|^2 *\([^ ]*\).*/\1/p')
[ -n "$result" ] || fail "no |result|^2 line"
read_back=$("$checker" --norm "$dir/x.lime") || fail "the reader rejects the file: $read_back"
printf 'read back: %s\n' "$read_back"
case $read_back in
  "dims 4 4 4 4 bits 64 norm2 $result") ;;
  *) fail "read back '$read_back', expected dims 4 4 4 4, 64 bit, norm2 $result" ;;
esac

out=$("$qf" apply --dim 4 4 4 4 --source "$dir/x.lime" --op Mdag --out "$dir/y.lime" --out-prec single) ||
  fail "apply with the file as source exited with $?: $out"
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q "^|source|^2 *$result\$" || fail "the file as a source does not have |source|^2 $result"
"$checker" --norm "$dir/y.lime" | grep -q "bits 32" || fail "--out-prec single did not write a 32-bit file"

err=$("$qf" apply --dim 4 4 4 8 --source "$dir/x.lime" 2>&1 >/dev/null)
rc=$?
printf '%s\n' "$err"
[ "$rc" -eq 1 ] || fail "a 4^4 source on a 4x4x4x8 lattice: exit status $rc, expected 1"
printf '%s\n' "$err" | grep -q "4x4x4x4 lattice but the dimensions asked for are 4x4x4x8" ||
  fail "the size mismatch is not named"
echo "apply round trip: ok"
