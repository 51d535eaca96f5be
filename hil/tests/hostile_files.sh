#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# hostile_files.sh MODE TMP ARGS...: hostile files and streams given to the host tools; each case
# checks the documented exit code and message, and that the folder TMP/keep (the inputs and the
# files a hostile option names) is unchanged afterwards: no file in it written, deleted or added,
# no program run (a program named would add a file there). One line per case; exit 1 on the
# first failure, 77 (skip) when a firmware image is missing.
#   recording HIL            a recording is data: only its recorded keys, each once, no file or
#                            program named; --replay only on a regular file within 1 GiB
#   outputs HIL SIM PAPER    an output naming an input, another output or stdout's file
#   streams HIL SIM PAPER    stdout closed: exit 6 before anything runs (nothing created)
#   qemu HIL ELF FOREIGN     QEMU's early exit while a frame is awaited (exit 9 with QEMU's own
#                            message, no wait for --timeout), the firmware's BOARD MISMATCH
#                            report on either link (exit 11), a wrapper's children killed with
#                            QEMU, stderr closed keeps QEMU's lines out of the CSV
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 tmp=$2
shift 2
rm -rf "$tmp"
mkdir -p "$tmp/keep"
cd "$tmp"
fail() {
  echo "FAIL: $*"
  exit 1
}
edit() { /usr/bin/python3 "$here/recording_edit.py" "$@"; }
# every name in keep/ with its type, size and link target, and the content of the small files
snapshot() { (cd keep && find . -printf '%p %y %s %l\n' | sort && find . -type f -size -10M -print0 | sort -z | xargs -0 -r md5sum); }
echo precious >keep/victim
# expect CODE REGEX -- COMMAND...: exit code CODE (the 60 s limit is a deadlock guard), output
# matching REGEX, keep/ as it was.
expect() {
  local code=$1 match=$2 rc=0 before out
  shift 3
  before=$(snapshot)
  out=$(timeout 60 "$@" 2>&1 </dev/null) || rc=$?
  echo "exit $rc: ${*##*/}"
  [ "$rc" = "$code" ] || fail "exit code $rc, expected $code: $(printf '%s' "$out" | tail -n 3)"
  printf '%s' "$out" | grep -Eq -- "$match" || fail "output does not match /$match/: $(printf '%s' "$out" | tail -n 3)"
  [ "$(snapshot)" = "$before" ] || fail "keep/ changed: $(diff <(echo "$before") <(snapshot) | head -n 5)"
}
# A program a hostile file might name: it would leave keep/ran behind.
printf '#!/bin/sh\ntouch "%s/keep/ran"\n' "$tmp" >keep/prog
chmod +x keep/prog

case "$mode" in
  recording)
    hil=$1
    rec() { edit - keep/r.rec make "$1"; }
    not_recorded="not a recorded option"
    for key in "csv=keep/victim" "record=keep/victim" "qemu=keep/prog" "elf=keep/victim" "serial=keep/victim" \
               "replay=keep/r.rec" "config=keep/victim" "timeout=1" "progress=1" "answer-timeout=5"; do
      rec "$key"
      expect 2 "--replay: 'keep/r.rec' has the key '${key%%=*}' in its options, $not_recorded .*[(]byte 16[)]" \
        -- "$hil" --replay keep/r.rec --plant-only
    done
    # the image the file names is not used: the command line's (missing) one is what is checked
    rec "elf=keep/victim"
    expect 2 "has the key 'elf'" -- "$hil" --replay keep/r.rec --elf keep/missing.elf
    rec "qemu=keep/prog"
    expect 2 "has the key 'qemu'" -- "$hil" --replay keep/r.rec --elf keep/victim
    # the byte offset is the line's in the file (16-byte header, then the text)
    rec "# a comment\nplant=skate\ncsv=keep/victim"
    expect 2 "has the key 'csv' .*[(]byte 40[)]" -- "$hil" --replay keep/r.rec --plant-only
    rec "no equals sign"
    expect 2 "has a line in its options, $not_recorded .*[(]byte 16[)]" -- "$hil" --replay keep/r.rec --plant-only
    rec "ticks=5\nticks=6"
    expect 2 "gives 'ticks' twice [(]byte 24[)]" -- "$hil" --replay keep/r.rec --plant-only
    rec "plant=  "
    expect 2 "'plant' is empty [(]byte 16[)]" -- "$hil" --replay keep/r.rec --plant-only
    rec "ticks=s3cr3t"
    expect 2 "--ticks: the value on --replay keep/r.rec [(]byte 16[)] is not a number" -- "$hil" --replay keep/r.rec --plant-only
    # a recorded key is checked as on the command line: QEMU's -M takes no properties (dumpdtb=FILE)
    rec "machine=mps2-an386,dumpdtb=keep/dtb"
    expect 2 "--machine: the value on --replay .* is not a machine name" -- "$hil" --replay keep/r.rec --elf keep/victim
    expect 2 "--machine: 'mps2-an386,dumpdtb=keep/dtb' is not a machine name" -- "$hil" --elf keep/victim --machine mps2-an386,dumpdtb=keep/dtb
    # a config file is data too: no option naming a file or a program
    for key in csv record elf qemu replay serial; do
      printf '%s=keep/victim\n' "$key" >keep/c.conf
      expect 2 "line 1: --$key names a file or a program: a config file is data" -- "$hil" --config keep/c.conf
    done
    # --replay: a regular file only, never opened otherwise (a FIFO would block the open), never
    # read beyond its header when that is wrong, never larger than 1 GiB
    mkfifo keep/fifo
    expect 6 "--replay: 'keep/fifo' is not a regular file" -- "$hil" --replay keep/fifo --plant-only
    ln -s fifo keep/fifo-link
    expect 6 "--replay: 'keep/fifo-link' is not a regular file" -- "$hil" --replay keep/fifo-link --plant-only
    expect 6 "--replay: '/dev/zero' is not a regular file" -- "$hil" --replay /dev/zero --plant-only
    expect 6 "--replay: 'keep' is not a regular file" -- "$hil" --replay keep --plant-only
    truncate -s 1073741825 keep/huge.rec  # sparse: no disk used
    expect 2 "--replay: 'keep/huge.rec' is 1073741825 bytes, over the 1 GiB" -- "$hil" --replay keep/huge.rec --plant-only
    # within the bound but no recording: refused on its header, the 1 GiB never read (the
    # runner's peak memory stays far below it)
    truncate -s 1073741824 keep/zeros.rec
    before=$(snapshot)
    /usr/bin/time -f '%M' -o rss "$hil" --replay keep/zeros.rec --plant-only >/dev/null 2>&1 || true
    rss=$(tail -n 1 rss)
    [ "$rss" -lt 262144 ] || fail "a 1 GiB non-recording took $rss kB: read before its header was checked"
    [ "$(snapshot)" = "$before" ] || fail "keep/ changed"
    expect 2 "'keep/zeros.rec' is not an attractor-hil recording .no ATTRHILR magic. .byte 0." -- "$hil" --replay keep/zeros.rec --plant-only
    echo "zeros.rec: refused on its header, peak $rss kB"
    ;;
  outputs)
    hil=$1 sim=$2 paper=$3
    printf 'not an image\n' >keep/fw.elf
    ln keep/fw.elf keep/hard.elf
    ln -s fw.elf keep/sym.elf
    ln -s not-there keep/dangling
    expect 2 "--record 'keep/fw.elf' is the file of --elf 'keep/fw.elf' [(]an input[)]" -- "$hil" --elf keep/fw.elf --record keep/fw.elf
    expect 2 "--csv 'keep/fw.elf' is the file of --elf 'keep/fw.elf' [(]an input[)]" -- "$hil" --elf keep/fw.elf --csv keep/fw.elf
    expect 2 "--csv 'keep/hard.elf' is the file of --elf 'keep/fw.elf'" -- "$hil" --elf keep/fw.elf --csv keep/hard.elf
    expect 2 "--record 'keep/sym.elf' is the file of --elf 'keep/fw.elf'" -- "$hil" --elf keep/fw.elf --record keep/sym.elf
    expect 2 "--record 'keep/new' is the file of --csv 'keep/new' [(]another output[)]" -- "$hil" --elf keep/fw.elf --csv keep/new --record keep/new
    expect 2 "--record 'keep/./new' is the file of --csv 'keep/new'" -- "$hil" --elf keep/fw.elf --csv keep/new --record keep/./new
    expect 2 "--record 'keep/not-there' is the file of --csv 'keep/dangling'" -- "$hil" --elf keep/fw.elf --csv keep/dangling --record keep/not-there
    expect 2 "--csv 'keep/prog' is the file of --qemu 'keep/prog'" -- "$hil" --elf keep/fw.elf --qemu keep/prog --csv keep/prog
    expect 2 "--csv 'keep/victim' is the file of --serial 'keep/victim'" -- "$hil" --serial keep/victim --csv keep/victim
    qemu=$(command -v qemu-system-arm || true)
    if [ -n "$qemu" ]; then
      expect 2 "--csv '$qemu' is the file of --qemu [(]default[)]" -- "$hil" --elf keep/fw.elf --csv "$qemu"
    fi
    printf 'ticks=5\n' >keep/c.conf
    ln keep/c.conf keep/c-hard.conf
    expect 2 "--csv 'keep/c-hard.conf' is the file of --config 'keep/c.conf'" -- "$hil" --config keep/c.conf --elf keep/fw.elf --csv keep/c-hard.conf
    printf 'T=0.01\n' >keep/s.conf
    ln -s s.conf keep/s-link.conf
    expect 2 "--csv 'keep/s-link.conf' is the file of --config 'keep/s.conf'" -- "$sim" skate --config keep/s.conf --csv keep/s-link.conf
    expect 2 "--csv 'keep/s.conf' is the file of --config 'keep/s.conf'" -- "$sim" spherical-robot --config keep/s.conf --csv keep/s.conf
    expect 2 "--csv 'keep/s.conf' is the file of --config" -- "$sim" chaplygin-sphere --config keep/s.conf --csv keep/s.conf
    # the file standard output goes to (opened by the shell, so it is the one thing created)
    expect 2 "--csv 'log' is the file standard output goes to" -- sh -c '"$0" skate --T 0.01 --csv log >log' "$sim"
    [ ! -s log ] || fail "log was written"
    expect 2 "--csv 'keep/../elog' is the file standard error goes to" -- sh -c '"$0" --elf keep/fw.elf --csv keep/../elog 2>elog; r=$?; cat elog; exit $r' "$hil"
    ;;
  streams)
    hil=$1 sim=$2 paper=$3
    closed="error writing standard output: it is closed [(]nothing was run[)]"
    expect 6 "attractor-sim: $closed" -- sh -c '"$0" skate --T 0.01 --json --csv keep/out.csv >&-' "$sim"
    expect 6 "attractor-sim: $closed" -- sh -c '"$0" --help >&-' "$sim"
    expect 6 "attractor-paper: $closed" -- sh -c '"$0" skate --out keep/out >&-' "$paper"
    printf 'not an image\n' >keep/fw.elf
    expect 6 "attractor-hil: $closed" -- sh -c '"$0" --elf keep/fw.elf --csv keep/out.csv >&-' "$hil"
    expect 6 "attractor-hil: $closed" -- sh -c '"$0" --replay keep/none.rec --plant-only >&-' "$hil"
    ;;
  qemu)
    hil=$1 elf=$2 foreign=$3
    for f in "$elf" "$foreign"; do
      [ -f "$f" ] || { echo "skip: $f missing (cmake --preset fw-m4f and build it)"; exit 77; }
    done
    # Another board's image locks the core up at once: QEMU aborts with its own message, noticed
    # while the runner waits for the hello (--timeout 600 would outlast the test's limit)
    expect 9 "while the runner waited for a frame at tick 0: QEMU was killed by signal 6: qemu: fatal: Lockup" \
      -- "$hil" --elf "$foreign" --ticks 5 --timeout 600
    expect 9 "before the firmware opened the link FIFO: QEMU was killed by signal 6: qemu: fatal: Lockup" \
      -- "$hil" --elf "$foreign" --link semihost --ticks 5 --timeout 600
    # The image of another MPS2 board (mps2-an386's on the M3 of mps2-an385): the firmware's own
    # report at reset, on the UART link (no semihosting: the line comes over the UART) and over
    # semihosting (QEMU's stderr, then QEMU exits 3), both the wrong firmware
    mismatch="wrong firmware for this machine: it reports 'BOARD MISMATCH: image built for mps2-an386 .*running on CPUID 0x410fc231"
    expect 11 "$mismatch" -- "$hil" --elf "$elf" --machine mps2-an385 --ticks 5 --timeout 600
    expect 11 "$mismatch" -- "$hil" --elf "$elf" --machine mps2-an385 --link semihost --ticks 5 --timeout 600
    printf '#!/bin/sh\necho "qemu-wrapper: no licence for this machine" >&2\nexit 3\n' >wrapper-fails
    chmod +x wrapper-fails
    expect 9 "QEMU exited with code 3: qemu-wrapper: no licence for this machine" -- "$hil" --elf "$elf" --qemu ./wrapper-fails
    # A wrapper that does not exec: its children are QEMU's group, killed when the leader ends
    running() { local st; st=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${st#Z}" = "$st" ]; }
    for end in "exit 3" 'qemu-system-arm "$@"'; do
      printf '#!/bin/sh\nsleep 300 &\necho $! >"%s/sleep.pid"\n%s\n' "$tmp" "$end" >wrapper
      chmod +x wrapper
      rc=0
      timeout 60 "$hil" --elf "$elf" --qemu ./wrapper --link semihost --ticks 20 >out 2>&1 || rc=$?
      pid=$(cat sleep.pid)
      ! running "$pid" || { kill "$pid"; fail "the wrapper's child $pid outlived the runner (exit $rc, wrapper: $end)"; }
      echo "exit $rc: wrapper '$end': its child gone"
    done
    # stderr closed: QEMU's messages do not go into the CSV (fd 2 is /dev/null, not the CSV)
    rc=0
    timeout 60 "$hil" --elf "$elf" --ticks 5 --csv run.csv >/dev/null 2>&- || rc=$?
    [ "$rc" = 0 ] || fail "run with stderr closed: exit $rc"
    ! grep -qiE "qemu|warning|waiting" run.csv || fail "QEMU's messages in the CSV: $(grep -iE 'qemu|warning' run.csv | head -n 2)"
    [ "$(head -c 5 run.csv)" = "tick," ] || fail "the CSV does not start with its header"
    echo "exit 0: stderr closed, CSV clean ($(wc -l <run.csv) lines)"
    ;;
  *) fail "unknown mode $mode" ;;
esac
echo "all $mode cases refused as documented, keep/ unchanged"
