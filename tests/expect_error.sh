#!/bin/sh
# Runs a command that must fail cleanly: exit status 1 or 2 (not a crash or a signal), and a message
# on stderr matching the extended regular expression given first.
#   expect_error.sh REGEX COMMAND [ARGS...]
regex=$1
shift
err=$("$@" 2>&1 >/dev/null)
rc=$?
printf '%s\n' "$err"
if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
  echo "expected exit status 1 or 2, got $rc"
  exit 1
fi
if ! printf '%s\n' "$err" | grep -Eq -- "$regex"; then
  echo "stderr does not match: $regex"
  exit 1
fi
echo "failed cleanly as expected (status $rc)"
