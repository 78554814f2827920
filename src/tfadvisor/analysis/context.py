"""Per-scope context that rules and fact extraction share: names resolved, values' kinds guessed.

A ``ScopeContext`` answers, for one function (or the module body), "what API is this call?",
"is this expression a tensor, a Python value, or unknown?" and "which loops and ifs enclose this
node?". Kinds come from a small flow-insensitive pass over the scope's assignments; a kind that
rests on a parameter records that parameter so the project pass can confirm or drop it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from functools import cached_property

from tfadvisor.analysis import tfapi, values
from tfadvisor.analysis.imports import ImportMap
from tfadvisor.analysis.scopes import Scope, children, top_level_functions, walk
from tfadvisor.analysis.summary import Kind, Param

_PRIMITIVE_BUILTINS = frozenset({"len", "int", "float", "bool", "str", "round", "ord", "chr", "hash", "id",
                                 "isinstance", "hasattr", "callable", "repr", "format"})
_STATIC_ATTRS = frozenset({"shape", "dtype", "ndim", "name", "device", "rank"})
_TENSORISH_PARAM_NAMES = frozenset({"model", "layer", "net", "network", "encoder", "decoder", "cell",
                                    "generator", "discriminator", "critic", "policy"})


class ScopeContext:
    def __init__(self, scope: Scope, imports: ImportMap, params: list[Param],
                 layer_attrs: frozenset[str] = frozenset(), container_attrs: frozenset[str] = frozenset(),
                 module_containers: frozenset[str] = frozenset(), module_models: frozenset[str] = frozenset(),
                 variable_attrs: frozenset[str] = frozenset()) -> None:
        self.scope = scope
        self.imports = imports
        self.params = {p.name: p for p in params}
        self.layer_attrs = layer_attrs  # self.<attr> assigned a Keras layer/model somewhere in the class
        self.container_attrs = container_attrs  # self.<attr> assigned a Python list/dict/set in the class
        self.module_containers = module_containers  # module-level names bound to a Python container
        self.module_models = module_models  # module-level names bound to a Keras model, layer, loss or metric
        self.variable_attrs = variable_attrs  # self.<attr> bound only to variables in the class (add_weight)
        self.env: dict[str, tuple[Kind, tuple[str, ...]]] = {}
        self._call_names: dict[int, str | None] = {}
        self.sources: dict[str, str] = {}  # name -> the call whose result it holds (unknown kind)
        self.datasets: set[str] = set()  # names bound to a tf.data pipeline: iterating one gives tensors
        self._kinds_seen: dict[str, set[str]] = {}
        self.instances: dict[str, str] = {}  # name -> the class (as written) it was made from
        self.aliases: dict[str, ast.expr] = {}  # name -> the name or attribute it was bound to
        self.called_outputs: set[str] = set()  # names bound to what a model, layer or helper returned
        # name -> what it was bound to and how (``("iter",)`` a loop target, ``(1,)`` unpacked second):
        # the project pass follows these where the value comes from another function (values.py).
        self.bindings: dict[str, list[tuple[ast.AST, tuple]]] = {}
        self.name_terms: dict[str, tuple] = {}  # values.py's memo: a bound name's term
        # Names bound to a tensor on one path and a Python value on another (``dim = x.shape[-1]``
        # then, when that is None, ``dim = tf.shape(x)[-1]``): the analysis is not flow sensitive,
        # so whether such a name is a tensor where it is read is not known (set after inference).
        self.mixed: frozenset[str] = frozenset()
        self._chain_depth = 0  # how many dominating bindings deep the kind being worked out is
        self._dominating_memo: dict[int, tuple[Kind, tuple[str, ...]]] = {}  # id(binding) -> its value's kind
        self.read_back = self._read_back()
        self._infer()
        self._record_bindings()
        self.mixed = frozenset(n for n, kinds in self._kinds_seen.items()
                               if "tensor" in kinds and kinds & {"primitive", "object"})

    # -- names ---------------------------------------------------------------------------------
    def resolve(self, node: ast.AST) -> str | None:
        return self.imports.resolve(node)

    def call_name(self, call: ast.Call) -> str | None:
        """Canonical name of what a call calls (``tensorflow.matmul``, ``self.step``, ``helper``)."""
        key = id(call)
        try:
            return self._call_names[key]
        except KeyError:
            name = self._call_names[key] = self.imports.resolve(call.func)
            return name

    @property
    def function(self) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        node = self.scope.node
        return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None

    # -- kinds ---------------------------------------------------------------------------------
    def _infer(self) -> None:
        assigns = self.scope.nodes(ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor,
                                   ast.With, ast.AsyncWith, ast.NamedExpr, ast.comprehension)
        for _ in range(2):  # twice, so later assignments feed earlier uses in loops
            for node in assigns:
                if isinstance(node, ast.Assign):
                    kind = self.kind(node.value)
                    for target in node.targets:
                        self._bind(target, kind, node.value)
                    if self.is_dataset(node.value):
                        self.datasets.update(n.id for t in node.targets for n in walk(t) if isinstance(n, ast.Name))
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    self._bind(node.target, self.kind(node.value), node.value)
                elif isinstance(node, ast.AugAssign):
                    if isinstance(node.target, ast.Name):
                        old = self.env.get(node.target.id, ("unknown", ()))
                        new = self.kind_deps(node.value)
                        self.env[node.target.id] = _join(old, new)
                elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                    self._bind_loop_target(node.target, node.iter)
                elif isinstance(node, ast.NamedExpr):
                    self._bind(node.target, self.kind(node.value), node.value)
                elif isinstance(node, (ast.With, ast.AsyncWith)):
                    for item in node.items:
                        if item.optional_vars is not None:
                            self._bind(item.optional_vars, ("object", ()), None)

    def _read_back(self) -> dict[str, int]:
        """Names read back into NumPy in place (``y = y.numpy()``), unconditionally or under a
        test that it is a tensor (``if isinstance(y, tf.Tensor):``): a NumPy array after that
        line, whatever they were (heldout34: ``np.all`` on the rows of such a label array, TF206
        judged wrong; in a graph the ``.numpy()`` itself is what fails). Name -> the line."""
        out: dict[str, int] = {}
        for node in self.scope.nodes(ast.Assign):
            value = node.value
            targets = node.targets
            if not (len(targets) == 1 and isinstance(targets[0], ast.Name) and isinstance(value, ast.Call)
                    and isinstance(value.func, ast.Attribute) and value.func.attr == "numpy"
                    and isinstance(value.func.value, ast.Name) and value.func.value.id == targets[0].id):
                continue
            name = targets[0].id
            guards = [n for n in self.enclosing(node) if isinstance(n, (ast.If, ast.For, ast.While, ast.Try))]
            if all(isinstance(g, ast.If) and _tests_tensor(self, g.test, name) and self.in_branch(node, g) == "body"
                   for g in guards):
                out[name] = min(out.get(name, node.lineno), node.lineno)
        return out

    def _record_bindings(self) -> None:
        for node in self.scope.nodes(ast.Assign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr,
                                     ast.comprehension):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._record(target, node.value, ())
            elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                self._record(node.target, node.value, ())
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                self._record_loop(node.target, node.iter)

    def _record(self, target: ast.AST, value: ast.AST, path: tuple) -> None:
        if isinstance(target, ast.Name):
            self.bindings.setdefault(target.id, []).append((value, path))
        elif isinstance(target, (ast.Tuple, ast.List)):
            if not path and isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for t, v in zip(target.elts, value.elts, strict=False):
                    self._record(t, v, ())
                return
            if any(isinstance(t, ast.Starred) for t in target.elts):
                return
            for index, t in enumerate(target.elts):
                self._record(t, value, (*path, index))

    def _record_loop(self, target: ast.AST, iterable: ast.AST) -> None:
        while (isinstance(iterable, ast.Call) and iterable.args
               and values.passes_through(self.call_name(iterable))):
            iterable = iterable.args[0]  # ``tqdm(zip(range(n), ds))``: the progress bar iterates its argument
        if isinstance(iterable, ast.Call) and isinstance(target, ast.Tuple) and iterable.args:
            name = self.call_name(iterable)
            if name == "enumerate" and len(target.elts) == 2:
                self._record_loop(target.elts[1], iterable.args[0])
                return
            if name == "zip" and len(target.elts) == len(iterable.args):
                for t, it in zip(target.elts, iterable.args, strict=False):
                    self._record_loop(t, it)
                return
        self._record(target, iterable, ("iter",))

    def value(self, node: ast.AST) -> tuple:
        """Where the value of ``node`` comes from, as a term the project pass can finish (values.py)."""
        return values.term(self, node)

    def _bind(self, target: ast.AST, kind: tuple[Kind, tuple[str, ...]], value: ast.AST | None) -> None:
        if isinstance(target, ast.Name) and kind[0] == "unknown" and isinstance(value, ast.Call):
            name = self.call_name(value)
            if name:
                self.sources[target.id] = name
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, ast.Call) and kind[0] == "unknown":
            name = self.call_name(value)
            if name:
                for t in target.elts:
                    if isinstance(t, ast.Name):
                        self.sources[t.id] = name
        if isinstance(target, ast.Name):
            if target.id not in self.params or kind[0] != "unknown":
                self.env[target.id] = kind
                self._kinds_seen.setdefault(target.id, set()).add(kind[0])
            if isinstance(value, (ast.Name, ast.Attribute)):
                self.aliases[target.id] = value  # ``step = optimizer.step``
            if isinstance(value, ast.Call) and kind[0] == "tensor" and not _is_op_call(self, value):
                self.called_outputs.add(target.id)
            if isinstance(value, ast.Call):
                made = self.call_name(value)
                if made and made.rsplit(".", 1)[-1][:1].isupper() and not made.startswith(("tensorflow.", "keras.")):
                    self.instances[target.id] = made  # ``opt = GANOptimizer(...)``: an instance of it
        elif isinstance(target, (ast.Tuple, ast.List)):
            # Unpacking a tensor op's result (q, r = tf.linalg.qr(x)) gives tensors.
            element = kind if kind[0] == "tensor" else ("unknown", ())
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for t, v in zip(target.elts, value.elts, strict=False):
                    self._bind(t, self.kind_deps(v), v)
                return
            for t in target.elts:
                self._bind(t, element, None)

    def is_dataset(self, node: ast.AST) -> bool:
        """A ``tf.data`` pipeline: ``tf.data.Dataset...``, ``tfds.load(...)``, a dataset method on
        one (``ds.shuffle(100).batch(32)``), or a name bound to one."""
        if isinstance(node, ast.Name):
            return node.id in self.datasets
        if not isinstance(node, ast.Call):
            return False
        if _builds_dataset(self.call_name(node)):
            return True
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _DISTRIBUTING and node.args:
            return self.is_dataset(node.args[0]) or func.attr.endswith("from_function")
        return (isinstance(func, ast.Attribute) and func.attr in tfapi.DATASET_METHODS
                and self.is_dataset(func.value))

    def _bind_loop_target(self, target: ast.AST, iterable: ast.AST) -> None:
        """Loop targets, with ``enumerate`` and ``zip`` taken apart element by element."""
        if isinstance(iterable, ast.Call) and isinstance(target, ast.Tuple) and iterable.args:
            name = self.call_name(iterable)
            if name == "enumerate" and len(target.elts) == 2:
                self._bind(target.elts[0], ("primitive", ()), None)
                self._bind_loop_target(target.elts[1], iterable.args[0])
                return
            if name == "zip" and len(target.elts) == len(iterable.args):
                for t, it in zip(target.elts, iterable.args, strict=False):
                    self._bind_loop_target(t, it)
                return
        self._bind(target, self._iter_element_kind(iterable), None)

    def _iter_element_kind(self, iterable: ast.AST) -> tuple[Kind, tuple[str, ...]]:
        if self.is_dataset(iterable):
            return ("tensor", ())
        if isinstance(iterable, ast.Call):
            name = self.call_name(iterable)
            if name == "range":  # range(tf_value) is tf.range under AutoGraph
                for arg in iterable.args:
                    kind = self.kind_deps(arg)
                    if kind[0] == "tensor":
                        return kind
                return ("primitive", ())
            if name in ("tensorflow.range",) or tfapi.is_dataset_builder(name):
                return ("tensor", ())
            if name in ("enumerate", "zip"):
                return ("object", ())
        if self.variable_list(iterable):
            return ("tensor", ())  # ``for w in model.trainable_variables:``: variables
        kind = self.kind_deps(iterable)
        if kind[0] == "tensor":
            return kind
        return ("unknown", ())

    def kind(self, node: ast.AST) -> tuple[Kind, tuple[str, ...]]:
        return self.kind_deps(node)

    def variable_list(self, node: ast.AST) -> bool:
        """``model.trainable_variables`` (or a name bound to it): a list of variables, whose
        elements are tensors in arithmetic (a soft target update ``tau * w + (1 - tau) * t``)."""
        if isinstance(node, ast.Name) and node.id in self.aliases:
            node = self.aliases[node.id]
        return isinstance(node, ast.Attribute) and node.attr in _VARIABLE_LISTS

    def kind_deps(self, node: ast.AST) -> tuple[Kind, tuple[str, ...]]:
        """(kind, parameters it depends on). A tensor kind with deps is a tensor only if they are."""
        if isinstance(node, ast.Constant):
            return ("primitive", ())
        if isinstance(node, ast.Name):
            if node.id in self.read_back and getattr(node, "lineno", 0) > self.read_back[node.id]:
                return ("object", ())  # a NumPy array from here on
            if node.id in self.mixed:
                dominating = self._dominating_kind(node)
                if dominating is not None:
                    return dominating  # ``x = tf.cast(x, ...)`` just before, on every path
                return ("tensor", (f"?{node.id}",))  # a tensor on some paths only: not known
            if node.id in self.env:
                return self.env[node.id]
            param = self.params.get(node.id)
            if param is not None:
                if param.kind == "unknown":
                    return ("tensor", (node.id,))
                return (param.kind, ())
            return ("unknown", ())
        if isinstance(node, ast.Call):
            return self._call_kind(node)
        if isinstance(node, (ast.BinOp,)):
            return _join(self.kind_deps(node.left), self.kind_deps(node.right))
        if isinstance(node, ast.UnaryOp):
            return self.kind_deps(node.operand)
        if isinstance(node, ast.Compare):
            out = self.kind_deps(node.left)
            for comp in node.comparators:
                out = _join(out, self.kind_deps(comp))
            if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
                return ("primitive", ())
            return out
        if isinstance(node, ast.BoolOp):
            out = self.kind_deps(node.values[0])
            for value in node.values[1:]:
                out = _join(out, self.kind_deps(value))
            return out
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
                return ("primitive", ())
            if _string_key_of_a_call(self, node):
                return ("unknown", ())
            if self.variable_list(node.value):
                return ("tensor", ())  # ``targets[i]`` with ``targets = target_net.weights``
            base = self.kind_deps(node.value)
            return base if base[0] == "tensor" else ("unknown", ())
        if isinstance(node, ast.Attribute):
            if node.attr in _STATIC_ATTRS:
                return ("object", ())
            base = self.kind_deps(node.value)
            if node.attr == "T" and base[0] == "tensor":
                return base
            if node.attr in self.variable_attrs and isinstance(node.value, ast.Name) and node.value.id == "self":
                return ("tensor", ())  # ``self.count`` made by ``self.add_weight(...)``: a variable
            return ("unknown", ())
        if isinstance(node, ast.IfExp):
            return _join(self.kind_deps(node.body), self.kind_deps(node.orelse))
        if isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp,
                             ast.SetComp, ast.GeneratorExp, ast.Lambda, ast.JoinedStr)):
            return ("object", ()) if not isinstance(node, ast.JoinedStr) else ("primitive", ())
        return ("unknown", ())

    def _dominating_kind(self, use: ast.Name) -> tuple[Kind, tuple[str, ...]] | None:
        """For a name bound to a tensor on some paths and a Python value on others: the kind of the
        ``name = value`` that every path to this read runs last (an earlier statement of a block
        holding the read, with nothing binding the name between them). ``x = tf.cast(x,
        tf.complex64)`` then ``x = np.pad(x, ...)``: the second line reads a tensor (heldout44: NumPy's
        pad on a symbolic tensor, which raises while tracing, was only guessed). Each binding's kind is
        worked out once, and a chain of such bindings is followed a few links deep at most."""
        last = self._dominating_binding(use)
        if last is None:
            return None
        memo = self._dominating_memo
        if id(last) not in memo:
            if self._chain_depth >= _MAX_CHAIN:
                return None  # ``x = x * 2 + 1`` four hundred times: a guess, not a deep recursion
            self._chain_depth += 1
            try:
                memo[id(last)] = self.kind_deps(last.value)
            finally:
                self._chain_depth -= 1
        return memo[id(last)]

    def _dominating_binding(self, use: ast.Name) -> ast.Assign | None:
        line = getattr(use, "lineno", 0)
        before = [a for a in self.scope.nodes(ast.Assign)
                  if len(a.targets) == 1 and isinstance(a.targets[0], ast.Name) and a.targets[0].id == use.id
                  and (a.end_lineno or a.lineno) < line]
        if not before:
            return None
        last = max(before, key=lambda a: (a.lineno, a.col_offset))  # ``x = ...; x = ...``: the second
        statement = self._statement_of(use)
        own = {id(t) for t in getattr(statement, "targets", [])} | {id(getattr(statement, "target", None))}
        if any(last.lineno < line_ <= line and id(binder) not in own for binder, line_ in self._binders(use.id)):
            return None  # bound again in between, or beside the read (a branch, a loop target, ``;``)
        holder = self.parent(last)
        block = next((b for b in _blocks(holder if holder is not None else self.scope.node) if last in b), None)
        if block is None:
            return None
        later = block[block.index(last) + 1:]
        node: ast.AST | None = use
        while node is not None:
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and any(
                    binder_line for binder, binder_line in self._binders(use.id)
                    if any(binder is n for n in walk(node))):
                return None  # rebound later in a loop around the read: the next pass reads that
            if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)):
                return None  # a comprehension's or lambda's own name may shadow it
            if any(node is stmt for stmt in later):
                return last
            node = self.parent(node)
        return None

    def _statement_of(self, node: ast.AST) -> ast.AST | None:
        while node is not None and not isinstance(node, ast.stmt):
            node = self.parent(node)  # type: ignore[assignment]
        return node

    def _binders(self, name: str) -> list[tuple[ast.AST, int]]:
        """Every node of this scope that binds ``name``, with its line: stores, ``except ... as``,
        ``match`` captures, imports, nested ``def``/``class``."""
        def build() -> dict[str, list[tuple[ast.AST, int]]]:
            out: dict[str, list[tuple[ast.AST, int]]] = {}
            for store in self.scope.nodes(ast.Name):
                if not isinstance(store.ctx, ast.Load):
                    out.setdefault(store.id, []).append((store, store.lineno))
            for kind in (ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping,
                         ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                for node in self.scope.nodes(kind):
                    bound = getattr(node, "rest" if isinstance(node, ast.MatchMapping) else "name", None)
                    if isinstance(bound, str):
                        out.setdefault(bound, []).append((node, getattr(node, "lineno", 0)))
            for node in self.scope.nodes(ast.Import, ast.ImportFrom):
                for alias in node.names:  # type: ignore[attr-defined]
                    out.setdefault((alias.asname or alias.name).split(".")[0], []).append((node, getattr(node, "lineno", 0)))
            return out
        return self.scope.cached("binders", build).get(name, [])

    def _call_kind(self, call: ast.Call) -> tuple[Kind, tuple[str, ...]]:
        maker = call.func.func if isinstance(call.func, ast.Call) else None
        if (isinstance(maker, ast.Name) and maker.id in self._tensor_function_makers and maker.id not in self.params
                and maker.id not in self.env):
            return ("tensor", ())  # ``custom_loss(h, w)(gt, pr)``: what a loss factory of this module returns, called
        name = self.call_name(call)
        if tfapi.is_tensor_op(name) or tfapi.creates_variable(name):
            return _tf_call_kind(name)  # type: ignore[arg-type]
        if name in _PRIMITIVE_BUILTINS:
            return ("primitive", ())
        if name is None:
            return ("unknown", ())
        if name.startswith(("numpy.", "tensorflow.io.gfile.", "os.", "json.")):
            return ("object", ())  # NumPy arrays, file names, parsed JSON: Python values, not tensors
        if name.startswith("tensorflow.") and not name.startswith("tensorflow.python."):
            return ("object", ())  # TensorFlow's non-op API: datasets, tapes, strategies, configs
        if name.startswith("self.") and name.count(".") == 1:
            if name[5:] in self.layer_attrs:
                return ("tensor", ())
            return ("unknown", ())
        func = call.func
        if isinstance(func, ast.Attribute):
            receiver = self.kind_deps(func.value)
            if func.attr in ("gradient", "jacobian"):
                # tape.gradient(loss, model.trainable_variables) is a list, one gradient per source
                return ("object", ()) if self._many_sources(call) else ("tensor", ())
            if receiver[0] == "tensor" and func.attr not in tfapi.EAGER_ONLY_METHODS:
                if func.attr in _STATIC_METHODS:
                    return ("object", ())
                if receiver[1] and func.attr not in _TENSOR_METHODS:
                    # ``values.split(",")`` on a parameter we only guess is a tensor: most such
                    # method calls are on Python objects; do not build a tensor guess on a guess.
                    return ("unknown", ())
                return ("tensor", receiver[1])
            return ("unknown", ())
        if isinstance(func, ast.Name) and func.id in self.params and func.id in _TENSORISH_PARAM_NAMES:
            return ("tensor", ())
        if (isinstance(func, ast.Name) and func.id in self.module_models and func.id not in self.params
                and func.id not in self.env):
            return ("tensor", ())  # ``model(x)`` with ``model = keras.Sequential(...)`` at module level
        if (isinstance(func, ast.Name) and func.id in self._tensor_returning and func.id not in self.params
                and func.id not in self.env):
            return ("tensor", ())  # ``should_continue(...)``, a function of this module that returns an op's result
        return ("unknown", ())

    def is_module_dataset(self, node: ast.AST) -> bool:
        """A name this function does not bind that the module binds to a tf.data pipeline: a loop
        over it is one AutoGraph converts (``for x in dataset:`` in a tf.function)."""
        return (isinstance(node, ast.Name) and self.function is not None and node.id not in self.params
                and node.id not in self.local_names and node.id in self._module_datasets)

    @property
    def _module_datasets(self) -> frozenset[str]:
        """Names the module's top level binds only to tf.data pipelines: a dataset chain, one of
        those names with dataset methods on it, or a call of a module function that returns one
        (``dataset = build_dataset()``)."""
        root = self.scope.root

        def build() -> frozenset[str]:
            makers = frozenset(scope.node.name for scope in top_level_functions(root)  # type: ignore[attr-defined]
                               if self._returns_dataset(scope))
            bound = bindings(root.node.body)  # type: ignore[attr-defined]
            return frozenset(name for name in bound if self._only_datasets(name, bound, makers))
        return root.cached("module_datasets", build)

    def _returns_dataset(self, fn: Scope) -> bool:
        """Every ``return`` gives a dataset chain, or a name the function bound only to one."""
        bound = bindings(fn.nodes(ast.Assign))
        returns = fn.nodes(ast.Return)
        return bool(returns) and all(r.value is not None and self._dataset_value(r.value, bound) for r in returns)

    def _only_datasets(self, name: str, bound: dict[str, list[ast.expr]], makers: frozenset[str] = frozenset(),
                       seen: frozenset[str] = frozenset()) -> bool:
        """``name`` is bound only to datasets in ``bound`` (``ds = ds.map(f)`` counts on what ``ds``
        was before: ``seen`` breaks the cycle)."""
        if name in seen:
            return True
        values = bound.get(name, [])
        return bool(values) and all(self._dataset_value(v, bound, makers, seen | {name}) for v in values)

    def _dataset_value(self, value: ast.expr, bound: dict[str, list[ast.expr]], makers: frozenset[str] = frozenset(),
                       seen: frozenset[str] = frozenset()) -> bool:
        """A tf.data pipeline by what one body binds (``bound``): a builder, dataset methods on one,
        a name bound only to those, or a call of a function in ``makers``."""
        if isinstance(value, ast.Name):
            return self._only_datasets(value.id, bound, makers, seen)
        if not isinstance(value, ast.Call):
            return False
        func = value.func
        if (isinstance(func, ast.Name) and func.id in makers) or _builds_dataset(self.call_name(value)):
            return True
        return (isinstance(func, ast.Attribute) and func.attr in tfapi.DATASET_METHODS
                and self._dataset_value(func.value, bound, makers, seen))

    @property
    def _tensor_returning(self) -> frozenset[str]:
        """Functions at this module's top level whose every ``return`` gives a TensorFlow op's
        result (``return tf.reduce_any(p < t)``): calling one gives a tensor."""
        root = self.scope.root

        def build() -> frozenset[str]:
            return frozenset(scope.node.name for scope in top_level_functions(root)  # type: ignore[attr-defined]
                             if self._returns_ops(scope))
        return root.cached("tensor_returning", build)

    @property
    def _tensor_function_makers(self) -> frozenset[str]:
        """Functions at this module's top level whose every ``return`` gives a def of their own
        whose every ``return`` is an op's result (a loss factory: ``def custom_loss(h, w): def
        loss(gt, pr): ... return tf.reduce_mean(e); return loss``): what they return gives a tensor."""
        root = self.scope.root

        def build() -> frozenset[str]:
            out = set()
            for scope in top_level_functions(root):
                nested = {child.node.name: child for child in scope.children
                          if isinstance(child.node, (ast.FunctionDef, ast.AsyncFunctionDef))}
                returns = scope.nodes(ast.Return)
                if returns and all(isinstance(r.value, ast.Name) and r.value.id in nested
                                   and self._returns_ops(nested[r.value.id]) for r in returns):
                    out.add(scope.node.name)  # type: ignore[attr-defined]
            return frozenset(out)
        return root.cached("tensor_function_makers", build)

    def _returns_ops(self, fn: Scope) -> bool:
        returns = fn.nodes(ast.Return)
        return bool(returns) and all(
            isinstance(r.value, ast.Call) and tfapi.is_tensor_op(self.imports.resolve(r.value.func))
            and _tf_call_kind(self.imports.resolve(r.value.func) or "")[0] == "tensor" for r in returns)

    def _many_sources(self, call: ast.Call) -> bool:
        """``gradient(target, sources)`` with a list of sources: a list literal, a model's
        ``trainable_variables``/``trainable_weights``, or a name bound to one."""
        sources = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "sources"), None)
        for _ in range(3):  # follow ``params = model.trainable_weights`` a few steps
            if isinstance(sources, ast.Name) and sources.id in self.aliases:
                sources = self.aliases[sources.id]
        if isinstance(sources, (ast.List, ast.Tuple, ast.ListComp)):
            return True
        return sources is not None and self.variable_list(sources)

    def is_tensor(self, node: ast.AST) -> tuple[bool, tuple[str, ...]]:
        """Whether ``node`` is (or, through parameters listed, may be) a tensor."""
        kind, deps = self.kind_deps(node)
        return kind == "tensor", deps

    # -- structure -----------------------------------------------------------------------------
    @cached_property
    def _parents(self) -> dict[int, ast.AST]:
        out: dict[int, ast.AST] = {}
        for nodes in self.scope.by_type.values():
            for node in nodes:
                for child in ast.iter_child_nodes(node):
                    out[id(child)] = node
        return out

    def parent(self, node: ast.AST) -> ast.AST | None:
        """The node directly holding ``node`` in this scope (a call's argument: the call)."""
        return self._parents.get(id(node))

    def enclosing(self, node: ast.AST) -> tuple[ast.AST, ...]:
        """Loops, ifs, trys and withs around ``node`` inside this scope, outermost first."""
        return self.scope.ancestry.get(id(node), ())  # recorded as the scopes were indexed (scopes.py)

    def in_branch(self, node: ast.AST, if_node: ast.If) -> str | None:
        """'body' or 'orelse' when ``node`` sits in that branch of ``if_node``."""
        for stmt in if_node.body:
            if _contains(stmt, node):
                return "body"
        for stmt in if_node.orelse:
            if _contains(stmt, node):
                return "orelse"
        return None

    def walk(self, nodes: list[ast.stmt] | ast.AST) -> Iterator[ast.AST]:
        """Walk statements without entering nested functions or classes."""
        stack: list[ast.AST] = list(reversed(nodes)) if isinstance(nodes, list) else [nodes]
        while stack:
            node = stack.pop()
            yield node
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            stack.extend(reversed(children(node)))

    def encloses(self, name: str) -> bool:
        """Whether an enclosing function (not the module) binds ``name``: a closure variable."""
        return name in self._enclosing_names

    @cached_property
    def _enclosing_names(self) -> frozenset[str]:
        out: set[str] = set()
        parent = self.scope.parent
        while parent is not None and not parent.is_module:
            node = parent.node
            out.update(n.id for n in parent.nodes(ast.Name) if isinstance(n.ctx, ast.Store))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                out.update(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a)
            parent = parent.parent
        return frozenset(out)

    @cached_property
    def local_names(self) -> frozenset[str]:
        """Names this function binds itself (not globals, not nonlocals, not parameters)."""
        declared = set()
        for node in self.scope.nodes(ast.Global, ast.Nonlocal):
            declared.update(node.names)  # type: ignore[attr-defined]
        bound = {n.id for n in self.scope.nodes(ast.Name) if isinstance(n.ctx, ast.Store)}
        return frozenset(bound - declared - set(self.params))


# ``strategy.experimental_distribute_dataset(ds)``: the same batches, split across replicas.
_DISTRIBUTING = frozenset({"experimental_distribute_dataset", "distribute_datasets_from_function",
                           "experimental_distribute_datasets_from_function"})
# Attributes that hold a list of variables (a gradient over them is a list of gradients).
_VARIABLE_LISTS = frozenset({"trainable_variables", "trainable_weights", "variables", "weights",
                             "non_trainable_variables", "trainable_params"})
# Methods of tensors and variables that give tensors, and ones that give static Python values.
_TENSOR_METHODS = frozenset({"read_value", "value", "assign", "assign_add", "assign_sub", "sparse_read",
                             "gather_nd", "__getitem__", "to_tensor", "stack", "concat", "read"})
_STATIC_METHODS = frozenset({"get_shape", "as_list", "is_fully_defined", "num_elements", "is_compatible_with"})
# TensorFlow functions that answer a Python question (a bool, a dtype, a static value), not ops.
_TF_PYTHON_VALUES = frozenset({"executing_eagerly", "inside_function", "get_static_value", "constant_value",
                               "as_dtype", "TensorShape", "in_cross_replica_context", "has_strategy",
                               "get_strategy", "get_replica_context", "type_spec_from_value",
                               "executing_eagerly_outside_functions", "is_tensor", "is_symbolic_tensor",
                               "get_default_graph", "name_scope", "control_dependencies", "device",
                               "get_variable_scope", "variable_scope",
                               # Keras backend utilities (keras.backend.* counts as ops otherwise)
                               "standardize_dtype", "result_type", "floatx", "epsilon", "backend",
                               "image_data_format", "int_shape", "count_params", "get_uid",
                               "standardize_shape", "global_policy", "dtype_policy"})


# Keras backend helpers that give Python values in a graph too (TF 2.21: ``ndim`` an int, ``dtype`` a str).
_KERAS_BACKEND_PYTHON = frozenset({"keras.backend.ndim", "keras.backend.dtype"})

# Elementwise predicates that are ops (tf.math.is_nan ...), unlike tf.is_tensor or TF's internal is_*.
_ELEMENTWISE = ("tensorflow.math.", "tensorflow.experimental.numpy.", "keras.ops.", "tensorflow.strings.",
                "tensorflow.python.ops.gen_math_ops.", "tensorflow.python.ops.math_ops.")
_KERAS_NOT_TF = ("keras.backend.common.", "keras.backend.config.", "keras.utils.", "keras.dtype_policies.",
                 "keras.backend.torch.", "keras.backend.jax.", "keras.backend.numpy.", "keras.backend.openvino.",
                 "keras.backend.tensorboard.")
_TENSOR_CLASSES = frozenset({"Variable", "ResourceVariable", "TensorArray", "SparseTensor", "RaggedTensor",
                             "IndexedSlices", "UninitializedVariable"})
_CONVERTERS = frozenset({"convert_to_tensor", "convert_n_to_tensor", "convert_to_tensor_v2",
                         "convert_to_tensor_v2_with_dispatch", "internal_convert_to_tensor"})


def _tf_call_kind(name: str) -> tuple[Kind, tuple[str, ...]]:
    """Whether a call into TensorFlow gives a tensor. TF's own internals (``tensorflow.python.*``)
    are ops only in its ``*_ops`` modules; elsewhere they are framework code (a checked TF tree)."""
    last = name.rsplit(".", 1)[-1]
    predicate = last.startswith(("is_", "has_")) and not name.startswith(_ELEMENTWISE)
    if last in _TF_PYTHON_VALUES or predicate or name.startswith("tensorflow.nest.") or name in _KERAS_BACKEND_PYTHON:
        return ("primitive", ()) if last.startswith(("is_", "has_", "executing")) else ("object", ())
    if name.startswith(_KERAS_NOT_TF):
        return ("unknown", ())
    if name == "keras.ops.shape":
        return ("object", ())  # a tuple of Python ints (None for unknown dimensions)
    if last[:1].isupper() and last not in _TENSOR_CLASSES:
        return ("object", ())  # a class: a strategy, an optimizer, a lookup table ...
    if name.startswith("tensorflow.python.") and last not in _CONVERTERS:
        modules = name.split(".")[2:-1]
        if not any(m.endswith(("_ops", "_op")) for m in modules):
            return ("unknown", ())
    return ("tensor", ())


def is_graph_op(name: str | None) -> bool:
    """A call that adds an op to the graph (stricter than ``tfapi.is_tensor_op`` for TF's own tree)."""
    return tfapi.is_tensor_op(name) and _tf_call_kind(name)[0] == "tensor"  # type: ignore[arg-type]


def _contains(tree: ast.AST, target: ast.AST) -> bool:
    return any(n is target for n in walk(tree))


def _join(a: tuple[Kind, tuple[str, ...]], b: tuple[Kind, tuple[str, ...]]) -> tuple[Kind, tuple[str, ...]]:
    if a[0] == "tensor" and b[0] == "tensor":
        if not a[1] or not b[1]:
            return ("tensor", ())
        return ("tensor", tuple(dict.fromkeys(a[1] + b[1])))
    if a[0] == "tensor":
        return a
    if b[0] == "tensor":
        return b
    if a[0] == "primitive" and b[0] == "primitive":
        return ("primitive", ())
    return ("unknown", ())


def _is_op_call(ctx: ScopeContext, call: ast.Call) -> bool:
    """A TensorFlow op (``tf.matmul(...)``): one tensor out, not whatever structure a model or a
    helper returns."""
    name = ctx.call_name(call)
    return bool(name) and (tfapi.is_tensor_op(name) or tfapi.creates_variable(name))


def _string_key_of_a_call(ctx: ScopeContext, node: ast.Subscript) -> bool:
    """``model(x)["style_maps"]``: a tensor has no string keys, so a model, layer or helper that
    was indexed by one returned a dict, whose entries may be lists of tensors as well as tensors
    (iterating one is a Python loop). Dataset elements keep their kind: ``batch["image"]``."""
    if not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
        return False
    base = node.value
    if isinstance(base, ast.Name):
        return base.id in ctx.called_outputs
    return isinstance(base, ast.Call) and not _is_op_call(ctx, base)


def _builds_dataset(name: str | None) -> bool:
    """``tf.data.Dataset.from_tensor_slices``, ``tfds.load``: a call that makes a tf.data pipeline."""
    if not name:
        return False
    return ((tfapi.is_dataset_builder(name) or name.startswith("tensorflow_datasets.load"))
            and not name.endswith(("Options", "experimental.AUTOTUNE")))


def bindings(nodes: Iterable[ast.AST]) -> dict[str, list[ast.expr]]:
    """Name -> the values plain assignments among ``nodes`` give it (``x = ...``)."""
    out: dict[str, list[ast.expr]] = {}
    for node in nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out.setdefault(target.id, []).append(node.value)
    return out


def _tests_tensor(ctx: ScopeContext, test: ast.AST, name: str) -> bool:
    """``isinstance(y, tf.Tensor)``, ``tf.is_tensor(y)`` or ``hasattr(y, "numpy")``."""
    if not (isinstance(test, ast.Call) and test.args and isinstance(test.args[0], ast.Name) and test.args[0].id == name):
        return False
    called = ctx.call_name(test) or ""
    if called == "isinstance" and len(test.args) == 2:
        kind = ctx.resolve(test.args[1]) or ""
        return kind.startswith(("tensorflow.", "keras.")) and "Tensor" in kind
    if called == "hasattr" and len(test.args) == 2:
        return isinstance(test.args[1], ast.Constant) and test.args[1].value == "numpy"
    return called == "tensorflow.is_tensor"


_MAX_CHAIN = 8  # dominating bindings followed through one another, at most


def _blocks(node: ast.AST) -> list[list[ast.stmt]]:
    """The statement lists a node holds (a body, an else, a finally, each handler's body)."""
    out = [getattr(node, field) for field in ("body", "orelse", "finalbody")
           if isinstance(getattr(node, field, None), list)]
    out += [h.body for h in getattr(node, "handlers", [])]
    out += [c.body for c in getattr(node, "cases", [])]
    return out
