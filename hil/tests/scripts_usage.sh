#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts_usage.sh ROOT SIM TMP: every script of ROOT/scripts given bad arguments or settings
# exits 2 with its usage text before it builds, creates or deletes anything: a folder of TMP with
# a file in it, passed where a script writes or deletes, still holds that file afterwards. And
# -h prints each script's usage (exit 0). Prints one line per case; exit 1 on the first failure.
set -euo pipefail
root=$1 sim=$2 tmp=$3
rm -rf "$tmp"
mkdir -p "$tmp/keep"
echo precious >"$tmp/keep/data.md"
fail() {
  echo "FAIL: $*"
  exit 1
}
# expect CODE ENV... -- SCRIPT ARGS...: exit code CODE (60 s at most), keep/data.md intact.
expect() {
  local code=$1 envs=()
  shift
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local rc=0
  out=$(cd "$tmp" && env ${envs[@]+"${envs[@]}"} timeout 60 "$@" 2>&1 </dev/null) || rc=$?
  echo "exit $rc: ${envs[*]+${envs[*]} }${*#$root/}"
  [ "$rc" = "$code" ] || fail "exit code $rc, expected $code; output: $(printf '%s' "$out" | head -n 5)"
  [ "$(cat "$tmp/keep/data.md" 2>/dev/null)" = precious ] || fail "keep/data.md was deleted or changed"
  # a here-string, not a pipe: grep -q may exit before printf has written all, which pipefail fails
  if [ "$code" = 2 ]; then grep -q "usage" <<<"$out" || fail "no usage text: $out"; fi
}
s=$root/scripts
runs=$root/hil/tests/robustness_runs.txt
py=/usr/bin/python3
# robustness: a typo anywhere never deletes --work; a missing value is exit 2, not "unbound"
expect 2 -- "$s/robustness" --runs --work keep
expect 2 -- "$s/robustness" --work keep --runs "$runs" --sim "$sim" --bogus
expect 2 -- "$s/robustness" --work keep --runs "$runs" --sim "$sim"
expect 2 -- "$s/robustness" --work keep/data.md --runs "$runs" --sim "$sim"
expect 2 -- "$s/robustness" --work keep --runs nofile --sim "$sim"
expect 2 -- "$s/robustness" --work new --runs "$runs" --sim "$tmp/keep/attractor-sim"
expect 2 -- "$s/robustness" --work new --runs "$runs" --sim "$tmp/keep"
expect 2 -- "$s/robustness" --work new --runs "$runs" --sim "$sim" --out keep
expect 2 JOBS=0 -- "$s/robustness" --work keep --runs "$runs" --sim "$sim"
expect 2 -- "$s/robustness" --sim
[ ! -e "$tmp/new" ] || fail "robustness created --work before validating"
# bench: --out checked before bootstrap and the build
expect 2 -- "$s/bench" --out
expect 2 -- "$s/bench" --out "$tmp/missing/BENCH.md"
expect 2 -- "$s/bench" --out keep
expect 2 -- "$s/bench" --quick --bogus
# run-hil, soak, run-main: settings before the build (TICKS=0 is no run)
expect 2 TICKS=0 -- "$s/run-hil"
expect 2 TICKS=12x -- "$s/run-hil"
expect 2 FAULT_EVERY=-1 -- "$s/run-hil"
expect 2 PLANT=wheel -- "$s/run-hil"
expect 2 PLOTS=keep/data.md -- "$s/run-hil"
expect 2 TICKS=0 OUT=keep -- "$s/soak"
expect 2 OUT=keep/data.md/x -- "$s/soak"
expect 2 LINK=tcp OUT=keep -- "$s/soak"
expect 2 OUT=keep -- "$s/soak" extra
expect 2 MODE=sil -- "$s/run-main" extra
expect 2 MODE=x -- "$s/run-main"
expect 2 BOARD=nowhere -- "$s/run-main"
expect 2 BOARD=netduinoplus2 MODE=hil -- "$s/run-main"
# format: no file formatted on a bad path or option
expect 2 -- "$s/format" --bogus
expect 2 -- "$s/format" --check "$tmp/missing.cpp"
# format: only C++ files of the tree; a folder without one is no empty list (clang-format would
# read stdin). In a scratch tree (a copy of the script), so that a broken check rewrites a copy.
tree=$tmp/tree
mkdir -p "$tree/scripts" "$tree/docs"
cp "$s/format" "$s/run-tests" "$tree/scripts/"
cp "$root/CMakePresets.json" "$root/CMakeLists.txt" "$tree/"
echo "# Title" >"$tree/README.md"
cp "$tree/README.md" "$tmp/keep/readme.orig"
printf '#!/bin/sh\ntouch "%s/bootstrapped"\nexit 1\n' "$tmp" >"$tree/scripts/bootstrap"
chmod +x "$tree/scripts/bootstrap"
expect 2 -- "$tree/scripts/format" README.md
expect 2 -- "$tree/scripts/format" --check README.md
expect 2 -- "$tree/scripts/format" /etc/hostname
expect 2 -- "$tree/scripts/format" "$tmp/keep/data.md"
expect 2 -- "$tree/scripts/format" docs
cmp -s "$tree/README.md" "$tmp/keep/readme.orig" || fail "format rewrote README.md"
# run-tests: presets, options and JOBS before bootstrap and any build (its bootstrap here a stub
# that leaves a mark)
expect 2 -- "$tree/scripts/run-tests" bogus
expect 2 -- "$tree/scripts/run-tests" fw-base
expect 2 -- "$tree/scripts/run-tests" -j4
expect 2 -- "$tree/scripts/run-tests" host host
expect 2 -- "$tree/scripts/run-tests" host-asan --bogus
expect 2 JOBS=abc -- "$tree/scripts/run-tests" host
expect 2 JOBS=0 -- "$tree/scripts/run-tests"
expect 2 JOBS=-3 -- "$tree/scripts/run-tests" host
expect 2 ATTRACTOR_TEST_PATH=mine -- "$tree/scripts/run-tests" host
[ ! -e "$tmp/bootstrapped" ] || fail "run-tests ran bootstrap before validating"
[ ! -e "$tree/build" ] || fail "run-tests created build/ before validating"
out=$("$tree/scripts/run-tests" --help) || fail "run-tests --help exited $?"
grep -q "^usage: scripts/run-tests" <<<"$out" || fail "run-tests --help: $out"
[ ! -e "$tmp/bootstrapped" ] || fail "run-tests --help ran bootstrap"
echo "run-tests --help: usage, nothing run"
# mutate: the list a regular file (no folder, device or FIFO: no hang), its entries files of the
# tree, the report not the list
list=$root/host-tests/mutants.tsv
mkfifo "$tmp/list.fifo"
expect 6 -- "$s/mutate" --check --list "$tmp/keep"
expect 6 -- "$s/mutate" --check --list /dev/zero
expect 6 -- "$s/mutate" --check --list "$tmp/list.fifo"
for entry in ../../etc/hostname /etc/hostname "lib/../../$(basename "$root")/README.md"; do
  printf '%s\tx\ty\tcore_tests\twhy\n' "$entry" >"$tmp/outside.tsv"
  expect 5 -- "$s/mutate" --check --list "$tmp/outside.tsv"
  grep -q "is not a file of the tree" <<<"$out" || fail "mutate took $entry: $out"
done
# the tests field: suites, the host tools' executables (NAME:FILTER too), ctest:REGEX@TARGET[+...]
entry=$'lib/include/attractor/rt/stats.hpp\tif (rank < 1u) rank = 1u;\t(void)0;\t%s\twhy\n'
for item in nosuch_test hil_cli_test: crosscheck:x ctest:x ctest:@attractor-sim ctest:x@ 'ctest:(@attractor-sim' \
  ctest:x@nosuch ctest:x@attractor-sim+ ctest:x@+attractor-sim; do
  # shellcheck disable=SC2059  # the entry is the format
  printf "$entry" "$item" >"$tmp/items.tsv"
  expect 5 -- "$s/mutate" --check --list "$tmp/items.tsv"
done
for item in 'hil_cli_test:Recording.*' 'hil_sim_test wire_reference_test runtime_tests' \
  'ctest:^tools\.cli\.h_@attractor-sim+hil_cli_test'; do
  # shellcheck disable=SC2059
  printf "$entry" "$item" >"$tmp/items.tsv"
  expect 0 -- "$s/mutate" --check --list "$tmp/items.tsv"
done
cp "$list" "$tmp/keep/list.tsv"
expect 2 -- "$s/mutate" --check --list "$tmp/keep/list.tsv" --report "$tmp/keep/list.tsv"
cmp -s "$list" "$tmp/keep/list.tsv" || fail "mutate --report emptied the list"
ln "$tmp/keep/list.tsv" "$tmp/keep/hard.tsv"
expect 2 -- "$s/mutate" --check --list "$tmp/keep/list.tsv" --report "$tmp/keep/hard.tsv"
cmp -s "$list" "$tmp/keep/list.tsv" || fail "mutate --report emptied the list (a hard link)"
# Python tools: exit 2 with the usage, no traceback
expect 2 -- "$py" "$s/accuracy_runs.py" "$tmp/keep/none" "$tmp/keep/data.md" "$tmp/keep/data.md"
expect 2 -- "$py" "$s/accuracy_runs.py" "$sim" "$tmp/keep/data.md" "$tmp/keep/out.csv" --jobs 0
expect 2 -- "$py" "$s/accuracy_per_cost.py" plot "$tmp/missing" "$tmp/img"
expect 2 -- "$py" "$s/robustness.py" collect "$tmp/keep" --md
expect 2 -- "$py" "$s/robustness.py" collect "$tmp/missing" --md "$tmp/keep/data.md"
expect 2 -- "$py" "$s/plots/hil.py" "$tmp/missing.csv"
expect 2 -- "$py" "$s/plots/hil.py" "$tmp/keep/data.md" "$tmp/keep/data.md"
expect 2 -- "$py" "$s/plots/skate.py" "$tmp/keep"
expect 2 -- "$py" "$s/plots/holonomic.py" "$tmp/keep"
[ ! -e "$tmp/keep/out.csv" ] || fail "accuracy_runs.py wrote its CSV before validating"
# -h: the script's own usage text, exit 0
for x in robustness bench run-hil soak run-main format; do
  out=$("$s/$x" -h) || fail "$x -h exited $?"
  grep -q "^usage: .*$x" <<<"$out" || fail "$x -h does not print its usage: $out"
  echo "$x -h: usage"
done
for x in plots/hil.py accuracy_per_cost.py; do  # (the plots share one usage pattern; matplotlib takes 1.5 s to import)
  out=$("$py" "$s/$x" -h) || fail "$x -h exited $?"
  grep -q "usage" <<<"$out" || fail "$x -h does not print its usage"
  echo "$x -h: usage"
done
echo "all scripts refused bad usage and kept the data"
