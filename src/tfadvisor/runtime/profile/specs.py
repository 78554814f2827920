"""How the function, its calls and the helper hooks travel to a child process.

Two ways, chosen per object:

* by name: ``"package.module:Qual.name"`` or ``"path/to/file.py:name"``, imported in the child
  (what ``tfadvisor profile`` and ``run`` use; nothing is serialised);
* by value: any Python object given to the library API (closures, notebook functions, lambdas,
  lists of tensors) is serialised with cloudpickle, which pickles importable functions by
  reference and the others by value together with the globals they use. All by-value objects
  of one job go into ONE payload, so a list shared by the function and its ``observe`` hook stays
  shared in the child.

Before each mode after the first, the child drops the user's modules from ``sys.modules`` and
loads everything again, so every mode starts from the same module state (see
docs/decisions/0002-measurement.md). Nothing here imports TensorFlow.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pickle
import sys
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

_NOT_USER = ("tensorflow", "keras", "tf_keras", "numpy", "builtins", "tfadvisor", "jax", "torch")


class ResolveError(Exception):
    """A ``MODULE:NAME`` that does not import or does not name anything (exit status 2)."""


@dataclass(frozen=True)
class NameRef:
    """An object reachable by import: ``module`` is a dotted name or a path to a .py file."""

    module: str
    qualname: str

    def __str__(self) -> str:
        return f"{self.module}:{self.qualname}"


def parse_ref(text: str) -> NameRef:
    """``MODULE:NAME`` to a ``NameRef`` (ResolveError if it is not of that form)."""
    module, sep, qualname = text.rpartition(":")
    if not sep or not module or not qualname or not all(p.isidentifier() for p in qualname.split(".")):
        raise ResolveError(f"expected MODULE:NAME (e.g. mypkg.train:step or train.py:step), got {text!r}")
    if len(module) == 1 and module.isalpha():  # "C:..." on Windows is a drive, not a module
        raise ResolveError(f"expected MODULE:NAME, got {text!r}")
    return NameRef(module, qualname)


def is_path(module: str) -> bool:
    return module.endswith(".py") or os.sep in module or "/" in module


def load_module(module: str, *, fresh: bool) -> ModuleType:
    """Import ``module`` (dotted or a .py path); ``fresh`` re-executes it for a clean state."""
    if is_path(module):
        path = os.path.abspath(module)
        if not os.path.isfile(path):
            raise ResolveError(f"no such file: {module}")
        name = "tfadvisor_target_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
        if not fresh and name in sys.modules:
            return sys.modules[name]
        folder = os.path.dirname(path)
        if folder not in sys.path:
            sys.path.insert(0, folder)
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ResolveError(f"cannot load {module} as a Python module")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        return mod
    if fresh:
        sys.modules.pop(module, None)
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            raise ResolveError(f"cannot import module {module!r} (not found on sys.path)") from exc
        raise


def resolve(ref: NameRef, *, fresh: bool = False) -> Any:
    """The object ``ref`` names. ResolveError if the module or the attribute is missing."""
    obj: Any = load_module(ref.module, fresh=fresh)
    for part in ref.qualname.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ResolveError(f"{ref.module} has no attribute {ref.qualname!r}") from None
    return obj


@dataclass
class JobSpec:
    """Everything a child needs for one function: each item is a ``NameRef``, a key into the
    by-value payload, or None. ``user_modules`` are re-imported before every mode but the first."""

    fn: NameRef | str
    calls: NameRef | str
    fresh: NameRef | str | None = None
    observe: NameRef | str | None = None
    payload: bytes | None = None
    # source of by-value functions defined where the child cannot read it (notebook cells, the
    # interactive shell): AutoGraph reads source to convert control flow, so it travels too
    sources: dict[str, list[str]] = field(default_factory=dict)
    user_modules: list[str] = field(default_factory=list)
    sys_path: list[str] = field(default_factory=list)
    cwd: str | None = None
    # The call sequence as the first mode built it (pickled; plain data only: tensors, arrays,
    # numbers, containers). Every later mode and worker unpickles these instead of running the
    # calls factory again, so all modes see the same values even when the factory draws at random.
    calls_values: bytes | None = None
    # Starting states of the tf.random.Generator objects the function reaches (by path), as the
    # first mode found them: later modes set their generators to these (``modes._rewind_generators``).
    generator_states: dict[str, Any] | None = None


def build_job(fn: Any, calls: Any, fresh: Any = None, observe: Any = None) -> JobSpec:
    """Split the given objects into import-by-name references and one by-value payload.

    Strings of the form ``MODULE:NAME`` are references; a string ending in ``.pkl`` for ``calls``
    is a pickle file holding the call list (what ``run`` records); anything else goes by value.
    """
    by_value: dict[str, Any] = {}
    user_modules: list[str] = []

    def place(key: str, obj: Any) -> NameRef | str | None:
        if obj is None:
            return None
        if isinstance(obj, NameRef):
            return obj
        if isinstance(obj, str):
            if key == "calls" and obj.endswith(".pkl"):
                by_value[key] = _CallsFile(os.path.abspath(obj))
                return key
            return parse_ref(obj)
        module = getattr(obj, "__module__", None)
        if key != "calls" and isinstance(module, str) and module != "__main__" and not module.startswith(_NOT_USER):
            user_modules.append(module)
        by_value[key] = obj
        return key

    spec = JobSpec(
        fn=place("fn", fn),  # type: ignore[arg-type]
        calls=place("calls", calls),  # type: ignore[arg-type]
        fresh=place("fresh", fresh),
        observe=place("observe", observe),
        sys_path=list(sys.path),
        cwd=os.getcwd(),
    )
    for ref in (spec.fn, spec.calls, spec.fresh, spec.observe):
        if isinstance(ref, NameRef) and not is_path(ref.module):
            user_modules.append(ref.module)
    spec.user_modules = sorted(set(user_modules))
    if by_value:
        spec.sources = _unreadable_sources(by_value.values())
        spec.payload = dumps(by_value)
    return spec


def _unreadable_sources(objects: Any) -> dict[str, list[str]]:
    """Source lines the parent has (linecache) for code whose file the child cannot open."""
    import linecache

    out: dict[str, list[str]] = {}
    for obj in objects:
        for candidate in (obj, getattr(obj, "python_function", None), getattr(obj, "__func__", None)):
            code = getattr(candidate, "__code__", None)
            name = getattr(code, "co_filename", None)
            if name and name not in out and not os.path.isfile(name):
                lines = linecache.getlines(name)
                if lines:
                    out[name] = lines
    return out


@dataclass(frozen=True)
class _CallsFile:
    path: str


def dumps(obj: Any) -> bytes:
    """cloudpickle when installed (closures, notebook functions), else plain pickle."""
    try:
        import cloudpickle
    except ImportError:  # importable functions and plain data still work
        return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return cloudpickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


@dataclass
class Loaded:
    """The objects of one job, freshly loaded in the child for one mode."""

    fn: Any
    calls: list[tuple[tuple, dict]]
    fresh: Any = None
    observe: Any = None


def load_job(spec: JobSpec, *, fresh: bool) -> Loaded:
    """Load every object of ``spec`` in this (child) process; ``fresh`` re-imports user modules."""
    if fresh:
        for name in spec.user_modules:
            for loaded in [m for m in sys.modules if m == name]:
                sys.modules.pop(loaded, None)
    if spec.sources:
        import linecache

        for name, lines in spec.sources.items():  # mtime None: never invalidated by checkcache
            linecache.cache[name] = (sum(map(len, lines)), None, list(lines), name)
    values: dict[str, Any] = pickle.loads(spec.payload) if spec.payload else {}
    reloaded: set[str] = set()

    def get(ref: NameRef | str | None) -> Any:
        if ref is None:
            return None
        if isinstance(ref, NameRef):
            again = fresh and ref.module not in reloaded and is_path(ref.module)
            reloaded.add(ref.module)
            return resolve(ref, fresh=again)
        return values[ref]

    fn = get(spec.fn)
    if spec.calls_values is not None:
        return Loaded(fn=fn, calls=pickle.loads(spec.calls_values), fresh=get(spec.fresh), observe=get(spec.observe))
    calls_obj = get(spec.calls)
    if isinstance(calls_obj, _CallsFile):
        with open(calls_obj.path, "rb") as handle:
            calls_obj = pickle.load(handle)
    elif isinstance(spec.calls, NameRef) or (callable(calls_obj) and not isinstance(calls_obj, (list, tuple))):
        calls_obj = calls_obj()
    return Loaded(fn=fn, calls=normalise_calls(calls_obj), fresh=get(spec.fresh), observe=get(spec.observe))


def shippable_calls(calls: list[tuple[tuple, dict]]) -> bytes | None:
    """The calls pickled, when they are plain data (tensors, arrays, numbers, strings and
    containers of them) that mean the same in another mode or process; else None (objects such
    as models or variables must be rebuilt, from the same seeds, where they are used)."""
    if not all(_plain_data(args) and _plain_data(kwargs) for args, kwargs in calls):
        return None
    try:
        return pickle.dumps(calls, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:
        return None


def _plain_data(value: Any, depth: int = 0) -> bool:
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return True
    if depth > 8:
        return False
    if type(value) in (tuple, list):
        return all(_plain_data(v, depth + 1) for v in value)
    if type(value) is dict:
        return all(isinstance(k, str) and _plain_data(v, depth + 1) for k, v in value.items())
    name = type(value).__name__
    return name in ("EagerTensor", "ndarray") or type(value).__module__ == "numpy" and name.startswith(("float", "int"))


def normalise_calls(calls: Any) -> list[tuple[tuple, dict]]:
    """Check and normalise a call sequence to ``[(args_tuple, kwargs_dict), ...]``."""
    try:
        items = list(calls)
    except TypeError:
        raise ValueError(f"calls must be a sequence of (args, kwargs) pairs, got {type(calls).__name__}") from None
    out: list[tuple[tuple, dict]] = []
    for i, item in enumerate(items):
        if (
            isinstance(item, (tuple, list))
            and len(item) == 2
            and isinstance(item[0], (tuple, list))
            and isinstance(item[1], dict)
        ):
            out.append((tuple(item[0]), dict(item[1])))
        else:
            raise ValueError(f"call {i + 1} is not an (args, kwargs) pair: {type(item).__name__}")
    if not out:
        raise ValueError("calls is empty: give at least one (args, kwargs) pair")
    return out
