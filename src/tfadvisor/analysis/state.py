"""Python state a function changes that outlives its call: the one definition TF202 (in graph code)
and the side-effect facts behind TF203 (through callees) share.

Precision first: a method name alone (``.add``, ``.update``, ``.write``) says nothing, since
TensorFlow tables, TensorArrays, metrics and Keras containers have methods of those names that are
ops. A mutation counts only when its target is known to be Python state that outlives the call:

- a module-level name the module binds to a Python container (``history = []``), or one the
  function declares ``global``/``nonlocal`` and assigns;
- an attribute of ``self`` that the class binds to a Python container (``self._cache = {}``), or a
  counter bumped with ``self.n += 1`` (unless the class holds a variable or layer there).

Parameters, locals and closure variables of an enclosing function are the call's own (a dict the
caller builds per call, a list that collects assert ops while tracing): not state. Code under a
create-once guard (``if self.v is None:``) runs once on purpose.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import Scope, every_node, walk

_CONTAINER_CALLS = frozenset({"list", "dict", "set", "collections.defaultdict", "collections.OrderedDict",
                              "collections.deque", "collections.Counter", "defaultdict", "OrderedDict",
                              "deque"})  # a bare ``Counter`` is as likely the project's own class
_GUARD_CALLS = frozenset({"hasattr", "getattr", "isinstance"})


def is_container(value: ast.AST | None, ctx: ScopeContext | None = None) -> bool:
    """A Python list, dict or set made here: a literal, a comprehension or a constructor call."""
    if isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        name = ctx.call_name(value) if ctx is not None else (func.id if isinstance(func, ast.Name) else None)
        return name in _CONTAINER_CALLS
    return False


def container_attributes(scopes: Iterable[Scope]) -> dict[str, frozenset[str]]:
    """Per class qualname: ``self.<attr>`` names some method binds to a Python container."""
    out: dict[str, set[str]] = {}
    for scope in scopes:
        if scope.cls is None:
            continue
        for node in scope.nodes(ast.Assign, ast.AnnAssign):
            value = node.value  # type: ignore[attr-defined]
            if not is_container(value):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                    out.setdefault(scope.cls.qualname, set()).add(target.attr)
    return {k: frozenset(v) for k, v in out.items()}


def module_containers(module: Scope) -> frozenset[str]:
    """Module-level names bound to a Python container (``registry = {}``)."""
    out: set[str] = set()
    for node in module.nodes(ast.Assign, ast.AnnAssign):
        if is_container(node.value):  # type: ignore[attr-defined]
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
            out.update(t.id for t in targets if isinstance(t, ast.Name))
    return frozenset(out)


def fixed_after_init(ctx: ScopeContext) -> frozenset[str]:
    """Attributes of the function's class bound in its ``__init__`` and changed nowhere else in the
    module: not rebound, augmented, deleted, assigned into or mutated (``.tau.append``) on any
    object. ``np.array(self.tau)`` in a step then computes the same value every call, as a graph's
    trace-time constant does."""
    cls = ctx.scope.cls
    if cls is None:
        return frozenset()

    def build() -> frozenset[str]:
        init = next((m for m in cls.node.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
        initial = {n.attr for n in walk(init)
                   if isinstance(n, ast.Attribute) and is_self(n.value) and isinstance(n.ctx, ast.Store)} if init else set()
        return frozenset(initial) - _changed_attributes(ctx.scope.root)
    return ctx.scope.root.cached(f"fixed_after_init:{cls.qualname}", build)


def _changed_attributes(module: Scope) -> frozenset[str]:
    """Attribute names the module changes anywhere but in an ``__init__`` binding its own object's
    (``self.tau = ...`` there sets them up; anywhere else, or ``agent.tau = ...``, changes them)."""
    def build() -> frozenset[str]:
        setup = {id(n) for init in every_node(module, ast.FunctionDef) if init.name == "__init__"
                 for n in walk(init) if isinstance(n, ast.Attribute) and is_self(n.value)}
        changed: set[str] = set()
        for node in every_node(module, ast.Attribute, ast.AugAssign, ast.Subscript, ast.Call):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)) and id(node) not in setup:
                changed.add(node.attr)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Attribute):
                changed.add(node.target.attr)
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
                if isinstance(node.value, ast.Attribute):  # ``self.tau[0] = ...``
                    changed.add(node.value.attr)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in tfapi.MUTATING_METHODS and isinstance(node.func.value, ast.Attribute)):
                changed.add(node.func.value.attr)  # ``agent.states.append(s)``
        return frozenset(changed)
    return module.cached("changed_attributes", build)


def mutations(ctx: ScopeContext) -> list[tuple[ast.AST, str]]:
    """(node, what it changes) for every change of outliving Python state in this scope (computed
    once per scope: the facts and TF202 both ask)."""
    return ctx.scope.cached("mutations", lambda: list(_mutations(ctx)))


def _mutations(ctx: ScopeContext) -> Iterator[tuple[ast.AST, str]]:
    if ctx.function is None:
        return
    guarded = guarded_nodes(ctx)
    declared: set[str] = set()
    for node in ctx.scope.nodes(ast.Global, ast.Nonlocal):
        declared.update(node.names)  # type: ignore[attr-defined]
    fresh = _fresh_per_call(ctx)
    for call in ctx.scope.nodes(ast.Call):
        func = call.func
        if (isinstance(func, ast.Attribute) and func.attr in tfapi.MUTATING_METHODS and id(call) not in guarded
                and _outliving_container(ctx, func.value, declared) and not _scratch(func.value, call, fresh)):
            yield call, f"{ast.unparse(func)}()"
    tensor_attrs = {ast.unparse(t) for node in ctx.scope.nodes(ast.Assign)
                    for t in node.targets
                    if isinstance(t, ast.Attribute) and ctx.is_tensor(node.value) == (True, ())}
    for node in ctx.scope.nodes(ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete):
        if id(node) in guarded:
            continue
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]  # type: ignore[attr-defined]
        for target in targets:
            for t in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                what = _changed(ctx, node, t, declared, tensor_attrs)
                if what and not (isinstance(t, ast.Subscript) and _scratch(t.value, node, fresh)):
                    yield node, what


def _fresh_per_call(ctx: ScopeContext) -> dict[str, int]:
    """``self.<attr>`` containers the function rebinds to a new one in its own body (not under a
    branch), directly or by calling a method of its class that does (``self.reset_losses()``), with
    the line from which the container is the call's own: each trace fills a fresh one, which the
    function returns or drops (a scratch dict, not state that outlives the call)."""
    def build() -> dict[str, int]:
        node, cls = ctx.scope.node, ctx.scope.cls
        out: dict[str, int] = {}
        for stmt in getattr(node, "body", []):
            for attr in _rebound_containers(stmt):
                out.setdefault(attr, stmt.lineno)
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if (cls is not None and isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and is_self(call.func.value) and not call.args):
                for method in cls.node.body:
                    if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.name == call.func.attr:
                        for inner in method.body:
                            for attr in _rebound_containers(inner):
                                out.setdefault(attr, stmt.lineno)
        return out
    return ctx.scope.cached("fresh_per_call", build)


def _rebound_containers(stmt: ast.stmt) -> list[str]:
    """``self.losses = {...}``: the attributes a statement binds to a new Python container."""
    if not isinstance(stmt, ast.Assign) or not is_container(stmt.value):
        return []
    return [t.attr for t in stmt.targets if isinstance(t, ast.Attribute) and is_self(t.value)]


def _scratch(receiver: ast.AST, node: ast.AST, fresh: dict[str, int]) -> bool:
    """``self.losses[k] += l`` after the function made ``self.losses`` anew: the call's own container."""
    return (isinstance(receiver, ast.Attribute) and is_self(receiver.value) and receiver.attr in fresh
            and getattr(node, "lineno", 0) > fresh[receiver.attr])


def stored_tensors(ctx: ScopeContext) -> list[tuple[ast.AST, str, tuple[str, ...]]]:
    """Tensors put where they outlive the call: ``self.cache = y``, ``recorder.last = y`` on a
    module-level object. Eagerly a new value each call; under tf.function the trace's symbolic
    tensor, once, which fails where it is read later (a leak). A fact of the function (its Python
    side effects); TF204 reports it where the stored tensor is read. With each: the parameters that
    must be tensors for it to be one (empty: it is one)."""
    if ctx.function is None:
        return []
    guarded = guarded_nodes(ctx)
    out: list[tuple[ast.AST, str, tuple[str, ...]]] = []
    for node in ctx.scope.nodes(ast.Assign):
        tensor, deps = ctx.is_tensor(node.value)
        if id(node) in guarded or not tensor or any(d not in ctx.params for d in deps):
            continue
        for target in node.targets:
            if not isinstance(target, ast.Attribute) or not isinstance(target.value, ast.Name):
                continue
            owner = target.value.id
            outliving = owner == "self" or (owner not in ctx.params and owner not in ctx.local_names
                                             and not ctx.encloses(owner))
            if outliving and target.attr not in ctx.layer_attrs:
                out.append((node, f"stores a tensor in {ast.unparse(target)}", deps))
    return out


def _changed(ctx: ScopeContext, node: ast.AST, target: ast.AST, declared: set[str], tensor_attrs: set[str]) -> str | None:
    if isinstance(target, ast.Name) and target.id in declared:
        kind = "global" if target.id in _globals(ctx) else "nonlocal"
        return f"writes {kind} {target.id}"
    if isinstance(target, ast.Subscript) and _outliving_container(ctx, target.value, declared):
        return f"sets {ast.unparse(target)}"
    if ((isinstance(node, ast.AugAssign) or _updates_itself(ctx, node, target)) and isinstance(target, ast.Attribute)
            and is_self(target.value) and target.attr not in ctx.layer_attrs and ast.unparse(target) not in tensor_attrs):
        return f"sets {ast.unparse(target)}"
    return None


def _updates_itself(ctx: ScopeContext, node: ast.AST, target: ast.AST) -> bool:
    """``self.eps = self.eps * 0.5``: a Python counter written out, like ``self.eps *= 0.5`` (not a
    tensor kept on self between statements of one trace: ``self.mu = self.mu * k``)."""
    if not (isinstance(node, ast.Assign) and isinstance(target, ast.Attribute) and node.targets == [target]):
        return False
    if ctx.kind_deps(node.value)[0] == "tensor" or ast.unparse(target) in _tensor_targets(ctx):
        return False
    text = ast.unparse(target)
    return any(isinstance(n, ast.Attribute) and ast.unparse(n) == text for n in walk(node.value))


def _outliving_container(ctx: ScopeContext, receiver: ast.AST, declared: set[str]) -> bool:
    """``self._cache`` (a container attribute of the class), or a module-level container; also an
    entry of one (``self.info["losses"]["a"].append(x)``)."""
    while isinstance(receiver, ast.Subscript):
        receiver = receiver.value
    if isinstance(receiver, ast.Attribute) and is_self(receiver.value):
        return receiver.attr in ctx.container_attrs
    if isinstance(receiver, ast.Name):
        name = receiver.id
        if name in ctx.params or (name in ctx.local_names and name not in declared):
            return False
        return name in ctx.module_containers and not ctx.encloses(name)
    return False


def is_self(node: ast.AST) -> bool:
    """``self``, the name a method's object goes by."""
    return isinstance(node, ast.Name) and node.id == "self"


def _globals(ctx: ScopeContext) -> set[str]:
    out: set[str] = set()
    for node in ctx.scope.nodes(ast.Global):
        out.update(node.names)
    return out


def guarded_nodes(ctx: ScopeContext) -> set[int]:
    """Ids of nodes that run once, not per call: under a create-once guard (``if self.v is None:``,
    ``if not self.built:``) or lifted out of the graph by ``with tf.init_scope():``. Computed
    once per scope (facts, call sites and rules all ask)."""
    return ctx.scope.cached("guarded", lambda: _guarded_nodes(ctx))


def _guarded_nodes(ctx: ScopeContext) -> set[int]:
    out: set[int] = set()
    for node in ctx.scope.nodes(ast.If):
        if is_create_once_guard(node.test):
            for stmt in node.body:
                out.update(id(n) for n in ctx.walk(stmt))
    for block in ctx.scope.nodes(ast.With):
        if any(isinstance(item.context_expr, ast.Call) and ctx.call_name(item.context_expr) == "tensorflow.init_scope"
               for item in block.items):
            for stmt in block.body:
                out.update(id(n) for n in ctx.walk(stmt))
    return out


def is_create_once_guard(test: ast.AST) -> bool:
    """``if self.v is None:``, ``if not self.built:``, ``if hasattr(...)``: code under it runs once."""
    if isinstance(test, ast.Compare) and any(isinstance(op, (ast.Is, ast.NotIn)) for op in test.ops):
        return True
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return True
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id in _GUARD_CALLS:
        return True
    if (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and is_self(test.func.value)
            and any(word in test.func.attr for word in ("init", "built", "build", "need", "create"))):
        return True  # ``if self._need_init():``, ``if self._should_build():``
    if isinstance(test, ast.BoolOp):
        return any(is_create_once_guard(v) for v in test.values)
    return False


def _tensor_targets(ctx: ScopeContext) -> frozenset[str]:
    """``self.x`` targets bound to a tensor anywhere in this function (tuples unpacked)."""
    def build() -> frozenset[str]:
        out: set[str] = set()
        for node in ctx.scope.nodes(ast.Assign):
            for target in node.targets:
                parts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                values = node.value.elts if isinstance(node.value, (ast.Tuple, ast.List)) and \
                    len(node.value.elts) == len(parts) else [node.value] * len(parts)
                for part, value in zip(parts, values, strict=False):
                    if isinstance(part, ast.Attribute) and (ctx.kind_deps(value)[0] == "tensor"
                                                            or isinstance(value, ast.Call)):
                        out.add(ast.unparse(part))
        return frozenset(out)
    return ctx.scope.cached("state_tensor_targets", build)
