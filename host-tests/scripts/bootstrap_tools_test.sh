#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bootstrap_tools_test.sh ROOT TMP: scripts/bootstrap_tools.py (the suite's PATH) links the
# programs of bootstrap's packages and of Debian's required ones, and nothing that no installed
# package owns (what /usr/local/bin holds here, or a program dropped by hand); it refuses a folder it
# did not make, and an unknown or uninstalled package, with exit 2 and nothing touched.
set -euo pipefail
root=$1 tmp=$2
py=/usr/bin/python3 tool=$root/scripts/bootstrap_tools.py
rm -rf "$tmp"
mkdir -p "$tmp/keep"
echo precious >"$tmp/keep/data"
fail() { echo "FAIL: $*"; exit 1; }
expect_usage() {  # ARGS...: exit 2, keep/data intact
  local rc=0
  "$py" "$tool" "$@" >"$tmp/out" 2>&1 || rc=$?
  [ "$rc" = 2 ] || fail "exit $rc, expected 2 for: $*: $(cat "$tmp/out")"
  [ "$(cat "$tmp/keep/data")" = precious ] || fail "keep/data changed by: $*"
  echo "exit 2: $*"
}
expect_usage "$tmp/keep" bash
expect_usage "$tmp/new"
expect_usage "$tmp/new" no-such-package-attractor
[ ! -e "$tmp/new" ] || fail "a refused call made $tmp/new"
# The packages scripts/bootstrap installs, read from the script itself.
mapfile -t pkgs < <(sed -n '/^PACKAGES=(/,/^)/p' "$root/scripts/bootstrap" | sed 's/#.*//; s/PACKAGES=(//; s/)//' | tr -s ' \t' '\n' | grep .)
[ "${#pkgs[@]}" -gt 10 ] || fail "read only ${#pkgs[@]} packages from scripts/bootstrap"
"$py" "$tool" "$tmp/path" "${pkgs[@]}" || fail "exit $? on bootstrap's ${#pkgs[@]} packages"
for p in bash sh env cmake ctest clang++ arm-none-eabi-gcc qemu-system-arm python3 git ps timeout; do
  [ -x "$tmp/path/$p" ] || fail "$p is not in the folder"
done
[ "$(readlink -f "$tmp/path/python3")" = "$(readlink -f /usr/bin/python3)" ] || fail "python3 is not Debian's"
# Nothing that no package owns: every link's target is known to dpkg (which records merged-/usr
# paths as /bin/..., /sbin/...: both spellings are asked, one call).
for l in "$tmp/path"/*; do readlink -f "$l"; done | sort -u >"$tmp/targets"
n=$(wc -l <"$tmp/targets")
# shellcheck disable=SC2046
{ dpkg -S $(sed 's|^/usr/|/|' "$tmp/targets") $(cat "$tmp/targets") 2>/dev/null || true; } | sed 's/^.*: //' |
  sed 's#^/\(bin\|sbin\|lib\)/#/usr/\1/#' | sort -u >"$tmp/owned"
unowned=$(comm -23 "$tmp/targets" "$tmp/owned" | head -n 5)
[ -z "$unowned" ] || fail "no package owns: $unowned"
for f in /usr/local/bin/* /usr/local/sbin/*; do
  [ -e "$f" ] || continue
  [ ! -e "$tmp/path/$(basename "$f")" ] || [ "$(readlink -f "$tmp/path/$(basename "$f")")" != "$(readlink -f "$f")" ] ||
    fail "$f (installed by hand) is in the folder"
done
# Programs of a folder of the test's own: a link to bash (bash's package owns its target) is taken,
# a program no package owns (as ccache or a pyenv shim installed by hand) and a link to one are not.
mkdir -p "$tmp/bin"
ln -s /usr/bin/bash "$tmp/bin/bash"
printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/ccache"
chmod +x "$tmp/bin/ccache"
ln -s "$tmp/bin/ccache" "$tmp/bin/python3"
ATTRACTOR_BOOTSTRAP_BIN_DIRS=$tmp/bin "$py" "$tool" "$tmp/own" bash >/dev/null || fail "exit $? on the test's folder"
[ -x "$tmp/own/bash" ] || fail "bash (owned by a package) is not in the folder"
[ ! -e "$tmp/own/ccache" ] && [ ! -e "$tmp/own/python3" ] || fail "a program no package owns is in the folder"
# A folder it made is emptied and filled again.
touch "$tmp/path/stale-link"
"$py" "$tool" "$tmp/path" bash >/dev/null || fail "a second run on its own folder failed"
[ ! -e "$tmp/path/stale-link" ] || fail "the second run kept a link it did not make"
[ -x "$tmp/path/bash" ] && [ ! -e "$tmp/path/qemu-system-arm" ] || fail "the second run is not bash's closure alone"
echo "bootstrap's folder: $n programs, every one owned by a package"
rm -rf "$tmp"
