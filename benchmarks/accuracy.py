"""Score tfadvisor's verdicts against the measured labels of the corpus.

Why: a tool that tells people what to decorate must show how often it is right and must never
tell them to decorate (or keep decorated) a function that then fails or changes results.

- **static**: ``tfadvisor.check.check_paths(["mlproj"])`` run in ``benchmarks/corpus`` (no
  TensorFlow, no execution);
- **measured**: ``tfadvisor run`` over each function's driver (``corpus/measure_one.py``), one
  child process per function; slow, so it is cached in ``benchmarks/measured.json`` and only
  recomputed with ``--measure``.

    python benchmarks/accuracy.py                  # print the tables
    python benchmarks/accuracy.py --write-docs     # and regenerate docs/benchmarks.md
    python benchmarks/accuracy.py --measure        # (re)measure with `tfadvisor run`, then score

Unsafe advice = ``decorate`` or ``keep`` for a function that the ground truth saw fail or change
results under tf.function (``broken`` in labels.json).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
LABELS = HERE / "labels.json"
MEASURED = HERE / "measured.json"
DOCS = HERE.parent / "docs" / "benchmarks.md"
SPEED = HERE / "speed.json"  # written by `speed.py --save`
VERDICTS = ("decorate", "keep", "reconfigure", "undecorate", "fix-first", "leave-eager")
GRAPH_ADVICE = ("decorate", "keep")  # advice that leaves or puts the function in graph mode as written


class BenchmarkError(Exception):
    """A one-line problem the user can fix (missing labels, bad option)."""


# ============================================================================ inputs
def load_labels(path: Path = LABELS) -> dict[str, Any]:
    if not path.exists():
        raise BenchmarkError(f"{path.name} not found: run `python benchmarks/ground_truth.py` first")
    data = json.loads(path.read_text())
    return data


def labels_fresh(labels: dict[str, Any]) -> bool:
    sys.path[:0] = [str(HERE)]
    from ground_truth import corpus_digest

    return labels.get("corpus_digest") == corpus_digest()


@contextlib.contextmanager
def _cwd(path: Path) -> Iterator[None]:
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


@dataclass
class Prediction:
    verdict: str
    confidence: str = "certain"
    reasons: list[str] = field(default_factory=list)
    observed: bool = True  # measured row: False when `run` never saw the function called (see below)


def static_predictions() -> tuple[dict[str, Prediction], float]:
    """``check`` over the corpus project, as ``tfadvisor check mlproj`` run in benchmarks/corpus."""
    from tfadvisor.check import check_paths

    with _cwd(CORPUS):
        started = time.perf_counter()
        report = check_paths(["mlproj"], jobs=1)
        elapsed = time.perf_counter() - started
    return {f.id: Prediction(str(f.verdict), f.confidence, list(f.reasons)) for f in report.functions}, elapsed


NOT_OBSERVED = "not observed by `run`"


def measured_predictions(path: Path = MEASURED, static: dict[str, Prediction] | None = None) -> dict[str, Prediction] | None:
    """`run`'s verdicts. A function the driver runs but `run` does not observe (``__init__`` and
    other dunders are not wrapped) gets what `run` says of any function it could not measure:
    the static verdict, never turned into graph advice (``policy.unmeasured_verdict``)."""
    if not path.exists():
        return None
    from tfadvisor.advice.policy import unmeasured_verdict
    from tfadvisor.model import Verdict

    data = json.loads(path.read_text())
    out = {fid: Prediction(v["verdict"], v.get("confidence", "certain"), v.get("reasons", []))
           for fid, v in data["functions"].items() if v.get("verdict")}
    labels = load_labels() if static else {"functions": {}}
    for fid, v in data["functions"].items():
        if v.get("verdict") or v.get("error") != NOT_OBSERVED or static is None or fid not in static:
            continue
        decorated = bool(labels["functions"].get(fid, {}).get("decorated"))
        verdict = unmeasured_verdict(Verdict(static[fid].verdict), decorated)
        out[fid] = Prediction(verdict.value, "speculative", static[fid].reasons, observed=False)
    return out


# ============================================================================ scoring
@dataclass
class Score:
    """Accuracy, per-verdict precision/recall, confusion matrix and unsafe advice for one tool."""

    name: str
    n: int = 0
    correct: int = 0
    confusion: dict[str, dict[str, int]] = field(default_factory=dict)  # label -> predicted -> count
    unsafe: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.correct / self.n if self.n else 0.0

    def precision(self, verdict: str) -> float | None:
        predicted = sum(row.get(verdict, 0) for row in self.confusion.values())
        return self.confusion.get(verdict, {}).get(verdict, 0) / predicted if predicted else None

    def recall(self, verdict: str) -> float | None:
        support = sum(self.confusion.get(verdict, {}).values())
        return self.confusion[verdict].get(verdict, 0) / support if support else None

    def support(self, verdict: str) -> int:
        return sum(self.confusion.get(verdict, {}).values())

    def predicted(self, verdict: str) -> int:
        return sum(row.get(verdict, 0) for row in self.confusion.values())


def score(name: str, labels: dict[str, Any], predictions: dict[str, Prediction],
          only: Iterable[str] | None = None) -> Score:
    """Compare ``predictions`` with the measured labels over the labelled ids (or ``only``)."""
    s = Score(name)
    ids = sorted(only) if only is not None else sorted(labels["functions"])
    for fid in ids:
        truth = labels["functions"][fid]
        if truth["label"] is None:
            continue
        pred = predictions.get(fid)
        if pred is None:
            s.missing.append(fid)
            continue
        s.n += 1
        s.correct += pred.verdict == truth["label"]
        row = s.confusion.setdefault(truth["label"], {})
        row[pred.verdict] = row.get(pred.verdict, 0) + 1
        if pred.verdict in GRAPH_ADVICE and truth["broken"]:
            s.unsafe.append(fid)
    return s


# ============================================================================ rendering (data apart)
def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def summary_table(scores: list[Score | None], names: list[str]) -> str:
    rows = ["| scored by | functions | accuracy | unsafe advice |", "| --- | ---: | ---: | ---: |"]
    for name, s in zip(names, scores):
        if s is None:
            rows.append(f"| {name} | - | not yet available | - |")
        else:
            rows.append(f"| {name} | {s.n} | {_pct(s.accuracy)} ({s.correct}/{s.n}) | {len(s.unsafe)} |")
    return "\n".join(rows)


def per_verdict_table(s: Score) -> str:
    rows = ["| verdict | labelled | predicted | precision | recall |", "| --- | ---: | ---: | ---: | ---: |"]
    for v in VERDICTS:
        rows.append(f"| `{v}` | {s.support(v)} | {s.predicted(v)} | {_pct(s.precision(v))} | {_pct(s.recall(v))} |")
    return "\n".join(rows)


def confusion_table(s: Score) -> str:
    head = "| label \\ predicted | " + " | ".join(f"`{v}`" for v in VERDICTS) + " |"
    rows = [head, "| --- |" + " ---: |" * len(VERDICTS)]
    for truth in VERDICTS:
        row = s.confusion.get(truth, {})
        cells = [f"**{row.get(v, 0)}**" if v == truth else str(row.get(v, 0) or "") for v in VERDICTS]
        rows.append(f"| `{truth}` | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def label_counts_table(labels: dict[str, Any]) -> str:
    fns = labels["functions"].values()
    rows = ["| label | functions | of which already decorated | broken under tf.function |", "| --- | ---: | ---: | ---: |"]
    for v in VERDICTS:
        these = [f for f in fns if f["label"] == v]
        rows.append(f"| `{v}` | {len(these)} | {sum(bool(f['decorated']) for f in these)} | "
                    f"{sum(bool(f['broken']) for f in these)} |")
    unlabelled = [f for f in fns if f["label"] is None]
    if unlabelled:
        rows.append(f"| (no label: harness failure) | {len(unlabelled)} | | |")
    return "\n".join(rows)


def per_function_table(labels: dict[str, Any], static: dict[str, Prediction],
                       measured: dict[str, Prediction] | None) -> str:
    rows = ["| function | measured label | why | `check` | `run` |", "| --- | --- | --- | --- | --- |"]
    for fid, truth in sorted(labels["functions"].items()):
        s = static.get(fid)
        m = measured.get(fid) if measured else None
        scell = "-" if s is None else f"{s.verdict} ({s.confidence[0]})" + (" ✓" if s.verdict == truth["label"] else "")
        if s is not None and s.verdict in GRAPH_ADVICE and truth["broken"]:
            scell += " **UNSAFE**"
        mcell = "n/a" if m is None else m.verdict + (" ✓" if m.verdict == truth["label"] else "")
        if m is not None and m.verdict in GRAPH_ADVICE and truth["broken"]:
            mcell += " **UNSAFE**"
        why = truth["why"].replace("|", "\\|")
        why = why if len(why) <= 90 else why[:87] + "..."
        rows.append(f"| `{fid}` | {truth['label'] or '-'} | {why} | {scell} | {mcell} |")
    return "\n".join(rows)


def clear_cut(labels: dict[str, Any]) -> list[str]:
    """Labelled ids whose label does not rest on a timing ratio near its threshold."""
    sys.path[:0] = [str(HERE)]
    from ground_truth import borderline

    return [fid for fid, f in labels["functions"].items()
            if f["label"] is not None and not borderline(f["observations"])]


def render_markdown(labels: dict[str, Any], static: dict[str, Prediction], static_s: float,
                    measured: dict[str, Prediction] | None, fresh: bool) -> str:
    ids = [fid for fid, f in labels["functions"].items() if f["label"] is not None]
    all_static = score("check (all verdicts)", labels, static)
    certain_ids = [fid for fid in ids if fid in static and static[fid].confidence == "certain"]
    certain = score("check (certain verdicts only)", labels, static, certain_ids)
    clear = clear_cut(labels)
    clear_static = score("check (clear-cut labels)", labels, static, clear)
    meas = score("run (measured)", labels, measured) if measured is not None else None
    clear_meas = score("run (clear-cut)", labels, measured, [f for f in clear if f in measured]) if measured else None
    n_measured = len(measured) if measured is not None else 0
    out = [
        "# Accuracy benchmark",
        "",
        "<!-- generated by `python benchmarks/accuracy.py --write-docs`; do not edit by hand -->",
        "",
        f"How often tfadvisor's verdict matches what really happens, on {len(labels['functions'])} functions of a",
        "small, realistic TensorFlow project (`benchmarks/corpus/mlproj`: training and evaluation steps, losses,",
        "metrics, custom layers, preprocessing, data pipelines, helpers, and code with every hazard of the rule",
        "catalog). Each function's label was **measured** (`benchmarks/ground_truth.py`): its driver called it",
        "eagerly and as a tf.function, on fresh objects, comparing results, state, traces and time. The labelling",
        "rule is in [benchmarks/README.md](../benchmarks/README.md#labelling-rule).",
        "",
        "**Unsafe advice** counts `decorate` or `keep` for a function that fails or changes results under",
        "tf.function. It must be 0.",
        "",
    ]
    if not fresh:
        out += ["> **Warning:** labels.json is stale against the corpus; rerun `python benchmarks/ground_truth.py`.", ""]
    out += [
        "## Summary",
        "",
        summary_table([all_static, certain, clear_static, meas, clear_meas], [
            "`check`, all verdicts (static)", "`check`, `certain` verdicts only",
            "`check`, clear-cut labels only", f"`run`, measured ({n_measured} functions)",
            "`run`, clear-cut labels only"]),
        "",
        f"*Clear-cut* leaves out the {len(ids) - len(clear)} labels that rest on a timing ratio within a factor "
        "1.5 of its threshold (`ground_truth.borderline`): on this shared machine those can move between runs "
        "(between two full runs, 13 of 149 labels moved; 12 of them were within that factor).",
        "",
        *([f"`run` observes functions and methods but not `__init__` and other dunders: "
           f"{sum(not p.observed for p in measured.values())} functions the drivers call were not observed, and are "
           "scored with what `run` says of any function it did not measure (the static verdict, never turned "
           "into `decorate` or `fix-first`: `advice.policy.unmeasured_verdict`).", ""]
          if measured is not None and any(not p.observed for p in measured.values()) else []),
        f"`check` analysed the corpus in {static_s:.2f} s."
        + ("" if measured is not None else " The measured column is not yet available: run "
           "`python benchmarks/accuracy.py --measure`."),
        "",
        "## Labels",
        "",
        label_counts_table(labels),
        "",
        "## `check` (static): per verdict",
        "",
        per_verdict_table(all_static),
        "",
        "Confusion matrix (rows: measured label, columns: `check`'s verdict):",
        "",
        confusion_table(all_static),
        "",
        "`certain` verdicts only:",
        "",
        per_verdict_table(certain),
        "",
    ]
    if meas is not None:
        out += [
            f"## `run` (measured): per verdict ({n_measured} functions measured)",
            "",
            per_verdict_table(meas),
            "",
            confusion_table(meas),
            "",
        ]
    unsafe = sorted(set(all_static.unsafe) | set(meas.unsafe if meas else []))
    out += ["## Unsafe advice", ""]
    if unsafe:
        for fid in unsafe:
            t = labels["functions"][fid]
            who = ", ".join(n for n, s in (("check", all_static), ("run", meas)) if s and fid in s.unsafe)
            sp = static.get(fid)
            said = f"check said {sp.verdict} ({sp.confidence})" if sp else "check: no verdict"
            out.append(f"- `{fid}` (unsafe from {who}; {said}): {t['why']}")
    else:
        out.append("None.")
    out += ["", *speed_section()]
    out += [
        "",
        "## Every function",
        "",
        "`(c)` certain, `(s)` speculative; ✓ matches the measured label.",
        "",
        per_function_table(labels, static, measured),
        "",
        "## Reproduce",
        "",
        "```",
        "python benchmarks/ground_truth.py          # measure the labels (a few minutes on 2 free cores)",
        "python benchmarks/accuracy.py --measure    # measured column: `tfadvisor run` per function (slow)",
        "python benchmarks/accuracy.py --write-docs # score and regenerate this page",
        "```",
        "",
    ]
    return "\n".join(out)


def speed_section(path: Path = SPEED) -> list[str]:
    """The last `speed.py --save` run, if any: check against pylint on TensorFlow's sources."""
    out = ["## Speed: `check` against pylint", ""]
    if not path.exists():
        return out + ["Not measured yet: `python benchmarks/speed.py --save`."]
    d = json.loads(path.read_text())
    runs = {r["tool"]: r for r in d["runs"]}
    c, p = runs["tfadvisor check"], runs["pylint"]
    out += [
        f"{d['files']} files ({d['lines']:,} lines) of the installed TensorFlow package ({d['sample']}); "
        f"both single-process in their own child process; pylint with {d['pylint']}. CPU time is what a busy",
        "shared machine distorts least; wall time is shown too.",
        "",
        "| tool | wall time | CPU time | lines/s (CPU) | peak memory |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for r in (c, p):
        out.append(f"| {r['tool']} | {r['wall_s']:.1f} s | {r['cpu_s']:.1f} s | "
                   f"{d['lines'] / max(r['cpu_s'], 1e-9):,.0f} | {r['peak_mib']:.0f} MiB |")
    out += [
        "",
        f"pylint needs {p['cpu_s'] / c['cpu_s']:.0f}x the CPU time of `check` ({p['wall_s'] / c['wall_s']:.0f}x wall) "
        f"and {p['peak_mib'] / c['peak_mib']:.1f}x its peak memory. Command: `{d['command']}`.",
    ]
    return out


def print_tables(labels: dict[str, Any], static: dict[str, Prediction], measured: dict[str, Prediction] | None) -> None:
    ids = [fid for fid, f in labels["functions"].items() if f["label"] is not None]
    all_static = score("check", labels, static)
    certain_ids = [fid for fid in ids if fid in static and static[fid].confidence == "certain"]
    certain = score("check certain", labels, static, certain_ids)
    meas = score("run", labels, measured) if measured is not None else None
    print(summary_table([all_static, certain, meas], ["check (all)", "check (certain only)", "run (measured)"]))
    print()
    print("check, per verdict:")
    print(per_verdict_table(all_static))
    print()
    print(confusion_table(all_static))
    if meas is not None:
        print()
        print("run (measured), per verdict:")
        print(per_verdict_table(meas))
        print()
        print(confusion_table(meas))
    for s in (all_static, meas):
        if s and s.unsafe:
            print(f"\nunsafe advice from {s.name}: " + ", ".join(s.unsafe))


# ============================================================================ measuring with `run`
def measure_one(function_id: str, budget_s: float, timeout_s: float) -> dict[str, Any]:
    """``tfadvisor run corpus/measure_one.py -- ID`` in ``benchmarks/corpus``; the function's verdict."""
    with tempfile.TemporaryDirectory(prefix="tfa_acc_") as tmp:
        out = Path(tmp) / "run.json"
        cmd = [sys.executable, "-m", "tfadvisor", "run", "--project", "mlproj", "--budget", str(budget_s),
               "--format", "json", "--output", str(out), "--quiet", "measure_one.py", "--", function_id]
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
        try:
            proc = subprocess.run(cmd, cwd=CORPUS, env=env, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return {"verdict": None, "error": f"timed out after {timeout_s:.0f} s"}
        if not out.exists():
            tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            return {"verdict": None, "error": f"exit {proc.returncode}: {tail[:200]}"}
        report = json.loads(out.read_text())
    fn = next((f for f in report["functions"] if f["id"] == function_id), None)
    if fn is None:
        return {"verdict": None, "error": NOT_OBSERVED}
    return {"verdict": fn["verdict"], "confidence": fn.get("confidence", "certain"), "reasons": fn.get("reasons", []),
            "measurement": fn.get("measurement")}


def sample_ids(labels: dict[str, Any], per_label: int | None) -> list[str]:
    """Labelled ids; with ``per_label``, an evenly spread, deterministic subset of each label."""
    ids = sorted(f for f, v in labels["functions"].items() if v["label"] is not None)
    if per_label is None:
        return ids
    chosen: list[str] = []
    for verdict in VERDICTS:
        these = [f for f in ids if labels["functions"][f]["label"] == verdict]
        step = max(1, len(these) / per_label) if these else 1
        chosen += [these[int(i * step)] for i in range(min(per_label, len(these)))]
    return sorted(chosen)


def measure_all(ids: list[str], jobs: int, budget_s: float, timeout_s: float) -> dict[str, Any]:
    results: dict[str, Any] = {}

    def one(fid: str) -> tuple[str, dict[str, Any]]:
        return fid, measure_one(fid, budget_s, timeout_s)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for i, (fid, res) in enumerate(pool.map(one, ids), 1):
            results[fid] = res
            print(f"[{i:3d}/{len(ids)}] {fid}: {res.get('verdict') or res.get('error')}", flush=True)
    return results


# ============================================================================ main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-docs", action="store_true", help="regenerate docs/benchmarks.md")
    parser.add_argument("--measure", action="store_true", help="measure with `tfadvisor run` (slow), cache in measured.json")
    parser.add_argument("--only", action="append", help="with --measure: only these ids (merged into the cache)")
    parser.add_argument("--sample", type=int, help="with --measure: at most N functions per label (deterministic)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel `run`s (their timings share the cores)")
    parser.add_argument("--budget", type=float, default=30.0, help="seconds of replay per function for `run`")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--docs", type=Path, default=DOCS)
    args = parser.parse_args(argv)
    try:
        labels = load_labels(args.labels)
    except (BenchmarkError, json.JSONDecodeError) as exc:
        print(f"accuracy: {exc}", file=sys.stderr)
        return 2
    fresh = labels_fresh(labels)
    if not fresh:
        print("accuracy: warning: labels.json is stale against the corpus; rerun benchmarks/ground_truth.py", file=sys.stderr)
    if args.measure:
        ids = args.only or sample_ids(labels, args.sample)
        cached = json.loads(MEASURED.read_text())["functions"] if MEASURED.exists() and args.only else {}
        cached.update(measure_all(ids, args.jobs, args.budget, timeout_s=args.budget * 4 + 120))
        tmp = MEASURED.with_suffix(".tmp")
        tmp.write_text(json.dumps({"functions": cached}, indent=1, sort_keys=True) + "\n")
        tmp.replace(MEASURED)
    static, static_s = static_predictions()
    measured = measured_predictions(static=static)
    print_tables(labels, static, measured)
    if args.write_docs:
        args.docs.parent.mkdir(parents=True, exist_ok=True)
        text = render_markdown(labels, static, static_s, measured, fresh) + kept_sections(args.docs)
        tmp = args.docs.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(args.docs)
        print(f"\nwrote {args.docs}")
    return 0


# Sections of docs/benchmarks.md that other benchmarks keep (notebooks/evaluate.py's figures) follow
# this line; regenerating the accuracy part leaves them as they are.
KEPT = "<!-- sections below come from other benchmarks; accuracy.py --write-docs keeps them -->"


def kept_sections(docs: Path) -> str:
    old = docs.read_text() if docs.exists() else ""
    return "\n" + old[old.index(KEPT):] if KEPT in old else ""


if __name__ == "__main__":
    sys.exit(main())
