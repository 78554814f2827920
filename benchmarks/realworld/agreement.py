"""How much does a figure depend on who judged? Two blind judges on the same functions.

    python benchmarks/realworld/agreement.py --first blind/heldout43 --second blind/heldout43/second-opinion --reports DIR

``--first`` holds a split's judgments (``*-judgments.jsonl``), ``--second`` a second judge's of some
of the same functions, made blind (code only, without the tool's verdict or the first judge's),
``--reports`` one version's check JSON. Printed, on the functions both judged: the version's
change-asking verdicts right by each judge and by both, its status-quo verdicts likewise, and how
often the two judges' first choices agree. A bar read against one judge is read against that
judge's taste as well as the tool's: the spread between judges says how much.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import sys

from blind import CHANGE, figure  # this folder is on the path when run as a script


def judgments(folder: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sorted(glob.glob(os.path.join(folder, "*judgments.jsonl"))):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    record = json.loads(line)
                    out[record["key"]] = record["acceptable"]
    return out


def verdicts(reports: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in glob.glob(os.path.join(reports, "*.json")):
        repo = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as handle:
            out.update({f"{repo}:{f['id']}": f["verdict"] for f in json.load(handle)["functions"]})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", required=True)
    parser.add_argument("--second", required=True)
    parser.add_argument("--reports", required=True)
    args = parser.parse_args(argv)
    first, second, tool = judgments(args.first), judgments(args.second), verdicts(args.reports)
    both = sorted(k for k in second if k in first and k in tool)
    for label, keys in (("change-asking", [k for k in both if tool[k] in CHANGE]),
                        ("status quo", [k for k in both if tool[k] not in CHANGE])):
        by_first = sum(tool[k] in first[k] for k in keys)
        by_second = sum(tool[k] in second[k] for k in keys)
        by_both = sum(tool[k] in first[k] and tool[k] in second[k] for k in keys)
        print(f"{label} right: first judge {figure(by_first, len(keys))}; second judge "
              f"{figure(by_second, len(keys))}; both {by_both}")
    same = sum(first[k][0] == second[k][0] for k in both)
    mutual = sum(second[k][0] in first[k] and first[k][0] in second[k] for k in both)
    print(f"first choices equal: {figure(same, len(both))}; each first choice acceptable to the other judge: "
          f"{figure(mutual, len(both))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
