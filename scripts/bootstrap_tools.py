#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""bootstrap_tools.py DIR PACKAGE...: makes DIR a folder of links to the programs that a fresh
Debian 12 machine has after scripts/bootstrap, and to no other program on this machine.

Those programs are the ones owned by Debian's required and essential packages (what every Debian
system has), by the PACKAGEs bootstrap installs, and by every package those depend on. The suite
runs with PATH=DIR (scripts/run-tests), so a test that needs a program bootstrap does not install
(ccache, a second python3 first on PATH, a tool installed by hand) fails on every machine, not
only on a fresh one (docs/testing.md, "One environment").

DIR must not exist, or be a folder this script made before (it holds the marker file below): only
then is it emptied and filled. Exit codes: 0 done, 1 dpkg's database could not be read, 2 usage.
"""
import os
import re
import subprocess
import sys

MARKER = ".attractor-bootstrap-tools"
# Where programs are looked for (the test points it at a folder of its own).
BIN_DIRS = tuple(os.environ.get("ATTRACTOR_BOOTSTRAP_BIN_DIRS", "/usr/bin:/usr/sbin:/bin:/sbin").split(":"))


def usage(message):
    print(f"bootstrap_tools: {message}\nusage: bootstrap_tools.py DIR PACKAGE...", file=sys.stderr)
    sys.exit(2)


def installed_packages():
    """name -> (essential or required, [alternative groups of dependencies], [provided names])."""
    fmt = "${Package}\\t${Status}\\t${Essential}\\t${Priority}\\t${Pre-Depends}, ${Depends}\\t${Provides}\\n"
    out = subprocess.run(["dpkg-query", "-W", "-f", fmt], capture_output=True, text=True, check=True).stdout
    packages = {}
    for line in out.splitlines():
        name, status, essential, priority, depends, provides = (line.split("\t") + [""] * 6)[:6]
        if not status.endswith(" installed"):
            continue
        groups = []
        for group in depends.split(","):
            alts = [re.split(r"[ :(]", a.strip(), maxsplit=1)[0] for a in group.split("|")]
            alts = [a for a in alts if a]
            if alts:
                groups.append(alts)
        provided = [re.split(r"[ (]", p.strip(), maxsplit=1)[0] for p in provides.split(",") if p.strip()]
        packages[name] = (essential == "yes" or priority == "required", groups, provided)
    return packages


def closure(packages, roots):
    """The installed packages reachable from roots through (pre-)dependencies."""
    providers = {}
    for name, (_, _, provided) in packages.items():
        for p in provided:
            providers.setdefault(p, []).append(name)
    seen, todo = set(), [r for r in roots if r in packages]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for group in packages[name][1]:
            for alt in group:  # every installed alternative: any of them may be the one used
                todo += [a for a in [alt] + providers.get(alt, []) if a in packages and a not in seen]
    return seen


def owned_files(names):
    files = set()
    info = "/var/lib/dpkg/info"
    for entry in os.listdir(info):
        if entry.endswith(".list") and entry[:-5].split(":")[0] in names:
            with open(os.path.join(info, entry), encoding="utf-8", errors="replace") as f:
                files.update(os.path.realpath(line.rstrip("\n")) for line in f if line.strip())
    return files


def main(argv):
    if len(argv) < 3 or argv[1].startswith("-"):
        usage("needs a folder and at least one package")
    target = os.path.abspath(argv[1])
    if os.path.lexists(target) and not os.path.isfile(os.path.join(target, MARKER)):
        usage(f"{argv[1]} exists and was not made by this script: not touched")
    try:
        packages = installed_packages()
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"bootstrap_tools: dpkg's database could not be read: {e}", file=sys.stderr)
        return 1
    missing = [p for p in argv[2:] if p not in packages]
    if missing:
        usage(f"not installed (run scripts/bootstrap first): {' '.join(missing)}")
    base = [n for n, (required, _, _) in packages.items() if required]
    allowed = owned_files(closure(packages, base + argv[2:]))
    links = {}
    for d in BIN_DIRS:
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            path = os.path.join(d, name)
            if (name not in links and os.path.isfile(path) and os.access(path, os.X_OK)
                    and os.path.realpath(path) in allowed):
                links[name] = path
    os.makedirs(target, exist_ok=True)
    for name in os.listdir(target):
        if name != MARKER:
            os.unlink(os.path.join(target, name))
    for name, path in links.items():
        os.symlink(path, os.path.join(target, name))
    with open(os.path.join(target, MARKER), "w", encoding="utf-8") as f:
        f.write("made by scripts/bootstrap --tools-dir; safe to delete\n")
    print(f"bootstrap: {len(links)} programs in {argv[1]} (PATH for the suite)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
