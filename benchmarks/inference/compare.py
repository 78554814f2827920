"""How well does each engine know what values are? Precision, recall and coverage per kind.

    .venv/bin/python benchmarks/inference/compare.py ask [--engines today,astroid,jedi,pyright]
    .venv/bin/python benchmarks/inference/compare.py score [--markdown]

``ask`` puts every value of ``sample.jsonl`` to the engines (engines.py says how each is asked) and
writes their answers to ``answers.json``; ``score`` compares them with the hand labels of
``labels.jsonl``. Values labelled ``unknown`` (a human cannot tell either) are left out of precision
and recall and counted apart. Intervals are Wilson score intervals at 90%, with the population size.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import engines  # noqa: E402

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "sample.jsonl"
LABELS = HERE / "labels.jsonl"
ANSWERS = HERE / "answers.json"
ENGINES = ("today", "today+names", "astroid", "jedi", "pyright")
# today's analysis before analysis/values.py (dc9b35b) and at its first commit (f7b7539), kept in
# answers.json to compare with "today" (the code this is run with)
BEFORE = ("today@dc9b35b", "today+names@dc9b35b", "today@f7b7539", "today+names@f7b7539")
KINDS = ("tensor", "dataset", "model", "numpy", "scalar", "container", "other")
Z90 = 1.6448536269514722


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def ask(root: Path, names: list[str], work: Path) -> None:
    values = load(SAMPLE)
    answers: dict[str, dict[str, Any]] = json.loads(ANSWERS.read_text()) if ANSWERS.exists() else {}
    by_repo: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for v in values:
        by_repo[v["repo"]].append(v)
    for name in names:
        got: dict[str, Any] = {}
        seconds = 0.0
        for repo, group in sorted(by_repo.items()):
            if name == "today":
                result, s = engines.timed(engines.today, root, repo, group, guesses=False)
            elif name == "today+names":
                result, s = engines.timed(engines.today, root, repo, group, guesses=True)
            elif name == "astroid":
                result, s = engines.timed(engines.astroid_engine, root, repo, group)
            elif name == "jedi":
                result, s = engines.timed(engines.jedi_engine, root, repo, group)
            elif name == "pyright":
                result, s = engines.timed(engines.pyright_engine, root, repo, group, work)
            else:
                raise SystemExit(f"unknown engine {name}")
            got.update(result)
            seconds += s
            answered = sum(1 for a in result.values() if a["kinds"])
            print(f"{name:12s} {repo:18s} {len(group):3d} values, {answered:3d} answered, {s:7.1f} s", flush=True)
        answers[name] = got
        ANSWERS.write_text(json.dumps(answers, indent=1, sort_keys=True) + "\n")


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + Z90 ** 2 / n
    centre = (p + Z90 ** 2 / (2 * n)) / denom
    half = Z90 * math.sqrt(p * (1 - p) / n + Z90 ** 2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def fmt(k: int, n: int) -> str:
    if n == 0:
        return "-"
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {100 * k / n:.0f}% [{100 * lo:.0f}-{100 * hi:.0f}]"


def answer_kind(answer: dict[str, Any] | None) -> str | None:
    """One kind, "mixed" when the engine gives several, None when it gives none."""
    if not answer or not answer["kinds"]:
        return None
    kinds = answer["kinds"]
    return kinds[0] if len(kinds) == 1 else "mixed"


def score(markdown: bool) -> None:
    labels = {v["id"]: v for v in load(LABELS)}
    answers = json.loads(ANSWERS.read_text())
    known = {vid: v for vid, v in labels.items() if v["label"] != "unknown"}
    counts = Counter(v["label"] for v in labels.values())
    print(f"labelled values: {len(labels)} ({', '.join(f'{k} {c}' for k, c in counts.most_common())})")
    print(f"scored (label not unknown): {len(known)}\n")
    rows = []
    # today's analysis first, an engine where it gives no answer: what a deeper mode would add
    for fallback in ("jedi", "pyright"):
        if "today" in answers and fallback in answers:
            answers[f"today, else {fallback}"] = {
                vid: answers["today"][vid] if answers["today"].get(vid, {}).get("kinds") else answers[fallback].get(vid)
                for vid in labels}
    for engine in (*BEFORE, *ENGINES, "today, else jedi", "today, else pyright"):
        if engine not in answers:
            continue
        got = {vid: answer_kind(answers[engine].get(vid)) for vid in known}
        answered = sum(1 for k in got.values() if k is not None)
        right = sum(1 for vid, k in got.items() if k == known[vid]["label"])
        # the distinction tfadvisor acts on: tensor or not (engines that only know "object" count
        # as answering "not a tensor")
        tensor_said = [vid for vid, k in got.items() if k == "tensor"]
        not_tensor_said = [vid for vid, k in got.items() if k not in (None, "tensor", "mixed")]
        is_tensor = [vid for vid in known if known[vid]["label"] == "tensor"]
        rows.append({
            "engine": engine,
            "coverage": fmt(answered, len(known)),
            "right of answered": fmt(right, answered),
            "right of all": fmt(right, len(known)),
            "tensor precision": fmt(sum(1 for vid in tensor_said if known[vid]["label"] == "tensor"), len(tensor_said)),
            "tensor recall": fmt(sum(1 for vid in is_tensor if got[vid] == "tensor"), len(is_tensor)),
            "not-tensor precision": fmt(sum(1 for vid in not_tensor_said if known[vid]["label"] != "tensor"),
                                        len(not_tensor_said)),
        })
        per_kind = []
        for kind in (*KINDS, "object", "mixed"):
            said = [vid for vid, k in got.items() if k == kind]
            truth = [vid for vid in known if known[vid]["label"] == kind]
            if not said and not truth:
                continue
            hit = sum(1 for vid in said if known[vid]["label"] == kind)
            per_kind.append((kind, fmt(hit, len(said)), fmt(hit, len(truth)) if kind in KINDS else "-"))
        rows[-1]["per_kind"] = per_kind
    _print_rows(rows, markdown)
    _print_fixes(known, answers, markdown)
    _print_strata(known, answers)


FIXES = {
    "callsite-all": "carry every kind (not only tensor/Python value) from call sites into parameters",
    "callable": "a callable kind: names bound to def/lambda/partial, function references, classes",
    "numpy": "NumPy arrays: np.* results and names bound to them reaching arg_rich, .numpy(), loaders",
    "element": "element kinds of iterables: variables lists, tf.nest.flatten, lists of tensors, "
               "dict keys/values, strings, lists of literals",
    "literal": "Python containers and scalars from literals, displays, [] + append, OrderedDict(), "
               "str/number expressions",
    "model": "a model/layer/object kind for instances of classes (Keras/tf.Module/project classes)",
    "dataset": "datasets through rebinding (ds = ds.shuffle().batch()), tfds.load's dict items, tuple "
               "returns across modules; loops over a dataset give tensors",
    "attr": "attribute kinds from the class's own assignments (self.x = tf.convert_to_tensor(...))",
    "expose-local": "record the kind of arguments of library calls too (the analysis knows them locally)",
    "return": "return kinds of the project's functions beyond 'returns a tensor' (str, bool, tuples)",
    "annotation": "annotations beyond tensor/primitive: List/Sequence/Collection, Optional[int], Layer",
    "handed": "parameters of functions handed to Dataset.map/filter/reduce/distribute: tensors",
    "layer-output": "calling a model/layer value (from a factory, another module) gives a tensor",
    "layer-input": "Keras/TensorLayer conventions: call(inputs) tensor, training/mask Python values",
    "isinstance": "narrowing by isinstance(x, tf.data.Dataset / OrderedDict)",
    "stubs": "library return types (gym, os, Keras properties): only an engine with stubs knows",
    "none": "no static pattern: TFF/torch/docstring-only knowledge",
}


def _print_fixes(known: dict[str, dict[str, Any]], answers: dict[str, Any], markdown: bool) -> None:
    """Values today's analysis does not get right, by the pattern (labelled by hand) that would."""
    missed: dict[str, list[str]] = defaultdict(list)
    for vid, v in known.items():
        if answer_kind(answers["today"].get(vid)) != v["label"]:
            missed[v.get("fix") or "?"].append(vid)
    total = sum(len(ids) for ids in missed.values())
    print(f"\nvalues today's analysis does not get right: {total}, by the pattern that would fix them")
    if markdown:
        print("| rank | pattern | values | tensor, dataset or model | right by jedi | by pyright | what |\n"
              "| --- | --- | --- | --- | --- | --- | --- |")
    for rank, (fix, ids) in enumerate(sorted(missed.items(), key=lambda kv: (-len(kv[1]), kv[0])), 1):
        by = {e: sum(1 for vid in ids if answer_kind(answers.get(e, {}).get(vid)) == known[vid]["label"])
              for e in ("jedi", "pyright")}
        heavy = sum(1 for vid in ids if known[vid]["label"] in ("tensor", "dataset", "model"))
        if markdown:
            print(f"| {rank} | `{fix}` | {len(ids)} | {heavy} | {by['jedi']} | {by['pyright']} | {FIXES.get(fix, '')} |")
        else:
            print(f"  {rank:2d}. {fix:13s} {len(ids):3d} ({heavy} tensor/dataset/model; jedi right on {by['jedi']}, "
                  f"pyright on {by['pyright']})  {', '.join(sorted(ids))}")


def _print_strata(known: dict[str, dict[str, Any]], answers: dict[str, Any]) -> None:
    """Right answers per stratum of the draw (the hard cases the issue names)."""
    strata = sorted({v["stratum"] for v in known.values()})
    engines_ = [e for e in (*BEFORE, *ENGINES, "today, else jedi", "today, else pyright") if e in answers]
    print("\nright answers per stratum (n labelled with a kind)")
    print(f"  {'stratum':18s} {'n':>4s} " + " ".join(f"{e[:14]:>14s}" for e in engines_))
    for stratum in strata:
        ids = [vid for vid, v in known.items() if v["stratum"] == stratum]
        cells = [sum(1 for vid in ids if answer_kind(answers[e].get(vid)) == known[vid]["label"]) for e in engines_]
        print(f"  {stratum:18s} {len(ids):4d} " + " ".join(f"{c:14d}" for c in cells))


def _print_rows(rows: list[dict[str, Any]], markdown: bool) -> None:
    keys = ["coverage", "right of answered", "right of all", "tensor precision", "tensor recall",
            "not-tensor precision"]
    if markdown:
        print("| engine | " + " | ".join(keys) + " |")
        print("| --- " * (len(keys) + 1) + "|")
        for row in rows:
            print(f"| {row['engine']} | " + " | ".join(row[k] for k in keys) + " |")
        print()
        print("| engine | kind | precision | recall |\n| --- | --- | --- | --- |")
        for row in rows:
            for kind, precision, recall in row["per_kind"]:
                print(f"| {row['engine']} | {kind} | {precision} | {recall} |")
        return
    for row in rows:
        print(f"== {row['engine']}")
        for k in keys:
            print(f"  {k:22s} {row[k]}")
        for kind, precision, recall in row["per_kind"]:
            print(f"  {kind:10s} precision {precision:28s} recall {recall}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("ask")
    a.add_argument("--root", default="/tmp/tfadvisor-realworld")
    a.add_argument("--engines", default=",".join(ENGINES))
    a.add_argument("--work", default="/tmp/tfadvisor-inference")
    s = sub.add_parser("score")
    s.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    if args.command == "ask":
        work = Path(args.work)
        work.mkdir(parents=True, exist_ok=True)
        ask(Path(args.root), args.engines.split(","), work)
    else:
        score(args.markdown)


if __name__ == "__main__":
    main()
