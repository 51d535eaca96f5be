#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# expect_exit.sh CODE REGEX [--not REGEX] -- COMMAND [ARGS...]
# Runs COMMAND, passes when its exit code is CODE, its stdout+stderr match the
# extended regex REGEX and (with --not) do not match the second one.
set -u
code=$1 match=$2; shift 2
forbid=""
if [ "$1" = "--not" ]; then forbid=$2; shift 2; fi
[ "$1" = "--" ] && shift
# 600 s: a deadlock guard only (a tool run under ASan at -O0 takes at most ~10 s idle); the verdict
# is the exit code and the output, never the time.
out=$(timeout 600 "$@" 2>&1 < /dev/null)
rc=$?
printf '%s\n' "$out" | head -c 4000
echo "[exit code $rc, expected $code]"
[ "$rc" = "$code" ] || { echo "FAIL: exit code"; exit 1; }
printf '%s' "$out" | grep -Eq -- "$match" || { echo "FAIL: output does not match /$match/"; exit 1; }
if [ -n "$forbid" ] && printf '%s' "$out" | grep -Eq -- "$forbid"; then echo "FAIL: output matches /$forbid/"; exit 1; fi
exit 0
