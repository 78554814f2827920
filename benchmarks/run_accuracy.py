"""Done-when check for `tfadvisor run`: apply the report's advice by hand (in a copy) and measure.

For each example: run `tfadvisor run` (JSON), then make a copy of the script with exactly what the
report advises: `decorate` adds `@tf.function` (with the option the advice names:
`measurement.option`), `reconfigure` sets that option on the decorator, `undecorate` removes it,
and Python numbers to pass as tensors (`as_tensors`) get `tf.constant(arg, dtype)` at their call
sites. Plain and edited programs then run alternately (fresh interpreters, fastest of N kept) and
the measured saving is compared with the report's projected saving, as shares of each run
(`points`: projected share minus measured share, in percentage points); the programs' `result:`
lines must be identical. The machine is shared: read the ratios and shares, not the seconds.

Usage: python benchmarks/run_accuracy.py [--repeat N] [--budget S] [EXAMPLE.py ...]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")
ENV = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}
OPTION_TEXT = {"reduce_retracing": "reduce_retracing=True", "jit_compile": "jit_compile=True",
               "input_signature": "reduce_retracing=True"}  # numbers become tensors at the call sites
ADVISED = ("decorate", "reconfigure", "undecorate")

_TIMED = """
import json, runpy, sys, time, io, contextlib
sys.argv = [sys.argv[1]]
sys.path.insert(0, __import__('os').path.dirname(sys.argv[0]))
out = io.StringIO()
start = time.perf_counter()
with contextlib.redirect_stdout(out):
    runpy.run_path(sys.argv[0], run_name="__main__")
wall = time.perf_counter() - start
result = [l for l in out.getvalue().splitlines() if l.startswith("result")]
print("@@" + json.dumps({"wall_s": wall, "result": result}))
"""


def advise(script: str, budget: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        subprocess.run([sys.executable, "-m", "tfadvisor", "run", "-q", "--budget", str(budget), "--format", "json",
                        "--output", out, script], env=ENV, capture_output=True, check=False)
        with open(out) as handle:
            return json.load(handle)


def edited_copy(script: str, report: dict, folder: str) -> tuple[str, list[str]]:
    """The script with the advice applied; returns its path and a description of each edit."""
    source = open(script).read()
    lines = source.splitlines(keepends=True)
    rows = {r["id"]: r for r in report["run"]["table"]}
    edits: list[str] = []
    inserts: list[tuple[int, str]] = []
    replacements: list[tuple[int, int, int, str]] = []  # line, col, end_col, text (single-line args)
    tree = ast.parse(source)
    defs = {n.lineno: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    removed: list[int] = []
    for fn in report["functions"]:
        row = rows.get(fn["id"])
        if not row or os.path.realpath(fn["path"]) != os.path.realpath(script):
            continue
        node = _find_def(defs, fn)
        if node is None:
            continue
        advice = fn.get("advice") or {}
        option = advice.get("option") if advice else (fn.get("measurement") or {}).get("option")
        decorator = "@tf.function" + (f"({OPTION_TEXT[option]})" if option in OPTION_TEXT else "")
        existing = next((d for d in node.decorator_list if "function" in ast.unparse(d)), None)
        if row["verdict"] == "decorate":
            indent = lines[node.lineno - 1][: node.col_offset]
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            inserts.append((first - 1, f"{indent}{decorator}\n"))
            edits.append(f"{decorator} on {fn['qualname']}")
        elif row["verdict"] == "undecorate" and existing is not None:
            removed.extend(range(existing.lineno, existing.end_lineno + 1))
            edits.append(f"tf.function removed from {fn['qualname']}")
        elif row["verdict"] == "reconfigure" and existing is not None and option in OPTION_TEXT and not row.get("as_tensors"):
            removed.extend(range(existing.lineno, existing.end_lineno + 1))
            inserts.append((existing.lineno - 1, f"{lines[node.lineno - 1][: node.col_offset]}{decorator}\n"))
            edits.append(f"{decorator} on {fn['qualname']}")
        if row["verdict"] in ("decorate", "reconfigure") and row.get("as_tensors"):
            params = [a.arg for a in node.args.args]
            for call in ast.walk(tree):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == node.name:
                    for name, dtype in row["as_tensors"].items():
                        index = params.index(name) if name in params else -1
                        arg = call.args[index] if 0 <= index < len(call.args) else None
                        if arg is not None and arg.lineno == arg.end_lineno:
                            text = ast.get_source_segment(source, arg)
                            replacements.append((arg.lineno, arg.col_offset, arg.end_col_offset,
                                                 f"tf.constant({text}, tf.{dtype})"))
                            edits.append(f"{node.name}(..., {name}=tf.constant({text}, tf.{dtype}))")
    for line, col, end, text in sorted(replacements, reverse=True):
        old = lines[line - 1]
        lines[line - 1] = old[:col] + text + old[end:]
    for line in removed:
        lines[line - 1] = "\n"
    for index, text in sorted(inserts, reverse=True):
        lines.insert(index, text)
    path = os.path.join(folder, os.path.basename(script))
    with open(path, "w") as handle:
        handle.write("".join(lines))
    return path, edits


def _find_def(defs: dict, fn: dict):  # type: ignore[no-untyped-def]
    name = fn["qualname"].split(".")[-1]
    for line in range(fn["line"], fn.get("end_line", fn["line"]) + 1):
        node = defs.get(line)
        if node is not None and node.name == name:
            return node
    return None


def timed(script: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", _TIMED, script], env=ENV, capture_output=True, text=True, check=True)
    return json.loads(next(l for l in proc.stdout.splitlines() if l.startswith("@@"))[2:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--budget", type=float, default=60)
    parser.add_argument("examples", nargs="*")
    opts = parser.parse_args()
    scripts = opts.examples or sorted(os.path.join(EXAMPLES, f) for f in os.listdir(EXAMPLES) if f.endswith(".py"))
    print(f"{'example':18} {'plain s':>8} {'edited s':>9} {'measured':>9} {'projected':>10} {'proj/meas':>9} "
          f"{'meas %':>7} {'proj %':>7} {'points':>7}  same result  edits")
    for script in scripts:
        report = advise(script, opts.budget)
        projected = sum(r["saved_s"] or 0.0 for r in report["run"]["table"] if r["verdict"] in ADVISED)
        with tempfile.TemporaryDirectory() as tmp:
            edited, edits = edited_copy(script, report, tmp)
            plain, changed = [], []
            for _ in range(opts.repeat):
                plain.append(timed(script))
                changed.append(timed(edited))
        p = min(x["wall_s"] for x in plain)
        e = min(x["wall_s"] for x in changed)
        same = all(x["result"] == plain[0]["result"] for x in plain + changed)
        measured = p - e
        ratio = projected / measured if measured > 0 else float("nan")
        # Shares of the run are less sensitive to the load of a shared machine than seconds are.
        observed_wall = report["run"]["wall_s"] or float("nan")
        points = 100 * projected / observed_wall - 100 * measured / p
        print(f"{os.path.basename(script):18} {p:8.2f} {e:9.2f} {measured:9.2f} {projected:10.2f} {ratio:9.2f} "
              f"{100 * measured / p:6.1f}% {100 * projected / observed_wall:6.1f}% {points:+7.1f}  "
              f"{'yes' if same else 'NO'}          {'; '.join(edits) or '-'}", flush=True)
        if not same:
            print(f"   plain: {plain[0]['result']}\n   edited: {changed[0]['result']}")


if __name__ == "__main__":
    main()
