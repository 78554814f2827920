"""Precision of `check` on real TensorFlow code, from stored hand judgments.

    python benchmarks/realworld/evaluate.py [--corpus DIR] [--seed N] [--reports DIR]
        [--show-unjudged] [--markdown]

Runs `check` on every repository of repos.toml that ``extract.py`` wrote to ``--corpus`` (default
/tmp/tfadvisor-realworld), draws a seeded, stratified sample of what it said (functions by verdict,
findings by rule code), and scores the sample against ``judgments.jsonl``:

- a function's judgment lists the verdicts that would be right for it ("acceptable"), so a later
  version of the tool that says something else is scored from the same line;
- a finding's judgment says whether it is right (``true``), wrong (``false``) or debatable
  (``null``; counted wrong in the strict figure, left out of the lenient one).

Items of the sample with no judgment yet are counted and, with ``--show-unjudged``, printed with
their source, ready to be judged. Every judgment carries one line of why, and a short quote of the
line it is about, so a reader can check it against the pinned commit. Nothing here fetches.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from extract import DEFAULT_OUT, load_repos  # noqa: E402

JUDGMENTS = os.path.join(HERE, "judgments.jsonl")
CHANGE = ("decorate", "undecorate", "fix-first", "reconfigure")
STATUS_QUO = ("keep", "leave-eager")
# How many items of each stratum the sample takes (all of them when there are fewer).
PER_VERDICT = {"decorate": 25, "undecorate": 25, "fix-first": 25, "reconfigure": 25, "keep": 25, "leave-eager": 40}
PER_RULE = 8


@dataclass
class Item:
    key: str  # repo:function-id, or repo:path:where:rule for findings
    kind: str  # "function" or "finding"
    stratum: str  # the verdict, or the rule code
    said: str  # what check said (verdict, or finding message)
    repo: str
    path: str
    line: int
    end_line: int
    extra: dict = field(default_factory=dict)


def run_check(corpus: str, reports: str | None, split: str = "all") -> dict[str, dict]:
    """repo name -> check's JSON report, run from the repository's root (paths relative to it).

    ``split``: "tuning" (the repositories the rules were tuned on), "fresh*" (added after, never
    looked at while tuning), "tune4", "heldout4", "heldout5" ... (every split repos.toml names), or "all" (every split but the held-out ones,
    which are only ever scored on their own: judged blind, never looked at while changing the tool)."""
    from tfadvisor.check import check_paths

    out = {}
    for repo in load_repos():
        own = repo.get("split", "tuning")
        if (split == "all" and own.startswith("heldout")) or (split != "all" and own != split):
            continue
        root = os.path.join(corpus, repo["name"])
        if not os.path.isdir(root):
            print(f"{repo['name']}: not extracted under {corpus} (run extract.py)", file=sys.stderr)
            continue
        cached = os.path.join(reports, f"{repo['name']}.json") if reports else None
        if cached and os.path.isfile(cached):
            with open(cached, encoding="utf-8") as handle:
                out[repo["name"]] = json.load(handle)
            continue
        old = os.getcwd()
        try:
            os.chdir(root)
            data = check_paths(["."]).to_dict()
        finally:
            os.chdir(old)
        if cached:
            os.makedirs(reports, exist_ok=True)  # type: ignore[arg-type]
            with open(cached, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
        out[repo["name"]] = data
    return out


def finding_key(repo: str, finding: dict) -> str:
    where = (f"cell{finding['cell']}:{finding['cell_line']}" if finding.get("cell") else str(finding["line"]))
    return f"{repo}:{finding['path']}:{where}:{finding['rule']}"


def items_of(reports: dict[str, dict]) -> list[Item]:
    out = []
    for repo, data in sorted(reports.items()):
        for fn in data["functions"]:
            out.append(Item(f"{repo}:{fn['id']}", "function", fn["verdict"], fn["verdict"], repo, fn["path"],
                            fn["line"], fn["end_line"], {"reasons": fn["reasons"], "confidence": fn["confidence"],
                                                          "assumptions": fn["assumptions"],
                                                          "decorated": fn["decorated"]}))
        for f in data["findings"]:
            if f.get("suppressed") or f["severity"] == "info":
                continue
            out.append(Item(finding_key(repo, f), "finding", f["rule"], f["message"], repo, f["path"], f["line"],
                            f["end_line"], {"severity": f["severity"], "function": f.get("function")}))
    return out


def draw(items: Iterable[Item], seed: int) -> list[Item]:
    """The seeded sample: per verdict and per rule code, a fixed number of items (or all)."""
    strata: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for item in items:
        strata[(item.kind, item.stratum)].append(item)
    rng = random.Random(seed)
    out = []
    for (kind, stratum), members in sorted(strata.items()):
        size = PER_VERDICT.get(stratum, 25) if kind == "function" else PER_RULE
        members = sorted(members, key=lambda i: i.key)
        out.extend(members if len(members) <= size else rng.sample(members, size))
    return out


def load_judgments(path: str = JUDGMENTS) -> dict[str, dict]:
    out: dict[str, dict] = {}
    if not os.path.isfile(path):
        return out
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise SystemExit(f"{path}:{number}: not JSON: {exc}") from None
                out[record["key"]] = record
    return out


def right(item: Item, judgment: dict) -> bool | None:
    if item.kind == "function":
        return item.said in judgment["acceptable"]
    return judgment["right"]


@dataclass
class Score:
    sampled: int = 0
    judged: int = 0
    right: int = 0
    debatable: int = 0

    def add(self, verdict: bool | None) -> None:
        self.judged += 1
        if verdict is None:
            self.debatable += 1
        elif verdict:
            self.right += 1

    def text(self) -> str:
        if not self.judged:
            return f"- (0 of {self.sampled} judged)"
        strict = f"{100 * self.right / self.judged:.0f}% ({self.right}/{self.judged})"
        extra = ""
        if self.debatable:
            firm = self.judged - self.debatable
            extra = f", {100 * self.right / firm:.0f}% without {self.debatable} debatable" if firm else ""
        missing = f", {self.sampled - self.judged} not judged" if self.judged < self.sampled else ""
        return strict + extra + missing


def score(sample: list[Item], judgments: dict[str, dict]) -> dict[str, Score]:
    groups: dict[str, Score] = defaultdict(Score)
    for item in sample:
        names = [f"{item.kind}:{item.stratum}"]
        if item.kind == "function":
            names.append("change-asking verdicts" if item.stratum in CHANGE else "keep and leave-eager")
        else:
            names.append(f"{item.extra['severity']} findings")
            names.append("error and warning findings")
        for name in names:
            groups[name].sampled += 1
            judgment = judgments.get(item.key)
            if judgment is not None:
                groups[name].add(right(item, judgment))
    return groups


def score_judged(items: list[Item], judgments: dict[str, dict], repos: dict[str, str]) -> dict[str, Score]:
    """Every judged item present in check's current output, by the sample it was judged for and
    the split of its repository: what the tool says now, scored against what is right."""
    groups: dict[str, Score] = defaultdict(Score)
    for item in items:
        judgment = judgments.get(item.key)
        if judgment is None:
            continue
        sample = judgment.get("sample", "?")
        kind = ("change-asking verdicts" if item.stratum in CHANGE else "keep and leave-eager") \
            if item.kind == "function" else "error and warning findings"
        for name in (f"{sample} / {kind}", f"{sample} ({repos.get(item.repo, 'tuning')} repositories) / {kind}"):
            groups[name].sampled += 1
            groups[name].add(right(item, judgment))
    return groups


def source_lines(corpus: str, item: Item) -> list[str]:
    from tfadvisor.sources import read_source

    try:
        text = read_source(os.path.join(corpus, item.repo, item.path)).text
    except Exception as exc:  # noqa: BLE001 - shown, not fatal
        return [f"(cannot read: {exc})"]
    return text.splitlines()


def show(corpus: str, item: Item, population: Counter) -> str:
    lines = source_lines(corpus, item)
    if item.kind == "function":
        start, end = item.line, min(item.end_line, item.line + 60)
        head = (f"[{item.key}] check says {item.said} ({item.extra['confidence']}; reasons "
                f"{', '.join(item.extra['reasons']) or '-'}; decorated={item.extra['decorated']})\n"
                f"  because: {'; '.join(item.extra['assumptions']) or '-'}")
    else:
        start, end = max(1, item.line - 8), item.line + 4
        head = f"[{item.key}] {item.extra['severity']}: {item.said}\n  in function {item.extra['function']}"
    body = "\n".join(f"{n:6}{'>' if item.kind == 'finding' and n == item.line else ' '} {lines[n - 1]}"
                     for n in range(start, min(end, len(lines)) + 1))
    return f"{head}\n{body}\n"


def report(groups: dict[str, Score], sample: list[Item], markdown: bool) -> str:
    order = ["change-asking verdicts", *(f"function:{v}" for v in CHANGE), "keep and leave-eager",
             *(f"function:{v}" for v in STATUS_QUO), "error and warning findings", "error findings",
             "warning findings", *sorted(k for k in groups if k.startswith("finding:"))]
    rows = [(name, groups[name]) for name in order if name in groups]
    if markdown:
        out = ["| judged group | sampled | right |", "| --- | ---: | --- |"]
        out += [f"| {name.replace('function:', '`').replace('finding:', '`')}{'`' if ':' in name else ''} "
                f"| {s.sampled} | {s.text()} |" for name, s in rows]
        return "\n".join(out)
    width = max(len(n) for n, _ in rows) if rows else 10
    return "\n".join(f"{name:<{width}}  {s.sampled:4} sampled  {s.text()}" for name, s in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=1)
    splits = sorted({repo.get("split", "tuning") for repo in load_repos()})
    parser.add_argument("--split", choices=(*splits, "all"), default="all",
                        help="which repositories: tuned on, added after tuning, or all")
    parser.add_argument("--reports", help="cache check's JSON reports here (reused when present)")
    parser.add_argument("--judgments", default=JUDGMENTS)
    parser.add_argument("--show-unjudged", action="store_true", help="print unjudged sampled items with source")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--judged", action="store_true",
                        help="score every judged item in the current output, by sample and split")
    args = parser.parse_args(argv)
    reports = run_check(args.corpus, args.reports, args.split)
    items = items_of(reports)
    population = Counter(f"{i.kind}:{i.stratum}" for i in items)
    sample = draw(items, args.seed)
    judgments = load_judgments(args.judgments)
    groups = score(sample, judgments)
    print(f"corpus: {len(reports)} repositories, {sum(1 for i in items if i.kind == 'function')} functions, "
          f"{sum(1 for i in items if i.kind == 'finding')} error/warning findings; sample seed {args.seed}: "
          f"{len(sample)} items, {sum(1 for i in sample if i.key in judgments)} judged")
    print("population: " + ", ".join(f"{k.split(':')[1]} {v}" for k, v in sorted(population.items())))
    print(report(groups, sample, args.markdown))
    if args.judged:
        repos = {r["name"]: r.get("split", "tuning") for r in load_repos()}
        judged = score_judged(items, judgments, repos)
        print("\nevery judged item, as check says now:")
        width = max(len(k) for k in judged) if judged else 10
        for name in sorted(judged):
            print(f"{name:<{width}}  {judged[name].text()}")
    if args.show_unjudged:
        for item in sample:
            if item.key not in judgments:
                print("\n" + show(args.corpus, item, population))
    return 0


if __name__ == "__main__":
    sys.exit(main())
