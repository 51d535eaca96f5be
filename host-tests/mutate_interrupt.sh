#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# mutate_interrupt.sh ROOT TMP: scripts/mutate stopped by SIGTERM, then by SIGINT, in the middle of
# its baseline build exits 130 within seconds, leaves no process of its build behind and removes
# its scratch directory. The build cannot finish by itself: the compiler launcher (a stand-in for
# ccache) records its pid and sleeps for ten minutes on every real compile (CMake's own configure
# checks pass through). Prints one line per signal; exit 1 on the first failure.
set -euo pipefail
root=$1 tmp=$2
rm -rf "$tmp"
mkdir -p "$tmp"
tmp=$(cd "$tmp" && pwd)
launcher=$tmp/launcher
cat >"$launcher" <<EOF
#!/bin/sh
case "\$*" in *CMakeScratch* | *cmTC_*) exec "\$@" ;; esac
echo \$\$ >>"$tmp/compiles"
exec sleep 600
EOF
chmod +x "$launcher"

pid=
guard_tenths=${MUTATE_INTERRUPT_GUARD_TENTHS:-3000}  # 300 s: a deadlock guard, never the verdict
fail() {
  echo "FAIL: $*"
  # What this test started: mutate's process group and the compiles it recorded.
  [ -z "$pid" ] || kill -KILL -- "-$pid" 2>/dev/null || true
  [ ! -f "$tmp/compiles" ] || while read -r c; do kill -KILL "$c" 2>/dev/null || true; done <"$tmp/compiles"
  exit 1
}

for sig in TERM INT; do
  rm -f "$tmp/compiles"
  # Job control: mutate runs as its own process group and, unlike a plain background job of a
  # script, does not ignore SIGINT.
  set -m
  TMPDIR=$tmp CMAKE_CXX_COMPILER_LAUNCHER=$launcher CMAKE_C_COMPILER_LAUNCHER=$launcher \
    "$root/scripts/mutate" --only 'count_ == 0u' --report "$tmp/report.md" >"$tmp/out.log" 2>&1 &
  pid=$!
  set +m
  # Waits for the event (the first compile recorded). The bound is a deadlock guard only: the copy,
  # the configure and the first compile take ~5-15 s on an idle 2-core machine.
  for ((i = 0; i < guard_tenths; i++)); do
    [ -s "$tmp/compiles" ] && break
    kill -0 "$pid" 2>/dev/null || fail "SIG$sig: mutate exited before it compiled: $(cat "$tmp/out.log")"
    sleep 0.1
  done
  [ -s "$tmp/compiles" ] || fail "SIG$sig: no compile started within the $((guard_tenths / 10)) s deadlock guard"
  start=$(date +%s%N)
  kill -"$sig" "$pid"
  # Waits for mutate's exit (~0.3-0.5 s idle); the bound is again only a deadlock guard.
  for ((i = 0; i < guard_tenths; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && fail "SIG$sig: mutate still running $((guard_tenths / 10)) s after the signal (waiting for its build?)"
  rc=0
  wait "$pid" || rc=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  echo "SIG$sig: exit $rc after $ms ms; compiles started: $(wc -l <"$tmp/compiles")"
  [ "$rc" = 130 ] || fail "SIG$sig: exit code $rc, expected 130: $(tail -n 5 "$tmp/out.log")"
  while read -r c; do
    # A zombie (exited, its parent not yet reaped) has ended.
    st=$(ps -o stat= -p "$c" || true)
    [ -z "$st" ] || [[ $st == Z* ]] || fail "SIG$sig: the compile $c outlived mutate ($st)"
  done <"$tmp/compiles"
  ! pgrep -f -- "$tmp/attractor-mutate" >/dev/null || fail "SIG$sig: a process still runs in the scratch directory"
  ! compgen -G "$tmp/attractor-mutate.*" >/dev/null || fail "SIG$sig: the scratch directory is still there"
  grep -q '^mutate: interrupted' "$tmp/out.log" || fail "SIG$sig: no 'interrupted' message: $(tail -n 3 "$tmp/out.log")"
done
rm -rf "$tmp"
