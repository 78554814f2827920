"""Done-when check of issue 21: `tfadvisor run` and `fix --from` on programs that use tf.function
for more than speed (export, concrete functions, checkpoints, distribution, variables made on the
first call) and on the tutorial-style loops of examples/ and benchmarks/triage_programs/.

Each program is copied into a fresh folder and run there, each run in a fresh interpreter:

- **alone**: ``python PROGRAM`` (its stdout and exit status are the reference);
- **observed**: ``tfadvisor run --budget 0`` (observation only) and ``tfadvisor run`` at the
  default budget: the program must print exactly what it printed alone and exit alike; the
  wall-time ratios against the plain run are the overhead (goals: <= 1.10 and <= 2.0). Observation
  alone is timed ``--repeat`` times alternately with the program alone, fastest against fastest
  (its cost is the tool's, the spread between runs the machine's);
- **fixed**: ``tfadvisor fix --from report.json`` on the copy, then the fixed program alone: it
  must print what the original printed (the same results) and exit alike;
- ``--epochs``: the same program with ``-- --epochs 1`` and ``-- --epochs 5`` under ``run``: the
  hot step (the replayed function with the largest share of the run) must get the same verdict;
- ``--speed``: the original, the fixed program and a hand-optimised copy (``HAND``: the best
  change found by hand, which must print what the original prints) timed alternately, fastest of
  ``--repeat``: fixed gain / hand gain (goal >= 0.9; exactly 1 when ``fix`` wrote the hand-made
  program, same syntax tree) and projected against measured saving as shares of the run (goal
  within 20 points).

Printed outputs are compared after masking wall-clock figures the programs print ("(0.9s)").
The machine is shared: read ratios and shares from one run, not seconds.

Usage: python benchmarks/run_safety.py [--epochs] [--speed] [--repeat N] [--budget S] [PROGRAM.py ...]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from as_installed import compile_tfadvisor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
PROGRAMS = os.path.join(HERE, "run_programs")
EPOCH_PROGRAMS = PROGRAMS  # every program of run_programs takes --epochs N
OTHERS = [os.path.join(ROOT, "examples"), os.path.join(HERE, "triage_programs")]
ADVISED = ("decorate", "reconfigure", "undecorate")

# The best change found by hand for each program (text replacements on a copy); none: as written.
HAND: dict[str, list[tuple[str, str]]] = {
    "export_module.py": [("\ndef train_step(", "\n@tf.function\ndef train_step(")],
    # one tf.function per call of run_epochs: each model and optimizer is traced first (decorating
    # train_step itself raises after the restore: the fresh optimizer creates variables, TF401)
    "checkpoint_resume.py": [("def run_epochs(model, optimizer, step, x_all, y_all, epochs):\n",
                              "def run_epochs(model, optimizer, step, x_all, y_all, epochs):\n"
                              "    train_step_fn = tf.function(train_step)\n"),
                             ("float(train_step(model", "float(train_step_fn(model")],
    "keras_export.py": [("\ndef train_step(", "\n@tf.function\ndef train_step(")],
    "concrete_functions.py": [("\ndef smooth(", "\n@tf.function\ndef smooth(")],
    "exported_helper.py": [("\ndef featurize(", "\n@tf.function\ndef featurize(")],
    "epoch_argument.py": [("\ndef train_step(", "\n@tf.function\ndef train_step("),
                          ("tf.constant(y_all[i * BATCH:(i + 1) * BATCH]), epoch)",
                           "tf.constant(y_all[i * BATCH:(i + 1) * BATCH]), tf.constant(epoch, tf.int32))")],
    "mlp_training.py": [("\ndef train_step(", "\n@tf.function\ndef train_step(")],
    "char_rnn.py": [("\ndef train_step(", "\n@tf.function\ndef train_step(")],
    "retracing.py": [("loss = train_step(w, b, x, y, step)", "loss = train_step(w, b, x, y, tf.constant(step, tf.float32))")],
    "preprocessing.py": [("\ndef augment(", "\n@tf.function\ndef augment(")],
}
_TIME = re.compile(r"\(\d+(\.\d+)?s\)|\d+(\.\d+)? ?s\b(?= elapsed)")
_NUMBER = re.compile(r"-?\d+(\.\d+)?(e-?\d+)?")


@dataclass
class Outcome:
    stdout: str
    status: int
    wall_s: float
    stderr_tail: str = ""
    cpu_s: float = float("nan")  # user + system seconds of the process and its children

    def same_as(self, other: Outcome, numbers: bool = True) -> bool:
        """Same exit status and output; ``numbers=False`` for a program that draws unseeded random
        numbers (two runs alone differ): then the same lines with any numbers."""
        mask = _mask if numbers else (lambda text: _NUMBER.sub("<n>", _mask(text)))
        return self.status == other.status and mask(self.stdout) == mask(other.stdout)


@dataclass
class Row:
    program: str
    alone: Outcome | None = None
    deterministic: bool = True  # two runs alone print the same
    observed: Outcome | None = None
    full: Outcome | None = None
    fixed: Outcome | None = None
    report: dict[str, Any] = field(default_factory=dict)
    edits: str = ""
    skipped: str = ""
    epochs: tuple[str, str] | None = None
    hot: str = ""
    speed: dict[str, float] = field(default_factory=dict)
    overhead0: float = float("nan")  # fastest observed (--budget 0) run over the fastest run alone
    overhead0_cpu: float = float("nan")  # the same in CPU seconds: what observation itself spends, less
    # swayed than wall time by other work on a shared machine
    fastest_alone_s: float = float("nan")


def _mask(text: str) -> str:
    return _TIME.sub("<time>", text)


def run(cmd: list[str], cwd: str, timeout: float = 1800) -> Outcome:
    start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Outcome("", -999, time.perf_counter() - start, "timed out")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # runs are one at a time: the delta is this one's
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    tail = "\n".join(proc.stderr.strip().splitlines()[-3:])
    return Outcome(proc.stdout, proc.returncode, time.perf_counter() - start, tail, cpu)


def tfadvisor(args: list[str], cwd: str) -> Outcome:
    return run([sys.executable, "-m", "tfadvisor", *args], cwd)


def observed(name: str, cwd: str, budget: float | None, args: list[str]) -> tuple[Outcome, dict[str, Any]]:
    report = os.path.join(cwd, f"report-{budget}.json")
    options = ["--budget", str(budget)] if budget is not None else []
    out = tfadvisor(["run", "-q", *options, "--format", "json", "--output", report, name, "--", *args], cwd)
    data = json.load(open(report)) if os.path.exists(report) else {}
    return out, data


def hot_verdict(report: dict[str, Any], name: str | None = None) -> tuple[str, str]:
    """(function, verdict) of the function called ``name``, else of the replayed function with the
    largest share of the run."""
    rows = [r for r in report.get("run", {}).get("table", []) if r.get("replayed") or r["qualname"] == name]
    named = [r for r in rows if r["qualname"] == name]
    if named or rows:
        hot = named[0] if named else max(rows, key=lambda r: r["share"])
        return hot["qualname"], hot["verdict"]
    return "-", "-"


def advised_saving(report: dict[str, Any]) -> float:
    return sum(r["saved_s"] or 0.0 for r in report.get("run", {}).get("table", []) if r["verdict"] in ADVISED)


def check_program(path: str, opts: argparse.Namespace) -> Row:
    name = os.path.basename(path)
    row = Row(name)
    with tempfile.TemporaryDirectory(prefix="tfa_safety_") as tmp:
        shutil.copy(path, os.path.join(tmp, name))
        if opts.only_epochs:
            _epochs(row, name, tmp, opts)
            return row
        row.alone = run([sys.executable, name], tmp)
        again = run([sys.executable, name], tmp)
        row.deterministic = again.same_as(row.alone)
        row.observed, _ = observed(name, tmp, 0, [])
        alone, watched = [row.alone, again], [row.observed]
        for _ in range(opts.repeat - 1):  # alternately, so a busy spell weighs on both alike
            watched.append(observed(name, tmp, 0, [])[0])
            alone.append(run([sys.executable, name], tmp))
        alone_s = [o.wall_s for o in alone]
        row.overhead0 = min(o.wall_s for o in watched) / min(alone_s)
        row.overhead0_cpu = min(o.cpu_s for o in watched) / min(o.cpu_s for o in alone)
        row.fastest_alone_s = min(alone_s)
        if opts.only_overhead:
            return row
        row.full, row.report = observed(name, tmp, opts.budget, [])
        fixed_dir = os.path.join(tmp, "fixed")
        os.mkdir(fixed_dir)
        shutil.copy(path, os.path.join(fixed_dir, name))
        report_path = os.path.join(tmp, f"report-{opts.budget}.json")
        if os.path.exists(report_path):
            # the report names the program by its path relative to where run ran: fix it there, in a copy
            shutil.copy(os.path.join(tmp, name), os.path.join(tmp, "original.py"))
            fix = tfadvisor(["fix", "--from", report_path, name], tmp)
            row.edits, row.skipped = _fix_summary(fix)
            shutil.copy(os.path.join(tmp, name), os.path.join(fixed_dir, name))
            shutil.copy(os.path.join(tmp, "original.py"), os.path.join(tmp, name))
        row.fixed = run([sys.executable, name], fixed_dir)
        if opts.epochs and (os.path.dirname(os.path.abspath(path)) == EPOCH_PROGRAMS or name in RUN_LENGTH):
            _epochs(row, name, tmp, opts)
        if opts.speed:
            row.speed = _speed(path, tmp, fixed_dir, row, opts.repeat)
    return row


# The examples set their run's length in a module constant, not a flag: (constant, its value for
# "1 epoch" and for "5 epochs": two runs of the same program, one five times longer.
RUN_LENGTH = {"mlp_training.py": ("EPOCHS", 1, 5), "char_rnn.py": ("STEPS", 100, 500),
              "retracing.py": ("STEPS", 40, 200), "preprocessing.py": ("BATCHES", 500, 2500)}


def _epochs(row: Row, name: str, tmp: str, opts: argparse.Namespace) -> None:
    """The hot step's verdict with 1 and with 5 epochs (same program, same budget rule)."""
    if name in RUN_LENGTH:
        constant, short, long = RUN_LENGTH[name]
        with open(os.path.join(tmp, name), encoding="utf-8") as handle:
            source = handle.read()
        for n in (short, long):
            changed, found = re.subn(rf"^{constant} = \d+$", f"{constant} = {n}", source, count=1, flags=re.M)
            if not found:  # two identical runs would pass the comparison for nothing
                raise SystemExit(f"{name}: no line `{constant} = <int>` to set the run's length")
            with open(os.path.join(tmp, f"len{n}_{name}"), "w", encoding="utf-8") as handle:
                handle.write(changed)
        _, r1 = observed(f"len{short}_{name}", tmp, opts.budget, [])
        _, r5 = observed(f"len{long}_{name}", tmp, opts.budget, [])
    else:
        _, r1 = observed(name, tmp, opts.budget, ["--epochs", "1"])
        _, r5 = observed(name, tmp, opts.budget, ["--epochs", "5"])
    hot5, v5 = hot_verdict(r5)  # the hot step of the longer run, and its verdict in the shorter one
    hot1, v1 = hot_verdict(r1, hot5)
    row.hot = hot1 if hot1 == hot5 else f"{hot1} / {hot5}"
    row.epochs = (v1, v5)


def _fix_summary(fix: Outcome) -> tuple[str, str]:
    """What ``fix`` applied and what it skipped, from its summary (cli/fix.py)."""
    edits, skipped, section = [], [], "edits"
    for line in fix.stdout.splitlines():
        if line.startswith("skipped"):
            section = "skipped"
        elif line.startswith("left untouched"):
            section = "errors"
        elif line.startswith("  ") and not line.startswith("    "):
            text = line.strip().split(": ", 1)[-1] if section == "edits" else line.strip()
            (edits if section == "edits" else skipped).append(text)
    return "; ".join(edits), "; ".join(skipped)


def _speed(path: str, tmp: str, fixed_dir: str, row: Row, repeat: int) -> dict[str, float]:
    name = os.path.basename(path)
    hand_dir = os.path.join(tmp, "hand")
    os.mkdir(hand_dir)
    text = open(path).read()
    for old, new in HAND.get(name, []):
        if old not in text:
            raise SystemExit(f"{name}: hand edit {old!r} not found")
        text = text.replace(old, new)
    with open(os.path.join(hand_dir, name), "w") as handle:
        handle.write(text)
    hand_out = run([sys.executable, name], hand_dir)
    if row.alone is not None and not hand_out.same_as(row.alone, row.deterministic):
        raise SystemExit(f"{name}: the hand-optimised copy does not behave as the original "
                         f"(exit {hand_out.status}): {hand_out.stderr_tail}")
    same_code = _same_code(os.path.join(fixed_dir, name), os.path.join(hand_dir, name))
    unchanged = _same_code(os.path.join(fixed_dir, name), path)  # fix made no edit: nothing to time
    times: dict[str, list[float]] = {"plain": [], "fixed": [], "hand": []}
    for _ in range(repeat):
        for label, folder in (("plain", tmp), ("fixed", fixed_dir), ("hand", hand_dir)):
            times[label].append(run([sys.executable, name], folder).wall_s)
    best = {k: min(v) for k, v in times.items()}
    projected = advised_saving(row.report)
    observed_wall = row.report.get("run", {}).get("wall_s") or float("nan")
    return {**best, "projected_share": 100 * projected / observed_wall,
            "measured_share": 0.0 if unchanged else 100 * (best["plain"] - best["fixed"]) / best["plain"],
            "hand_changed": float(name in HAND), "same_code": float(same_code)}


def _same_code(a: str, b: str) -> bool:
    """The fixed program is the hand-optimised one (same syntax tree): their speed-ups are one."""
    import ast

    return ast.dump(ast.parse(open(a).read())) == ast.dump(ast.parse(open(b).read()))


def programs(opts: argparse.Namespace) -> list[str]:
    if opts.programs:
        return [os.path.abspath(p) for p in opts.programs]
    found = sorted(os.path.join(PROGRAMS, f) for f in os.listdir(PROGRAMS) if f.endswith(".py"))
    if not opts.only_new:
        for folder in OTHERS:
            found += sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".py"))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", action="store_true", help="also compare the hot step's verdict at 1 and 5 epochs")
    parser.add_argument("--speed", action="store_true", help="also time original, fixed and hand-optimised copies")
    parser.add_argument("--repeat", type=int, default=2, help="timed runs of each variant (fastest counts)")
    parser.add_argument("--budget", type=float, default=None, help="run's --budget (default: run's own)")
    parser.add_argument("--only-new", action="store_true", help="only the programs of run_programs/")
    parser.add_argument("--only-epochs", action="store_true", help="only the 1 and 5 epoch comparison")
    parser.add_argument("--only-overhead", action="store_true", help="only the --budget 0 overhead (and same output)")
    parser.add_argument("programs", nargs="*")
    opts = parser.parse_args()
    compile_tfadvisor()  # timed as installed (as_installed.py)
    if opts.only_overhead:
        print("| program | alone | observed (budget 0) | fastest alone s | overhead 0 | overhead 0, CPU s |")
        print("| --- | --- | --- | ---: | ---: | ---: |")
    elif not opts.only_epochs:
        print("| program | alone | observed (budget 0) | run | fixed | overhead 0 | overhead run | edits | skipped |")
        print("| --- | --- | --- | --- | --- | ---: | ---: | --- | --- |")
    failures = 0
    rows = []
    opts.epochs = opts.epochs or opts.only_epochs
    for path in programs(opts):
        row = check_program(path, opts)
        rows.append(row)
        if opts.only_epochs:
            continue
        a = row.alone
        if opts.only_overhead:
            assert a is not None and row.observed is not None
            same0 = row.observed.same_as(a, row.deterministic)
            failures += not same0
            print(f"| {row.program} | {'ok' if a.status == 0 else f'exit {a.status}'} | "
                  f"{'same' if same0 else 'DIFFERENT'} | {row.fastest_alone_s:.2f} | {row.overhead0:.2f} | "
                  f"{row.overhead0_cpu:.2f} |", flush=True)
            continue
        assert a is not None and row.observed is not None and row.full is not None and row.fixed is not None
        same = [o.same_as(a, row.deterministic) for o in (row.observed, row.full, row.fixed)]
        failures += not all(same)
        status = ("ok" if a.status == 0 else f"exit {a.status}") + ("" if row.deterministic else " (unseeded)")
        print(f"| {row.program} | {status} | {'same' if same[0] else 'DIFFERENT'} | {'same' if same[1] else 'DIFFERENT'} "
              f"| {'same' if same[2] else 'DIFFERENT'} | {row.overhead0:.2f} | {row.full.wall_s / a.wall_s:.2f} "
              f"| {row.edits or '-'} | {row.skipped or '-'} |", flush=True)
        for label, out in (("observed", row.observed), ("run", row.full), ("fixed", row.fixed)):
            if not out.same_as(a, row.deterministic):
                print(f"    {label}: exit {out.status}; {out.stderr_tail!r}\n    alone: {a.stdout[-300:]!r}\n"
                      f"    {label}: {out.stdout[-300:]!r}")
    if opts.epochs:
        print("\n| program | hot step | verdict, 1 epoch | verdict, 5 epochs | same |")
        print("| --- | --- | --- | --- | --- |")
        for row in rows:
            if row.epochs:
                same = row.epochs[0] == row.epochs[1]
                failures += not same
                print(f"| {row.program} | {row.hot} | {row.epochs[0]} | {row.epochs[1]} | {'yes' if same else 'NO'} |")
    if opts.speed:
        print("\n| program | plain s | fixed s | hand s | fixed gain / hand gain | projected share | measured share | points |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for row in rows:
            s = row.speed
            if not s:
                continue
            hand_gain, fixed_gain = s["plain"] - s["hand"], s["plain"] - s["fixed"]
            if not s["hand_changed"]:
                ratio = "(no change found by hand)"
            elif s["same_code"]:
                ratio = "1.00 (same code as by hand)"
            else:
                ratio = f"{fixed_gain / hand_gain:.2f}" if hand_gain > 0.05 * s["plain"] else "(no gain by hand)"
            print(f"| {row.program} | {s['plain']:.2f} | {s['fixed']:.2f} | {s['hand']:.2f} | {ratio} | "
                  f"{s['projected_share']:.1f}% | {s['measured_share']:.1f}% | "
                  f"{s['projected_share'] - s['measured_share']:+.1f} |")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
