"""Score `check` against blind judgments of held-out repositories, with 90% intervals.

    python benchmarks/realworld/blind.py --split heldout5 --judgments benchmarks/realworld/blind/heldout5
    python benchmarks/realworld/blind.py --reports DIR --judgments DIR [DIR ...] [--list]

Judges (helpers) judged held-out repositories from the code, never seeing check's verdicts
(benchmarks/realworld/blind/INSTRUCTIONS.md): ``<judge>-judgments.jsonl`` (verdicts a sample of
functions should get, the sample mixing check's change-asking verdicts with random others,
unlabelled), ``<judge>-recall.jsonl`` (functions where an expert asks for a change, found without
the tool), ``<judge>-findings.jsonl`` (each error/warning claim of check checked against
TensorFlow) and ``<judge>-negatives.jsonl`` (look-alikes that should stay as they are). ``--split``
runs check on that split's repositories as extract.py wrote them (``--corpus``); ``--reports``
reads (or, with ``--split``, caches) check's JSON per repository. Printed: precision of change-asking verdicts, accuracy of keep/leave-eager,
recall, and precision of error/warning findings, each with its population, a Wilson 90% interval
and a 90% interval from resampling repositories (items of one repository are not independent: one
repository with many near-copies can carry a figure). ``--cap N`` scores at most N items of a kind
per repository, as a split's protocol fixed before judging (the judged sample of change-asking
verdicts and claims, a seeded draw of recall cases). Only aggregates are printed unless ``--list`` is given: the held-out split is scored,
never looked at while changing the tool.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import random
import re
import sys

CHANGE = ("decorate", "undecorate", "fix-first", "reconfigure")


def wilson(k: int, n: int, z: float = 1.645) -> tuple[float, float]:
    """Wilson score interval for k successes in n (z = 1.645: 90%)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def figure(k: int, n: int) -> str:
    if n == 0:
        return "- (population 0)"
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.0f}% ({k}/{n}; 90% interval {100 * lo:.0f}-{100 * hi:.0f}%)"


def repo_of(key: str) -> str:
    return key.split(":", 1)[0]


def cluster_interval(good: list[str], scored: list[str], draws: int = 2000, seed: int = 20261225) -> tuple[float, float]:
    """5th-95th percentile of the share right when repositories, not items, are drawn with replacement."""
    per: dict[str, list[int]] = {}
    for key in scored:
        per.setdefault(repo_of(key), [0, 0])[1] += 1
    for key in good:
        per[repo_of(key)][0] += 1
    if not per:
        return (0.0, 1.0)
    rng, counts, shares = random.Random(seed), list(per.values()), []
    for _ in range(draws):
        pick = [counts[rng.randrange(len(counts))] for _ in counts]
        shares.append(sum(k for k, _ in pick) / sum(n for _, n in pick))
    shares.sort()
    return shares[int(0.05 * draws)], shares[int(0.95 * draws) - 1]


def tally(good: list[str], scored: list[str]) -> str:
    """``figure`` plus the repository-resampled interval and how many repositories the items come from."""
    text = figure(len(good), len(scored))
    if scored:
        lo, hi = cluster_interval(good, scored)
        text += f" [{len({repo_of(k) for k in scored})} repositories; resampling them: {100 * lo:.0f}-{100 * hi:.0f}%]"
    return text


def capped(keys: list[str], cap: int | None, seed: int) -> list[str]:
    """At most ``cap`` keys per repository, drawn with ``Random(seed)`` over each repository's sorted keys."""
    if cap is None:
        return keys
    rng, per = random.Random(seed), {}
    for key in sorted(keys):
        per.setdefault(repo_of(key), []).append(key)
    return [k for repo in sorted(per) for k in (per[repo] if len(per[repo]) <= cap else rng.sample(per[repo], cap))]


def load_jsonl(paths: list[str]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    record = json.loads(line)
                    out[record["key"]] = record
    return out


# Advice notes (info findings said on a status quo) and the verdict kind their words ask for.
NOTES_SAY = {"TF507": "fix-first", "TF508": "fix-first"}


def load_reports(folder: str) -> tuple[dict[str, dict], dict[str, list[dict]], dict[str, dict]]:
    """(function key -> function report, function key -> its findings, finding key -> finding)."""
    functions: dict[str, dict] = {}
    by_function: dict[str, list[dict]] = {}
    findings: dict[str, dict] = {}
    for path in glob.glob(os.path.join(folder, "*.json")):
        repo = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        for fn in data["functions"]:
            functions[f"{repo}:{fn['id']}"] = fn
        for f in data["findings"]:
            if f.get("suppressed") or f["severity"] == "info":
                continue
            findings[f"{repo}:{f['path']}:{f['line']}:{f['rule']}"] = f
            if f.get("function"):
                by_function.setdefault(f"{repo}:{f['function']}", []).append(f)
    return functions, by_function, findings


def load_excluded(folders: list[str]) -> tuple[str, ...]:
    """``repo:path:`` prefixes to leave out: ``EXCLUDED.txt`` in a judgments folder lists files of
    the split whose content is the same as a file of another split (found after the draw, before
    any figure was read): code developed on elsewhere is not held out."""
    out = []
    for folder in folders:
        path = os.path.join(folder, "EXCLUDED.txt")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as handle:
                out += [line.split("\t", 1)[0] + ":" for line in handle if line.strip() and not line.startswith("#")]
    return tuple(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--judgments", nargs="+", required=True, help="judges' folders")
    parser.add_argument("--reports", help="check's JSON reports, one per repository (a cache with --split)")
    parser.add_argument("--split", help="run check on this split of repos.toml first (heldout4, heldout5 ...)")
    parser.add_argument("--corpus", default=None, help="where extract.py wrote the repositories")
    parser.add_argument("--list", action="store_true", help="print every scored item (not while tuning)")
    parser.add_argument("--cap", type=int, default=None,
                        help="items of a kind scored per repository (the split's protocol; judged samples as drawn)")
    args = parser.parse_args(argv)
    if args.split:
        args.reports = _run_split(args.split, args.corpus, args.reports)
    if not args.reports:
        parser.error("give --reports, --split, or both")
    functions, by_function, findings = load_reports(args.reports)
    def files(kind: str) -> list[str]:  # ``DIR/judgments.jsonl`` or ``DIR/<judge>-judgments.jsonl``
        return sorted(p for d in args.judgments for p in glob.glob(os.path.join(d, f"*{kind}.jsonl"))
                      if os.path.basename(p) in (f"{kind}.jsonl",) or os.path.basename(p).endswith(f"-{kind}.jsonl"))

    verdicts = load_jsonl(files("judgments"))
    recall = load_jsonl(files("recall"))
    claims = load_jsonl(files("findings"))
    negatives = load_jsonl(files("negatives") + files("hard_negatives"))
    excluded = load_excluded(args.judgments)
    if excluded:
        def kept(items: dict) -> dict:
            return {k: v for k, v in items.items() if not k.startswith(excluded)}
        functions, by_function, findings = kept(functions), kept(by_function), kept(findings)
        verdicts, recall, claims, negatives = kept(verdicts), kept(recall), kept(claims), kept(negatives)
        print(f"left out: {len(excluded)} file(s) with the same content as another split's (EXCLUDED.txt)")
    judged = {**verdicts, **recall}  # a recall case judged in both: the same verdicts
    rows: list[str] = []

    # Precision of change-asking verdicts: every one check gives in the judged repositories must be judged.
    repos = {k.split(":", 1)[0] for k in judged}
    asked = [k for k, fn in functions.items() if fn["verdict"] in CHANGE and k.split(":", 1)[0] in repos]
    right = [k for k in asked if k in judged and fn_ok(functions[k], judged[k])]
    unjudged = [k for k in asked if k not in judged]
    if args.cap is not None:  # the sampler judged at most ``cap`` per repository, drawn at random
        over = {r for r in repos if sum(repo_of(k) == r for k in asked) > args.cap}
        unjudged = [k for k in unjudged if repo_of(k) not in over]
        asked = [k for k in asked if k in judged or repo_of(k) not in over]
    print(f"change-asking verdicts right: {tally(right, [k for k in asked if k not in unjudged])}"
          + (f"; {len(unjudged)} not judged yet" if unjudged else ""))
    rows += [f"  ask  {'ok ' if k in right else ('?? ' if k in unjudged else 'BAD')} {k}: {functions[k]['verdict']}"
             f" (judged {judged.get(k, {}).get('acceptable')})" for k in asked]

    # keep / leave-eager: the judged sample that check leaves as they are.
    quo = [k for k in verdicts if k in functions and functions[k]["verdict"] not in CHANGE]
    quo_right = [k for k in quo if fn_ok(functions[k], verdicts[k])]
    print(f"keep/leave-eager right (blind sample): {tally(quo_right, quo)}")
    rows += [f"  quo  {'ok ' if k in quo_right else 'BAD'} {k}: {functions[k]['verdict']} (judged {verdicts[k]['acceptable']})"
             for k in quo]

    # Hard negatives: functions that look like candidates and should stay as they are.
    if negatives:
        present = [k for k in negatives if k in functions]
        fine = [k for k in present if fn_ok(functions[k], negatives[k])]
        print(f"look-alikes left as they should be (judges' hard negatives): {tally(fine, present)}")
        rows += [f"  neg  {'ok ' if k in fine else 'BAD'} {k}: {functions[k]['verdict']} (judged {negatives[k]['acceptable']})"
                 for k in present]

    # Recall: cases where the expert's first choice is a change.
    cases = capped([k for k, r in recall.items() if r["acceptable"] and r["acceptable"][0] in CHANGE], args.cap, 20261224)
    missing = [k for k in cases if k not in functions]
    kind = [k for k in cases if k in functions and functions[k]["verdict"] in recall[k]["acceptable"]
            and functions[k]["verdict"] in CHANGE]
    finding = [k for k in cases if k in functions and k not in kind and by_function.get(k)]
    print(f"recall, a verdict of the right kind: {tally(kind, cases)}")
    print(f"recall, right kind or a finding in the function: {tally(kind + finding, cases)}"
          + (f"; {len(missing)} case(s) not found among check's functions" if missing else ""))
    # Notes said on a status quo that give the judge's first choice in words (TF507, TF508: "fix-first:
    # move the body into a step function and decorate that"): an info finding, which the line above
    # does not count (the bar is read from it); printed beside it, not instead of it.
    noted = [k for k in cases if k in functions and k not in kind and k not in finding
             and recall[k]["acceptable"][0] in {NOTES_SAY.get(r) for r in functions[k].get("reasons", [])}]
    print(f"recall, right kind, a finding, or a note saying the change (TF507/TF508; not the bar's figure): "
          f"{tally(kind + finding + noted, cases)}")
    # Without the cases in TensorFlow 1 files (out of `check`'s scope, or advised only speculatively):
    # a file with a TF100 note in the reports, or one whose text turns on TensorFlow 1's eager mode
    # (read from the extracted corpus, when it is on this machine)
    tf1 = tf1_files(args.reports, args.corpus or _default_corpus(), {file_key(k) for k in cases})
    modern = [k for k in cases if file_key(k) not in tf1]
    print(f"recall without TensorFlow 1 files ({len(cases) - len(modern)} case(s) left out): "
          f"{tally([k for k in kind if k in modern], modern)}")
    # The cases where the judge accepts no status quo (neither keep nor leave-eager): a change is
    # insisted on, not only preferred (read from heldout41 on, as its protocol says).
    insisted = [k for k in cases if not set(recall[k]["acceptable"]) & {"keep", "leave-eager"}]
    print(f"recall where the judge insists on a change (no status quo acceptable): "
          f"{tally([k for k in kind if k in insisted], insisted)}")
    rows += [f"  rec  {'kind' if k in kind else ('find' if k in finding else ('note' if k in noted else 'MISS'))} {k}: "
             f"{functions.get(k, {}).get('verdict')} (judged {recall[k]['acceptable']})" for k in cases]

    # Error/warning findings: every one check reports in judged repositories must be judged (a
    # repository whose claims were judged counts, also when none of its verdicts was drawn).
    claimed = repos | {k.split(":", 1)[0] for k in claims}
    shown = [k for k in findings if k.split(":", 1)[0] in claimed]
    if args.cap is not None:  # claims, like verdicts, were judged at most ``cap`` per repository
        many = {r for r in claimed if sum(repo_of(k) == r for k in shown) > args.cap}
        shown = [k for k in shown if k in claims or repo_of(k) not in many]
    judged_f = [k for k in shown if k in claims]
    ok = [k for k in judged_f if claims[k]["right"] is True]
    debatable = [k for k in judged_f if claims[k]["right"] is None]
    print(f"error/warning findings right: {tally(ok, judged_f)}"
          + (f" ({len(debatable)} debatable counted wrong)" if debatable else "")
          + (f"; {len(shown) - len(judged_f)} not judged yet" if len(shown) > len(judged_f) else ""))
    rows += [f"  fnd  {'ok ' if k in ok else ('?? ' if k not in claims else 'BAD')} {k}" for k in shown]
    if args.list:
        print("\n".join(rows))
    return 0


def _run_split(split: str, corpus: str | None, reports: str | None) -> str:
    """check's JSON for every repository of ``split`` (evaluate.py runs it); the folder they are in."""
    import tempfile

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from evaluate import run_check  # noqa: E402
    from extract import DEFAULT_OUT  # noqa: E402

    folder = reports or tempfile.mkdtemp(prefix=f"tfadvisor-{split}-")
    os.makedirs(folder, exist_ok=True)
    for name, data in run_check(corpus or DEFAULT_OUT, None, split).items():
        with open(os.path.join(folder, f"{name}.json"), "w", encoding="utf-8") as handle:
            json.dump(data, handle)
    return folder


TF1_EAGER = re.compile(r"contrib\.eager|enable_eager_execution|contrib import eager")


def file_key(key: str) -> str:
    """``repo:path`` of a judged function's key (``repo:path::Qualname``)."""
    repo, rest = key.split(":", 1)
    return f"{repo}:{rest.split('::', 1)[0] if '::' in rest else rest.rsplit(':', 1)[0]}"


def tf1_files(reports: str, corpus: str | None, files: set[str]) -> set[str]:
    """Which of ``files`` (``repo:path``) a version's reports note as TensorFlow 1 code (TF100), or
    turn on TensorFlow 1's eager mode in their text (read from ``corpus``, when it is there)."""
    out: set[str] = set()
    for path in glob.glob(os.path.join(reports, "*.json")):
        repo = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as handle:
            out.update(f"{repo}:{f['path']}" for f in json.load(handle)["findings"] if f["rule"] == "TF100")
    for key in files - out:
        repo, _, rel = key.partition(":")
        full = os.path.join(corpus or "", repo, rel)
        if corpus and os.path.isfile(full):
            with open(full, encoding="utf-8", errors="replace") as handle:
                if TF1_EAGER.search(handle.read()):
                    out.add(key)
    return out & files


def _default_corpus() -> str | None:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from extract import DEFAULT_OUT  # noqa: E402

    return DEFAULT_OUT if os.path.isdir(DEFAULT_OUT) else None


def fn_ok(fn: dict, judgment: dict) -> bool:
    return fn["verdict"] in judgment["acceptable"]


if __name__ == "__main__":
    sys.exit(main())
