"""Per rule: how often the static rule agrees with TensorFlow on its conformance variants.

    python benchmarks/conformance.py [--rule TF305] [--results saved.json] [--write] [--verbose]
    python benchmarks/conformance.py --corpus [DIR] [--split tune4]

Runs every variant of tests/conformance/variants/ under the installed TensorFlow (one child
process: tests/conformance/runner.py), runs `check` on the same sources, and prints per rule the
variants, how many agree, how many TensorFlow confirms (bad) or accepts (good), how many are in
real-code shapes, and every disagreement. ``--write`` stores the figures in
src/tfadvisor/rules/conformance.json (docs/rules.md shows them; regenerate it after).

``--corpus`` instead counts, per rule, the warning/error findings `check` gives on the extracted
real-code repositories that are not held out (benchmarks/realworld/repos.toml, split != heldout4;
``--split`` narrows it): run it on two trees to see what a change to the rules costs in findings.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# This script is named like the test package it reads: keep its own folder off the path.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.join(ROOT, "benchmarks")]
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(ROOT, "src"))

from conformance.agreement import THRESHOLD, claims, figures  # noqa: E402
from conformance.runner import load_variants, variant_modules  # noqa: E402

FIGURES = os.path.join(ROOT, "src", "tfadvisor", "rules", "conformance.json")


def run_tensorflow(rules: list[str] | None) -> list[dict]:
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "results.json")
        cmd = [sys.executable, os.path.join(ROOT, "tests", "conformance", "runner.py"), "--out", out]
        for code in rules or ():
            cmd += ["--rule", code]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.path.join(ROOT, "tests"), os.path.join(ROOT, "src")])}
        subprocess.run(cmd, check=True, env=env, stderr=subprocess.DEVNULL)
        with open(out, encoding="utf-8") as handle:
            return json.load(handle)


def tensorflow_version() -> str:
    out = subprocess.run([sys.executable, "-c", "import tensorflow as tf; print(tf.__version__)"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip().rsplit(".", 1)[0]


def corpus_counts(corpus: str, split: str | None) -> int:
    """Per rule, warning/error (and info) findings on the non-held-out repositories."""
    from collections import Counter

    import tomllib

    from tfadvisor.check import check_paths

    with open(os.path.join(ROOT, "benchmarks", "realworld", "repos.toml"), "rb") as handle:
        repos = tomllib.load(handle)["repo"]
    claims_by_rule: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    seen = 0
    for repo in repos:
        if repo.get("split") == "heldout4" or (split and repo.get("split", "tuning") != split):
            continue
        root = os.path.join(corpus, repo["name"])
        if not os.path.isdir(root):
            continue
        old = os.getcwd()
        try:
            os.chdir(root)
            report = check_paths(["."])
        finally:
            os.chdir(old)
        seen += 1
        for f in report.findings:
            (notes if f.severity.value == "info" else claims_by_rule)[f.rule] += 1
    print(f"{seen} repositories (split != heldout4{', ' + split if split else ''})")
    print(f"{'rule':6} {'warning/error':>13} {'info':>6}")
    for code in sorted(set(claims_by_rule) | set(notes)):
        print(f"{code:6} {claims_by_rule[code]:13} {notes[code]:6}")
    print(f"{'all':6} {sum(claims_by_rule.values()):13} {sum(notes.values()):6}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rule", action="append", help="only this rule (repeatable)")
    parser.add_argument("--results", help="read TensorFlow's labels from this file (runner.py --out) instead of running")
    parser.add_argument("--save", help="also save TensorFlow's labels here")
    parser.add_argument("--write", action="store_true", help="store the figures for docs/rules.md")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every variant")
    parser.add_argument("--corpus", nargs="?", const="/tmp/tfadvisor-realworld",
                        help="count findings per rule on the extracted non-held-out repositories instead")
    parser.add_argument("--split", help="with --corpus: only this split (tune4, fresh3 ...)")
    args = parser.parse_args(argv)
    if args.corpus:
        return corpus_counts(args.corpus, args.split)
    rules = [c.upper() for c in args.rule] if args.rule else None
    if args.results:
        with open(args.results, encoding="utf-8") as handle:
            results = [r for r in json.load(handle) if not rules or r["rule"] in rules]
    else:
        results = run_tensorflow(rules)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1)
    sources = {(code, v.name): v.source for code in (rules or variant_modules()) for v in load_variants(code)}
    fired = {(r["rule"], r["name"]): claims(r["rule"], sources[(r["rule"], r["name"])]) for r in results}
    figs = figures(results, fired)
    print(f"{'rule':6} {'variants':>8} {'agree':>6} {'share':>6} {'bad':>4} {'good':>5} {'real':>5}  label drift")
    total = agree = 0
    for code, fig in sorted(figs.items()):
        drift = sum(1 for r in results if r["rule"] == code and sorted(r["labels"]) != r["expected"])
        mark = "" if fig.share >= THRESHOLD else "  < 95%"
        print(f"{code:6} {fig.variants:8} {fig.agree:6} {fig.share:6.0%} {fig.bad:4} {fig.variants - fig.bad:5} "
              f"{fig.real:5}  {drift or ''}{mark}")
        total += fig.variants
        agree += fig.agree
        for d in fig.disagreements:
            print(f"         disagrees: {d}")
    print(f"{'all':6} {total:8} {agree:6} {agree / max(total, 1):6.0%}")
    if args.verbose:
        for r in results:
            print(f"{r['rule']} {r['name']}: {'+'.join(r['labels'])} (recorded {'+'.join(r['expected'])}); "
                  f"claims lines {fired[(r['rule'], r['name'])]}; graph error {r['graph']['error']}; "
                  f"eager error {r['eager']['error']}; traces {r['graph']['traces']}/{r['graph']['calls']} calls")
    if args.write:
        if rules:
            parser.error("--write needs the whole suite (no --rule)")
        data = {"tensorflow": tensorflow_version(),
                "rules": {code: fig.as_dict() for code, fig in sorted(figs.items())}}
        with open(FIGURES, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1, sort_keys=True)
            handle.write("\n")
        print(f"wrote {os.path.relpath(FIGURES, ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
