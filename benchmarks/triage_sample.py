"""Print a seeded random sample of `tfadvisor check` findings, with source context, to triage by hand.

    .venv/bin/python benchmarks/triage_sample.py [--seed 3] [-n 40] [--per-rule K] [--rules TF2,TF3]
        [--save-reports DIR] [--reports DIR] [PATH ...]

PATHs default to the installed tensorflow and keras packages and benchmarks/triage_programs.
`check` runs once per PATH (or the JSON reports saved by an earlier run are read with --reports);
then the sample is drawn with `random.Random(seed)`: `-n` findings from all of them, or, with
`--per-rule K`, up to K per rule (so that rare rules are judged too). Each finding is printed with
the function around it, ready to be recorded in benchmarks/triage.md as true or false positive.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter, defaultdict

from tfadvisor.check import check_paths
from tfadvisor.rules import matches


def default_paths() -> list[str]:
    import importlib.util

    out = []
    for name in ("tensorflow", "keras"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            out.append(list(spec.submodule_search_locations)[0])
    out.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "triage_programs"))
    return out


def load(paths: list[str], reports: str | None, save: str | None) -> list[dict]:
    """Findings of every path (each tagged with its corpus), unsuppressed only."""
    findings: list[dict] = []
    for path in paths:
        corpus = os.path.basename(os.path.normpath(path))
        cached = os.path.join(reports, f"{corpus}.json") if reports else None
        if cached and os.path.isfile(cached):
            with open(cached, encoding="utf-8") as handle:
                data = json.load(handle)
        else:
            data = check_paths([path]).to_dict()
            if save:
                os.makedirs(save, exist_ok=True)
                with open(os.path.join(save, f"{corpus}.json"), "w", encoding="utf-8") as handle:
                    json.dump(data, handle)
        for finding in data["findings"]:
            if not finding.get("suppressed"):
                finding["corpus"] = corpus
                findings.append(finding)
    return findings


def sample(findings: list[dict], seed: int, n: int, per_rule: int | None) -> list[dict]:
    rng = random.Random(seed)
    ordered = sorted(findings, key=lambda f: (f["corpus"], f["path"], f["line"], f["col"], f["rule"]))
    if per_rule is None:
        return rng.sample(ordered, min(n, len(ordered)))
    by_rule: dict[str, list[dict]] = defaultdict(list)
    for finding in ordered:
        by_rule[finding["rule"]].append(finding)
    out: list[dict] = []
    for rule in sorted(by_rule):
        out.extend(rng.sample(by_rule[rule], min(per_rule, len(by_rule[rule]))))
    return out


def context(finding: dict, before: int = 6, after: int = 3) -> str:
    path = finding["path"]
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return "    (source not readable)"
    line = finding["line"]
    lo, hi = max(1, line - before), min(len(lines), line + after)
    return "\n".join(f"{'>' if n == line else ' '}{n:6d}  {lines[n - 1]}" for n in range(lo, hi + 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("-n", type=int, default=40)
    parser.add_argument("--per-rule", type=int, default=None)
    parser.add_argument("--rules", default=None, help="only these codes or prefixes (TF2,TF301)")
    parser.add_argument("--reports", default=None, help="read <corpus>.json reports from this folder")
    parser.add_argument("--save-reports", default=None, help="save each corpus's JSON report here")
    parser.add_argument("--no-context", action="store_true")
    args = parser.parse_args()
    findings = load(args.paths or default_paths(), args.reports, args.save_reports)
    if args.rules:
        patterns = [p.strip() for p in args.rules.split(",") if p.strip()]
        findings = [f for f in findings if matches(f["rule"], patterns)]
    counts = Counter(f["rule"] for f in findings)
    corpora = Counter(f["corpus"] for f in findings)
    print(f"{len(findings)} findings; by corpus: {dict(sorted(corpora.items()))}")
    print("by rule: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    chosen = sample(findings, args.seed, args.n, args.per_rule)
    print(f"sample: {len(chosen)} (seed {args.seed})\n")
    for index, finding in enumerate(chosen, 1):
        print(f"[{index}] {finding['rule']} {finding['corpus']}: {finding['path']}:{finding['line']}:{finding['col']}")
        print(f"    {finding['message']}")
        if not args.no_context:
            print(context(finding))
        print()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
