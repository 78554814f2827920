"""What moved between two versions' reports: every function whose verdict, confidence, reasons or
assumptions differ, and every finding only one side has.

    python benchmarks/realworld/compare.py BEFORE AFTER        # two folders of check's JSON (or two files)
    python benchmarks/realworld/compare.py BEFORE AFTER --counts   # only the moves, counted

A change to `src/` that should not move advice (a speed change, a refactor) shows "0 differing";
one that should moves only what its decision note says. Reports come from `evaluate.py --split S
--reports DIR` (or `tfadvisor check -f json`) run once per version (`PYTHONPATH=<git archive COMMIT src>`).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys

Row = tuple[str, str | None, tuple[str, ...], tuple[str, ...]]


def load(path: str) -> tuple[dict[str, Row], set[tuple[str, int, str, str]]]:
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    functions = {f["id"]: (f["verdict"], f.get("confidence"), tuple(f.get("reasons", [])), tuple(f.get("assumptions", [])))
                 for f in data["functions"]}
    findings = {(f["path"], f["line"], f["rule"], f["message"]) for f in data["findings"]}
    return functions, findings


def pairs(before: str, after: str) -> list[tuple[str, str, str]]:
    """(label, before file, after file) for each report both sides have."""
    if not os.path.isdir(before):
        return [("", before, after)]
    return [(name[:-5] + " ", os.path.join(before, name), os.path.join(after, name))
            for name in sorted(os.listdir(before)) if name.endswith(".json") and os.path.exists(os.path.join(after, name))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--counts", action="store_true", help="only count the verdict moves")
    args = parser.parse_args(argv)
    moves: collections.Counter[tuple[str, str]] = collections.Counter()
    differing = total = 0
    for label, a, b in pairs(args.before, args.after):
        (fa, xa), (fb, xb) = load(a), load(b)
        total += len(fa)
        for key in sorted(set(fa) | set(fb)):
            if fa.get(key) != fb.get(key):
                differing += 1
                moves[(fa[key][0] if key in fa else "-", fb[key][0] if key in fb else "-")] += 1
                if not args.counts:
                    print(f"{label}{key}\n   before {fa.get(key)}\n   after  {fb.get(key)}")
        for sign, only in (("-", xa - xb), ("+", xb - xa)):
            differing += len(only)
            if not args.counts:
                print("".join(f"{label}{sign}finding {f}\n" for f in sorted(only)), end="")
    for (old, new), count in sorted(moves.items()):
        print(f"{old} -> {new}: {count}")
    print(f"{differing} differing, of {total} functions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
