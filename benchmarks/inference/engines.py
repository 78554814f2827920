"""Ask four engines what kind of value each labelled parameter or argument holds.

Each engine answers a list of kinds (empty: no answer) and the raw text it gave, per value id:
- ``today``: tfadvisor's own analysis (``Project.functions[id].params[name].kind`` for parameters,
  ``Project.arg_kind`` at the matching call site for arguments); ``today+names`` also counts the
  kinds it guesses from a parameter's name;
- ``astroid``: ``node.infer()`` (pylint's inference);
- ``jedi``: ``Script.infer()`` at the value's position (dynamic parameter search on);
- ``pyright``: basedpyright with TensorFlow's stubs (typeshed's ``types-tensorflow``, which basedpyright
  bundles: the answers are the same with or without the pip package), on a temporary copy of the repository
  in which every labelled value is wrapped in an overloaded probe whose return type names the kind
  (``_tfa_kind(x, 17)`` -> ``Literal['tensor']``): pyright's own subtype check decides, so a
  project class deriving from ``tf.keras.Model`` is a model without our help.

Kinds: tensor, dataset, model (Keras/tf.Module/TensorLayer layers and models), numpy (arrays and
NumPy scalars), scalar (int, float, bool, str, bytes, None), container (list, tuple, dict, set),
other. tfadvisor today knows only tensor / primitive (-> scalar) / object (-> "object": some
non-tensor Python object).
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

Answer = dict[str, Any]  # {"kinds": [...], "raw": str}
VENV_PYTHON = Path(sys.executable)
BIN = VENV_PYTHON.parent

TENSOR_CLASSES = frozenset({"Tensor", "EagerTensor", "SymbolicTensor", "_EagerTensorBase", "Variable",
                            "ResourceVariable", "BaseResourceVariable", "UninitializedVariable",
                            "SparseTensor", "RaggedTensor", "IndexedSlices", "KerasTensor", "AutoCastVariable"})
MODEL_CLASSES = frozenset({"Layer", "Model", "Sequential", "Functional", "Module", "KerasLayer"})
SCALARS = frozenset({"int", "float", "bool", "str", "bytes", "complex", "NoneType", "None"})
CONTAINERS = frozenset({"list", "tuple", "dict", "set", "frozenset", "OrderedDict", "defaultdict", "deque"})


def classify(qname: str, ancestors: list[str]) -> str:
    """The kind of an instance of class ``qname`` (its ancestors' qualified names given too)."""
    chain = [qname, *ancestors]
    tails = [q.rsplit(".", 1)[-1] for q in chain]
    roots = [q.split(".", 1)[0] for q in chain]
    tf_like = ("tensorflow", "keras", "tf_keras", "tensorflow_hub", "tensorlayer")
    for q, tail, root in zip(chain, tails, roots, strict=True):
        if root in tf_like and tail in TENSOR_CLASSES:
            return "tensor"
        if root in ("tensorflow",) and (tail.endswith(("Dataset", "DatasetV2", "DatasetV1", "DatasetV1Adapter"))
                                        or tail in ("OwnedIterator", "Iterator", "IteratorBase")):
            return "dataset" if "data" in q else "other"
        if tail in MODEL_CLASSES and (root in tf_like or tail in ("Layer", "Model")):
            return "model"
        if root == "numpy" or tail == "ndarray":  # astroid's NumPy brain names the class ".ndarray"
            return "numpy"
    if qname.startswith("builtins."):
        qname = qname[9:]
    if qname in SCALARS:
        return "scalar"
    if qname in CONTAINERS or tails[0] in CONTAINERS or any(t in ("tuple", "dict", "list") for t in tails[1:]):
        return "container"
    return "other"


def normalize(kinds: list[str]) -> list[str]:
    """Distinct kinds, sorted; a None among other kinds (``mask=None``) is dropped."""
    out = sorted(set(kinds))
    if len(out) > 1 and "none" in out:
        out.remove("none")
    return ["scalar" if k == "none" else k for k in out]


class Timeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def _raise(signum: int, frame: object) -> None:
        raise Timeout

    old = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# -- locating the value in the source -----------------------------------------------------------
def parse(path: Path) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(path.read_bytes())


def find_call(tree: ast.Module, value: dict[str, Any]) -> tuple[ast.Call, str] | None:
    """The call whose argument the value is, and the argument's key ("0", "1", or a keyword)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for index, arg in enumerate(node.args):
            if (arg.lineno, arg.col_offset, arg.end_lineno, arg.end_col_offset) == _span(value):
                return node, str(index)
        for kw in node.keywords:
            arg = kw.value
            if (arg.lineno, arg.col_offset, arg.end_lineno, arg.end_col_offset) == _span(value):
                return node, kw.arg or "**"
    return None


def _span(value: dict[str, Any]) -> tuple[int, int, int, int]:
    return value["line"], value["col"], value["end_line"], value["end_col"]


def char_col(path: Path, line: int, byte_col: int) -> int:
    """A UTF-8 byte column (ast) as a character column (jedi)."""
    raw = path.read_bytes().splitlines()[line - 1]
    return len(raw[:byte_col].decode("utf-8", errors="replace"))


# -- today's analysis ---------------------------------------------------------------------------
def today(root: Path, repo: str, values: list[dict[str, Any]], guesses: bool) -> dict[str, Answer]:
    """tfadvisor's analysis over the whole repository (as ``check`` reads it), asked per value."""
    from tfadvisor.analysis.project import Project
    from tfadvisor.check import analyze_files
    from tfadvisor.rules import selected
    from tfadvisor.sources import discover

    here = os.getcwd()
    os.chdir(root / repo)
    try:
        files = list(discover(["."]))
        codes = tuple(r.code for r in selected((), ()))
        modules = [s for _, s in analyze_files(files, codes, jobs=1) if s is not None]
        project = Project(modules)
    finally:
        os.chdir(here)
    by_path = {m.path.removeprefix("./"): m for m in modules}
    out: dict[str, Answer] = {}
    # kinds, and since f7b7539 the finer "rich" kinds of analysis/values.py (its NumPy arrays map
    # to the coarse kind "tensor", as they trace alike: the rich kind is asked where there is one)
    mapping = {"tensor": "tensor", "primitive": "scalar", "object": "object", "dataset": "dataset",
               "model": "model", "numpy": "numpy", "container": "container"}
    for v in values:
        mod = by_path.get(v["path"])
        if mod is None:
            out[v["id"]] = {"kinds": [], "raw": "file not analysed"}
            continue
        if v["what"] == "param":
            linked = project.functions.get(f"{mod.path}::{v['function']}")
            facts = linked.params.get(v["name"]) if linked else None
            if facts is None:
                out[v["id"]] = {"kinds": [], "raw": "function or parameter not found"}
                continue
            rich = getattr(facts, "rich", "unknown")
            kind = rich if rich != "unknown" else facts.kind
            kind = kind if (guesses or not facts.guessed) else "unknown"
            out[v["id"]] = {"kinds": [mapping[kind]] if kind in mapping else [],
                            "raw": f"{kind} ({facts.evidence or 'no evidence'})"}
            continue
        found = find_call(parse(root / repo / v["path"]), v)
        if found is None:
            out[v["id"]] = {"kinds": [], "raw": "call not found"}
            continue
        call, key = found
        caller = None if v["function"] == "<module>" else project.functions.get(f"{mod.path}::{v['function']}")
        sites = mod.module_calls if caller is None else caller.fn.calls
        site = next((s for s in sites if (s.line, s.col) == (call.lineno, call.col_offset)), None)
        if site is None:
            out[v["id"]] = {"kinds": [], "raw": "no call site recorded (a library call)"}
            continue
        local = site.kwargs.get(key) if not key.isdigit() else (site.args[int(key)] if int(key) < len(site.args) else None)
        if local is None:
            out[v["id"]] = {"kinds": [], "raw": "argument not recorded"}
            continue
        asked = getattr(project, "arg_rich", project.arg_kind)
        kind = asked(caller.fn if caller else None, site, key, local)
        kind = "container" if isinstance(kind, tuple) else kind
        out[v["id"]] = {"kinds": [mapping[kind]] if kind in mapping else [], "raw": str(kind)}
    return out


# -- astroid --------------------------------------------------------------------------------------
def astroid_kinds(node: Any, limit: float) -> Answer:
    import astroid
    from astroid import bases, nodes
    from astroid.util import UninferableBase

    kinds: list[str] = []
    raw: list[str] = []
    try:
        with time_limit(limit):
            for inferred in node.infer():
                if isinstance(inferred, UninferableBase):
                    raw.append("Uninferable")
                    continue
                kind, text = _astroid_one(inferred, astroid, bases, nodes)
                kinds.append(kind)
                raw.append(text)
                if len(raw) > 20:
                    break
    except Timeout:
        raw.append("timeout")
    except (astroid.InferenceError, RecursionError, AttributeError, TypeError, ValueError) as exc:
        raw.append(type(exc).__name__)
    if "Uninferable" in raw:
        kinds = []  # part of the value is unknown: not an answer
    return {"kinds": normalize(kinds), "raw": " | ".join(dict.fromkeys(raw))[:300]}


def _astroid_one(inferred: Any, astroid: Any, bases: Any, nodes: Any) -> tuple[str, str]:
    if isinstance(inferred, nodes.Const):
        return ("none" if inferred.value is None else "scalar"), f"Const {type(inferred.value).__name__}"
    if isinstance(inferred, (nodes.List, nodes.Tuple, nodes.Dict, nodes.Set)):
        return "container", type(inferred).__name__
    if isinstance(inferred, bases.Instance):  # also BoundMethod's base; checked after Const
        if isinstance(inferred, (bases.BoundMethod, bases.UnboundMethod)):
            return "other", "method"
        cls = inferred._proxied
        try:
            ancestors = [a.qname() for a in cls.ancestors()]
        except (astroid.InferenceError, RecursionError):
            ancestors = []
        return classify(cls.qname(), ancestors), cls.qname()
    return "other", type(inferred).__name__


def astroid_engine(root: Path, repo: str, values: list[dict[str, Any]], limit: float = 20.0) -> dict[str, Answer]:
    import astroid
    from astroid import nodes

    out: dict[str, Answer] = {}
    for v in values:
        path = root / repo / v["path"]
        try:
            module = astroid.MANAGER.ast_from_file(str(path), modname=_modname(root / repo, path))
        except Exception as exc:  # noqa: BLE001 - a file astroid cannot build is no answer
            out[v["id"]] = {"kinds": [], "raw": f"cannot build: {type(exc).__name__}"}
            continue
        node = _astroid_node(module, v, nodes)
        if node is None:
            out[v["id"]] = {"kinds": [], "raw": "node not found"}
            continue
        out[v["id"]] = astroid_kinds(node, limit)
    return out


def _astroid_node(module: Any, v: dict[str, Any], nodes: Any) -> Any:
    wanted = (nodes.AssignName,) if v["what"] == "param" else (nodes.Name, nodes.Attribute)
    for node in module.nodes_of_class(wanted):
        if node.lineno == v["line"] and node.col_offset == v["col"]:
            if v["what"] == "param" and not isinstance(node.parent, nodes.Arguments):
                continue
            return node
    return None


def _modname(base: Path, path: Path) -> str:
    """The dotted module name astroid should give a file: from the package folders around it."""
    parts = [path.stem] if path.stem != "__init__" else []
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder != base.parent:
        parts.append(folder.name)
        folder = folder.parent
    return ".".join(reversed(parts)) or path.stem


# -- jedi ----------------------------------------------------------------------------------------
def jedi_engine(root: Path, repo: str, values: list[dict[str, Any]], limit: float = 30.0) -> dict[str, Answer]:
    import jedi

    project = jedi.Project(str(root / repo), environment_path=str(VENV_PYTHON.parent.parent))
    out: dict[str, Answer] = {}
    scripts: dict[str, Any] = {}
    for v in values:
        path = root / repo / v["path"]
        script = scripts.get(v["path"])
        if script is None:
            script = scripts[v["path"]] = jedi.Script(path.read_text(encoding="utf-8", errors="replace"),
                                                      path=str(path), project=project)
        line, col = v["line"], v["col"]
        if v["what"] == "arg" and "." in v["name"]:
            col = v["end_col"] - len(v["name"].rsplit(".", 1)[1])
            line = v["end_line"]
        out[v["id"]] = jedi_kinds(script, line, char_col(path, line, col), limit)
    return out


def jedi_kinds(script: Any, line: int, col: int, limit: float) -> Answer:
    kinds: list[str] = []
    raw: list[str] = []
    try:
        with time_limit(limit):
            for name in script.infer(line, col):
                text, kind = _jedi_one(name)
                kinds.append(kind)
                raw.append(text)
    except Timeout:
        raw.append("timeout")
    except Exception as exc:  # noqa: BLE001 - jedi's internal errors are no answer
        raw.append(f"error {type(exc).__name__}")
    return {"kinds": normalize(kinds), "raw": " | ".join(dict.fromkeys(raw))[:300]}


def _jedi_one(name: Any) -> tuple[str, str]:
    full = name.full_name or name.name
    if name.type != "instance":
        if full in ("builtins.NoneType",) or name.name == "None":
            return full, "none"
        return f"{name.type} {full}", "other"
    if full in ("builtins.NoneType",):
        return full, "none"
    ancestors: list[str] = []
    with contextlib.suppress(Exception):  # jedi has no public MRO: its inference value has one
        value = name._name.infer()
        for instance in value:
            cls = getattr(instance, "class_value", None)
            if cls is not None:
                for base in cls.py__mro__():
                    qual = base.get_qualified_names() or ()
                    module = base.get_root_context().py__name__() or ""
                    ancestors.append(".".join((module, *qual)))
    return full, classify(full, ancestors)


# -- basedpyright --------------------------------------------------------------------------------
PROBE_MODULE = '''"""Probe for benchmarks/inference: pyright's overload resolution names the kind."""
from collections.abc import Collection
from typing import Any, Literal, overload
import numpy as np
import tensorflow as tf

@overload
def _tfa_kind(x: tf.Tensor | tf.Variable | tf.SparseTensor | tf.RaggedTensor | tf.IndexedSlices, tag: int) -> Literal["tensor"]: ...
@overload
def _tfa_kind(x: tf.data.Dataset | tf.data.Iterator, tag: int) -> Literal["dataset"]: ...
@overload
def _tfa_kind(x: tf.keras.layers.Layer | tf.Module, tag: int) -> Literal["model"]: ...
@overload
def _tfa_kind(x: np.ndarray | np.generic, tag: int) -> Literal["numpy"]: ...
@overload
def _tfa_kind(x: None, tag: int) -> Literal["none"]: ...
@overload
def _tfa_kind(x: int | float | str | bytes | complex, tag: int) -> Literal["scalar"]: ...
@overload
def _tfa_kind(x: list[Any] | tuple[Any, ...] | dict[Any, Any] | set[Any] | frozenset[Any] | Collection[Any], tag: int) -> Literal["container"]: ...
@overload
def _tfa_kind(x: object, tag: int) -> Literal["other"]: ...
def _tfa_kind(x: object, tag: int) -> str:
    return ""
'''


def probe_copy(root: Path, repo: str, values: list[dict[str, Any]], dest: Path) -> dict[int, str]:
    """Copy the repository's .py files to ``dest`` and wrap every value in a probe; tag -> value id."""
    if dest.exists():
        shutil.rmtree(dest)
    src = root / repo
    for folder, _dirs, names in os.walk(src):
        for name in names:
            if name.endswith((".py", ".pyi")):
                target = dest / os.path.relpath(os.path.join(folder, name), src)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(os.path.join(folder, name), target)
    (dest / "_tfa_probe.py").write_text(PROBE_MODULE)
    tags: dict[int, str] = {}
    by_file: dict[str, list[dict[str, Any]]] = {}
    for v in values:
        by_file.setdefault(v["path"], []).append(v)
    for rel, group in by_file.items():
        path = dest / rel
        lines = path.read_bytes().split(b"\n")
        tree = parse(path)
        edits: list[tuple[int, int, int, int, bytes]] = []  # (line, col, end_line, end_col, text)
        for v in group:
            tag = int(v["id"][1:])
            tags[tag] = v["id"]
            if v["what"] == "arg":
                expr = b"\n".join(_slice(lines, v["line"], v["col"], v["end_line"], v["end_col"]))
                wrapped = b"(reveal_type(_tfa_kind(%s, %d)), reveal_type((%s, %d)), %s)[2]" % (expr, tag, expr, tag, expr)
                edits.append((v["line"], v["col"], v["end_line"], v["end_col"], wrapped))
            else:
                fn = _def_at(tree, v)
                if fn is None:
                    continue
                first = fn.body[0]
                indent = b" " * first.col_offset if first.lineno > fn.lineno else b" " * (fn.col_offset + 4)
                probe = b"reveal_type(_tfa_kind(%s, %d)); reveal_type((%s, %d))" % (
                    v["name"].encode(), tag, v["name"].encode(), tag)
                if first.lineno > fn.lineno:
                    edits.append((first.lineno, 0, first.lineno, 0, indent + probe + b"\n"))
                else:  # ``def f(x): return x``
                    edits.append((first.lineno, first.col_offset, first.lineno, first.col_offset,
                                  b"\n" + indent + probe + b"\n" + indent))
        import_line = _import_line(tree)
        edits.append((import_line, 0, import_line, 0, b"from _tfa_probe import _tfa_kind\n"))
        for line, col, end_line, end_col, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
            head = lines[line - 1][:col]
            tail = lines[end_line - 1][end_col:]
            lines[line - 1:end_line] = (head + text + tail).split(b"\n")
        path.write_bytes(b"\n".join(lines))
    return tags


def _slice(lines: list[bytes], line: int, col: int, end_line: int, end_col: int) -> list[bytes]:
    if line == end_line:
        return [lines[line - 1][col:end_col]]
    return [lines[line - 1][col:], *lines[line:end_line - 1], lines[end_line - 1][:end_col]]


def _def_at(tree: ast.Module, v: dict[str, Any]) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            for a in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                if (a.lineno, a.col_offset) == (v["line"], v["col"]):
                    return node
    return None


def _import_line(tree: ast.Module) -> int:
    """Where the probe import goes: before the first statement that is no docstring or __future__."""
    for index, stmt in enumerate(tree.body):
        if index == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            continue
        return stmt.lineno
    return len(tree.body) and tree.body[-1].end_lineno + 1 or 1  # type: ignore[operator]


def pyright_engine(root: Path, repo: str, values: list[dict[str, Any]], work: Path) -> dict[str, Answer]:
    dest = work / f"pyright-{repo}"
    tags = probe_copy(root, repo, values, dest)
    files = sorted({v["path"] for v in values})
    result = run_pyright(dest, files)
    out: dict[str, Answer] = {vid: {"kinds": [], "raw": "no probe output"} for vid in tags.values()}
    kinds_of: dict[str, list[str]] = {}
    types_of: dict[str, str] = {}
    for diag in result.get("generalDiagnostics", []):
        message = diag.get("message", "")
        if not message.startswith('Type of "'):
            continue
        expr, _, revealed = message[len('Type of "'):].partition('" is "')
        revealed = revealed.rstrip('"')
        tag = _tag_of(expr)
        if tag is None or tag not in tags:
            continue
        vid = tags[tag]
        if expr.startswith("_tfa_kind("):
            kinds_of[vid] = _literal_kinds(revealed)
        else:
            types_of[vid] = revealed.removeprefix("tuple[").rsplit(", ", 1)[0]
    for vid in tags.values():
        if vid in kinds_of or vid in types_of:
            kinds = kinds_of.get(vid, [])
            members = _union_members(types_of.get(vid, ""))
            if any(m in ("Unknown", "Any") for m in members):
                # pyright resolves an overload call on an Unknown argument to the first overload
                # in some contexts: the revealed type of the value itself decides
                kinds = []
            elif kinds == ["other"] and len(members) > 1:
                # the catch-all overload takes a whole union before pyright would split it: name
                # each member instead (a member pyright does not know leaves the value unknown)
                kinds = [_member_kind(m) for m in members]
                kinds = [] if "?" in kinds else kinds
            out[vid] = {"kinds": normalize(kinds), "raw": types_of.get(vid, "?")}
    return out


def _union_members(text: str) -> list[str]:
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "|" and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return [m for m in out if m]


_MEMBER_KINDS = {"Tensor": "tensor", "Variable": "tensor", "SparseTensor": "tensor", "RaggedTensor": "tensor",
                 "IndexedSlices": "tensor", "KerasTensor": "tensor", "ndarray": "numpy", "number": "numpy",
                 "generic": "numpy", "floating": "numpy", "integer": "numpy", "None": "none", "int": "scalar",
                 "float": "scalar", "bool": "scalar", "str": "scalar", "bytes": "scalar", "complex": "scalar",
                 "list": "container", "tuple": "container", "dict": "container", "set": "container",
                 "Sequence": "container", "Mapping": "container", "Iterable": "container", "Dataset": "dataset",
                 "Layer": "model", "Model": "model", "Module": "model", "Sequential": "model"}


def _member_kind(member: str) -> str:
    head = member.split("[", 1)[0].strip()
    if head.startswith("Literal"):
        inner = member[len("Literal["):-1]
        return "none" if inner == "None" else "scalar"
    if head in ("Unknown", "Any"):
        return "?"
    return _MEMBER_KINDS.get(head.rsplit(".", 1)[-1], "other")


def run_pyright(folder: Path, files: list[str]) -> dict[str, Any]:
    config = {"pythonVersion": "3.11", "typeCheckingMode": "standard", "reportMissingModuleSource": False}
    (folder / "pyrightconfig.json").write_text(json.dumps(config))
    command = [str(BIN / "basedpyright"), "--pythonpath", str(VENV_PYTHON), "--outputjson", *files]
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": done.stderr[-2000:]}


def _tag_of(expr: str) -> int | None:
    tail = expr.rstrip(")").rsplit(", ", 1)
    if len(tail) != 2 or not tail[1].isdigit():
        return None
    return int(tail[1])


def _literal_kinds(revealed: str) -> list[str]:
    if "Literal[" not in revealed:
        return []  # Unknown: pyright does not know the value's type
    inside = revealed.split("Literal[", 1)[1].rstrip("]")
    return [part.strip().strip("'\"") for part in inside.split(",") if part.strip()]


def timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - start
