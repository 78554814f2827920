"""What values are, across the project: tensors, datasets, models, NumPy arrays, Python values.

The per-file pass cannot know what ``pipeline.load_split()`` returns: that is in another file. So
it records where a value comes from, as a small term (a ``Value``), and the project pass evaluates
the term once every file's summary is in:

=============================  ==========================================================
term                           the value
=============================  ==========================================================
``("kind", k)``                known locally: one of ``RICH_KINDS``
``("call", name)``             what calling ``name`` returns (a function, a class, a method)
``("method", v, m)``           ``v.m(...)``: a dataset's ``batch``, a model's ``predict`` ...
``("global", dotted)``         a module-level name, of this module or imported
``("self", attr)``             ``self.attr``, as the class's methods assign it
``("param", name)``            a parameter of the function the term was written in
``("item", v, i)``             ``v[i]``, or the i-th name unpacked from ``v``
``("iter", v)``                an element of ``for ... in v``
``("tuple", (v, ...))``        a tuple or list written out
``("arith", (v, w))``          ``v + w``, ``x / 255.0``: arithmetic
``("key", v)``                 ``v["train"]``: an entry of a dict (of datasets, from tfds.load)
``("any", (v, ...))``          a name bound more than once: one of these
``("elements", v)``            ``[Sampler(k) for _ in range(n)]``: a list of ``v``
=============================  ==========================================================

Evaluation is memoised per (term, function) and cut at a small depth, so cycles (a function
returning its own call) end in ``unknown``. Terms are plain tuples: summaries cross process
boundaries.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.scopes import walk

if TYPE_CHECKING:
    from tfadvisor.analysis.context import ScopeContext
    from tfadvisor.analysis.project import Project
    from tfadvisor.analysis.summary import FunctionSummary, Kind

Value = tuple  # a term of the table above
# A kind, or a tuple structure of kinds (what ``return train, test`` gives).
Rich = Any

# "numpy32": an array whose dtype the code set to something other than float64 (``astype(np.float32)``)
ARRAYS = ("numpy", "numpy32")  # the kinds of a NumPy array
RICH_KINDS = ("tensor", "dataset", "model", "numpy", "numpy32", "primitive", "container", "object", "unknown")
UNKNOWN: Value = ("kind", "unknown")
_MAX_DEPTH = 12
_MAX_BINDINGS = 4

# Methods of a Keras model that give tensors (called, not predicted) or NumPy arrays.
_MODEL_TENSOR_METHODS = frozenset({"call", "__call__", "predict_on_batch", "train_on_batch", "test_on_batch"})
_MODEL_NUMPY_METHODS = frozenset({"predict"})
_ITERATOR_CALLS = frozenset({"iter", "next"})
# Calls that hand back (an iterator over) their first argument: progress bars and the like.
_PASS_THROUGH = ("tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.autonotebook.tqdm", "tqdm.rich.tqdm", "tqdm.notebook.tqdm",
                 "tqdm.std.tqdm", "tqdm.tqdm_notebook",
                 "tqdm.notebook.tqdm_notebook", "tqdm.trange", "progressbar.progressbar", "rich.progress.track",
                 "itertools.islice", "tensorflow.keras.utils.Progbar")
# Keras utilities that build a tf.data pipeline.
_KERAS_DATASETS = ("keras.utils.image_dataset_from_directory", "keras.utils.text_dataset_from_directory",
                   "keras.utils.audio_dataset_from_directory", "keras.utils.timeseries_dataset_from_array",
                   "keras.preprocessing.image_dataset_from_directory",
                   "keras.preprocessing.text_dataset_from_directory",
                   "keras.preprocessing.timeseries_dataset_from_array")
# ``(x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()``: NumPy arrays.
_KERAS_ARRAYS: Value = ("kind", (("numpy", "numpy"), ("numpy", "numpy")))


# What ``obs, reward, done, info = env.step(action)`` unpacks: Python numbers for the reward and
# the flag, which a tf.function called with them would trace once per value.
_ENV_STEP: Rich = ("numpy", "primitive", "primitive", "unknown", "container")

# Attributes of an array (or tensor) that are arrays (tensors) of the same kind.
_SAME_KIND_ATTRIBUTES = frozenset({"T", "mT", "real", "imag"})


# -- the per-file pass: terms from syntax ---------------------------------------------------------
def passes_through(name: str | None) -> bool:
    """A call that hands back (an iterator over) its first argument: a progress bar and the like."""
    return bool(name) and name.startswith(_PASS_THROUGH)  # type: ignore[union-attr]


def local_rich(ctx: ScopeContext, node: ast.AST) -> str | None:
    """A kind the per-file pass knows without the project: datasets, models, NumPy arrays,
    containers written out, tensors and Python scalars."""
    if ctx.is_dataset(node):
        return "dataset"
    if isinstance(node, ast.Call) and (ctx.call_name(node) or "").startswith(_KERAS_DATASETS):
        return "dataset"
    if isinstance(node, ast.Call):
        name = ctx.call_name(node)
        if name and tfapi.is_keras_builder(name) and name.startswith(("keras.Model", "keras.Sequential",
                                                                       "keras.models.", "keras.applications.",
                                                                       "keras.layers.")):
            # ``keras.layers.Input(...)`` is a symbolic tensor of a functional model, not a layer
            return None if name.rsplit(".", 1)[-1] in ("Input", "InputLayer") else "model"
        if name and (name.startswith("numpy.") and not name.startswith("numpy.random.seed")):
            dtype = next((k.value for k in node.keywords if k.arg == "dtype"), None)
            return "numpy32" if dtype is not None and _not_float64(dtype) else "numpy"  # ``np.array(x, dtype=np.float32)``
    if isinstance(node, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return "container"
    kind, deps = ctx.kind_deps(node)
    if kind == "tensor" and not deps:
        return "tensor"
    if kind == "primitive":
        return "primitive"
    return None


def term(ctx: ScopeContext, node: ast.AST, _seen: frozenset[str] = frozenset()) -> Value:
    """The term for an expression of ``ctx``'s scope."""
    if isinstance(node, ast.Call):
        name = ctx.call_name(node) or ""
        if name.startswith("keras.datasets.") and name.endswith(".load_data"):
            return _KERAS_ARRAYS
        if name.startswith(_PASS_THROUGH) and node.args:
            return term(ctx, node.args[0], _seen)
    if isinstance(node, ast.ListComp) and _element_is_made(node):
        return ("elements", term(ctx, node.elt, _seen))
    rich = local_rich(ctx, node)
    if rich is not None:
        return ("kind", rich)
    if isinstance(node, ast.Name):
        return _read_term(ctx, node, _seen)
    if isinstance(node, ast.Call):
        return _call_term(ctx, node, _seen)
    if isinstance(node, ast.Attribute):
        if node.attr in _SAME_KIND_ATTRIBUTES:  # ``a.T``: an array's transpose is an array
            return term(ctx, node.value, _seen)
        if node.attr == "values" and _from_pandas(term(ctx, node.value, _seen)):
            return ("kind", "numpy")  # ``pd.read_csv(path).values``: float64 unless told otherwise
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            return ("self", node.attr)
        dotted = ctx.resolve(node)
        if dotted and isinstance(node.value, ast.Name) and _is_module_name(ctx, node.value.id):
            return ("global", dotted)
        return UNKNOWN
    if isinstance(node, ast.Subscript):
        index = node.slice
        if isinstance(index, ast.Constant) and isinstance(index.value, str):
            return ("key", term(ctx, node.value, _seen))  # ``tfds.load(...)["train"]``
        if isinstance(index, ast.Constant) and isinstance(index.value, int) and not isinstance(index.value, bool):
            return item_of(term(ctx, node.value, _seen), index.value)
        if isinstance(index, ast.Slice) or (isinstance(index, ast.Tuple) and any(
                isinstance(e, ast.Slice) for e in index.elts)):
            return term(ctx, node.value, _seen)  # ``x[:, i]``, ``xs[1:]``: a slice of an array is an array
        return ("iter", term(ctx, node.value, _seen))  # ``xs[i]``: some element
    if isinstance(node, ast.Tuple):
        return ("tuple", tuple(term(ctx, e, _seen) for e in node.elts))
    if isinstance(node, ast.BinOp):  # ``x_train / 255.0``: arithmetic keeps the array (or tensor)
        return ("arith", (term(ctx, node.left, _seen), term(ctx, node.right, _seen)))
    if isinstance(node, ast.UnaryOp):
        return term(ctx, node.operand, _seen)
    if isinstance(node, ast.IfExp):
        return any_of([term(ctx, node.body, _seen), term(ctx, node.orelse, _seen)])
    if isinstance(node, ast.Starred):
        return UNKNOWN
    return UNKNOWN


def _element_is_made(node: ast.ListComp) -> bool:
    """``[Sampler(k) for _ in range(n)]``: each element made by the same call, whose arguments do not
    read the comprehension's own names (those would be read as the function's)."""
    targets = {n.id for gen in node.generators for n in walk(gen.target) if isinstance(n, ast.Name)}
    return isinstance(node.elt, ast.Call) and not any(
        isinstance(n, ast.Name) and n.id in targets for n in walk(node.elt))


def _from_pandas(value: Value) -> bool:
    """A pandas frame or series: what ``pd.read_csv(...)`` and the like return, its columns
    (``df["price"]``, ``df[cols]``) and what its methods hand back (``df.dropna()``)."""
    if value[0] == "call":
        return str(value[1]).startswith("pandas.")
    if value[0] in ("method", "key", "iter"):
        return _from_pandas(value[1])
    if value[0] == "any":
        return any(_from_pandas(v) for v in value[1])
    return False


def _read_term(ctx: ScopeContext, node: ast.Name, seen: frozenset[str]) -> Value:
    """A name as read at ``node``: of a name bound more than once in a row (``df = pd.read_csv(p)``
    then ``df = df.values``), the bindings that reach this read (heldout31: a regression's float64
    targets sliced from ``df.values`` were taken for unknown values, as the frame's binding was
    joined in)."""
    bindings = ctx.bindings.get(node.id)
    if bindings and len(bindings) > 1 and node.id not in seen and hasattr(node, "lineno"):
        reaching = _reaching(ctx, bindings, node)
        if len(reaching) < len(bindings):
            inner = seen | {node.id}
            return any_of([_apply(term(ctx, value, inner), path) for value, path in reaching[:_MAX_BINDINGS]])
    return _name_term(ctx, node.id, seen)


def _name_term(ctx: ScopeContext, name: str, seen: frozenset[str]) -> Value:
    bindings = ctx.bindings.get(name)
    if bindings and name in seen:
        # ``x = x / 255.0`` refers to the name's other bindings: the ones that do not mention it
        others = [(node, path) for node, path in bindings
                  if not any(isinstance(n, ast.Name) and n.id == name for n in walk(node))]
        if not others or len(others) == len(bindings):
            return UNKNOWN
        return any_of([_apply(term(ctx, node, seen), path) for node, path in others[:_MAX_BINDINGS]])
    if bindings and name not in seen:
        if not seen and name in ctx.name_terms:
            return ctx.name_terms[name]
        inner = seen | {name}
        out = any_of([_apply(term(ctx, node, inner), path) for node, path in bindings[:_MAX_BINDINGS]])
        if not seen:
            ctx.name_terms[name] = out  # a name's term, once per scope (references are many)
        return out
    if name in ctx.params:
        return ("param", name)
    if name in ctx.local_names or ctx.encloses(name):
        return UNKNOWN
    dotted = ctx.imports.resolve(ast.Name(id=name, ctx=ast.Load()))
    if dotted and "." in dotted:
        return ("global", dotted)
    return ("global", f"{ctx.imports.module}.{name}")


def term_at(ctx: ScopeContext, node: ast.AST, call: ast.AST) -> Value:
    """The term of an argument as it reaches ``call``: for a name bound more than once (a notebook
    that reuses ``lr`` for a picture, then for a batch), the bindings that can reach the call. A list
    written in the call (``step(model, [images, masks])``) has its structure there: a list of
    tensors traces once per structure."""
    if isinstance(node, ast.List) and node.elts and not any(isinstance(e, ast.Starred) for e in node.elts):
        return ("tuple", tuple(term(ctx, e) for e in node.elts))
    if isinstance(node, ast.Name) and len(ctx.bindings.get(node.id, ())) > 1:
        reaching = _reaching(ctx, ctx.bindings[node.id], call)
        if reaching:
            seen = frozenset({node.id})
            return any_of([_apply(term(ctx, value, seen), path) for value, path in reaching[:_MAX_BINDINGS]])
    return term(ctx, node)


def _reaching(ctx: ScopeContext, bindings: list[tuple[ast.AST, tuple]], call: ast.AST) -> list[tuple[ast.AST, tuple]]:
    """The bindings that may hold at ``call``: walking back from it, each one up to the first made
    unconditionally on the way to the call, and those later in a loop around the call (the next
    iteration sees them)."""
    line = getattr(call, "lineno", 0)
    around = ctx.enclosing(call)
    out: list[tuple[ast.AST, tuple]] = []
    for value, path in sorted((b for b in bindings if getattr(b[0], "lineno", 0) <= line),
                              key=lambda b: getattr(b[0], "lineno", 0), reverse=True):
        out.append((value, path))
        blocks = [n for n in ctx.enclosing(value) if isinstance(n, (ast.If, ast.For, ast.While, ast.Try, ast.AsyncFor))]
        if all(any(b is a for a in around) for b in blocks):
            break  # bound on every path to the call: earlier bindings cannot reach it
    else:
        return list(bindings)  # no unconditional binding before the call: any of them may hold
    loops = [n for n in around if isinstance(n, (ast.For, ast.While, ast.AsyncFor))]
    if loops:
        loop = loops[-1]
        end = getattr(loop, "end_lineno", line)
        out.extend(b for b in bindings if line < getattr(b[0], "lineno", 0) <= end)
    return out


def steps_an_environment(func: ast.AST, methods: tuple[str, ...] = ("step", "reset", "render")) -> bool:
    """``env.step(action)``, ``self.envs[0].reset()``, ``env.render()``: a method of something named
    like a simulator (Gym and the like), which is Python, run once per step."""
    return (isinstance(func, ast.Attribute) and func.attr in methods
            and "env" in ast.unparse(func.value).lower().rsplit(".", 1)[-1])


def _call_term(ctx: ScopeContext, node: ast.Call, seen: frozenset[str]) -> Value:
    func = node.func
    name = ctx.call_name(node)
    if name in _ITERATOR_CALLS and node.args:
        inner = term(ctx, node.args[0], seen)
        return ("iter", inner) if name == "next" else inner
    if isinstance(func, ast.Attribute):
        receiver = func.value
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
            return ("call", f"{receiver.id}.{func.attr}")
        if isinstance(receiver, ast.Name) and _is_module_name(ctx, receiver.id) and name:
            return ("call", name)  # ``pipeline.load_split()``: a function of another module
        if steps_an_environment(func, ("step",)):
            return ("method", term(ctx, receiver, seen), "env_step")  # ``env.step(action)``: a simulator's
        if func.attr == "astype" and node.args and _not_float64(node.args[0]):
            return ("method", term(ctx, receiver, seen), "astype32")
        if func.attr == "to_numpy" and not node.args and _from_pandas(term(ctx, receiver, seen)):
            return ("kind", "numpy")
        return ("method", term(ctx, receiver, seen), func.attr)
    if name:
        if isinstance(func, ast.Name) and func.id in ctx.params:
            return ("method", ("param", func.id), "__call__")  # ``model(x)`` for a model passed in
        return ("call", name)
    return UNKNOWN


def _is_module_name(ctx: ScopeContext, name: str) -> bool:
    """A name that is neither local nor a parameter: a module, or a global of the module."""
    return name not in ctx.params and name not in ctx.local_names and not ctx.encloses(name) \
        and name not in ctx.bindings


def item_of(value: Value, index: int) -> Value:
    if value[0] == "tuple":
        elements = value[1]
        return elements[index] if -len(elements) <= index < len(elements) else UNKNOWN
    return ("item", value, index)


def _apply(value: Value, path: tuple[Any, ...]) -> Value:
    """A binding's path: ``("iter",)`` for a loop target, ``("item", i)`` for unpacking."""
    for step in path:
        value = ("iter", value) if step == "iter" else item_of(value, step)
    return value


def any_of(values: list[Value]) -> Value:
    unique = list(dict.fromkeys(values))
    return unique[0] if len(unique) == 1 else ("any", tuple(unique))


# -- the project pass: terms to kinds ----------------------------------------------------------------
class Evaluator:
    """Evaluates terms in the context of a function (or a module's top level) of the project."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._memo: dict[tuple[Value, str], Rich] = {}
        self._active: set[tuple[Value, str]] = set()

    def kind(self, value: Value, fn: FunctionSummary | None, module: str, depth: int = 0) -> Rich:
        key = (value, fn.id if fn is not None else module)
        if key in self._memo:
            return self._memo[key]
        if depth > _MAX_DEPTH or key in self._active:
            return "unknown"
        self._active.add(key)
        try:
            out = self._kind(value, fn, module, depth + 1)
        finally:
            self._active.discard(key)
        self._memo[key] = out
        return out

    def forget(self) -> None:
        """Drop memoised results (parameter kinds changed during the project's fixpoint)."""
        self._memo.clear()

    def _kind(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        if value[0] == "kind":
            return value[1]
        handler: Callable[..., Rich] | None = getattr(self, f"_on_{value[0]}", None)
        return handler(value, fn, module, depth) if handler is not None else "unknown"

    def _on_tuple(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        return tuple(self.kind(v, fn, module, depth) for v in value[1])

    def _on_key(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        inner = self.kind(value[1], fn, module, depth)
        return "dataset" if inner == "dataset" else "unknown"  # a dict of datasets, by split name

    def _on_arith(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        kinds = {self.kind(v, fn, module, depth) for v in value[1]}
        if "tensor" in kinds:
            return "tensor"  # a tensor in arithmetic makes a tensor (NumPy operands convert)
        if kinds <= {"numpy32", "primitive"} and "numpy32" in kinds:
            return "numpy32"  # ``x32 / 255.0``: Python scalars do not widen an array's dtype
        if kinds <= {"numpy", "numpy32", "primitive", "unknown"} and kinds & {"numpy", "numpy32"}:
            # ``np.ones_like(x) * t``: an array whatever ``t`` is, short of a tensor (a tensor then);
            # either way one trace per shape and dtype
            return "numpy"
        if kinds == {"primitive"}:
            return "primitive"
        return "unknown"

    def _on_any(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        return join([self.kind(v, fn, module, depth) for v in value[1]])

    def _on_param(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        if fn is None:
            return "unknown"
        facts = self.project.functions[fn.id].params.get(value[1])
        if facts is None or facts.guessed:
            return "unknown"
        if facts.rich != "unknown":
            return facts.rich
        return {"tensor": "tensor", "primitive": "primitive", "object": "object"}.get(facts.kind, "unknown")

    def _on_item(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        inner = self.kind(value[1], fn, module, depth)
        if isinstance(inner, tuple):
            index = value[2]
            return inner[index] if -len(inner) <= index < len(inner) else "unknown"
        if is_list(inner):
            return list_element(inner)
        # ``train, test = tfds.load(..., split=["train", "test"])``: datasets, unpacked
        return inner if inner in ("tensor", "numpy", "numpy32", "dataset") else "unknown"

    def _on_elements(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        element = self.kind(value[1], fn, module, depth)
        return f"list:{element}" if isinstance(element, str) and element != "unknown" else "container"

    def _on_iter(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        if value[1] == ("call", "range") and (fn is None or not fn.decorated):
            # ``for epoch in range(epochs):`` in eager code: Python ints (in a tf.function AutoGraph
            # may make it a tf.range over a tensor bound)
            return "primitive"
        inner = self.kind(value[1], fn, module, depth)
        if inner == "dataset" or inner == "tensor":
            return "tensor"  # a dataset's elements are tensors (or structures of them)
        if inner in ARRAYS:
            return inner
        if isinstance(inner, tuple):
            return join(list(inner))
        if isinstance(inner, str) and inner.startswith(("iterator:", "list:")):
            return inner.split(":", 1)[1]
        return "unknown"

    def _on_method(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        receiver = self.kind(value[1], fn, module, depth)
        method = value[2]
        if method == "env_step":
            # Gym's API: (observation array, reward float, done bool, info dict or truncated bool,
            # info); an environment class of the project's own may return anything
            return "unknown" if is_instance(receiver) else _ENV_STEP
        if receiver == "dataset" and method in tfapi.DATASET_METHODS:
            return "dataset"
        if receiver == "dataset" and method in ("as_numpy_iterator",):
            return "iterator:numpy"
        if receiver == "model" or (is_instance(receiver) and self.project.is_keras_instance(receiver)):
            if method in _MODEL_TENSOR_METHODS:
                return "tensor"
            if method in _MODEL_NUMPY_METHODS:
                return "numpy"
        if method == "numpy" and receiver in ("tensor", "unknown"):
            return "numpy"  # ``batch["label"].numpy()``: only tensors (and variables) have it, in practice
        if receiver == "tensor" and method not in tfapi.EAGER_ONLY_METHODS and method not in ("get_shape", "as_list"):
            return "tensor"
        if receiver in ARRAYS and method in ("astype32", "astype"):
            return "numpy32" if method == "astype32" else "numpy"
        if receiver in ARRAYS and method in ("reshape", "copy", "transpose", "squeeze"):
            return receiver
        if is_instance(receiver):
            # ``sampler.batch()`` of a project class: what that method returns (heldout31: a sine
            # regressor's step fed NumPy batches by its task objects was left eager, "not seen")
            return join([self._method_returns(cls, method, depth) for cls in instance_classes(receiver)])
        return "unknown"

    def _method_returns(self, cls: tuple[str, str], method: str, depth: int) -> Rich:
        target = self.project.method(cls[0], cls[1], method)
        return self._returns(target, depth) if target is not None else "unknown"

    def _returns(self, target: FunctionSummary, depth: int) -> Rich:
        """What calling ``target`` gives: its return value, or an iterator over what it yields."""
        if target.is_generator:
            yielded = target.yields_value
            element = self.kind(yielded, target, target.module, depth) if yielded is not None else "unknown"
            return f"iterator:{element}" if isinstance(element, str) else "iterator:unknown"
        returned = target.returns_value
        return self.kind(returned, target, target.module, depth) if returned is not None else "unknown"

    def _on_global(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        found = self.project.module_global(value[1])
        if found is None:
            return "unknown"
        home, bound = found
        return self.kind(bound, None, home, depth)

    def _on_self(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        kinds = self._attribute_kinds(value, fn, depth)
        return join(kinds) if kinds else "unknown"

    def _attribute_kinds(self, value: Value, fn: FunctionSummary | None, depth: int = 0) -> list[Rich]:
        """The kinds of what the methods of ``fn``'s class assign to ``self.<attr>`` (``value``)."""
        owner = class_of(fn) if fn is not None else None
        if fn is None or owner is None:
            return []
        return [self.kind(v, where, where.module, depth)
                for where, v in self.project.attribute_values(fn.module, owner, value[1])[:_MAX_BINDINGS]]

    def called_classes(self, value: Value, fn: FunctionSummary | None, module: str) -> list[tuple[str, str]]:
        """The project classes an object that the code *calls* is an instance of. Of what an
        attribute may hold, a Python constant cannot be called: ``self.act = True`` in ``__init__``
        and ``self.act = Halting()`` under ``if self.act:`` make ``self.act(x)`` a Halting."""
        rich = self.kind(value, fn, module)
        if is_instance(rich):
            return instance_classes(rich)
        kinds = self._attribute_kinds(value, fn) if value[0] == "self" else []
        if not all(is_instance(k) or k == "primitive" for k in kinds):
            return []
        return [c for k in kinds if is_instance(k) for c in instance_classes(k)]

    def _on_call(self, value: Value, fn: FunctionSummary | None, module: str, depth: int) -> Rich:
        name = value[1]
        target = self.project.resolve(fn, module, name)
        if target is not None:
            return self._returns(target, depth)
        made = self.project.class_named(module, name)
        if made is not None:
            return instance(*made)
        return "unknown"


def class_of(fn: FunctionSummary) -> str | None:
    if fn.class_qualname is not None:
        return fn.class_qualname
    head = fn.qualname.split(".<locals>.")[0]  # a function nested in a method: the method's class
    return head.rsplit(".", 1)[0] if "." in head and head != fn.qualname else None


def instance(module: str, class_qualname: str) -> str:
    """The kind of an object of one of the project's classes: methods called on it resolve."""
    return f"instance:{module}:{class_qualname}"


def is_instance(rich: Rich) -> bool:
    """An object of one of the project's classes, or of one of several (``instances:``)."""
    return isinstance(rich, str) and rich.startswith(("instance:", "instances:"))


def instance_class(rich: str) -> tuple[str, str]:
    _, module, qualname = rich.split(":", 2)
    return module, qualname


def instance_classes(rich: str) -> list[tuple[str, str]]:
    """The classes an instance kind names: one, or several where call sites pass objects of
    different classes (``train(gan)`` and ``train(dcgan)``)."""
    if rich.startswith("instances:"):
        return [instance_class(part) for part in rich[len("instances:"):].split("|")]
    return [instance_class(rich)]


def instances(kinds: list[str]) -> str:
    """One kind for objects of several of the project's classes."""
    parts = sorted({p for k in kinds for p in (k[len("instances:"):].split("|") if k.startswith("instances:")
                                                else [k])})
    return parts[0] if len(parts) == 1 else "instances:" + "|".join(parts)


def join(kinds: list[Rich]) -> Rich:
    """One kind for a value that may be any of ``kinds``: the kind they share, or unknown (one
    unknown possibility makes the whole unknown: precision first)."""
    if not kinds or "unknown" in kinds:
        return "unknown"
    first = kinds[0]
    if all(k == first for k in kinds):
        return first
    if all(isinstance(k, tuple) and len(k) == len(first) for k in kinds):
        return tuple(join([k[i] for k in kinds]) for i in range(len(first)))
    if all(k in ARRAYS for k in kinds):
        return "numpy"  # float64 on some path
    if all(k in ("tensor", "numpy", "numpy32") for k in kinds):
        return "tensor"
    return "unknown"


def is_list(rich: Rich) -> bool:
    """A list whose elements are all of one known kind (``list:numpy``, ``list:instance:m:Sampler``)."""
    return isinstance(rich, str) and rich.startswith("list:")


def list_element(rich: str) -> Rich:
    """The kind of a list's elements (``is_list(rich)``)."""
    return rich[len("list:"):]


def to_kind(rich: Rich) -> Kind:
    """The parameter kind the rest of the analysis uses. A NumPy array stays a Python object there:
    inside graph code, a function called with one gets the array (rules must not take it for a
    tensor). Only at a tf.function's own boundary is it converted, and traced like a tensor (once
    per shape and dtype): ``advice/static.py`` asks for the finer kind there (``tensor_like``)."""
    if rich == "tensor":
        return "tensor"
    if rich == "primitive":
        return "primitive"
    if rich in ("dataset", "model", "container", "object", "numpy", "numpy32") or isinstance(rich, tuple) \
            or is_instance(rich) or is_list(rich):
        return "object"
    return "unknown"


def tensor_like(rich: Rich) -> bool:
    """Traced as a tensor when passed to a tf.function: a tensor, or a NumPy array."""
    return rich in ("tensor", "numpy", "numpy32")


def new_callable(ctx: ScopeContext, arg: ast.AST) -> str | None:
    """A lambda or a ``functools.partial`` written in a call: a new object each time the call runs,
    and a tf.function handed one traces again for each (TensorFlow 2.21: 4 calls with a partial,
    5 traces). Shared by the call sites' facts and TF103."""
    if isinstance(arg, ast.Lambda):
        return "a lambda"
    if isinstance(arg, ast.Call) and ctx.call_name(arg) == "functools.partial":
        return "a new functools.partial(...)"
    if isinstance(arg, ast.Name) and (loops := _defs_in_loops(ctx).get(arg.id)):
        # ``def train_step(...)`` written inside the loop that hands it over: a new function object
        # on every iteration (TensorFlow 2.21: a tf.function handed one traces once per iteration)
        if any(id(n) in loops for n in ctx.enclosing(arg)):
            return f"{arg.id}, a function defined anew in this loop"
    return None


def _defs_in_loops(ctx: ScopeContext) -> dict[str, frozenset[int]]:
    """Name of each function this scope defines inside a loop -> the ids of the loops around it."""
    def build() -> dict[str, frozenset[int]]:
        out: dict[str, frozenset[int]] = {}
        for node in ctx.scope.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            loops = frozenset(id(n) for n in ctx.enclosing(node) if isinstance(n, (ast.For, ast.AsyncFor, ast.While)))
            if loops:
                out[node.name] = out.get(node.name, frozenset()) | loops  # type: ignore[attr-defined]
        return out
    return ctx.scope.cached("defs_in_loops", build)


def _not_float64(dtype: ast.AST) -> bool:
    """``np.float32``, ``"float32"``, ``tf.int64.as_numpy_dtype``: a dtype written out that is not
    float64 (nor Python's ``float``, which NumPy reads as float64)."""
    text = ast.unparse(dtype)
    return any(k in text for k in ("float32", "float16", "int", "uint", "bool")) and "float64" not in text


def describe(value: Value) -> str:
    """A few words on where a value comes from, for evidence strings."""
    tag = value[0]
    if tag == "iter":
        return f"elements of {describe(value[1])}"
    if tag == "item":
        return describe(value[1])
    if tag == "call":
        return f"what {value[1]}() returns"
    if tag == "method":
        return f"{describe(value[1])}.{value[2]}()"
    if tag == "global":
        return value[1]
    if tag == "self":
        return f"self.{value[1]}"
    if tag == "param":
        return f"parameter {value[1]}"
    if tag == "any":
        return " or ".join(describe(v) for v in value[1][:2])
    if tag == "tuple":
        return "a tuple"
    if tag == "elements":
        return f"a list of {describe(value[1])}"
    return str(value[1])
