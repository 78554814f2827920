"""Does following `tfadvisor run`'s Keras advice pay, against the best configuration found by hand?

For each program of ``benchmarks/keras_programs/`` (written for this benchmark: an image classifier
with an augmenting ``map``, a text model, a time-series model, a model left with
``run_eagerly=True``):

1. ``tfadvisor run PROGRAM --format json`` on a copy (the advice);
2. ``tfadvisor fix --from REPORT`` on another copy (the advice applied, as a user would);
3. the hand-tuned variant ``keras_programs/best/PROGRAM`` (the best configuration found by trying
   compile options and pipeline edits by hand; how it was found: docs/benchmarks.md);
4. plain, fixed and best run alternately ``--repeat`` times; each prints ``timing: fit=...s`` and
   ``result: ...`` lines. Speed-ups are ratios within one round (adjacent runs on the same machine
   load), given as ranges over the rounds; "share of best" is the fixed speed-up over the best one.

Results are "the same" when every metric of every fixed run lies within the plain runs' range,
widened by half its width, 10% of the mean (50% for a loss) or 0.01, whichever is largest: the
programs are not bit-reproducible run to run (oneDNN's kernels, random augmentation), and a test
loss near zero moves a lot (the image classifier's plain runs: 0.155-0.317 at accuracy 1.000).

    python benchmarks/keras_advice.py [--repeat 3] [--budget S] [--only text_model] [--keep DIR] [--json F]
    python benchmarks/keras_advice.py --table F   # the table again from saved rows
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "keras_programs"
BEST = PROGRAMS / "best"


@dataclass
class Timed:
    fit: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    results: list[dict[str, float]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def tfadvisor(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tfadvisor", *args], cwd=cwd, capture_output=True, text=True)


def run_program(path: Path, into: Timed) -> None:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-W", "ignore", path.name], cwd=path.parent, capture_output=True, text=True)
    wall = time.perf_counter() - start
    fit = re.search(r"timing: fit=([\d.]+)s", proc.stdout)
    result = [line for line in proc.stdout.splitlines() if line.startswith("result:")]
    if proc.returncode != 0 or fit is None or not result:
        into.failures.append(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}")
        return
    into.fit.append(float(fit.group(1)))
    into.wall.append(wall)
    into.results.append({k: float(v) for k, v in re.findall(r"(\w+)=(-?[\d.]+)", result[-1])})


def same_results(plain: list[dict[str, float]], other: list[dict[str, float]]) -> bool:
    if not plain or not other:
        return False
    for key in plain[0]:
        values = [r[key] for r in plain if key in r]
        lo, hi = min(values), max(values)
        relative = 0.5 if "loss" in key else 0.1  # a test loss near zero swings by a third run to run
        pad = max(0.5 * (hi - lo), relative * abs(sum(values) / len(values)), 0.01)
        if any(key not in r or not lo - pad <= r[key] <= hi + pad for r in other):
            return False
    return True


def advice_of(report: dict) -> str:
    words = []
    for t in report.get("run", {}).get("keras", []):
        if t.get("verdict") != "reconfigure":
            continue
        if t.get("options"):
            words.append("compile(" + ", ".join(f"{k}={v}" for k, v in t["options"].items()) + ")")
        names = {"parallel_map": "num_parallel_calls", "prefetch": "prefetch", "cache": "cache"}
        kinds = sorted({names[e["kind"]] for e in t.get("pipeline_edits", [])})
        if kinds:
            words.append("tf.data: " + ", ".join(kinds))
    return "; ".join(words) or "none"


def ratio_range(a: list[float], b: list[float]) -> tuple[float, float] | None:
    pairs = [x / y for x, y in zip(a, b, strict=False) if y]
    return (min(pairs), max(pairs)) if pairs else None


def fmt_range(r: tuple[float, float] | None, suffix: str = "x") -> str:
    if r is None:
        return "-"
    return f"{r[0]:.2f}{suffix}" if abs(r[0] - r[1]) < 0.005 else f"{r[0]:.2f}-{r[1]:.2f}{suffix}"


def bench(program: Path, repeat: int, budget: float | None, keep: Path | None = None) -> dict:
    work = Path(tempfile.mkdtemp(prefix=f"keras-{program.stem}-"))
    plain, fixed = work / "plain", work / "fixed"
    plain.mkdir()
    fixed.mkdir()
    shutil.copy(program, plain / program.name)
    shutil.copy(program, fixed / program.name)
    start = time.perf_counter()
    budget_args = ["--budget", str(budget)] if budget is not None else []  # default: run's own budget
    run = tfadvisor("run", program.name, "--format", "json", "--output", str(work / "report.json"), "--quiet",
                    *budget_args, cwd=plain)
    run_s = time.perf_counter() - start
    report = json.loads((work / "report.json").read_text()) if (work / "report.json").exists() else {}
    fix = tfadvisor("fix", "--from", str(work / "report.json"), program.name, cwd=fixed)
    variants = {"plain": plain / program.name, "fixed": fixed / program.name}
    best = BEST / program.name
    if best.exists():
        variants["best"] = best
    timed = {name: Timed() for name in variants}
    for _ in range(repeat):
        for name, path in variants.items():
            run_program(path, timed[name])
            print(f"  {program.stem} {name}: fit {timed[name].fit[-1] if timed[name].fit else 'failed'}",
                  file=sys.stderr, flush=True)
    row = {
        "program": program.name, "advice": advice_of(report), "run_exit": run.returncode, "fix_exit": fix.returncode,
        "run_s": round(run_s, 1), "fix_diff": fix.stdout.strip().splitlines()[-1:] if fix.stdout else [],
        "fit_s": {n: [round(x, 2) for x in t.fit] for n, t in timed.items()},
        "wall_s": {n: [round(x, 2) for x in t.wall] for n, t in timed.items()},
        "results": {n: t.results for n, t in timed.items()},
        "failures": {n: t.failures for n, t in timed.items() if t.failures},
        "fixed_speedup": ratio_range(timed["plain"].fit, timed["fixed"].fit),
        "fixed_wall_speedup": ratio_range(timed["plain"].wall, timed["fixed"].wall),
        "same_results": same_results(timed["plain"].results, timed["fixed"].results),
    }
    if "best" in timed:
        row["best_speedup"] = ratio_range(timed["plain"].fit, timed["best"].fit)
        shares = [(p / f) / (p / b) for p, f, b in zip(timed["plain"].fit, timed["fixed"].fit, timed["best"].fit,
                                                        strict=False)]
        row["share_of_best"] = (min(shares), max(shares)) if shares else None
        row["best_same_results"] = same_results(timed["plain"].results, timed["best"].results)
    if keep is not None and (work / "report.json").exists():
        keep.mkdir(parents=True, exist_ok=True)
        shutil.copy(work / "report.json", keep / f"{program.stem}.json")
    shutil.rmtree(work, ignore_errors=True)
    return row


def markdown(rows: list[dict]) -> str:
    """The table: fit seconds (fastest-slowest over the rounds), speed-ups of the fastest runs (the
    least disturbed on a shared machine), and in brackets the range of the per-round ratios."""
    lines = ["| program | advice applied by `fix` | fit plain s | fit fixed s | fit best s | speed-up fixed | "
             "speed-up best | share of best | program wall speed-up | same results |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        fits = r["fit_s"]
        fixed, best, share = fastest(fits, "fixed"), fastest(fits, "best"), None
        if fixed and best:
            share = fixed / best
        lines.append(
            f"| {r['program']} | {r['advice']} | {_span(fits.get('plain'))} | {_span(fits.get('fixed'))} | "
            f"{_span(fits.get('best'))} | {_x(fixed)} ({fmt_range(r['fixed_speedup'])}) | "
            f"{_x(best)} ({fmt_range(r.get('best_speedup'))}) | {_x(share, '')} "
            f"({fmt_range(r.get('share_of_best'), '')}) | {fmt_range(r['fixed_wall_speedup'])} | "
            f"{'yes' if r['same_results'] else 'no'} |")
    return "\n".join(lines)


def fastest(fits: dict[str, list[float]], name: str) -> float | None:
    """Plain's fastest fit over this variant's fastest one."""
    if not fits.get("plain") or not fits.get(name):
        return None
    return min(fits["plain"]) / min(fits[name])


def _x(value: float | None, suffix: str = "x") -> str:
    return "-" if value is None else f"{value:.2f}{suffix}"


def _span(values: list[float] | None) -> str:
    if not values:
        return "-"
    return f"{min(values):.2f}" if len(values) == 1 else f"{min(values):.2f}-{max(values):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, default=None, help="run's --budget (default: run's own)")
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--json", help="also write the rows here")
    parser.add_argument("--keep", type=Path, help="keep each program's `run` report (JSON) in this folder")
    parser.add_argument("--table", type=Path, help="only print the table of rows saved with --json")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONWARNINGS", "ignore")
    if args.table:
        print(markdown(json.loads(args.table.read_text())))
        return
    rows = []
    for program in sorted(PROGRAMS.glob("*.py")):
        if args.only and program.stem not in args.only:
            continue
        print(f"{program.name}: tfadvisor run, fix, then {args.repeat} rounds", file=sys.stderr, flush=True)
        rows.append(bench(program, args.repeat, args.budget, args.keep))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    print(markdown(rows))


if __name__ == "__main__":
    main()
