#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that the documentation stays true to the tree.

usage: check_docs.py paths  REPO   every repository path a doc names exists
       check_docs.py issues REPO   no issue numbers in lib/ hil/ apps/ boards/ docs/
       check_docs.py outside REPO  no file outside the repository named in the tree
       check_docs.py counts REPO   docs/adding-a-plant.md's line counts are the files'

paths: docs/README.md links every document; in README.md and docs/**/*.md, a path is a Markdown link target (relative to the doc),
or a word starting with a top-level folder or file of this repository (`lib/...`, `docs/x.md`,
`CMakePresets.json`, ...), backticked or not. Words with a placeholder (<board>, *, {a,b}, $X,
...) or under build/ are not paths. A trailing ":123" line number or "#anchor" is dropped.
issues: history (which issue changed what) belongs in CHANGELOG.md, where a reader can look it
up; an issue number in code or docs is a reference nobody outside
can follow.
outside: the background notes a clone does not have are never named.
counts: in docs/adding-a-plant.md, a table row "| `path` | N |" says the file has N lines.
Prints each offence as file:line: text. Exit codes: 0 clean, 1 offences, 2 usage.
"""
import os
import re
import sys

TOP = ("lib", "boards", "apps", "hil", "host-tests", "host-bench", "cmake", "scripts", "docs", ".ci")
TOP_FILES = ("README.md", "CHANGELOG.md", "LICENSE", "NOTICE", "CMakePresets.json", "CMakeLists.txt",
             ".clangd", ".clang-tidy", ".clang-format")
WORD = re.compile(r"(?<![\w./<>-])((?:%s)/[\w.+/-]*|(?:%s))(?![\w<>*{$-])" %
                  ("|".join(re.escape(t) for t in TOP), "|".join(re.escape(f) for f in TOP_FILES)))
LINK = re.compile(r"\]\(([^)\s]+)\)")
PLACEHOLDER = re.compile(r"[<>*{}$]|\.\.\.|…")
CODE_DIRS = ("lib", "hil", "apps", "boards", "docs")
ISSUE = re.compile(r"\b[Ii]ssues? #?[0-9]+|\(#[0-9]+\)")
OUTSIDE = re.compile(r"SPHERICAL_ROBOT(?:\.md| §)|DESIGN\.md|TOOLCHAIN" r"-FACTS|\.\./shared")
SCAN_EXT = (".hpp", ".cpp", ".h", ".md", ".txt", ".cmake", ".py", ".sh", ".in", ".json", "")


def docs(repo):
    yield os.path.join(repo, "README.md")
    for root, _, files in os.walk(os.path.join(repo, "docs")):
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.join(root, f)


def tree_files(repo, dirs):
    for d in dirs:
        for root, _, files in os.walk(os.path.join(repo, d)):
            for f in sorted(files):
                if os.path.splitext(f)[1] in SCAN_EXT:
                    yield os.path.join(root, f)


def exists(repo, base, p):
    p = re.sub(r"(:[0-9]+(-[0-9]+)?)?[.,;:)]*$", "", p.split("#")[0])
    if not p or PLACEHOLDER.search(p) or p.startswith("build/"):
        return True
    return os.path.exists(os.path.join(base, p)) or os.path.exists(os.path.join(repo, p))


def check_paths(repo):
    bad = []
    for path in docs(repo):
        base = os.path.dirname(path)
        for n, line in enumerate(open(path, encoding="utf-8"), 1):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"[a-z]+:", target) or target.startswith("#"):
                    continue  # a URL or an anchor in the same page
                if not os.path.exists(os.path.join(base, target.split("#")[0])):
                    bad.append((path, n, f"link to {target}"))
            for m in WORD.finditer(line):
                end = m.end()
                if end < len(line) and PLACEHOLDER.match(line[end:]):
                    continue
                if not exists(repo, base, m.group(1)):
                    bad.append((path, n, m.group(1)))
    # docs/README.md is the index: every document links from it.
    index_path = os.path.join(repo, "docs", "README.md")
    index = open(index_path, encoding="utf-8").read() if os.path.exists(index_path) else ""
    for path in docs(repo):
        rel = os.path.relpath(path, os.path.join(repo, "docs"))
        if rel.startswith("..") or rel == "README.md" or os.path.dirname(rel) not in ("", "starter-firmware"):
            continue
        if f"]({rel})" not in index:
            bad.append((index_path, 1, f"docs/{rel} is not listed"))
    return bad


def check_grep(repo, dirs, pattern):
    bad = []
    for path in tree_files(repo, dirs):
        try:
            lines = open(path, encoding="utf-8").readlines()
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(lines, 1):
            m = pattern.search(line)
            if m:
                bad.append((path, n, line.strip()))
    return bad


COUNT_ROW = re.compile(r"^\| `([^`]+)` \| ([0-9]+) \|\s*$")


def check_counts(repo):
    guide = os.path.join(repo, "docs", "adding-a-plant.md")
    bad, rows = [], 0
    for n, line in enumerate(open(guide, encoding="utf-8"), 1):
        m = COUNT_ROW.match(line)
        if not m:
            continue
        rows += 1
        path = os.path.join(repo, m.group(1))
        if not os.path.isfile(path):
            bad.append((guide, n, f"{m.group(1)}: no such file"))
            continue
        have = sum(1 for _ in open(path, encoding="utf-8"))
        if have != int(m.group(2)):
            bad.append((guide, n, f"{m.group(1)} has {have} lines, not {m.group(2)}"))
    if rows == 0:
        bad.append((guide, 1, "no count rows"))
    return bad


def main():
    modes = ("paths", "issues", "outside", "counts")
    if len(sys.argv) != 3 or sys.argv[1] not in modes or not os.path.isdir(sys.argv[2]):
        sys.stderr.write("usage: check_docs.py paths|issues|outside|counts REPO\n")
        return 2
    mode, repo = sys.argv[1], os.path.abspath(sys.argv[2])
    if mode == "paths":
        bad = check_paths(repo)
        what = "names a path that does not exist (or a doc missing from docs/README.md)"
    elif mode == "issues":
        bad = check_grep(repo, CODE_DIRS, ISSUE)
        what = "cites an issue number (history goes in CHANGELOG.md)"
    elif mode == "counts":
        bad = check_counts(repo)
        what = "gives a line count that is not the file's"
    else:
        bad = check_grep(repo, CODE_DIRS + ("scripts", "host-tests", "cmake"), OUTSIDE)
        what = "names a file outside the repository"
    bad = sorted(set(bad), key=lambda b: (b[0], b[1]))
    for path, n, text in bad:
        print(f"{os.path.relpath(path, repo)}:{n}: {text}")
    print(f"check_docs {mode}: {len(bad)} place(s) where a file {what}" if bad else f"check_docs {mode}: clean")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
