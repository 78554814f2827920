"""Ground truth for the accuracy benchmark: run every corpus function eagerly and as a tf.function.

Why: a verdict is only right or wrong against what the code really does. For each function of
``corpus/mlproj`` this script runs the function's driver (``corpus/drivers``) once per mode, each
time on a freshly loaded copy of the project (fresh modules, classes, objects):

- ``eager``: the function's own ``@tf.function`` decorator, if any, removed from the source;
- ``graph``: the function as a tf.function (its own decorator and options, or a plain ``@tf.function``);
- variants, only where they could change the answer: ``relaxed`` (``reduce_retracing=True``),
  ``signature`` (an ``input_signature`` inferred from the eager calls) and, for decorated
  functions, ``xla`` (``jit_compile=True``).

It records whether each mode raises, whether outputs and the state the driver exposes are equal to
eager, how many times the body ran (= traces in graph mode) and the time of the driver's calls,
tracing included. ``label()`` turns those observations into a verdict; the rule is in README.md.

    python benchmarks/ground_truth.py            # regenerate benchmarks/labels.json
    python benchmarks/ground_truth.py --only mlproj/losses.py::focal_loss --verbose
    python benchmarks/ground_truth.py --relabel  # the policy changed: relabel the stored observations

Functions run in long-lived worker processes (TensorFlow is imported once per worker); a function
that crashes or hangs its worker is recorded as such and the worker is replaced.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import importlib
import io
import json
import os
import random
import re
import selectors
import statistics
import subprocess
import sys
import tempfile
import time
import types
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
PROJECT = CORPUS / "mlproj"
LABELS = HERE / "labels.json"

# --- The labelling rule is the tool's own measured policy (README.md, "Labelling rule") ---------
# Imported, not restated: tfadvisor.advice.policy decides for `tfadvisor run`/`profile` and here.
from tfadvisor.advice import policy  # noqa: E402

TIMEOUT_S = 600.0  # per function, all modes and rounds
SEED = 0  # Python, NumPy and TensorFlow seeds of every mode
NOISE_SEED = 1  # TensorFlow's seed from the first call of eager's second run (exposes random draws)


# ============================================================================ source variants
def find_function(tree: ast.Module, qualname: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    """The def node for a Python qualname (``A.b``, ``outer.<locals>.inner``)."""
    parts = [p for p in qualname.split(".") if p != "<locals>"]
    body: list[ast.stmt] = tree.body
    node: ast.AST | None = None
    for part in parts:
        node = next(
            (n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == part),
            None,
        )
        if node is None:
            raise LookupError(f"no {qualname!r} in source")
        body = _all_nested(node)
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise LookupError(f"{qualname!r} is not a function")
    return node


def _all_nested(node: ast.AST) -> list[ast.stmt]:
    """Direct children statements, looking into if/for/with/try blocks (defs nested in them)."""
    out: list[ast.stmt] = []
    stack = list(getattr(node, "body", []))
    while stack:
        stmt = stack.pop(0)
        out.append(stmt)
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for attr in ("body", "orelse", "finalbody", "handlers"):
                stack.extend(getattr(stmt, attr, []) or [])
    return out


def tf_function_decorator(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr | None:
    """The ``@tf.function`` / ``@tf.function(...)`` decorator of ``fn``, if any."""
    for dec in fn.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if isinstance(target, ast.Attribute) and target.attr == "function":
            if isinstance(target.value, ast.Name) and target.value.id in {"tf", "tensorflow"}:
                return dec
    return None


def variant_source(source: str, qualname: str, mode: str) -> str:
    """Source with ``qualname`` made eager (``mode == 'eager'``) or a tf.function (other modes).

    Graph modes spell the decorator ``@__tfa_function__`` (keeping the function's own options) so
    the harness can add options per variant; every mode inserts ``__tfa_count__()`` as the first
    statement of the body, which counts Python executions of the body (traces, in graph mode).
    """
    tree = ast.parse(source)
    fn = find_function(tree, qualname)
    lines = source.splitlines(keepends=True)
    dec = tf_function_decorator(fn)
    # body counter, after a docstring
    body = fn.body
    first = body[1] if len(body) > 1 and _is_docstring(body[0]) else body[0]
    if first.lineno == fn.lineno or (_is_docstring(body[0]) and len(body) == 1):
        raise ValueError(f"{qualname}: put the body on its own lines so the harness can count traces")
    indent = " " * first.col_offset
    inserts: list[tuple[int, str]] = [(first.lineno - 1, f"{indent}__tfa_count__()\n")]
    if dec is not None:
        target = dec.func if isinstance(dec, ast.Call) else dec
        row = target.lineno - 1
        line = lines[row]
        if mode == "eager":
            for r in range(dec.lineno - 1, dec.end_lineno):  # type: ignore[operator]
                lines[r] = "\n"
        else:
            lines[row] = line[: target.col_offset] + "__tfa_function__" + line[target.end_col_offset :]
    elif mode != "eager":
        start = min([d.lineno for d in fn.decorator_list] + [fn.lineno])
        inserts.append((start - 1, " " * fn.col_offset + "@__tfa_function__\n"))
    for row, text in sorted(inserts, reverse=True):
        lines.insert(row, text)
    return "".join(lines)


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def split_id(function_id: str) -> tuple[Path, str, str]:
    """``mlproj/a.py::Q.f`` -> (file path, module name, qualname)."""
    rel, qualname = function_id.split("::", 1)
    module = rel[: -len(".py")].replace("/", ".")
    return CORPUS / rel, module, qualname


# The project's own scripts (``mlproj/programs.py``): they call every function the way its driver
# does, so that `check` sees the call sites a real project has. No driver runs them and they are not
# labelled; labels do not depend on them (left out of the digest).
PROGRAMS = "programs.py"


def corpus_functions() -> list[str]:
    """Every function and method defined in ``mlproj``, as ids (nested ones included)."""
    ids = []
    for path in sorted(PROJECT.glob("*.py")):
        if path.name == PROGRAMS:
            continue
        rel = path.relative_to(CORPUS).as_posix()

        def walk(body: list[ast.stmt], prefix: str) -> None:
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    ids.append(f"{rel}::{prefix}{node.name}")
                    walk(_all_nested(node), f"{prefix}{node.name}.<locals>.")
                elif isinstance(node, ast.ClassDef):
                    walk(node.body, f"{prefix}{node.name}.")

        walk(ast.parse(path.read_text()).body, "")
    return ids


def is_decorated(function_id: str) -> bool:
    path, _, qualname = split_id(function_id)
    return tf_function_decorator(find_function(ast.parse(path.read_text()), qualname)) is not None


# ============================================================================ one run, in a worker
@dataclass
class ModeResult:
    mode: str
    ok: bool = True
    error: str | None = None
    calls: int = 0
    body_runs: int = 0
    total_s: float = 0.0  # raw wall-clock sum of the driver's calls
    est_s: float = 0.0  # the same, robust to noise: tracing calls as measured, others at the median
    cpu_s: float = 0.0  # raw CPU-time sum (all threads), for reference: graph mode's thread pools
    est_cpu_s: float = 0.0  # spin while they wait, so CPU time overstates what a graph costs
    tracing_calls: int = 0
    first_s: float | None = None
    steady_s: float | None = None  # median of calls after the first
    tensor_work: bool = False
    equivalent: bool | None = None
    differences: list[str] = field(default_factory=list)


class Harness:
    """What a driver gets: ``h.call(fn, *args)`` times one call and records its output."""

    def __init__(self, tf_seed_at_first_call: int | None = None) -> None:
        self.times: list[float] = []  # CPU time of this process per call (all its threads)
        self.wall: list[float] = []
        self.tf_seed_at_first_call = tf_seed_at_first_call
        self.outputs: list[Any] = []
        self.arg_specs: list[list[Any]] = []
        self.tensor_work = False
        self.traced: list[bool] = []  # per call: did the body run (a trace, in graph mode)?
        self.counter: dict[str, int] = {"n": 0}

    def project(self, name: str) -> types.ModuleType:
        """A project module (``models``), loaded fresh for this mode."""
        return importlib.import_module(f"mlproj.{name}")

    def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self.tf_seed_at_first_call is not None and not self.times:
            _tf().random.set_seed(self.tf_seed_at_first_call)  # objects were built from SEED alike
        before = self.counter["n"]
        w0, t0 = time.perf_counter(), time.process_time()
        out = fn(*args, **kwargs)
        self.times.append(time.process_time() - t0)
        self.wall.append(time.perf_counter() - w0)
        self.traced.append(self.counter["n"] > before)
        self.outputs.append(plain(out))
        self.arg_specs.append([_spec(a) for a in args] + (["kwargs"] if kwargs else []))
        if _has_tensor((args, kwargs, out)):
            self.tensor_work = True
        return out


def _tf() -> Any:
    import tensorflow as tf

    return tf


def _has_tensor(obj: Any, depth: int = 0) -> bool:
    tf = _tf()
    if isinstance(obj, (tf.Tensor, tf.Variable)):
        return True
    if depth > 4:
        return False
    if isinstance(obj, dict):
        return any(_has_tensor(v, depth + 1) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(_has_tensor(v, depth + 1) for v in obj[:50])
    return False


def _spec(arg: Any) -> Any:
    """What an argument looks like, for an inferred ``input_signature``: (dtype, shape) or None."""
    tf = _tf()
    if isinstance(arg, tf.Tensor):
        return (arg.dtype.name, list(arg.shape))
    if isinstance(arg, bool):
        return ("bool", [])
    if isinstance(arg, int):
        return ("int32", [])
    if isinstance(arg, float):
        return ("float32", [])
    return None


def infer_signature(specs: list[list[Any]]) -> list[Any] | None:
    """One TensorSpec per argument, dims that vary across calls set to None; None if impossible."""
    tf = _tf()
    if not specs or any(s is None or s == "kwargs" for call in specs for s in call):
        return None
    if len({len(call) for call in specs}) != 1:
        return None
    sig = []
    for position in zip(*specs):
        dtypes = {p[0] for p in position}
        ranks = {len(p[1]) for p in position}
        if len(dtypes) != 1 or len(ranks) != 1:
            return None
        dims = [d[0] if len(set(d)) == 1 else None for d in zip(*[p[1] for p in position])]
        sig.append(tf.TensorSpec(dims, dtypes.pop()))
    return sig


def plain(obj: Any, depth: int = 0) -> Any:
    """Tensors and variables to NumPy, containers recursively; other objects to their type name."""
    import numpy as np

    tf = _tf()
    if isinstance(obj, (tf.Tensor, tf.Variable)):
        return np.asarray(obj)
    if isinstance(obj, tf.RaggedTensor):
        return [np.asarray(r) for r in obj]
    if isinstance(obj, (int, float, bool, str, bytes, type(None), np.ndarray, np.generic)):
        return obj
    if depth > 6:
        return f"<{type(obj).__name__}>"
    if isinstance(obj, dict):
        return {k: plain(v, depth + 1) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(v, depth + 1) for v in obj]
    return f"<{type(obj).__name__}>"


def differences(a: Any, b: Any, where: str = "", out: list[str] | None = None, limit: int = 5,
                random: frozenset[str] = frozenset()) -> list[str]:
    """Where two plain values differ (numbers compared with a tolerance, 0-d arrays as scalars).

    Paths in ``random`` are values eager itself does not reproduce (``random_paths``): only their
    shape is compared, as the policy's equivalence does (advice/policy.py, step ``safety``)."""
    import numpy as np

    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if where in random:
        if _shape(a) != _shape(b):
            out.append(f"{where}: random values shaped {_shape(a)} != {_shape(b)}")
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            out.append(f"{where}: keys {sorted(map(str, a))} != {sorted(map(str, b))}")
        for k in a:
            if k in b:
                differences(a[k], b[k], f"{where}.{k}", out, limit, random)
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{where}: length {len(a)} != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            differences(x, y, f"{where}[{i}]", out, limit, random)
        return out
    numeric = (int, float, bool, np.ndarray, np.generic)
    if isinstance(a, numeric) and isinstance(b, numeric) and not isinstance(a, (str, bytes)):
        x, y = np.asarray(a), np.asarray(b)
        if x.dtype.kind in "SUO" or y.dtype.kind in "SUO":
            if x.shape != y.shape or not np.array_equal(x, y):
                out.append(f"{where}: {_short(a)} != {_short(b)}")
        elif x.shape != y.shape:
            out.append(f"{where}: shape {x.shape} != {y.shape}")
        elif not np.allclose(x.astype(float), y.astype(float), rtol=1e-4, atol=1e-5, equal_nan=True):
            out.append(f"{where}: {_short(a)} != {_short(b)}")
        return out
    if isinstance(a, bytes) and isinstance(b, np.ndarray) or isinstance(b, bytes) and isinstance(a, np.ndarray):
        if np.asarray(a).tolist() != np.asarray(b).tolist():
            out.append(f"{where}: {_short(a)} != {_short(b)}")
        return out
    if a != b:
        out.append(f"{where}: {_short(a)} != {_short(b)}")
    return out


def _shape(v: Any) -> Any:
    """What a random value is compared by: its shape (arrays, numbers), or its kind and size."""
    import numpy as np

    if isinstance(v, (np.ndarray, np.generic, int, float, bool)):
        return tuple(np.shape(v))
    if isinstance(v, (list, dict)):
        return (type(v).__name__, len(v))
    return type(v).__name__


def random_paths(eager: Any, again: Any) -> set[str]:
    """The paths of ``differences`` where eager's two runs disagree (random draws)."""
    paths: set[str] = set()
    for part in ("outputs", "state"):
        for line in differences(eager[part], again[part], part, limit=10_000):
            paths.add(line.split(": ", 1)[0])
    return paths


def _short(v: Any) -> str:
    text = repr(v).replace("\n", " ")
    return text if len(text) < 60 else text[:57] + "..."


def _reset_state(seed: int = SEED) -> None:
    import numpy as np

    tf = _tf()
    tf.config.run_functions_eagerly(False)
    with contextlib.suppress(Exception):
        import keras

        keras.backend.clear_session()
    tf.random.set_seed(seed)
    np.random.seed(seed)
    random.seed(seed)


def _load_project(module: str, source: str, workdir: Path, overrides: dict[str, Any]) -> types.ModuleType:
    """Fresh ``mlproj`` package with ``module`` compiled from ``source`` (a variant)."""
    tf = _tf()
    for name in [m for m in sys.modules if m == "mlproj" or m.startswith("mlproj.")]:
        del sys.modules[name]
    package = importlib.import_module("mlproj")
    counter = {"n": 0}

    @tf.autograph.experimental.do_not_convert
    def count() -> None:
        counter["n"] += 1

    def tfa_function(func: Any = None, **kwargs: Any) -> Any:
        kwargs.update(overrides)
        if func is None:
            return lambda f: tf.function(f, **kwargs)
        return tf.function(func, **kwargs)

    path = workdir / (module.replace(".", "_") + ".py")
    path.write_text(source)
    mod = types.ModuleType(module)
    mod.__file__ = str(path)
    mod.__package__ = "mlproj"
    mod.__dict__["__tfa_count__"] = count
    mod.__dict__["__tfa_function__"] = tfa_function
    mod.__dict__["__tfa_counter__"] = counter
    sys.modules[module] = mod
    setattr(package, module.rsplit(".", 1)[1], mod)
    exec(compile(source, str(path), "exec"), mod.__dict__)
    return mod


def robust_total(times: list[float], traced: list[bool], *, graph: bool) -> tuple[float, int]:
    """Total time of the calls, robust to a noisy shared machine.

    The first call and (in graph modes) every call that traced count as measured; the other calls
    count at their median, so one descheduled call cannot flip a label.
    """
    if not times:
        return 0.0, 0
    special = [i for i, t in enumerate(traced) if i == 0 or (graph and t)]
    rest = [t for i, t in enumerate(times) if i not in set(special)]
    median = statistics.median(rest) if rest else 0.0
    return sum(times[i] for i in special) + median * len(rest), len(special)


def error_text(exc: BaseException) -> str:
    """One line: the exception type and its most telling line (AutoGraph puts it last)."""
    lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
    telling = [ln for ln in lines if re.match(r"^[A-Za-z_.]*(Error|Exception)\b", ln)]
    text = telling[-1] if telling else (lines[-1] if lines else "")
    if lines and lines[0] not in ("in user code:",) and not telling:
        text = lines[0]
    if text.startswith(type(exc).__name__):
        return text[:300]
    return f"{type(exc).__name__}: {text[:300]}"


def run_mode(
    function_id: str, mode: str, overrides: dict[str, Any], driver: Callable[..., Any], workdir: Path,
    tf_seed_at_first_call: int | None = None,
) -> tuple[ModeResult, Any, Harness]:
    path, module, qualname = split_id(function_id)
    res = ModeResult(mode=mode)
    h = Harness(tf_seed_at_first_call)
    state: Any = None
    _reset_state()
    stdout = io.StringIO()
    try:
        source = variant_source(path.read_text(), qualname, "eager" if mode == "eager-again" else mode)
        mod = _load_project(module, source, workdir, overrides)
        h.counter = mod.__dict__["__tfa_counter__"]
        with contextlib.redirect_stdout(stdout):
            state = plain(driver(mod, h))
    except BaseException as exc:  # the point is to observe failures, whatever they are
        if isinstance(exc, KeyboardInterrupt):
            raise
        res.ok = False
        res.error = error_text(exc)
    else:
        res.body_runs = mod.__dict__["__tfa_counter__"]["n"]
    res.calls = len(h.times)
    graph = mode not in ("eager", "eager-again")
    res.total_s = sum(h.wall)
    res.cpu_s = sum(h.times)
    res.first_s = h.wall[0] if h.wall else None
    res.steady_s = statistics.median(h.wall[1:]) if len(h.wall) > 1 else None
    res.est_s, res.tracing_calls = robust_total(h.wall, h.traced, graph=graph)
    res.est_cpu_s, _ = robust_total(h.times, h.traced, graph=graph)
    res.tensor_work = h.tensor_work
    printed = [ln for ln in stdout.getvalue().splitlines() if ln.strip()]
    observed = {"outputs": h.outputs, "state": state, "printed_lines": len(printed)}
    return res, observed, h


def observe(function_id: str, *, variants: bool = True, repeat: int = 1) -> dict[str, Any]:
    """All modes of one function; the observations ``label()`` reads. With ``repeat`` > 1 every
    mode that ran is timed again (modes in turn, round after round) and its total is the median
    of the rounds: a single round's timing moved 9 of 150 labels between two runs."""
    sys.path[:0] = [str(CORPUS), str(HERE)]
    from corpus.index import ENTRIES

    entry = ENTRIES[function_id]
    decorated = is_decorated(function_id)
    out: dict[str, Any] = {"id": function_id, "decorated": decorated, "modes": {}}
    started = time.perf_counter()
    overrides: dict[str, dict[str, Any]] = {"eager": {}, "graph": {}}
    with tempfile.TemporaryDirectory(prefix="tfa_gt_") as tmp:
        out["elapsed_s"] = 0.0
        workdir = Path(tmp)
        eager, eager_obs, h = run_mode(function_id, "eager", {}, entry.driver, workdir)
        out["modes"]["eager"] = asdict(eager)
        if eager.ok:  # eager again, TensorFlow reseeded at its first call: what differs is random
            _, again_obs, _ = run_mode(function_id, "eager-again", {}, entry.driver, workdir, NOISE_SEED)
            eager_obs["random"] = sorted(random_paths(eager_obs, again_obs))
            out["random"] = eager_obs["random"]
        graph, graph_obs, _ = run_mode(function_id, "graph", {}, entry.driver, workdir)
        _compare(graph, eager_obs, graph_obs)
        out["modes"]["graph"] = asdict(graph)
        if variants and eager.ok:
            if graph.ok and graph.body_runs > 2:
                overrides["relaxed"] = {"reduce_retracing": True}
                sig = infer_signature(h.arg_specs)
                if sig is not None:
                    overrides["signature"] = {"input_signature": sig}
                    out["signature"] = [repr(s) for s in sig]
            if decorated and graph.ok and graph.equivalent:
                overrides["xla"] = {"jit_compile": True}
            for name in ("relaxed", "signature", "xla"):
                if name in overrides:
                    res, obs, _ = run_mode(function_id, name, overrides[name], entry.driver, workdir)
                    _compare(res, eager_obs, obs)
                    out["modes"][name] = asdict(res)
        for _ in range(repeat - 1 if eager.ok else 0):
            for name, mode in out["modes"].items():
                if mode["ok"]:
                    again, _, _ = run_mode(function_id, name, overrides[name], entry.driver, workdir)
                    mode.setdefault("rounds_est_s", [mode["est_s"]]).append(again.est_s if again.ok else None)
        for mode in out["modes"].values():
            rounds = [x for x in mode.get("rounds_est_s", []) if x is not None]
            if rounds:
                mode["est_s"] = statistics.median(rounds)
    out["elapsed_s"] = time.perf_counter() - started
    return out


def _compare(res: ModeResult, eager_obs: Any, obs: Any) -> None:
    if not res.ok:
        return
    random_ = frozenset(eager_obs.get("random", ()))
    diffs = differences(eager_obs["outputs"], obs["outputs"], "outputs", random=random_)
    diffs += differences(eager_obs["state"], obs["state"], "state", random=random_)
    if eager_obs["printed_lines"] != obs["printed_lines"]:
        diffs.append(f"printed lines: eager {eager_obs['printed_lines']}, graph {obs['printed_lines']}")
    res.equivalent = not diffs
    res.differences = diffs[:5]


# ============================================================================ the labelling rule
def label(obs: dict[str, Any]) -> tuple[str | None, str]:
    """The verdict that follows from the observations, and why: the tool's policy, applied to
    what the harness measured (``evidence``)."""
    eager = obs["modes"]["eager"]
    if not eager["ok"]:
        return None, f"invalid: fails eagerly ({eager['error']})"
    decision = policy.decide(evidence(obs))
    return decision.verdict.value, decision.why


OPTION_MODES = {"relaxed": "reduce_retracing", "signature": "input_signature", "xla": "jit_compile"}


def evidence(obs: dict[str, Any]) -> policy.Evidence:
    """The policy's input from the harness's modes: wall-clock totals over the driver's calls
    (first and tracing calls as measured, the others at their median), eager's own noise already
    taken out of the comparison (``_compare``)."""
    modes = obs["modes"]
    eager, graph = modes["eager"], modes["graph"]
    broken = None
    if not graph["ok"]:
        broken = graph["error"]
    elif not graph["equivalent"]:
        broken = "; ".join(graph["differences"][:2])
    options = tuple(
        policy.Option(OPTION_MODES[name], m["est_s"], m["equivalent"], m["body_runs"])
        for name, m in modes.items() if name in OPTION_MODES and m["ok"] and m["est_s"]
    )
    # warm per-call times and one trace over a warm call: the policy decides for the workload too
    # (a tf.function faster per call is kept when the driver's calls are too few to repay a trace)
    warm = graph["ok"] and eager.get("steady_s") is not None and graph.get("steady_s") is not None
    return policy.Evidence(
        decorated=obs["decorated"], calls=eager["calls"], tensor_work=eager["tensor_work"], broken=broken,
        eager_total_s=eager["est_s"], graph_total_s=graph["est_s"] if graph["ok"] else None,
        traces=graph["body_runs"] or 1, options=options,
        eager_call_s=eager["steady_s"] if warm else None, graph_call_s=graph["steady_s"] if warm else None,
        trace_s=max(0.0, graph["first_s"] - graph["steady_s"]) if warm and graph.get("first_s") is not None else None,
    )


BORDER = 1.5  # a timing ratio within this factor of its threshold makes a label borderline (chosen after
# comparing two full runs: 12 of the 13 labels that moved were within it)


def borderline(obs: dict[str, Any]) -> bool:
    """True when the label rests on a timing ratio close to its threshold (noise could flip it).

    Labels decided by an error, a difference or the absence of tensors are never borderline.
    """
    modes = obs.get("modes", {})
    eager, graph = modes.get("eager"), modes.get("graph")
    if not eager or not graph or not eager["ok"] or not eager["tensor_work"] or is_broken(obs):
        return False

    def near(ratio: float, threshold: float) -> bool:
        return threshold / BORDER <= ratio <= threshold * BORDER

    ratios = []
    if graph["est_s"]:
        if obs["decorated"]:
            ratios.append((graph["est_s"] / eager["est_s"], policy.UNDECORATE_SLOWDOWN))
        else:
            ratios.append((eager["est_s"] / graph["est_s"], policy.DECORATE_SPEEDUP))
    for name in ("relaxed", "signature", "xla"):
        m = modes.get(name)
        if m and m["ok"] and m["equivalent"] and m["est_s"]:
            ratios.append((graph["est_s"] / m["est_s"], policy.OPTION_GAIN))
    return any(near(r, t) for r, t in ratios)


def is_broken(obs: dict[str, Any]) -> bool:
    g = obs["modes"]["graph"]
    return not g["ok"] or not g["equivalent"]


# ============================================================================ workers and main
def _thresholds() -> dict[str, float]:
    return {name: getattr(policy, name) for name in
            ("DECORATE_SPEEDUP", "UNDECORATE_SLOWDOWN", "OPTION_GAIN", "MIN_CALLS_FIX_FIRST", "RETRACING_TRACES")}


def corpus_digest() -> str:
    """Hash of everything a label depends on: the project, the drivers and this harness's rule."""
    digest = hashlib.sha256()
    files = sorted(p for p in CORPUS.rglob("*.py") if "__pycache__" not in p.parts and p.name != PROGRAMS)
    for p in files:
        digest.update(str(p.relative_to(CORPUS)).encode())
        digest.update(p.read_bytes())
    digest.update(repr(_thresholds()).encode())
    digest.update(Path(policy.__file__).read_bytes())
    return digest.hexdigest()[:16]


def warm_up() -> None:
    """Pay TensorFlow's one-time costs (AutoGraph, Keras, gradients) before measuring anything.

    Without this the first function measured in each worker would carry them and its label would
    depend on the order of the run.
    """
    import keras

    tf = _tf()
    layer = keras.layers.Dense(4)
    opt = keras.optimizers.SGD(0.1)

    def step(x: Any) -> Any:
        with tf.GradientTape() as tape:
            y = layer(x)
            loss = tf.reduce_mean(y) if tf.reduce_sum(x) > 0 else -tf.reduce_mean(y)
        grads = tape.gradient(loss, layer.trainable_variables)
        opt.apply_gradients(zip(grads, layer.trainable_variables))
        for i in tf.range(3):
            loss += tf.cast(i, tf.float32)
        return loss

    x = tf.ones([2, 3])
    step(x)
    graph_step = tf.function(step)
    for _ in range(3):
        graph_step(x)
    keras.backend.clear_session()


def worker(repeat: int = 1) -> None:
    """Read ids on stdin, write one JSON observation per line on the original stdout."""
    proto = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # anything the corpus prints at C level stays off the protocol channel
    sys.stdout = sys.stderr
    warm_up()
    for line in sys.stdin:
        function_id = line.strip()
        if not function_id:
            continue
        try:
            result = observe(function_id, repeat=repeat)
        except Exception as exc:  # a harness failure for this id, reported, not fatal
            result = {"id": function_id, "harness_error": f"{type(exc).__name__}: {exc}"}
        proto.write(json.dumps(result) + "\n")
        proto.flush()


class Pool:
    """N worker processes; a worker that dies or exceeds TIMEOUT_S is replaced."""

    def __init__(self, jobs: int, log: Path | None, repeat: int = 1) -> None:
        self.jobs = jobs
        self.repeat = repeat
        self.log = open(log, "ab") if log else subprocess.DEVNULL
        self.sel = selectors.DefaultSelector()

    def _spawn(self) -> subprocess.Popen:
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONHASHSEED="0", CUDA_VISIBLE_DEVICES="")
        proc = subprocess.Popen(
            [sys.executable, __file__, "--worker", "--repeat", str(self.repeat)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env=env,
            text=True,
            bufsize=1,
        )
        self.sel.register(proc.stdout, selectors.EVENT_READ, proc)
        return proc

    def map(self, ids: list[str], progress: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:
        todo, results = list(ids), []
        busy: dict[subprocess.Popen, tuple[str, float]] = {}
        idle = [self._spawn() for _ in range(min(self.jobs, len(ids)))]
        while todo or busy:
            while todo and idle:
                proc, fid = idle.pop(), todo.pop(0)
                proc.stdin.write(fid + "\n")
                proc.stdin.flush()
                busy[proc] = (fid, time.monotonic())
            for key, _ in self.sel.select(timeout=1.0):
                proc = key.data
                line = proc.stdout.readline()
                fid, _ = busy.pop(proc)
                if line:
                    result = json.loads(line)
                    idle.append(proc)
                else:
                    result = {"id": fid, "harness_error": f"worker died (exit {proc.wait()})"}
                    self.sel.unregister(proc.stdout)
                    idle.append(self._spawn())
                results.append(result)
                progress(result)
            for proc, (fid, started) in list(busy.items()):
                if time.monotonic() - started > TIMEOUT_S:
                    proc.kill()
                    proc.wait()
                    self.sel.unregister(proc.stdout)
                    busy.pop(proc)
                    result = {"id": fid, "harness_error": f"timed out after {TIMEOUT_S:.0f} s"}
                    results.append(result)
                    progress(result)
                    idle.append(self._spawn())
        for proc in idle:
            proc.stdin.close()
            proc.wait()
        return results


def build_labels(results: list[dict[str, Any]]) -> dict[str, Any]:
    sys.path[:0] = [str(CORPUS), str(HERE)]
    from corpus.index import ENTRIES

    functions: dict[str, Any] = {}
    for obs in sorted(results, key=lambda r: r["id"]):
        fid = obs["id"]
        entry = ENTRIES[fid]
        if "harness_error" in obs:
            verdict, why, broken = None, f"harness: {obs['harness_error']}", None
        else:
            verdict, why = label(obs)
            broken = is_broken(obs)
        functions[fid] = {
            "label": verdict,
            "why": why,
            "broken": broken,
            "decorated": obs.get("decorated"),
            "intended": entry.intended,
            "rules": list(entry.rules),
            "agrees_with_intent": verdict == entry.intended,
            "observations": {k: v for k, v in obs.items() if k not in {"id"}},
        }
    return {
        "corpus_digest": corpus_digest(),
        "thresholds": _thresholds(),
        "functions": functions,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", help="run only this id (repeatable); prints, does not write")
    # one worker: labels are on wall-clock time, and two workers on two cores time each other
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--output", type=Path, default=LABELS)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of timing per mode (median kept)")
    parser.add_argument("--relabel", action="store_true",
                        help="apply the (changed) policy to the observations stored in labels.json; measures nothing")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.repeat)
        return 0
    sys.path[:0] = [str(CORPUS), str(HERE)]
    from corpus.index import ENTRIES

    if args.relabel:
        stored = json.loads(args.output.read_text())["functions"]
        results = [{"id": fid, **entry["observations"]} for fid, entry in stored.items()]
        labels = build_labels(results)
        moved = [fid for fid, v in labels["functions"].items() if v["label"] != stored[fid]["label"]]
        for fid in moved:
            print(f"  {fid}: {stored[fid]['label']} -> {labels['functions'][fid]['label']}")
        args.output.write_text(json.dumps(labels, indent=1, sort_keys=True) + "\n")
        print(f"relabelled {len(labels['functions'])} functions from their stored observations; {len(moved)} moved")
        return 0
    ids = args.only or sorted(ENTRIES)
    unknown = [i for i in ids if i not in ENTRIES]
    if unknown:
        print(f"ground_truth: unknown id {unknown[0]!r}", file=sys.stderr)
        return 2
    started = time.monotonic()
    done = [0]

    def progress(result: dict[str, Any]) -> None:
        done[0] += 1
        if "harness_error" in result:
            text = result["harness_error"]
        else:
            verdict, why = label(result)
            text = f"{verdict}: {why}"
        print(f"[{done[0]:3d}/{len(ids)}] {result['id']}: {text}", flush=True)
        if args.verbose:
            print(json.dumps(result, indent=1))

    pool = Pool(args.jobs, Path(tempfile.gettempdir()) / "tfa_ground_truth.log", args.repeat)  # workers' stderr
    results = pool.map(ids, progress)
    labels = build_labels(results)
    elapsed = time.monotonic() - started
    disagree = [f for f, v in labels["functions"].items() if not v["agrees_with_intent"]]
    print(f"{len(results)} functions in {elapsed:.0f} s; measured label differs from intent for {len(disagree)}")
    for fid in disagree:
        v = labels["functions"][fid]
        print(f"  {fid}: intended {v['intended']}, measured {v['label']} ({v['why']})")
    if args.only:
        return 0
    tmp = args.output.with_suffix(".tmp")
    tmp.write_text(json.dumps(labels, indent=1, sort_keys=True) + "\n")
    tmp.replace(args.output)
    print(f"wrote {args.output.relative_to(Path.cwd()) if args.output.is_relative_to(Path.cwd()) else args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
