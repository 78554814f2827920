"""Run conformance variants under the installed TensorFlow and label what it does.

    python tests/conformance/runner.py --out results.json [--rule TF305]

Every variant is written to a file (AutoGraph reads a function's source), imported and its
``main()`` called twice in this one process: eagerly (``tf.function`` gives the Python function back while
the program is imported, as if nothing were decorated) and as graphs. The two runs are compared: return value,
the module's Python state afterwards (globals and the attributes of the variant's own objects,
tensors as values), printed output (file descriptor 1, so ``tf.print(..., output_stream=sys.stdout)``
counts) and the exception, if any. The graph run also records every top-level call of a
tf.function (traced or not, the shapes and dtypes of its tensor arguments) and every traced graph
(its op count, its op types), which give ``retraces``, ``unrolled`` and ``empty`` (labels:
``variant.py``). Nothing here is mocked: TensorFlow's own ``Function.__call__`` is wrapped to count,
and restored after each run.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import random
import signal
import sys
import tempfile
import time
import types
from collections.abc import Iterator
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
if os.path.dirname(HERE) not in sys.path:
    sys.path.insert(0, os.path.dirname(HERE))

from conformance.variant import V  # noqa: E402

# TensorFlow's own threshold for its retracing warning ("5 out of the last 5 calls to <function>
# triggered tf.function retracing"): polymorphic_function.FREQUENT_TRACING_WARNING_THRESHOLD.
RETRACE_THRESHOLD = 5
# A traced graph this large holds an unrolled Python loop (the variants' bodies are a few ops).
UNROLLED_OPS = 300
# Ops that compute nothing: a graph made only of these has no tensor work.
_PLUMBING = frozenset({"Placeholder", "Identity", "Const", "NoOp", "IdentityN", "ReadVariableOp",
                       "StatefulPartitionedCall", "PartitionedCall"})
TIMEOUT_S = 30


def variant_modules() -> list[str]:
    """The rule codes that have variants: tests/conformance/variants/tfNNN.py."""
    folder = os.path.join(HERE, "variants")
    return sorted(f[:-3].upper() for f in os.listdir(folder) if f.startswith("tf") and f.endswith(".py"))


def load_variants(code: str) -> list[V]:
    module = importlib.import_module(f"conformance.variants.{code.lower()}")
    variants = list(module.VARIANTS)
    names = [v.name for v in variants]
    if len(set(names)) != len(names):
        raise ValueError(f"{code}: two variants share a name")
    return variants


# -- values --------------------------------------------------------------------------------------
def plain(value: Any, module: types.ModuleType | None = None, depth: int = 0) -> Any:
    """A value as comparable plain data: tensors as rounded numbers, symbolic tensors as a marker,
    the variant's own objects as their public attributes."""
    import numpy as np
    import tensorflow as tf

    if depth > 4:
        return "<deep>"
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return round(float(value), 4)
    if isinstance(value, tf.Variable):
        return {"<variable>": plain(value.numpy(), module, depth + 1)}
    if isinstance(value, (tf.Tensor, tf.RaggedTensor, tf.SparseTensor)):
        try:
            return plain(value.numpy(), module, depth + 1)  # type: ignore[union-attr]
        except Exception:
            return "<symbolic tensor>"
    if isinstance(value, tf.TensorArray):
        return "<TensorArray>"
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            return np.round(value.astype(np.float64), 4).tolist()
        if value.dtype.kind in "SO":
            return [str(x) for x in value.ravel().tolist()]
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [plain(v, module, depth + 1) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v, module, depth + 1) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(str(plain(v, module, depth + 1)) for v in value)
    cls = type(value)
    if module is not None and cls.__module__ == module.__name__ and hasattr(value, "__dict__"):
        # A Keras layer or tf.Module is compared by its numbers; its name (dense_3) counts
        # objects made so far in the process, not what the program did.
        framework = isinstance(value, (tf.Module, *_keras_bases()))
        return {f"<{cls.__name__}>": {k: plain(v, module, depth + 1) for k, v in sorted(vars(value).items())
                                      if not k.startswith("_") and not callable(v)
                                      and not (framework and isinstance(v, (str, tf.Module, *_keras_bases())))}}
    return f"<{cls.__name__}>"


def _keras_bases() -> tuple[type, ...]:
    try:
        import keras

        return (keras.layers.Layer, keras.optimizers.Optimizer)
    except Exception:  # pragma: no cover - Keras comes with TensorFlow
        return ()


def state(module: types.ModuleType) -> dict[str, Any]:
    """The module's Python state: its plain globals and its own objects' attributes."""
    out = {}
    for name, value in sorted(vars(module).items()):
        if name.startswith("__") or isinstance(value, (types.ModuleType, types.FunctionType, type)) or callable(value):
            if not (hasattr(value, "__dict__") and type(value).__module__ == module.__name__):
                continue
        out[name] = plain(value, module)
    return out


# -- one run -------------------------------------------------------------------------------------
class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout(f"no result after {TIMEOUT_S}s")


class _Recorder:
    """Wraps tf.function's ``Function.__call__`` to record top-level calls and the functions traced."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []
        self.functions: list[Any] = []
        self.any_call = False  # some tf.function was called (even run eagerly)

    def __enter__(self) -> _Recorder:
        from tensorflow.python.eager import context
        from tensorflow.python.eager.polymorphic_function import polymorphic_function as pf

        self._cls = pf.Function
        self._original = original = pf.Function.__call__
        recorder = self

        def recording_call(fn: Any, *args: Any, **kwargs: Any) -> Any:
            top = context.executing_eagerly() and not fn._run_functions_eagerly
            recorder.any_call = True
            before = fn.experimental_get_tracing_count() if top else 0
            try:
                return original(fn, *args, **kwargs)
            finally:
                if top:
                    recorder.calls.append({"key": id(fn._key_for_call_stats), "name": fn.name,
                                           "traced": fn.experimental_get_tracing_count() > before,
                                           "signature": _tensor_signature(args, kwargs) + _captured(fn)})
                    if all(f is not fn for f in recorder.functions):
                        recorder.functions.append(fn)

        pf.Function.__call__ = recording_call  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: Any) -> None:
        self._cls.__call__ = self._original  # type: ignore[method-assign]

    def graphs(self) -> list[dict[str, Any]]:
        """Every graph the recorded functions traced: op count, op types, Python part of its inputs."""
        out = []
        for fn in self.functions:
            try:
                concrete = fn._list_all_concrete_functions()
            except Exception:
                continue
            for cf in concrete:
                ops = cf.graph.get_operations()
                out.append({"key": id(fn._key_for_call_stats), "name": fn.name, "ops": len(ops),
                            "types": sorted({op.type for op in ops}),
                            "python_inputs": _python_part(cf.structured_input_signature),
                            "tensor_inputs": _tensor_part(cf.structured_input_signature)})
        return out


# Everything _captured identified, kept alive for the run: an id is unique only among live
# objects, and a model collected between two loop iterations would hand its id to the next one.
_SEEN: list[Any] = []


def _captured(fn: Any) -> str:
    """What the traced Python function closes over or is bound to (identities): a tf.function made per
    iteration around another layer or model traces for it, and one made once could not serve it."""
    py = getattr(fn, "_python_function", None)
    if py is None:
        return ""
    parts = []
    bound = getattr(py, "__self__", None)
    if bound is not None:
        parts.append(bound)
    for cell in getattr(py, "__closure__", None) or ():
        try:
            parts.append(cell.cell_contents)
        except ValueError:  # an empty cell
            continue
    if not hasattr(py, "__code__"):
        parts.append(py)  # a callable object (a layer) wrapped as it is
    _SEEN.extend(parts)
    return "|" + ",".join(str(id(p)) for p in parts) if parts else ""


def _tensor_signature(args: Any, kwargs: Any) -> str:
    import numpy as np
    import tensorflow as tf

    leaves = tf.nest.flatten((args, kwargs), expand_composites=False)
    parts = []
    for leaf in leaves:
        if isinstance(leaf, (tf.Tensor, tf.Variable, np.ndarray)):
            parts.append(f"{leaf.dtype.name if hasattr(leaf.dtype, 'name') else leaf.dtype}{list(leaf.shape)}")
        elif isinstance(leaf, (tf.Module, tf.keras.layers.Layer)):
            # Another model or layer (other variables): it needs a trace of its own, in one
            # tf.function or in a new one, like the models a closure captures (_captured).
            parts.append(f"module@{id(leaf)}")
    return ",".join(parts)


def _python_part(signature: Any) -> str:
    import tensorflow as tf

    leaves = tf.nest.flatten(signature, expand_composites=False)
    return repr([None if isinstance(leaf, tf.TypeSpec) else repr(leaf) for leaf in leaves])


def _last_line(message: str) -> str:
    """AutoGraph's errors open with "in user code:" and a stack; the last line is TensorFlow's words."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def _tensor_part(signature: Any) -> str:
    import tensorflow as tf

    leaves = tf.nest.flatten(signature, expand_composites=False)
    return repr([repr(leaf) for leaf in leaves if isinstance(leaf, tf.TypeSpec)])


def _seed() -> None:
    import numpy as np
    import tensorflow as tf

    random.seed(0)
    np.random.seed(0)
    tf.random.set_seed(0)
    try:
        import keras

        keras.utils.set_random_seed(0)
    except Exception:  # pragma: no cover - Keras is part of TensorFlow's install
        pass


def _undecorated(func: Any = None, *args: Any, **kwargs: Any) -> Any:
    """``tf.function`` for the eager run: gives the Python function back, options ignored."""
    if func is None:
        return lambda f: f
    return func


def run_mode(path: str, modname: str, eager: bool) -> dict[str, Any]:
    """Import the variant's file and call its ``main()``, eagerly or as graphs; what it did."""
    import tensorflow as tf

    _seed()
    real_function = tf.function
    if eager:
        tf.function = _undecorated  # the program as if nothing were a tf.function
    sys.stdout.flush()
    saved = os.dup(1)
    capture = tempfile.TemporaryFile()
    os.dup2(capture.fileno(), 1)
    result: Any = None
    error: dict[str, str] | None = None
    module: types.ModuleType | None = None
    recorder = _Recorder()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT_S)
    start = time.perf_counter()
    try:
        with recorder:
            try:
                spec = importlib.util.spec_from_file_location(modname, path)
                assert spec is not None and spec.loader is not None
                module = importlib.util.module_from_spec(spec)
                sys.modules[modname] = module
                spec.loader.exec_module(module)
                main = getattr(module, "main", None)
                if main is not None:
                    result = main()
            except (Exception, RecursionError, _Timeout) as exc:  # what the program raises is the data
                error = {"type": type(exc).__name__, "message": _last_line(str(exc))}
        eager_on = tf.config.functions_run_eagerly()
        graphs = recorder.graphs()
        try:
            plain_result = plain(result, module)
            plain_state = state(module) if module is not None else {}
        except Exception as exc:  # a value that cannot even be read back
            plain_result, plain_state = f"<unreadable: {type(exc).__name__}>", {}
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        capture.seek(0)
        printed = capture.read().decode("utf-8", "replace")
        capture.close()
        tf.function = real_function
        tf.config.run_functions_eagerly(False)
        sys.modules.pop(modname, None)
    return {"result": plain_result, "state": plain_state, "printed": printed, "error": error,
            "eager_on": eager_on and recorder.any_call, "calls": recorder.calls, "graphs": graphs,
            "seconds": round(time.perf_counter() - start, 3)}


def label(eager: dict[str, Any], graph: dict[str, Any]) -> list[str]:
    """What TensorFlow did with the program (labels: variant.py)."""
    out = []
    e_err, g_err = eager["error"], graph["error"]
    if g_err and not e_err:
        out.append("raises")
    elif (e_err and not g_err) or (e_err and g_err and e_err["type"] != g_err["type"]):
        out.append("differs")
    elif not e_err and not g_err and any(eager[k] != graph[k] for k in ("result", "state", "printed")):
        out.append("differs")
    if _retraces(graph):
        out.append("retraces")
    if _unrolled(graph):
        out.append("unrolled")
    if graph["eager_on"]:  # left on, and some tf.function was called: it ran eagerly
        out.append("eager-on")
    if graph["graphs"] and all(set(g["types"]) <= _PLUMBING for g in graph["graphs"]):
        out.append("empty")
    return out or ["same"]


def _retraces(graph: dict[str, Any]) -> bool:
    """A function traced at least as often as TensorFlow warns, more often than it met new tensor
    signatures (shapes, dtypes): the traces came from Python values or objects."""
    by_key: dict[int, list[dict[str, Any]]] = {}
    for call in graph["calls"]:
        by_key.setdefault(call["key"], []).append(call)
    for calls in by_key.values():
        traces = sum(c["traced"] for c in calls)
        signatures = {c["signature"] for c in calls}
        if traces >= RETRACE_THRESHOLD and traces > len(signatures):
            return True
    return False


def _unrolled(graph: dict[str, Any]) -> bool:
    """A traced graph of UNROLLED_OPS ops or more, or graphs of one function with the same Python
    inputs and different tensor shapes whose op counts differ (their structure follows the data's
    shape). Two graphs for the same inputs are the first call's variable creation and the rest."""
    groups: dict[tuple[int, str], dict[str, int]] = {}
    for g in graph["graphs"]:
        if g["ops"] >= UNROLLED_OPS:
            return True
        groups.setdefault((g["key"], g["python_inputs"]), {})[g["tensor_inputs"]] = g["ops"]
    return any(len(set(by_shape.values())) > 1 for by_shape in groups.values())


def run_variant(code: str, variant: V, folder: str) -> dict[str, Any]:
    path = os.path.join(folder, f"{code.lower()}_{variant.name.replace('-', '_')}.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(variant.source)
    base = f"conformance_{code.lower()}_{variant.name.replace('-', '_')}"
    eager = run_mode(path, base + "_eager", eager=True)
    graph = run_mode(path, base + "_graph", eager=False)
    return {"rule": code, "name": variant.name, "labels": label(eager, graph), "expected": sorted(variant.labels),
            "real": variant.real, "eager": _brief(eager), "graph": _brief(graph)}


def _brief(run: dict[str, Any]) -> dict[str, Any]:
    """What the report keeps of one run (enough to see why a label was given)."""
    traced = [c for c in run["calls"] if c["traced"]]
    return {"error": run["error"], "calls": len(run["calls"]), "traces": len(traced), "state": _short(run["state"]),
            "signatures": len({c["signature"] for c in run["calls"]}),
            "max_ops": max((g["ops"] for g in run["graphs"]), default=0), "eager_on": run["eager_on"],
            "printed": run["printed"][-400:], "result": _short(run["result"]), "seconds": run["seconds"]}


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) < 300 else text[:297] + "..."


def run_all(codes: list[str] | None = None) -> Iterator[dict[str, Any]]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    with tempfile.TemporaryDirectory(prefix="tfadvisor-conformance-") as folder:
        sys.path.insert(0, folder)
        for code in codes or variant_modules():
            for variant in load_variants(code):
                yield run_variant(code, variant, folder)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="write the results here (JSON list)")
    parser.add_argument("--rule", action="append", help="only this rule's variants (repeatable)")
    args = parser.parse_args(argv)
    results = list(run_all([c.upper() for c in args.rule] if args.rule else None))
    with open(args.out, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
