#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# hil_qemu.sh MODE RUNNER ELF [ARGS...]: HIL tests in QEMU (CTest hil.*). Skips (exit 77) when
# the firmware image is not built (it comes from the fw-m4f preset, not this host build).
#   run    : one run, passes on the runner's exit 0 (upright, every injected fault detected)
#   twice  : two runs with --csv, passes when the CSVs are identical (frames are the clock)
#            but for the last column, round_trip_us: the host's wall clock, never repeatable
#   latency: one run with --csv that must pass as `run`, and whose round-trip lines are sane:
#            0 < min <= p50 <= p99 <= p99.9 <= max < 10 s, every exchanged tick counted (>= 90 %
#            of the ticks: drops and reset downtime have none), the histogram summing to that
#            count, and the CSV's round_trip_us column holding that many values with that max;
#            the CSV's resets column ending at the boots announced since power-on, and (with
#            HIL_EXPECT_UNREQUESTED=1) at least one unrequested reset resynchronised
#   budget : (ARGS: TO BACK, then runner options) one clean run (no faults): the summary's measured
#            bytes per tick to the firmware and back are TO and BACK within 0.1 (docs/hil.md "Wire
#            budget": 53.0 and 30.0 at the default status period)
#   silent : ELF is an image without the link: the runner must exit 8 naming the timeout
#   signals: the runner killed mid-run by SIGINT, SIGTERM, SIGHUP and SIGKILL (ARGS: runner
#            options): each time its QEMU child is gone afterwards (and no /tmp/attractor-hil-PID.*
#            name stays, except after SIGKILL, which no handler sees: the kernel kills QEMU)
#   expect : (ARGS: CODE REGEX [--not REGEX] RUNNER-OPTIONS...) expect_exit.sh on the runner with --elf ELF:
#            input rules that need a real image (plant pairing, CSV errors)
#   pty    : QEMU with UART0 on a pseudo-terminal, the runner on it as on a serial device
#            (--serial, POSIX termios): the real-serial path, same image; passes on the runner's
#            exit 0 and the firmware's, or (HIL_EXPECT_RC=CODE HIL_EXPECT_FW_RC=CODE
#            HIL_EXPECT_LINE=REGEX) on those exit codes with a line of the output matching REGEX
#   replay : (ARGS: TICK, then runner options) one run with --record (must pass as `run`), then
#            --replay on the firmware and --replay --plant-only: both exit 0 (bit for bit); the
#            recording with bit 0 of byte 20 of the first answer from tick TICK on flipped
#            (recording_edit.py): --replay exits 10 naming that tick and byte, --plant-only exits
#            10 one tick later
#            (the plant under the torque held from the answer before); skips (77) without
#            Debian's /usr/bin/python3
#   relay  : (ARGS: SEED RATE FAULT_BYTES, then runner options) the --serial path through a faulty
#            line: QEMU's UART on a pseudo-terminal, pty_fault_relay.py between it and a second one
#            the runner opens (--serial, --faulty-line); the relay drops, flips and inserts bytes both
#            ways at RATE per byte (seeded, at most one per 1000 bytes, within the first FAULT_BYTES
#            bytes each way). QEMU runs without semihosting (as for the runner's UART link: the
#            firmware idles after the goodbye instead of ending QEMU, so the answer's last bytes
#            are not lost with the pty), and the relay is stopped after the runner. Passes when
#            the runner exits 0 (upright, never tripped, goodbye answered), the relay made faults
#            both ways and the runner and the firmware counted them. Then the same run killed
#            (SIGKILL to its shell, relay-run):
#            neither the relay nor QEMU may survive it
#   plots  : (ARGS start with the plot script) one run with --csv, then scripts/plots/hil.py:
#            both PNGs must exist, be larger than 20 kB and hold more than 50 colours (not blank);
#            skips (77) without Debian's /usr/bin/python3 + matplotlib
set -u
mode=$1 runner=$2 elf=$3; shift 3
# Every wait below polls for an event (QEMU started, a pty reported, a process gone) every 0.05 or
# 0.1 s; this many polls (60-120 s) is a deadlock guard only: each event comes in under 1 s idle.
guard_polls=1200
# Whether process $1 still runs. A zombie does not: it has exited and waits for its new parent
# (PID 1 once its own parent died) to reap it, which some inits do only every second or so.
running() {
  local st
  st=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${st#Z}" = "$st" ]
}
if [ ! -f "$elf" ]; then
  echo "skip: $elf missing (cmake --preset fw-m4f && cmake --build --preset fw-m4f --target $(basename "$elf" .elf))"
  exit 77
fi
case "$mode" in
  run) exec "$runner" --elf "$elf" "$@" ;;
  expect)
    code=$1 match=$2; shift 2
    forbid=()
    if [ "${1:-}" = "--not" ]; then forbid=(--not "$2"); shift 2; fi
    exec "$(dirname "$0")/expect_exit.sh" "$code" "$match" "${forbid[@]}" -- "$runner" --elf "$elf" "$@" ;;
  twice)
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    "$runner" --elf "$elf" --csv "$dir/a.csv" "$@" || exit 1
    "$runner" --elf "$elf" --csv "$dir/b.csv" "$@" || exit 1
    for f in a b; do sed 's/,[^,]*$//' "$dir/$f.csv" >"$dir/$f.ticks"; done
    [ "$(head -n 1 "$dir/a.csv" | sed 's/.*,//')" = round_trip_us ] || { echo "last CSV column is not round_trip_us"; exit 1; }
    if cmp "$dir/a.ticks" "$dir/b.ticks"; then
      echo "hil: two runs, identical CSV logs ($(wc -l < "$dir/a.csv") lines)"
    else
      diff "$dir/a.ticks" "$dir/b.ticks" | head -n 10
      exit 1
    fi ;;
  latency)
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    "$runner" --elf "$elf" --csv "$dir/a.csv" "$@" >"$dir/out" || { cat "$dir/out"; exit 1; }
    cat "$dir/out"
    ticks=$(sed -n 's/^hil: \([0-9]*\) ticks .*/\1/p' "$dir/out")
    awk -v ticks="$ticks" -F, '
      FNR == NR && /^hil: round trip / {
        n = split($0, w, " ")
        for (i = 1; i < n; ++i) v[w[i]] = w[i + 1] + 0
        p50 = v["p50"]; p99 = v["p99"]; p999 = v["p99.9"]; max = v["max"]; min = v["min"]; count = v["over"]
        seen = 1
      }
      FNR == NR && /^hil: round-trip histogram/ {
        n = split($0, w, " ")
        for (i = 5; i < n; i += 2) hist += w[i + 1]
      }
      FNR != NR && FNR > 1 && $NF != "" { ++rows; if ($NF + 0 > csvmax) csvmax = $NF + 0 }
      END {
        printf "latency check: min %d p50 %d p99 %d p99.9 %d max %d over %d of %d ticks; histogram %d; CSV %d values, max %d\n",
               min, p50, p99, p999, max, count, ticks, hist, rows, csvmax
        ok = seen && min > 0 && min <= p50 && p50 <= p99 && p99 <= p999 && p999 <= max && max < 10000000
        ok = ok && count >= 0.9 * ticks && count <= ticks && hist == count && rows == count && csvmax == max
        if (!ok) { print "latency check FAILED"; exit 1 }
      }' "$dir/out" "$dir/a.csv" || exit 1
    # the CSV's resets column ends at the boots the firmware announced since power-on (requested
    # and unrequested resets: docs/hil.md "A reset nobody asked for")
    awk -F, '
      FNR == NR && /^hil: firmware boot:/ { boots = $0; sub(/^hil: firmware boot: /, "", boots); boots += 0
        un = $0; sub(/.*; /, "", un); un += 0 }
      FNR != NR && FNR == 1 { for (i = 1; i <= NF; ++i) if ($i == "resets") col = i }
      FNR != NR && FNR > 1 && col { last = $col }
      END {
        printf "resets check: %d boots since power-on (%d unrequested), CSV resets column ends at %d\n", boots, un, last
        if (!col || last != boots || (un < 1 && ENVIRON["HIL_EXPECT_UNREQUESTED"] == "1")) { print "resets check FAILED"; exit 1 }
      }' "$dir/out" "$dir/a.csv" ;;
  budget)
    want_to=$1 want_back=$2; shift 2
    out=$("$runner" --elf "$elf" "$@" 2>&1) || { printf '%s\n' "$out" | tail -n 20; exit 1; }
    line=$(grep '^hil: wire:' <<<"$out")
    echo "$line"
    awk -v to="$want_to" -v back="$want_back" '
      { for (i = 1; i <= NF; ++i) { if ($i == "to" && t == "") t = $(i - 4); if ($i == "back" && b == "") b = $(i - 1) } }
      END { d1 = t - to; d2 = b - back; if (d1 < 0) d1 = -d1; if (d2 < 0) d2 = -d2
            printf "budget: %s to the firmware (documented %s), %s back (documented %s)\n", t, to, b, back
            if (t == "" || b == "" || d1 > 0.1 || d2 > 0.1) { print "budget FAILED"; exit 1 } }' <<<"$line" ;;
  silent)
    out=$("$runner" --elf "$elf" "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | tail -n 5
    [ "$rc" = 8 ] && printf '%s' "$out" | grep -q "the firmware stopped answering at tick" ;;
  signals)
    for sig in INT TERM HUP KILL; do
      "$runner" --elf "$elf" "$@" >/dev/null 2>&1 &
      rpid=$!
      qpid=""
      for _ in $(seq "$guard_polls"); do  # QEMU started and the run under way
        qpid=$(pgrep -P "$rpid" qemu-system-arm | head -n 1)
        [ -n "$qpid" ] && break
        sleep 0.05
      done
      [ -n "$qpid" ] || { echo "no QEMU child of the runner $rpid"; kill -KILL "$rpid"; exit 1; }
      sleep 0.5
      kill -"$sig" "$rpid"
      wait "$rpid"
      rc=$?
      gone=no
      for _ in $(seq "$guard_polls"); do
        if ! running "$qpid"; then gone=yes; break; fi
        sleep 0.05
      done
      left=$(ls /tmp/attractor-hil-"$rpid".* 2>/dev/null)
      echo "SIG$sig: runner exit $rc, QEMU $qpid gone: $gone, names left: ${left:-none}"
      [ "$gone" = yes ] || { kill -KILL "$qpid"; exit 1; }
      if [ "$sig" = KILL ]; then rm -f $left; elif [ -n "$left" ]; then exit 1; fi
      [ "$rc" -gt 128 ] || exit 1
    done ;;
  pty)
    log=$(mktemp)
    qemu-system-arm -M mps2-an386 -display none -monitor none -serial pty \
      -semihosting-config enable=on,target=native -icount shift=0,align=off,sleep=off -kernel "$elf" >"$log" 2>&1 &
    qpid=$!
    trap 'kill $qpid 2>/dev/null; rm -f "$log"' EXIT
    pts=""
    for _ in $(seq "$guard_polls"); do
      pts=$(grep -o '/dev/pts/[0-9]*' "$log" | head -n 1)
      [ -n "$pts" ] && break
      sleep 0.05
    done
    [ -n "$pts" ] || { echo "QEMU did not report its pseudo-terminal"; cat "$log"; exit 1; }
    out=$("$runner" --serial "$pts" --baud 115200 "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    wait $qpid
    qrc=$?
    tail -n 3 "$log"
    echo "[runner exit $rc, firmware exit $qrc]"
    if [ -n "${HIL_EXPECT_LINE:-}" ] && ! printf '%s\n' "$out" | grep -Eq -- "$HIL_EXPECT_LINE"; then
      echo "FAIL: no line matches /$HIL_EXPECT_LINE/"
      exit 1
    fi
    [ "$rc" = "${HIL_EXPECT_RC:-0}" ] && [ "$qrc" = "${HIL_EXPECT_FW_RC:-0}" ] ;;
  replay)
    tick=$1; shift
    [ -x /usr/bin/python3 ] || { echo "skip: /usr/bin/python3 missing"; exit 77; }
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    edit=$(dirname "$0")/recording_edit.py
    "$runner" --elf "$elf" --record "$dir/a.rec" "$@" >"$dir/out" 2>&1 || { cat "$dir/out"; exit 1; }
    grep '^hil: \(faults\|byte faults\|UPRIGHT\)' "$dir/out"
    /usr/bin/python3 "$edit" "$dir/a.rec" - summary
    expect() {  # CODE REGEX RUNNER-ARGS...
      local want=$1 match=$2 out rc
      shift 2
      out=$("$runner" "$@" 2>&1)
      rc=$?
      printf '%s\n' "$out" | grep -v '^skate-hil:\|^robot-hil:\|QEMU waiting\|icount sleep' | tail -n 2
      [ "$rc" = "$want" ] || { echo "exit $rc, expected $want"; exit 1; }
      printf '%s' "$out" | grep -q -- "$match" || { echo "no '$match'"; exit 1; }
    }
    expect 0 "^hil: replay: .* identical to" --elf "$elf" --replay "$dir/a.rec"
    expect 0 "^hil: replay --plant-only: .* identical to" --replay "$dir/a.rec" --plant-only
    flipped=$(/usr/bin/python3 "$edit" "$dir/a.rec" "$dir/t.rec" flip "$tick" 20) || exit 1
    echo "$flipped"
    tick=$(printf '%s' "$flipped" | sed -n 's/.* at tick \([0-9]*\) .*/\1/p')
    expect 10 "answer differs from the recording at tick $tick, byte 20 of the frame" --elf "$elf" --replay "$dir/t.rec"
    expect 10 "frame differs from the recording at tick $((tick + 1)), " --replay "$dir/t.rec" --plant-only ;;
  relay)
    [ -x /usr/bin/python3 ] || { echo "skip: /usr/bin/python3 missing"; exit 77; }
    "$0" relay-run "$runner" "$elf" "$@" || exit 1
    seed=$1 rate=$2; shift 3
    "$0" relay-run "$runner" "$elf" "$seed" "$rate" 100000000 --ticks 1000000 --timeout 5 >/dev/null 2>&1 &
    spid=$!
    rpid="" qpid=""
    for _ in $(seq "$guard_polls"); do
      rpid=$(pgrep -P "$spid" -f pty_fault_relay | head -n 1)
      [ -n "$rpid" ] && qpid=$(pgrep -P "$rpid" qemu-system-arm | head -n 1)
      [ -n "$qpid" ] && pgrep -P "$spid" -f attractor-hil >/dev/null && break
      sleep 0.05
    done
    [ -n "$qpid" ] || { echo "relay-run did not start its relay and QEMU"; kill -KILL "$spid" $rpid; exit 1; }
    runner_pid=$(pgrep -P "$spid" -f attractor-hil | head -n 1)
    sleep 1
    kill -KILL "$spid"
    wait "$spid" 2>/dev/null
    gone=no
    for _ in $(seq "$guard_polls"); do
      if ! running "$rpid" && ! running "$qpid"; then gone=yes; break; fi
      sleep 0.05
    done
    for _ in $(seq "$guard_polls"); do running "$runner_pid" || break; sleep 0.1; done
    runner_left=$(running "$runner_pid" && echo yes || echo no)
    echo "relay-run killed (SIGKILL): relay $rpid and QEMU $qpid gone: $gone; runner $runner_pid still running: $runner_left"
    [ "$runner_left" = no ] || kill -KILL "$runner_pid"
    [ "$gone" = yes ] || { kill -KILL "$rpid" "$qpid" 2>/dev/null; exit 1; }
    [ "$runner_left" = no ] ;;
  relay-run)
    seed=$1 rate=$2 fault_bytes=$3; shift 3
    dir=$(mktemp -d)
    rpid=""
    trap '[ -n "$rpid" ] && kill "$rpid" 2>/dev/null && wait "$rpid"; rm -rf "$dir"' EXIT
    trap 'exit 143' TERM INT HUP
    /usr/bin/python3 "$(dirname "$0")/pty_fault_relay.py" --seed "$seed" --rate "$rate" --fault-bytes "$fault_bytes" -- \
      qemu-system-arm -M mps2-an386 -display none -monitor none -serial pty \
      -icount shift=0,align=off,sleep=off -kernel "$elf" >"$dir/relay" 2>"$dir/log" &
    rpid=$!
    pts=""
    for _ in $(seq "$guard_polls"); do
      pts=$(sed -n 's|^relay: \(/dev/pts/[0-9]*\)$|\1|p' "$dir/relay" 2>/dev/null)
      [ -n "$pts" ] && break
      sleep 0.05
    done
    [ -n "$pts" ] || { echo "the relay did not report its pseudo-terminal"; cat "$dir/log"; exit 1; }
    "$runner" --serial "$pts" --baud 115200 --faulty-line "$@" >"$dir/out" 2>&1
    rc=$?
    kill "$rpid"
    wait "$rpid"
    rpid=""
    grep '^hil: \(link\|faulty line\|framing\|min Gamma3\|UPRIGHT\|FELL\)' "$dir/out"
    grep '^relay: to' "$dir/relay"
    grep -q '^hil: UPRIGHT' "$dir/out" || cat "$dir/out"
    awk -v rc="$rc" '
      /^relay: to firmware/ { m = split($0, w, /[ ;,]+/)
        for (i = 1; i < m; ++i) if (w[i] ~ /^(dropped|flipped|inserted)$/) n[++k] = w[i + 1]
        up = n[1] + n[2] + n[3]; down = n[4] + n[5] + n[6]
        qemu = w[m] }
      /^hil: faulty line:/ { rejected = $7; runner = $15 + $18 + $20 + $23 }
      END {
        printf "relay check: runner exit %d, QEMU %s; relay faults to firmware %d, to host %d; firmware rejected %d segments; runner saw %d corrupt answers/strays/delimiters/resends\n", rc, qemu, up, down, rejected, runner
        if (rc != 0 || qemu != "killed" || up < 1 || down < 1 || rejected < 1 || runner < 1) { print "relay check FAILED"; exit 1 }
      }' "$dir/relay" "$dir/out" ;;
  plots)
    plot=$1; shift
    py=/usr/bin/python3
    if ! "$py" -c "import matplotlib, numpy" 2>/dev/null; then echo "skip: $py with matplotlib missing"; exit 77; fi
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    "$runner" --elf "$elf" --csv "$dir/hil.csv" "$@" || exit 1
    "$py" "$plot" "$dir/hil.csv" "$dir/png" || exit 1
    for f in hil_skate.png hil_link.png; do
      [ -f "$dir/png/$f" ] || { echo "missing $f"; exit 1; }
      size=$(stat -c %s "$dir/png/$f")
      colours=$("$py" -c "import sys, numpy as n, matplotlib.image as m; i = m.imread(sys.argv[1]); print(len(n.unique(i.reshape(-1, i.shape[-1]), axis=0)))" "$dir/png/$f")
      echo "hil: $f $size bytes, $colours colours"
      [ "$size" -gt 20000 ] && [ "$colours" -gt 50 ] || { echo "$f looks blank"; exit 1; }
    done ;;
  *) echo "hil_qemu.sh: unknown mode $mode"; exit 2 ;;
esac
