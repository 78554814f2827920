"""Observing Keras training in the user's program: which model, compiled how, fed with what.

Keras is library code, so the source transform of ``runtime/run/hook.py`` never sees it. Instead,
for the duration of the run, ``Model.compile``/``fit``/``evaluate``/``predict`` and the
``tf.data.Dataset`` transformations are wrapped **on their classes, once the program imports
them** (a post-import hook: TensorFlow and Keras are never imported before the program does, so
environment variables it sets first, such as ``KERAS_BACKEND``, still count). The wrappers record,
for calls made from the project's own code:

- ``compile``: the model, its arguments, and the call's place in the source (for ``fix``);
- ``fit``/``evaluate``/``predict``: wall time, training steps (the optimizer's iteration counter),
  the arguments (the data, callbacks), the place of the call;
- ``Dataset.map``/``batch``/``prefetch``/...: receiver, arguments and place, so that the pipeline
  fed to ``fit`` can be rebuilt with other options later (``runtime/keras/pipeline.py``) and its
  calls edited by ``fix``.

Everything is put back when the run ends (``remove``). The cost is a frame lookup per wrapped call.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import sys
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tfadvisor.model_keras import CallSite
from tfadvisor.paths import display_path
from tfadvisor.runtime.run.hook import ProjectScope

KERAS_MODEL_MODULE = "keras.src.models.model"
DATASET_MODULE = "tensorflow.python.data.ops.dataset_ops"
MODEL_METHODS = ("compile", "fit", "evaluate", "predict")
# Dataset transformations recorded (the chain is rebuilt from them); static constructors are not:
# the receiver of the first recorded call is the pipeline's source, reused as it is.
DATASET_METHODS = ("map", "batch", "padded_batch", "ragged_batch", "unbatch", "rebatch", "prefetch", "cache",
                   "shuffle", "repeat", "filter", "take", "skip", "interleave", "flat_map", "apply",
                   "with_options", "shard", "enumerate", "concatenate", "window", "prefetch")
MAX_STAGES = 10_000  # recorded dataset calls kept at once (a program re-creating datasets per step)


@dataclass
class StageRecord:
    """One ``Dataset`` method called by the project's code."""

    method: str
    receiver: Any
    args: tuple
    kwargs: dict
    site: CallSite


@dataclass
class CallRecord:
    """One ``fit``/``evaluate``/``predict`` call of the project's code."""

    kind: str
    args: tuple
    kwargs: dict
    site: CallSite | None
    wall_s: float = 0.0
    steps: int = 0  # training steps (fit only)
    error: str | None = None


@dataclass
class CompileRecord:
    """One ``compile`` call and the calls made on the model while it was in force."""

    model: Any
    kwargs: dict[str, Any]  # compile's arguments, by name, as the program passed them
    site: CallSite | None
    in_force: dict[str, Any] = field(default_factory=dict)  # run_eagerly, jit_compile, steps_per_execution after it
    calls: list[CallRecord] = field(default_factory=list)

    def total(self, kind: str) -> tuple[int, float]:
        mine = [c for c in self.calls if c.kind == kind]
        return len(mine), sum(c.wall_s for c in mine)


class KerasObserver:
    """The records of one run and the hooks that make them; ``install``/``remove`` bracket the run."""

    def __init__(self, scope: ProjectScope):
        self.scope = scope
        self.compiles: list[CompileRecord] = []
        self.stages: dict[int, tuple[weakref.ref, StageRecord]] = {}
        self.active = False
        self._patched: list[tuple[type, str, Any, bool]] = []  # (class, name, original, was in its __dict__)
        self._finder = _PostImport({KERAS_MODEL_MODULE: self._patch_keras, DATASET_MODULE: self._patch_datasets})
        self._in_project: dict[str, bool] = {}
        self._depth = 0  # fit inside fit (a callback that evaluates): only the outermost counts

    # -- install / remove ------------------------------------------------------------------------

    def install(self) -> None:
        self.active = True
        sys.meta_path.insert(0, self._finder)
        for name, patch in self._finder.callbacks.items():
            if name in sys.modules:
                patch(sys.modules[name])

    def remove(self) -> None:
        self.active = False
        try:
            sys.meta_path.remove(self._finder)
        except ValueError:
            pass
        for cls, name, original, owned in reversed(self._patched):
            if owned:
                setattr(cls, name, original)
            else:
                try:
                    delattr(cls, name)
                except AttributeError:
                    pass
        self._patched.clear()

    def _patch(self, cls: type, name: str, make: Callable[[Any], Any]) -> None:
        if any(c is cls and n == name for c, n, _, _ in self._patched):
            return
        owned = name in vars(cls)
        original = vars(cls)[name] if owned else getattr(cls, name, None)
        if original is None or isinstance(original, (staticmethod, classmethod)):
            return
        setattr(cls, name, make(original))
        self._patched.append((cls, name, original, owned))

    def _patch_keras(self, module: Any) -> None:
        model_cls = getattr(module, "Model", None)
        if model_cls is None:
            return
        self._patch(model_cls, "compile", self._wrap_compile)
        for kind in ("fit", "evaluate", "predict"):
            self._patch(model_cls, kind, functools.partial(self._wrap_call, kind))

    def _patch_datasets(self, module: Any) -> None:
        dataset_cls = getattr(module, "DatasetV2", None)
        if dataset_cls is None:
            return
        for name in dict.fromkeys(DATASET_METHODS):
            self._patch(dataset_cls, name, functools.partial(self._wrap_stage, name))

    # -- where the project called from ----------------------------------------------------------

    def _project(self, filename: str) -> bool:
        known = self._in_project.get(filename)
        if known is None:
            known = self._in_project[filename] = self.scope.contains(filename)
        return known

    def _site(self, method: str, direct_only: bool) -> CallSite | None:
        """The project's call to ``method``: the wrapper's caller, or (``direct_only=False``) the first
        project frame up the stack (a library that calls ``fit`` for the user)."""
        frame = sys._getframe(2)
        while frame is not None:
            if self._project(frame.f_code.co_filename):
                return _call_site(frame, method)
            if direct_only:
                return None
            frame = frame.f_back  # type: ignore[assignment]
        return None

    # -- wrappers --------------------------------------------------------------------------------

    def _wrap_compile(self, original: Any) -> Any:
        observer = self

        @functools.wraps(original)
        def compile(model: Any, *args: Any, **kwargs: Any) -> Any:
            if not observer.active:
                return original(model, *args, **kwargs)
            site = observer._site("compile", direct_only=False)
            result = original(model, *args, **kwargs)
            bound = _bind(original, model, args, kwargs)
            observer.compiles.append(CompileRecord(model=model, kwargs=bound, site=site, in_force=in_force(model)))
            return result

        return compile

    def _wrap_call(self, kind: str, original: Any) -> Any:
        observer = self

        @functools.wraps(original)
        def call(model: Any, *args: Any, **kwargs: Any) -> Any:
            if not observer.active or observer._depth:
                return original(model, *args, **kwargs)
            record = CallRecord(kind=kind, args=args, kwargs=kwargs, site=observer._site(kind, direct_only=False))
            before = _iterations(model)
            observer._depth += 1
            start = time.perf_counter()
            try:
                return original(model, *args, **kwargs)
            except BaseException as exc:
                record.error = type(exc).__name__
                raise
            finally:
                record.wall_s = time.perf_counter() - start
                observer._depth -= 1
                if kind == "fit":
                    record.steps = max(0, _iterations(model) - before)
                observer._compile_of(model).calls.append(record)

        return call

    def _wrap_stage(self, method: str, original: Any) -> Any:
        observer = self

        @functools.wraps(original)
        def stage(dataset: Any, *args: Any, **kwargs: Any) -> Any:
            result = original(dataset, *args, **kwargs)
            if observer.active and len(observer.stages) < MAX_STAGES:
                site = observer._site(method, direct_only=True)
                if site is not None:
                    observer._remember(result, StageRecord(method, dataset, args, kwargs, site))
            return result

        return stage

    def _remember(self, result: Any, record: StageRecord) -> None:
        key = id(result)
        stages = self.stages
        try:
            ref = weakref.ref(result, lambda _: stages.pop(key, None))
        except TypeError:
            return
        stages[key] = (ref, record)

    def _compile_of(self, model: Any) -> CompileRecord:
        for record in reversed(self.compiles):
            if record.model is model:
                return record
        record = CompileRecord(model=model, kwargs={}, site=None, in_force=in_force(model))  # compiled elsewhere
        self.compiles.append(record)
        return record

    # -- reading ---------------------------------------------------------------------------------

    def stage_of(self, dataset: Any) -> StageRecord | None:
        """The recorded call that made ``dataset`` (None: a source, or made by a library)."""
        entry = self.stages.get(id(dataset))
        if entry is None or entry[0]() is not dataset:
            return None
        return entry[1]

    def chain(self, dataset: Any) -> tuple[Any, list[StageRecord]]:
        """(source, the project's calls from source to ``dataset``, in order)."""
        stages: list[StageRecord] = []
        current = dataset
        while True:
            record = self.stage_of(current)
            if record is None or len(stages) > 1000:
                break
            stages.append(record)
            current = record.receiver
        return current, stages[::-1]

    def trainings(self) -> list[CompileRecord]:
        """Compiled models that trained (``fit``), biggest first."""
        used = [c for c in self.compiles if any(call.kind == "fit" for call in c.calls)]
        return sorted(used, key=lambda c: -c.total("fit")[1])


def _bind(function: Any, model: Any, args: tuple, kwargs: dict) -> dict[str, Any]:
    import inspect

    try:
        bound = inspect.signature(function).bind(model, *args, **kwargs)
    except (TypeError, ValueError):
        return dict(kwargs)
    out = dict(bound.arguments)
    out.pop(next(iter(out), ""), None)  # self
    extra = out.pop("kwargs", None)
    if isinstance(extra, dict):
        out.update(extra)
    return out


def in_force(model: Any) -> dict[str, Any]:
    """The options Keras resolved at compile (``jit_compile="auto"`` is False on a CPU-only machine)."""
    try:
        return {"run_eagerly": bool(model.run_eagerly), "jit_compile": bool(model.jit_compile),
                "steps_per_execution": int(model.steps_per_execution)}
    except Exception:
        return {}


def _iterations(model: Any) -> int:
    try:
        return int(model.optimizer.iterations.numpy())
    except Exception:
        return 0


def _call_site(frame: Any, method: str) -> CallSite:
    """The call the frame is making: its first line and column, and its closing parenthesis."""
    code = frame.f_code
    line, end_line, col, end_col = frame.f_lineno, frame.f_lineno, 0, 0
    positions = getattr(code, "co_positions", None)
    if positions is not None:
        try:
            found = list(positions())[frame.f_lasti // 2]
            if found[0] is not None:
                line, end_line = found[0], found[1] or found[0]
                col, end_col = found[2] or 0, found[3] or 0
        except (IndexError, TypeError):
            pass
    return CallSite(path=display_path(code.co_filename), line=line, col=col, end_line=end_line,
                    end_col=end_col, method=method)


class _PostImport(importlib.abc.MetaPathFinder):
    """Runs a callback on a module right after it is first executed (imported)."""

    def __init__(self, callbacks: dict[str, Callable[[Any], None]]):
        self.callbacks = callbacks
        self._busy: set[str] = set()

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        callback = self.callbacks.get(fullname)
        if callback is None or fullname in self._busy:
            return None
        self._busy.add(fullname)
        try:
            spec = None
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    break
        finally:
            self._busy.discard(fullname)
        if spec is None or spec.loader is None:
            return None
        spec.loader = _ThenCall(spec.loader, callback)
        return spec


class _ThenCall(importlib.abc.Loader):
    """A loader that executes the module with the real loader, then calls back with it."""

    def __init__(self, loader: Any, callback: Callable[[Any], None]):
        self._loader = loader
        self._callback = callback

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        try:
            self._callback(module)
        except Exception:  # observing must never break the program's imports
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)
