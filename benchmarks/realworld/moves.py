"""Which verdicts a change moved, and which of those moves judges agree with.

    python benchmarks/realworld/moves.py OLD NEW [--list]

OLD and NEW are folders of ``check``'s JSON per repository (``blind.py --split S --reports DIR``,
run with the tool before and after a change; ``PYTHONPATH=<worktree>/src`` runs an older commit).
Prints the count of each move (``leave-eager -> fix-first``) and, for functions some judge judged
(``blind/*/*.jsonl``, ``judgments.jsonl``), WIN when the new verdict is acceptable and the old was
not, LOSS the other way. A development check: held-out splits are scored only with ``blind.py``.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))


def judged() -> dict[str, list[str]]:
    """Function key -> the verdicts a judge accepted (the first judgment of it found)."""
    out: dict[str, list[str]] = {}
    for path in [*sorted(glob.glob(os.path.join(HERE, "blind", "*", "*.jsonl"))), os.path.join(HERE, "judgments.jsonl")]:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    item = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if item.get("key") and item.get("acceptable"):
                    out.setdefault(item["key"], item["acceptable"])
    return out


def verdicts(path: str) -> dict[str, str]:
    with open(path, encoding="utf-8") as handle:
        return {fn["id"]: fn["verdict"] for fn in json.load(handle)["functions"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--list", action="store_true", help="print every move")
    args = parser.parse_args()
    accepted = judged()
    moves: Counter[tuple[str, str]] = Counter()
    tally: Counter[str] = Counter()
    for path in sorted(glob.glob(os.path.join(args.new, "*.json"))):
        before = os.path.join(args.old, os.path.basename(path))
        if not os.path.exists(before):
            continue
        repo = os.path.basename(path)[:-5]
        old, new = verdicts(before), verdicts(path)
        for fid in sorted(old.keys() & new.keys()):
            if old[fid] == new[fid]:
                continue
            moves[(old[fid], new[fid])] += 1
            key = f"{repo}:{fid}"
            ok = accepted.get(key)
            tag = "" if ok is None else "WIN" if new[fid] in ok and old[fid] not in ok else \
                "LOSS" if old[fid] in ok and new[fid] not in ok else "same"
            tally[tag or "unjudged"] += 1
            if args.list or tag in ("WIN", "LOSS"):
                print(f"{tag or '-':5} {key}: {old[fid]} -> {new[fid]}" + (f" (judged {ok})" if ok else ""))
    for (a, b), n in moves.most_common():
        print(f"{n:5}  {a} -> {b}")
    print(f"judged moves: {tally['WIN']} WIN, {tally['LOSS']} LOSS, {tally['same']} neither; {tally['unjudged']} unjudged")


if __name__ == "__main__":
    main()
