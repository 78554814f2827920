"""`tfadvisor check` against pylint on the same files: wall time ratio and peak memory, one run.

Why: `check` is meant for CI and pre-commit; it should cost a fraction of a linter people already
run. The files are the installed TensorFlow package's Python sources (big, real, varied code).

    python benchmarks/speed.py                # a deterministic sample of 200 files
    python benchmarks/speed.py --limit 50     # fewer
    python benchmarks/speed.py --all          # every file (pylint takes a long time)

Both tools run single-process (`check_paths(..., jobs=1)`, `pylint --jobs=1`) in their own child
process; pylint runs with its default checkers (`--disable=` nothing, no score, no reports), so
this compares against what a user who "just runs pylint" pays. Peak memory is the child's
maximum resident set size (``os.wait4`` rusage). The machine is shared: compare the ratios, not
the absolute seconds; CPU time (user + system, from the same rusage) is the figure that a busy
machine distorts least, and wall time is printed too.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SAVED = Path(__file__).resolve().parent / "speed.json"  # the last run, shown in docs/benchmarks.md

CHECK_CHILD = """
import sys
from tfadvisor.check import check_paths
files = open(sys.argv[1]).read().split("\\n")
report = check_paths(files, jobs=1)
print(len(report.functions), len(report.findings), sum(f.status == "error" for f in report.files))
"""


class SpeedError(Exception):
    """A one-line problem (TensorFlow or pylint not installed)."""


def tensorflow_dir() -> Path:
    """The installed TensorFlow package, found without importing it."""
    spec = importlib.util.find_spec("tensorflow")
    if spec is None or not spec.submodule_search_locations:
        raise SpeedError("TensorFlow is not installed in this Python")
    return Path(list(spec.submodule_search_locations)[0])


def sample(files: list[Path], limit: int | None) -> list[Path]:
    """Every k-th file of the sorted list: deterministic and spread over the whole package."""
    files = sorted(files)
    if limit is None or limit >= len(files):
        return files
    step = len(files) / limit
    return [files[int(i * step)] for i in range(limit)]


@dataclass
class Run:
    tool: str
    wall_s: float
    cpu_s: float  # user + system time of the child and the processes it waited for
    peak_mib: float
    exit_status: int
    summary: str


def timed(tool: str, cmd: list[str], cwd: Path) -> Run:
    """Run ``cmd`` as a child; its wall time and its own peak RSS (from ``wait4``)."""
    with tempfile.TemporaryFile("w+") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        lines = [ln for ln in out.read().splitlines() if ln.strip()]
    # ru_maxrss is in KiB on Linux
    cpu = usage.ru_utime + usage.ru_stime
    return Run(tool, wall, cpu, usage.ru_maxrss / 1024, proc.returncode, lines[-1][:120] if lines else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=200, help="number of files (deterministic sample)")
    parser.add_argument("--all", action="store_true", help="every Python file of the package")
    parser.add_argument("--path", type=Path, help="another folder instead of TensorFlow's sources")
    parser.add_argument("--save", action="store_true", help=f"keep the figures in {SAVED.name} for docs/benchmarks.md")
    args = parser.parse_args(argv)
    try:
        root = args.path or tensorflow_dir()
        if importlib.util.find_spec("pylint") is None:
            raise SpeedError("pylint is not installed: pip install pylint")
    except SpeedError as exc:
        print(f"speed: {exc}", file=sys.stderr)
        return 2
    if not root.is_dir():
        print(f"speed: {root} is not a folder", file=sys.stderr)
        return 2
    files = sample([p for p in root.rglob("*.py") if "__pycache__" not in p.parts], None if args.all else args.limit)
    if not files:
        print(f"speed: no Python files under {root}", file=sys.stderr)
        return 2
    lines = sum(len(p.read_bytes().splitlines()) for p in files)
    print(f"{len(files)} files, {lines:,} lines, from {root}")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write("\n".join(str(p) for p in files))
    try:
        check = timed("tfadvisor check", [sys.executable, "-c", CHECK_CHILD, listing.name], root)
        pylint = timed(
            "pylint",
            [sys.executable, "-m", "pylint", "--jobs=1", "--score=n", "--reports=n", "--persistent=n",
             *[str(p) for p in files]],
            root,
        )
    finally:
        os.unlink(listing.name)
    print()
    print("| tool | wall time | CPU time | lines/s (CPU) | peak memory |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for r in (check, pylint):
        print(f"| {r.tool} | {r.wall_s:.1f} s | {r.cpu_s:.1f} s | {lines / max(r.cpu_s, 1e-9):,.0f} | {r.peak_mib:.0f} MiB |")
    print()
    print(f"check: functions, findings, unreadable files = {check.summary}")
    print(f"pylint: exit status {pylint.exit_status} (non-zero means it found messages)")
    print(f"time ratio pylint / check: wall {pylint.wall_s / check.wall_s:.1f}x, CPU {pylint.cpu_s / check.cpu_s:.1f}x "
          f"(check takes {100 * check.cpu_s / pylint.cpu_s:.0f}% of pylint's CPU time)")
    print(f"memory ratio pylint / check: {pylint.peak_mib / check.peak_mib:.1f}x")
    if args.save:
        data = {
            "files": len(files), "lines": lines, "sample": "all" if args.all else f"every k-th of the sorted list, {len(files)} files",
            "command": "python benchmarks/speed.py" + (" --all" if args.all else f" --limit {len(files)}") + " --save",
            "pylint": "default checkers, --jobs=1 --score=n --reports=n --persistent=n",
            "runs": [{"tool": r.tool, "wall_s": r.wall_s, "cpu_s": r.cpu_s, "peak_mib": r.peak_mib} for r in (check, pylint)],
        }
        tmp = SAVED.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1) + "\n")
        tmp.replace(SAVED)
    return 0 if check.exit_status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
