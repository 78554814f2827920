"""How `check` reads real notebooks: none dropped whole, and every skipped cell invalid for IPython too.

    python benchmarks/notebooks/evaluate.py --mirrors DIR [--out DIR] [--without-ipython] [--json FILE]

``--mirrors`` holds one bare git directory per repository of ``repos.toml`` (as
``benchmarks/realworld/extract.py`` finds them; nothing is fetched). Each repository's ``.ipynb``
files are written at its pinned commit under ``--out`` (default ``/tmp/tfadvisor-notebooks``), the
notebooks whose code imports tensorflow are kept, and `check` runs on them. Printed: notebooks,
notebooks dropped whole (file status ``error``), cells skipped, and for each skipped cell whether
IPython itself rejects it too (a real ``InteractiveShell``'s ``transform_cell``, then ``compile``;
a ``%%time``-like cell's body is transformed and compiled as IPython does when it runs it); and how
many code cells read to exactly the Python IPython makes of them (same AST). ``--without-ipython``
reads the notebooks as an install without IPython would (tfadvisor's fallback reader).
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib.util
import json
import os
import re
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = "/tmp/tfadvisor-notebooks"
IMPORTS_TF = re.compile(r"^\s*(import tensorflow|from tensorflow)\b", re.MULTILINE)
IPYTHON_FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


def _extract_module():  # type: ignore[no-untyped-def]
    """benchmarks/realworld/extract.py (mirrors, pinned commits, git cat-file --batch)."""
    path = os.path.join(HERE, "..", "realworld", "extract.py")
    spec = importlib.util.spec_from_file_location("realworld_extract", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def load_repos() -> list[dict]:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    with open(os.path.join(HERE, "repos.toml"), "rb") as handle:
        return tomllib.load(handle)["repo"]


def code_cells(path: str) -> list[tuple[int, str]]:
    """(1-based cell number, text) of a notebook's code cells."""
    with open(path, encoding="utf-8-sig") as handle:
        cells = json.load(handle).get("cells", [])
    out = []
    for number, cell in enumerate(cells, 1):
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            src = cell.get("source", "")
            out.append((number, "".join(src) if isinstance(src, list) else str(src)))
    return out


def imports_tensorflow(path: str) -> bool:
    try:
        return any(IMPORTS_TF.search(text) for _, text in code_cells(path))
    except (OSError, ValueError, AttributeError):
        return True  # not readable as a notebook: keep it, check must say why


@functools.lru_cache(maxsize=1)
def _shell():  # type: ignore[no-untyped-def]
    """A real IPython shell (its profile in a temporary folder): what a notebook kernel runs cells with."""
    os.environ["IPYTHONDIR"] = tempfile.mkdtemp(prefix="tfadvisor-ipython-")
    from IPython.core.interactiveshell import InteractiveShell

    return InteractiveShell.instance()


def ipython_python(text: str) -> str:
    """The Python IPython runs for a cell: the shell's own ``transform_cell`` (the static transforms,
    then automagic for a one-line cell), and a cell magic's body transformed as %%time and the like
    transform it when they run it."""
    shell = _shell()
    python = shell.transform_cell(text)
    try:
        tree = ast.parse(python)
    except SyntaxError:
        return python
    call = tree.body[0].value if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr) else None
    if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "run_cell_magic"
            and isinstance(call.args[0], ast.Constant) and call.args[0].value in PYTHON_CELL_MAGICS):
        return shell.transform_cell(call.args[2].value)
    return python


def _automagic_on_python(text: str, theirs: str) -> bool:
    """A one-line cell of valid Python that a fresh shell ran as a magic (``env``, ``precision(a,
    b)``): in the notebook a name bound by an earlier cell shadows the magic and IPython runs the
    Python, as tfadvisor reads it; a fresh shell, with no names, cannot know."""
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return len(text.strip().splitlines()) == 1 and "run_line_magic" in theirs and "run_line_magic" not in text


def ipython_rejects(text: str) -> str | None:
    """IPython's own reason for not running a cell, or None when it compiles."""
    try:
        compile(ipython_python(text), "<cell>", "exec", IPYTHON_FLAGS, dont_inherit=True)
    except SyntaxError as exc:
        return f"{type(exc).__name__}: {exc.msg} (line {exc.lineno})"
    except Exception as exc:  # noqa: BLE001 - IPython's transformer failing is a rejection too
        return f"{type(exc).__name__}: {exc}"
    return None


@dataclass
class Figures:
    repositories: dict[str, int] = field(default_factory=dict)  # name -> TF2 notebooks
    notebooks: int = 0
    code_cells: int = 0
    functions: int = 0
    dropped: list[str] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    same_as_ipython: int = 0
    compared: int = 0
    differ: list[str] = field(default_factory=list)
    shadowed: list[str] = field(default_factory=list)  # automagic a notebook's own names would shadow
    seconds: float = 0.0
    fix: dict | None = None


def evaluate(paths: list[str], compare: bool) -> Figures:
    from tfadvisor.check import check_paths
    from tfadvisor.sources.cells import to_python

    figures = Figures(notebooks=len(paths))
    start = time.perf_counter()
    report = check_paths(paths)
    figures.seconds = time.perf_counter() - start
    figures.functions = len(report.functions)
    cells_by_path = {p: dict(code_cells(p)) for p in paths}
    figures.code_cells = sum(len(c) for c in cells_by_path.values())
    shown = {os.path.relpath(p): p for p in paths}
    for status in report.files:
        if status.status == "error":
            figures.dropped.append(f"{status.path}: {status.error}")
            continue
        for cell in status.skipped_cells:
            text = cells_by_path[shown[status.path]].get(cell.cell)
            figures.skipped.append({"path": status.path, "cell": cell.cell, "line": cell.line, "reason": cell.reason,
                                    "ipython": ipython_rejects(text) if text is not None else "not a text cell"})
    if compare:
        for path, cells in cells_by_path.items():
            for number, text in cells.items():
                if ipython_rejects(text) is not None:
                    continue
                ours = to_python(text)
                if ours.not_python is not None:
                    continue
                figures.compared += 1
                theirs = ipython_python(text)
                if ast.dump(ast.parse(ours.text)) == ast.dump(ast.parse(theirs)):
                    figures.same_as_ipython += 1
                elif _automagic_on_python(text, theirs):
                    figures.shadowed.append(f"{os.path.relpath(path)} cell {number}: {text.strip()[:60]!r}")
                else:
                    figures.differ.append(f"{os.path.relpath(path)} cell {number}")
    return figures


def fix_round_trip(root: str, paths: list[str], copy_to: str) -> dict:
    """``fix --unsafe-fixes`` on a copy of the notebooks, then ``check`` again: what was applied,
    what was not (by reason), and whether any notebook or cell reads worse after the fix."""
    import shutil
    from collections import Counter

    from tfadvisor.check import check_paths
    from tfadvisor.fix.engine import run_plan
    from tfadvisor.fix.planner import Options, plan

    shutil.rmtree(copy_to, ignore_errors=True)
    for path in paths:
        os.makedirs(os.path.join(copy_to, os.path.dirname(path)), exist_ok=True)
        shutil.copy(os.path.join(root, path), os.path.join(copy_to, path))
    here = os.getcwd()
    os.chdir(copy_to)
    try:
        before = check_paths(paths)
        outcomes = run_plan(plan(before, Options(unsafe=True)), paths, write=True)
        after = check_paths(paths)
    finally:
        os.chdir(here)
    skipped_before = {f.path: len(f.skipped_cells) for f in before.files}
    return {
        "notebooks_changed": sum(1 for o in outcomes if o.written),
        "edits_applied": sum(len(o.applied) for o in outcomes),
        "edits_not_applied": dict(Counter(s.reason.split(":")[0] for o in outcomes for s in o.skipped)),
        "files_left_untouched": [f"{o.path}: {o.error}" for o in outcomes if o.error],
        "dropped_after": [f.path for f in after.files if f.status == "error"],
        "more_cells_skipped_after": [f.path for f in after.files if len(f.skipped_cells) > skipped_before.get(f.path, 0)],
        "functions_before_after": [len(before.functions), len(after.functions)],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", required=True, help="folder of bare git mirrors")
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--without-ipython", action="store_true", help="read as an install without IPython")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--fix", action="store_true", help="also fix a copy of the notebooks and check them again")
    args = parser.parse_args(argv)
    extract = _extract_module()
    figures_repos: dict[str, int] = {}
    paths: list[str] = []
    for repo in load_repos():
        git_dir = extract.find_mirror(args.mirrors, repo["github"])
        if git_dir is None:
            print(f"{repo['name']}: no mirror of {repo['github']} under {args.mirrors}; left out", file=sys.stderr)
            continue
        _, missing = extract.extract(repo, git_dir, args.out, suffixes=(".ipynb",))
        found = sorted(os.path.join(root, name) for root, _, names in os.walk(os.path.join(args.out, repo["name"]))
                       for name in names if name.endswith(".ipynb"))
        kept = [p for p in found if imports_tensorflow(p)]
        figures_repos[repo["name"]] = len(kept)
        paths.extend(kept)
        note = f", {len(missing)} not in the mirror" if missing else ""
        print(f"{repo['name']}: {len(kept)} of {len(found)} notebooks import tensorflow{note}", file=sys.stderr)
    if args.without_ipython:  # tfadvisor's reader goes without IPython; the checks here still use it
        from tfadvisor.sources import cells

        cells._manager = lambda: None  # type: ignore[assignment]
    here = os.getcwd()
    os.chdir(args.out)
    try:
        figures = evaluate([os.path.relpath(p, args.out) for p in paths], compare=not args.without_ipython)
    finally:
        os.chdir(here)
    figures.repositories = figures_repos
    if args.fix:
        figures.fix = fix_round_trip(args.out, [os.path.relpath(p, args.out) for p in paths], args.out.rstrip("/") + "-fixed")
    _print(figures, args.without_ipython)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(asdict(figures), handle, indent=1)
    accepted = [s for s in figures.skipped if s["ipython"] is None]
    worse = figures.fix and (figures.fix["dropped_after"] or figures.fix["more_cells_skipped_after"])
    return 1 if figures.dropped or accepted or worse else 0


def _print(figures: Figures, fallback: bool) -> None:
    reader = "tfadvisor's fallback reader (no IPython)" if fallback else "IPython's transformer"
    print(f"read with {reader}")
    print(f"notebooks: {figures.notebooks} ({len(figures.repositories)} repositories), code cells: {figures.code_cells}, "
          f"functions: {figures.functions}, check took {figures.seconds:.1f} s")
    print(f"dropped whole: {len(figures.dropped)}")
    for line in figures.dropped:
        print(f"  {line}")
    rejected = sum(1 for s in figures.skipped if s["ipython"] is not None)
    print(f"cells skipped: {len(figures.skipped)} in {len({s['path'] for s in figures.skipped})} notebooks; "
          f"IPython rejects {rejected} of them too")
    for s in figures.skipped:
        verdict = f"IPython too: {s['ipython']}" if s["ipython"] else "IPYTHON ACCEPTS IT"
        print(f"  {s['path']} cell {s['cell']}, line {s['line']}: {s['reason']} | {verdict}")
    if figures.compared:
        print(f"cells read to the same Python as IPython's: {figures.same_as_ipython} of {figures.compared}; "
              f"{len(figures.shadowed)} one-line cells of Python a fresh shell takes for automagic (in the notebook "
              f"an earlier cell's name shadows the magic); {len(figures.differ)} other differences")
        for line in figures.shadowed:
            print(f"  automagic in a fresh shell only: {line}")
        for line in figures.differ:
            print(f"  differs: {line}")
    if figures.fix:
        f = figures.fix
        print(f"fix --unsafe-fixes on a copy: {f['edits_applied']} edits in {f['notebooks_changed']} notebooks; "
              f"not applied: {f['edits_not_applied'] or 'none'}; files left untouched: {len(f['files_left_untouched'])}")
        print(f"  checked again: {len(f['dropped_after'])} dropped, {len(f['more_cells_skipped_after'])} with more "
              f"cells skipped, functions {f['functions_before_after'][0]} -> {f['functions_before_after'][1]}")
        for line in f["files_left_untouched"]:
            print(f"  untouched: {line}")


PYTHON_CELL_MAGICS = ("time", "timeit", "capture", "prun", "memit", "debug")

if __name__ == "__main__":
    sys.exit(main())
