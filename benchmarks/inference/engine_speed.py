"""How fast does each engine give the kind of every value in a tree? Seconds per 1,000 lines.

    .venv/bin/python benchmarks/inference/engine_speed.py [PATH] [--engines ...] [--files N] [--budget S]

PATH defaults to the installed TensorFlow package's sources. The workload is what backing
tfadvisor's value kinds would ask of an engine: the kind of every parameter of every ``def`` and of
every call argument that is a name or an attribute, in every file.
- ``ast.parse``: a bare single-process parse of the same files (the yardstick of issue 19: ``check``
  stays within 4x of it);
- ``check``: ``tfadvisor check`` as a library (``check_paths``), one worker and the default;
- ``astroid`` / ``jedi``: build each file and infer every such value, files in a seeded random order
  until ``--budget`` seconds are spent (then the rate is over the files done);
- ``pyright``: ``basedpyright --outputjson`` over the same files (checking a file evaluates every
  expression in it), with the ``types-tensorflow`` stubs.
``--files N`` takes a seeded random sample of N files (``random.Random(20261219)``) for every engine
alike; without it every file is used. Prints CPU seconds per 1,000 lines (this process and its
children: the machine is shared, and CPU time moves less with the load than wall time), wall
seconds, and the CPU ratio to ``ast.parse``.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import engines  # noqa: E402

SEED = 20261219


def tensorflow_sources() -> str:
    import importlib.util

    spec = importlib.util.find_spec("tensorflow")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("TensorFlow is not installed: pass a PATH")
    return list(spec.submodule_search_locations)[0]


def python_files(root: str) -> list[str]:
    from tfadvisor.sources import discover

    return [f for f in discover([root]) if f.endswith(".py")]


def count_lines(files: list[str]) -> int:
    return sum(Path(f).read_bytes().count(b"\n") for f in files)


def positions(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(line, byte column, "param" | "arg") of every value the workload asks about."""
    out: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            out.extend((p.lineno, p.col_offset, "param") for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)
                       if p.arg not in ("self", "cls"))
        elif isinstance(node, ast.Call):
            for arg in (*node.args, *(k.value for k in node.keywords)):
                if isinstance(arg, ast.Name):
                    out.append((arg.lineno, arg.col_offset, "arg"))
                elif isinstance(arg, ast.Attribute):
                    out.append((arg.end_lineno or arg.lineno, (arg.end_col_offset or 0) - len(arg.attr), "attr"))
    return out


class Clock:
    """Wall and CPU time (this process and the children it waited for) of one block."""

    def __enter__(self) -> Clock:
        self.wall0, self.cpu0 = time.perf_counter(), self._cpu()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall0, self._cpu() - self.cpu0

    @staticmethod
    def _cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def parse_all(files: list[str]) -> None:
    for path in files:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(Path(path).read_bytes())
        except (SyntaxError, ValueError):
            pass


def run_check(files: list[str], jobs: int | None) -> None:
    from tfadvisor.check import analyze_files, build_report
    from tfadvisor.config import Config
    from tfadvisor.rules import selected

    rules = selected((), ())
    results = analyze_files(files, tuple(r.code for r in rules), jobs=jobs)
    build_report([s for _, s in results], [f for f, _ in results], rules, Config())


def run_budgeted(files: list[str], budget: float, one: Callable[[str, ast.Module], int]) -> tuple[float, list[str], int]:
    """Run ``one`` per file until ``budget`` seconds; (seconds, files done, values asked)."""
    done: list[str] = []
    asked = 0
    start = time.perf_counter()
    for path in files:
        if time.perf_counter() - start > budget:
            break
        try:
            tree = engines.parse(Path(path))
        except (SyntaxError, ValueError):
            continue
        asked += one(path, tree)
        done.append(path)
    return time.perf_counter() - start, done, asked


def astroid_one(path: str, tree: ast.Module) -> int:
    import astroid
    from astroid import nodes

    try:
        module = astroid.MANAGER.ast_from_file(path)
    except Exception:  # noqa: BLE001 - a file astroid cannot build costs what it cost
        return 0
    wanted = {(line, col) for line, col, _ in positions(tree)}
    asked = 0
    for node in module.nodes_of_class((nodes.AssignName, nodes.Name, nodes.Attribute)):
        key = (node.lineno, node.col_offset) if not isinstance(node, nodes.Attribute) else None
        if isinstance(node, nodes.Attribute):
            key = (node.end_lineno, (node.end_col_offset or 0) - len(node.attrname))
        if key in wanted:
            engines.astroid_kinds(node, 5.0)
            asked += 1
    return asked


def jedi_one_factory(root: str) -> Callable[[str, ast.Module], int]:
    import jedi

    project = jedi.Project(root, environment_path=str(engines.VENV_PYTHON.parent.parent))

    def one(path: str, tree: ast.Module) -> int:
        script = jedi.Script(Path(path).read_text(encoding="utf-8", errors="replace"), path=path, project=project)
        asked = 0
        for line, col, _ in positions(tree):
            engines.jedi_kinds(script, line, engines.char_col(Path(path), line, col), 5.0)
            asked += 1
        return asked

    return one


def copy_out(files: list[str], root: str, dest: Path) -> list[str]:
    """The files copied under ``dest`` (same relative paths): pyright does not check files that lie
    in the environment's site-packages, such as TensorFlow's own sources."""
    out = []
    for path in files:
        target = dest / os.path.relpath(path, root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        out.append(str(target))
    return out


def run_pyright(files: list[str], folder: Path) -> None:
    """basedpyright over the files named on its command line (their imports resolved as needed)."""
    command = [str(engines.BIN / "basedpyright"), "--pythonpath", str(engines.VENV_PYTHON), "--outputjson", *files]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
    checked = json.loads(done.stdout or "{}").get("summary", {}).get("filesAnalyzed", 0)
    if checked < len(files):
        print(f"  (basedpyright analysed {checked} of {len(files)} files)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?")
    parser.add_argument("--engines", default="check,astroid,jedi,pyright")
    parser.add_argument("--files", type=int, default=0, help="a seeded random sample of N files")
    parser.add_argument("--budget", type=float, default=600.0, help="seconds for astroid and jedi each")
    args = parser.parse_args()
    root = os.path.abspath(args.path or tensorflow_sources())
    files = python_files(root)
    if args.files and args.files < len(files):
        files = sorted(random.Random(SEED).sample(files, args.files))
    lines = count_lines(files)
    with Clock() as base:
        parse_all(files)
    per_k = 1000 * base.cpu / lines
    print(f"tree: {root}\nfiles: {len(files)} ({lines:,} lines)")

    def report(name: str, clock: Clock, done_lines: int, note: str = "") -> None:
        cpu = 1000 * clock.cpu / max(done_lines, 1)
        wall = 1000 * clock.wall / max(done_lines, 1)
        print(f"{name:22s} {cpu:8.4f} CPU s / 1,000 lines ({cpu / per_k:7,.1f}x ast.parse), "
              f"{wall:8.4f} wall s / 1,000 lines{note}", flush=True)

    report("ast.parse", base, lines)
    for name in args.engines.split(","):
        if name == "check":
            for jobs in (1, None):
                with Clock() as clock:
                    run_check(files, jobs)
                report(f"check ({jobs or os.cpu_count()} worker{'s' if jobs != 1 else ''})", clock, lines)
        elif name in ("astroid", "jedi"):
            shuffled = list(files)
            random.Random(SEED).shuffle(shuffled)
            one = astroid_one if name == "astroid" else jedi_one_factory(root)
            with Clock() as clock:
                _, done, asked = run_budgeted(shuffled, args.budget, one)
            done_lines = count_lines(done)
            report(name, clock, done_lines, f"  [{len(done)} files, {done_lines:,} lines, {asked:,} values]")
        elif name == "pyright":
            with tempfile.TemporaryDirectory() as tmp:
                copies = copy_out(files, root, Path(tmp))
                with Clock() as clock:
                    run_pyright(copies, Path(tmp))
            report("basedpyright", clock, lines)


if __name__ == "__main__":
    main()
