# SPDX-License-Identifier: Apache-2.0
"""Where each key of a TOML description is written, so an error can name its line.

tomllib returns values without positions; this scan of the text recovers, for a table header
([model], [[nonholonomic]]) and each `key = value` under it, the line it starts on. Inline tables
(`m = { unit = "kg", ... }`) give their keys the line of the table.
"""
import re

_HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-.\"']+)\s*=")
_INLINE_KEY = re.compile(r"[{,]\s*([A-Za-z0-9_\-]+)\s*=")


def _split_key(text):
    return tuple(part.strip().strip("\"'") for part in text.split("."))


class SourceLines:
    """line(path) for a path like ("nonholonomic", 0, "form") or ("parameters", "m", "range")."""

    def __init__(self, text):
        self._lines = {}
        counters = {}
        table = ()
        for number, line in enumerate(text.splitlines(), start=1):
            header = _HEADER.match(line)
            if header:
                path = _split_key(header.group(2))
                if header.group(1) == "[[":
                    index = counters.get(path, -1) + 1
                    counters[path] = index
                    self._lines.setdefault(path, number)  # the array itself: its first table
                    table = path + (index,)
                else:
                    table = path
                self._lines.setdefault(table, number)
                continue
            key = _KEY.match(line)
            if key:
                path = table + _split_key(key.group(1))
                self._lines.setdefault(path, number)
                rest = line[key.end():]
                if rest.lstrip().startswith("{"):
                    for sub in _INLINE_KEY.finditer(rest):
                        self._lines.setdefault(path + (sub.group(1),), number)

    def line(self, path):
        """The line of `path`, else of its nearest enclosing table or key, else 1."""
        path = tuple(path)
        while path:
            if path in self._lines:
                return self._lines[path]
            path = path[:-1]
        return 1
