"""Done-when check for `fix` (issue 6), run by hand, not by pytest (minutes of real training):

    .venv/bin/python tests/fix/check_examples.py [--rounds 2] [--budget 60] [EXAMPLE.py ...]

For each program in examples/: `tfadvisor run` it (JSON report), `tfadvisor fix --from` the report
on a copy, and a hand-decorated copy (what a TensorFlow user would write, below). Then each variant
runs as a plain program, interleaved, `--rounds` times; the script prints wall times (median), the
fixed/hand ratio and whether the `result:` lines agree. Figures are measured in one run on a
shared machine: read the ratios, not the absolute times.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
TFADVISOR = [sys.executable, "-m", "tfadvisor"]

# The hand-decorated versions: (text to find, text to put instead).
HAND = {
    "mlp_training.py": [("\ndef train_step(", "\n@tf.function\ndef train_step(")],
    "char_rnn.py": [("\ndef train_step(", "\n@tf.function\ndef train_step(")],
    "preprocessing.py": [("\ndef standardize(", "\n@tf.function\ndef standardize("),
                         ("\ndef augment(", "\n@tf.function\ndef augment("),
                         ("\ndef accumulate(", "\n@tf.function\ndef accumulate(")],
    # The retrace comes from the Python int `step`: a user passes it as a tensor.
    "retracing.py": [("= train_step(w, b, x, y, step)", "= train_step(w, b, x, y, tf.constant(step, tf.float32))")],
}
NUMBER = re.compile(r"-?\d+\.\d+|-?\d+")


def sh(cmd: list[str], cwd: Path, timeout: float = 900) -> tuple[int, str, float]:
    start = time.perf_counter()
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONHASHSEED": "0"}
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    return proc.returncode, proc.stdout + proc.stderr, time.perf_counter() - start


def result_line(output: str) -> str | None:
    return next((line for line in output.splitlines() if line.startswith("result:")), None)


def same_results(a: str | None, b: str | None, rel: float = 2e-3) -> bool:
    if a is None or b is None:
        return False
    na, nb = NUMBER.findall(a), NUMBER.findall(b)
    if NUMBER.sub("#", a) != NUMBER.sub("#", b) or len(na) != len(nb):
        return False
    return all(abs(float(x) - float(y)) <= rel * max(1.0, abs(float(x))) for x, y in zip(na, nb))


def check(example: str, work: Path, rounds: int, budget: float) -> dict:
    row: dict = {"example": example}
    dirs = {name: work / name for name in ("original", "fixed", "hand")}
    for d in dirs.values():
        d.mkdir(parents=True)
        shutil.copy(EXAMPLES / example, d / example)
    text = (dirs["hand"] / example).read_text()
    for old, new in HAND[example]:
        assert old in text, (example, old)
        text = text.replace(old, new)
    (dirs["hand"] / example).write_text(text)

    code, out, wall = sh([*TFADVISOR, "run", "--budget", str(budget), "-q", "-f", "json", "-o", "report.json", example],
                         cwd=dirs["fixed"])
    row["run_exit"], row["run_wall_s"] = code, round(wall, 1)
    report = json.loads((dirs["fixed"] / "report.json").read_text())
    row["verdicts"] = {f["qualname"]: f"{f['verdict']} ({f['confidence']})" for f in report["functions"]
                       if f["verdict"] != "leave-eager"}
    code, out, _ = sh([*TFADVISOR, "fix", example, "--from", "report.json"], cwd=dirs["fixed"])
    row["fix_exit"], row["fix_summary"] = code, out.strip()
    code, out, _ = sh([*TFADVISOR, "fix", example, "--from", "report.json", "--diff"], cwd=dirs["fixed"])
    row["second_fix_changes"] = code != 0
    row["fixed_identical_to_hand"] = (dirs["fixed"] / example).read_text() == (dirs["hand"] / example).read_text()

    times: dict[str, list[float]] = {name: [] for name in dirs}
    results: dict[str, str | None] = {}
    for _ in range(rounds):
        for name, d in dirs.items():
            code, out, wall = sh([sys.executable, example], cwd=d)
            if code != 0:
                results[name] = f"exit {code}: {out.strip().splitlines()[-1] if out.strip() else ''}"
                continue
            times[name].append(wall)
            results[name] = result_line(out)
    row["results"] = results
    row["wall_s"] = {name: round(statistics.median(t), 2) if t else None for name, t in times.items()}
    fixed, hand = row["wall_s"]["fixed"], row["wall_s"]["hand"]
    row["fixed_over_hand"] = round(fixed / hand, 3) if fixed and hand else None
    row["fixed_same_as_original"] = same_results(results.get("fixed"), results.get("original"))
    row["fixed_same_as_hand"] = same_results(results.get("fixed"), results.get("hand"))
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("examples", nargs="*", default=sorted(HAND))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--budget", type=float, default=60)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tfadvisor-fix-check-"))
    rows = []
    for example in args.examples:
        row = check(example, work / example[:-3], args.rounds, args.budget)
        rows.append(row)
        print(json.dumps(row, indent=1), flush=True)
    print("\n| example | fixed by `fix` | original s | fixed s | hand s | fixed/hand | same results |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        w = r["wall_s"]
        print(f"| {r['example']} | {r['fix_summary'].splitlines()[0]} | {w['original']} | {w['fixed']} | {w['hand']} "
              f"| {r['fixed_over_hand']} | {r['fixed_same_as_original']} |")


if __name__ == "__main__":
    main()
