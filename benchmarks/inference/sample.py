"""Draw the values whose kinds are labelled by hand (issue 19, item 1), reproducibly.

    .venv/bin/python benchmarks/inference/sample.py [--root /tmp/tfadvisor-realworld] [--write]

Population: in the repositories of the ``tune4`` split (benchmarks/realworld/repos.toml; the
``heldout4`` ones are never opened), every ``.py`` file that mentions TensorFlow or Keras and is not
test code (``tests/`` folders, ``test_*.py``, ``*_test.py``, ``conftest.py``, ``setup.py``):
- **parameters** of ``def`` functions (not ``self``/``cls``, not ``*args``/``**kwargs``);
- **call arguments** that are a name or an attribute (``x``, ``self.encoder``), outside calls of
  builtins that only look at a value (``print``, ``len``, ``isinstance`` ...). Literals and
  expressions are left out: every engine knows ``3`` or ``a + b`` as well as its operands.

Each value falls in one stratum (first that applies, in the order of ``QUOTAS``), chosen to favour
the hard cases the issue names; within a stratum, ``random.Random(SEED)`` shuffles the candidates
(sorted first, so the order of the file system does not matter), then takes them round-robin over
the repositories (in a shuffled order), so that small applications, where the cross-module
training loops live, weigh as much as big libraries. The strata are found by
syntax only; they decide what is drawn, never what a value is.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import warnings
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

import tomllib

HERE = Path(__file__).resolve().parent
REPOS = HERE.parent / "realworld" / "repos.toml"
SAMPLE = HERE / "sample.jsonl"
SEED = 20261219
SPLIT = "tune4"

# stratum -> how many values to draw from it (first matching stratum wins, in this order)
QUOTAS: dict[str, int] = {
    "arg-partial": 10,   # an argument bound by functools.partial, or passed to a partial alias
    "arg-loop": 25,      # a loop target passed on (``for x, y in ds: train_step(x, y)``)
    "arg-callresult": 30,  # a name bound to the result of a call that is not tf/np/builtin (factories)
    "arg-numpy": 10,     # a name bound to a NumPy call's result
    "arg-attribute": 20,  # ``self.x`` / ``obj.x`` passed on (attributes set in __init__/build)
    "arg-param": 15,     # a parameter of the enclosing function passed on (call chains)
    "arg-other": 10,
    "param-called": 20,  # a parameter the body calls (layers, models, functions passed in)
    "param-crossmodule": 30,  # a parameter of a function called from another file of the project
    "param-other": 30,
}
# A supplement drawn after the first 200 were labelled, because that draw held no dataset value
# and only 4 models: values of these strata not drawn before, seed SEED + 1, ids from v201 on.
SUPPLEMENT: dict[str, int] = {
    "param-iterated": 20,  # a parameter the body loops over (``for x, y in dataset``)
    "arg-fit": 15,         # an argument of ``.fit``/``.evaluate``/``.predict`` and the like
    # a name bound to what a factory returns: a call whose name says it makes data or a model
    # (``load_split()``, ``build_model()``, ``tf.data...``, ``tfds.load``, ``Sequential``)
    "arg-factory": 20,
}
_FACTORY = re.compile(r"(dataset|data|loader|load|pipeline|model|net|network|build|create|make|sequential)", re.I)
_FIT_METHODS = frozenset({"fit", "evaluate", "predict", "fit_generator", "evaluate_generator", "predict_generator",
                          "experimental_distribute_dataset", "train_on_batch", "test_on_batch", "predict_on_batch"})
_DULL_CALLS = frozenset({"print", "len", "isinstance", "issubclass", "hasattr", "getattr", "setattr", "type",
                         "id", "str", "repr", "format", "super", "callable", "vars", "dir", "open", "sorted",
                         "logging.info", "logging.debug", "logging.warning", "logging.error", "absl.logging.info",
                         "os.path.join", "os.path.exists", "os.makedirs", "range", "enumerate", "zip"})
_BUILTIN_CALLS = frozenset({"int", "float", "bool", "list", "dict", "tuple", "set", "max", "min", "sum", "abs",
                            "round", "map", "filter", "any", "all", "iter", "next", "reversed", "frozenset"})


@dataclass
class Value:
    id: str
    repo: str
    path: str  # relative to the repository's root
    line: int
    col: int  # 0-based UTF-8 byte offset, as ``ast`` gives it
    end_line: int
    end_col: int
    what: str  # "param" | "arg"
    name: str  # the parameter's name, or the argument as written
    function: str  # qualname of the enclosing def ("<module>" at top level)
    callee: str  # for arguments, the call as written (``train_step``); for parameters, ""
    stratum: str
    quote: str
    extra: str = ""  # the supplement's stratum this value also falls in, if any  # the one source line (stripped, cut at 120 characters)


def tune_repos(root: Path) -> list[str]:
    with REPOS.open("rb") as handle:
        repos = tomllib.load(handle)["repo"]
    return sorted(r["name"] for r in repos if r.get("split") == SPLIT and (root / r["name"]).is_dir())


def is_test_path(rel: str) -> bool:
    parts = rel.split("/")
    name = parts[-1]
    return (any(p in ("test", "tests", "testing") for p in parts[:-1]) or name.startswith("test_")
            or name.endswith("_test.py") or name in ("conftest.py", "setup.py", "test_utils.py"))


def files_of(root: Path, repo: str) -> list[str]:
    out = []
    base = root / repo
    for folder, dirs, names in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            rel = os.path.relpath(os.path.join(folder, name), base)
            if is_test_path(rel):
                continue
            text = Path(folder, name).read_text(encoding="utf-8", errors="replace")
            if "tensorflow" in text or "keras" in text or "tf." in text:
                out.append(rel)
    return out


def dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


def scope_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """Every node of one scope, not entering nested functions or classes (their bodies are scopes)."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            if isinstance(node, ast.ClassDef):
                continue
            # decorators and defaults belong to the enclosing scope
            stack.extend(node.decorator_list if not isinstance(node, ast.Lambda) else [])
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def scopes(tree: ast.Module) -> list[tuple[str, ast.AST, list[ast.stmt]]]:
    """(qualname, node, body) of the module and every def, classes walked for their methods."""
    out: list[tuple[str, ast.AST, list[ast.stmt]]] = [("<module>", tree, tree.body)]
    stack: list[tuple[str, ast.AST]] = [("", tree)]
    while stack:
        prefix, node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                qual = f"{prefix}{child.name}"
                out.append((qual, child, child.body))
                stack.append((f"{qual}.<locals>.", child))
            elif isinstance(child, ast.ClassDef):
                stack.append((f"{prefix}{child.name}.", child))
            elif not isinstance(child, ast.Lambda):
                stack.append((prefix, child))
    return out


def _loop_names(nodes: list[ast.AST]) -> set[str]:
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            out.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
    return out


def _bound_by(nodes: list[ast.AST]) -> dict[str, set[str]]:
    """name -> what binds it in this scope: 'numpy', 'partial', 'call' (other calls), and
    'factory' besides when the call's name says it makes data or a model."""
    out: dict[str, set[str]] = defaultdict(set)
    for node in nodes:
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        callee = dotted(node.value.func) or ""
        if _FACTORY.search(callee.rsplit(".", 1)[-1]) or callee.startswith(("tf.data.", "tfds.")):
            for target in node.targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        out[n.id].add("factory")
        if callee.startswith(("np.", "numpy.")):
            how = "numpy"
        elif callee in ("partial", "functools.partial"):
            how = "partial"
        elif callee.startswith(("tf.", "tensorflow.", "keras.")) or callee in _BUILTIN_CALLS or not callee:
            how = "library"
        else:
            how = "call"
        for target in node.targets:
            for n in ast.walk(target):
                if isinstance(n, ast.Name):
                    out[n.id].add(how)
    return out


def candidates(root: Path, repo: str) -> list[Value]:
    files = files_of(root, repo)
    trees: dict[str, ast.Module] = {}
    lines: dict[str, list[str]] = {}
    for rel in files:
        data = (root / repo / rel).read_bytes()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                trees[rel] = ast.parse(data)
        except (SyntaxError, ValueError):
            continue
        lines[rel] = data.decode("utf-8", errors="replace").splitlines()
    # which files call a function of a given (last) name: for the cross-module stratum
    called_in: dict[str, set[str]] = defaultdict(set)
    for rel, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = dotted(node.func)
                if name:
                    called_in[name.rsplit(".", 1)[-1]].add(rel)
    out: list[Value] = []
    for rel, tree in trees.items():
        partial_aliases = {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
                           and isinstance(node.value, ast.Call) and dotted(node.value.func) in ("partial", "functools.partial")
                           for t in node.targets if isinstance(t, ast.Name)}
        for qual, node, body in scopes(tree):
            nodes = scope_nodes(body)
            loops = _loop_names(nodes)
            bound = _bound_by(nodes)
            params: set[str] = set()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                plain = [*args.posonlyargs, *args.args, *args.kwonlyargs]
                params = {a.arg for a in plain}
                called = {dotted(n.func) for n in nodes if isinstance(n, ast.Call)}
                iterated = {n.iter.id for n in nodes if isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension))
                            and isinstance(n.iter, ast.Name)}
                elsewhere = called_in.get(node.name, set()) - {rel}
                for a in plain:
                    if a.arg in ("self", "cls"):
                        continue
                    if a.arg in called:
                        stratum = "param-called"
                    elif elsewhere and not node.name.startswith("__"):
                        stratum = "param-crossmodule"
                    else:
                        stratum = "param-other"
                    out.append(_value(repo, rel, lines[rel], a, "param", a.arg, qual, "", stratum))
                    if a.arg in iterated:
                        out[-1].extra = "param-iterated"
            for call in nodes:
                if not isinstance(call, ast.Call):
                    continue
                callee = dotted(call.func) or ""
                if callee in _DULL_CALLS or callee.split(".")[0] in ("print", "logging", "os", "sys", "json"):
                    continue
                for arg in [*call.args, *(k.value for k in call.keywords)]:
                    if not isinstance(arg, (ast.Name, ast.Attribute)):
                        continue
                    if isinstance(arg, ast.Attribute) and not isinstance(arg.value, (ast.Name, ast.Attribute)):
                        continue
                    text = dotted(arg)
                    if text is None or text in ("self", "cls", "None", "True", "False"):
                        continue
                    base = text.split(".", 1)[0]
                    how = bound.get(text, set()) if isinstance(arg, ast.Name) else set()
                    if "partial" in how or callee in partial_aliases:
                        stratum = "arg-partial"
                    elif isinstance(arg, ast.Name) and text in loops:
                        stratum = "arg-loop"
                    elif "call" in how:
                        stratum = "arg-callresult"
                    elif "numpy" in how:
                        stratum = "arg-numpy"
                    elif isinstance(arg, ast.Attribute):
                        if base in ("tf", "np", "tensorflow", "numpy", "keras", "os", "sys", "logging", "FLAGS",
                                    "flags", "cfg", "config", "args"):
                            continue  # a library constant or a flag: not a value to infer
                        stratum = "arg-attribute"
                    elif text in params:
                        stratum = "arg-param"
                    else:
                        stratum = "arg-other"
                    out.append(_value(repo, rel, lines[rel], arg, "arg", text, qual, callee, stratum))
                    if callee.rsplit(".", 1)[-1] in _FIT_METHODS and "." in callee:
                        out[-1].extra = "arg-fit"
                    elif "factory" in how:
                        out[-1].extra = "arg-factory"
    return out


def _value(repo: str, rel: str, lines: list[str], node: ast.AST, what: str, name: str, qual: str,
           callee: str, stratum: str) -> Value:
    line = node.lineno  # type: ignore[attr-defined]
    col = node.col_offset  # type: ignore[attr-defined]
    quote = lines[line - 1].strip()[:120] if line - 1 < len(lines) else ""
    return Value(id="", repo=repo, path=rel, line=line, col=col, end_line=node.end_lineno,  # type: ignore[attr-defined]
                 end_col=node.end_col_offset, what=what, name=name, function=qual,  # type: ignore[attr-defined]
                 callee=callee, stratum=stratum, quote=quote)


def draw(population: list[Value]) -> list[Value]:
    by_stratum: dict[str, list[Value]] = defaultdict(list)
    for v in population:
        by_stratum[v.stratum].append(v)
    rng = random.Random(SEED)
    chosen: list[Value] = []
    for stratum, quota in QUOTAS.items():
        pool = sorted(by_stratum.get(stratum, []), key=lambda v: (v.repo, v.path, v.line, v.col, v.name))
        rng.shuffle(pool)
        queues: dict[str, list[Value]] = defaultdict(list)
        for v in pool:
            queues[v.repo].append(v)
        order = sorted(queues)
        rng.shuffle(order)
        taken = 0
        while taken < quota and any(queues.values()):
            for repo in order:
                if taken < quota and queues[repo]:
                    chosen.append(queues[repo].pop(0))
                    taken += 1
    for index, v in enumerate(chosen, 1):
        v.id = f"v{index:03d}"
    return chosen


def supplement(population: list[Value], first: list[Value]) -> list[Value]:
    """The supplement: same round-robin draw over the repositories, seed SEED + 1."""
    taken_before = {(v.repo, v.path, v.line, v.col, v.what) for v in first}
    rng = random.Random(SEED + 1)
    chosen: list[Value] = []
    for stratum, quota in SUPPLEMENT.items():
        pool = sorted((v for v in population if v.extra == stratum
                       and (v.repo, v.path, v.line, v.col, v.what) not in taken_before),
                      key=lambda v: (v.repo, v.path, v.line, v.col, v.name))
        rng.shuffle(pool)
        queues: dict[str, list[Value]] = defaultdict(list)
        for v in pool:
            queues[v.repo].append(v)
        order = sorted(queues)
        rng.shuffle(order)
        taken = 0
        while taken < quota and any(queues.values()):
            for repo in order:
                if taken < quota and queues[repo]:
                    v = queues[repo].pop(0)
                    v.stratum = stratum
                    chosen.append(v)
                    taken += 1
    for index, v in enumerate(chosen, len(first) + 1):
        v.id = f"v{index:03d}"
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default="/tmp/tfadvisor-realworld")
    parser.add_argument("--write", action="store_true", help=f"write {SAMPLE.name}")
    args = parser.parse_args()
    root = Path(args.root)
    population: list[Value] = []
    for repo in tune_repos(root):
        population.extend(candidates(root, repo))
    counts: dict[str, int] = defaultdict(int)
    for v in population:
        counts[v.stratum] += 1
    chosen = draw(population)
    chosen += supplement(population, chosen)
    print(f"population: {len(population):,} values in {len(tune_repos(root))} repositories")
    for v in population:
        if v.extra:
            counts[v.extra] += 1
    for stratum in (*QUOTAS, *SUPPLEMENT):
        drawn = sum(1 for v in chosen if v.stratum == stratum)
        print(f"  {stratum:18s} {counts[stratum]:7,d} candidates, {drawn} drawn")
    if args.write:
        with SAMPLE.open("w") as handle:
            for v in chosen:
                handle.write(json.dumps(asdict(v)) + "\n")
        print(f"wrote {SAMPLE}")


if __name__ == "__main__":
    main()
