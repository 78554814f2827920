"""One walk over a module's AST that hands every node to the scope that owns it.

A scope is the module body or one function body. Nested functions are scopes of their own (their
decorators, defaults and annotations belong to the enclosing scope, where Python evaluates them);
class bodies belong to the enclosing scope with the class recorded. Qualified names follow Python's
``__qualname__``: ``Trainer.step``, ``outer.<locals>.inner``.
"""

from __future__ import annotations

import ast
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar, overload

N = TypeVar("N", bound=ast.AST)
T = TypeVar("T")

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef

# Fields never worth visiting: expression contexts (Load/Store) and operator tokens are leaves
# that carry no information the analysis uses, and visiting them doubles the node count.
_SKIPPED_FIELDS = frozenset({"ctx", "op", "ops", "type_comment"})
_FIELDS: dict[type, tuple[str, ...]] = {}
_SCALARS = frozenset({str, int, float, complex, bytes, bool, type(Ellipsis)})


# The module scope's memo key for the lines Python never runs (``if 0:`` bodies, code after a
# ``return``), which analysis/module.py finds before any rule runs
DEAD_LINES = "dead_lines"
# ... and for the names its top-level code rebinds to what a call returns (``D = D(shape)``): name ->
# the top-level functions the module calls before the rebinding, which still see the old binding
REBOUND_NAMES = "rebound_names"


# Statements whose body encloses nodes: loops, ifs, trys and withs (ScopeContext.enclosing)
_COMPOUND = frozenset({ast.For, ast.AsyncFor, ast.While, ast.If, ast.Try, ast.With, ast.AsyncWith})

# Nodes that never have children worth visiting (a name's context is skipped): about a third of a
# module's nodes, answered without looking at their fields.
LEAVES = frozenset({ast.Name, ast.Constant})


def children(node: ast.AST) -> list[ast.AST]:
    """The child nodes of ``node``: ``ast.iter_child_nodes`` without its generator overhead."""
    kind = type(node)
    if kind in LEAVES:
        return []
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f for f in kind._fields if f not in _SKIPPED_FIELDS)
    out: list[ast.AST] = []
    append = out.append
    for name in names:
        value = getattr(node, name, None)
        if value is None or value.__class__ in _SCALARS:
            continue
        if value.__class__ is list:
            for v in value:
                if v is not None and v.__class__ is not str:
                    append(v)
        else:
            append(value)
    return out


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """``ast.walk`` (breadth first, the same order) without the nodes ``children`` skips: expression
    contexts and operator tokens, which no analysis looks for (their parents' ``ctx``/``op`` is
    read instead). Nearly half of ``check``'s node visits went through ``ast.walk``'s generators."""
    todo = deque([node])
    pop, extend = todo.popleft, todo.extend
    while todo:
        node = pop()
        if type(node) not in LEAVES:
            extend(children(node))
        yield node


@dataclass
class ClassInfo:
    qualname: str
    node: ast.ClassDef
    bases: list[ast.expr]


@dataclass
class Scope:
    """The nodes one function (or the module body) owns, by type, in source order."""

    qualname: str
    node: ast.AST
    cls: ClassInfo | None = None  # the class whose body defines this function directly
    parent: Scope | None = None
    by_type: dict[type, list[ast.AST]] = field(default_factory=lambda: defaultdict(list))
    children: list[Scope] = field(default_factory=list)
    # Results computed once for this scope and shared by key (the module scope's: once per module)
    memo: dict[str, Any] = field(default_factory=dict)
    # For each of its nodes inside a loop, if, try or with of its own body: those statements,
    # outermost first (not inside a class body or a lambda, as ScopeContext.enclosing has it)
    ancestry: dict[int, tuple[ast.AST, ...]] = field(default_factory=dict)

    def cached(self, key: str, build: Callable[[], T]) -> T:
        """``build()`` the first time ``key`` is asked for in this scope, its result after that."""
        if key not in self.memo:
            self.memo[key] = build()
        return self.memo[key]

    @property
    def is_module(self) -> bool:
        return isinstance(self.node, ast.Module)

    @property
    def root(self) -> Scope:
        """The module's scope, at the top of this one's parents."""
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    @overload
    def nodes(self, kind: type[N], /) -> list[N]: ...
    @overload
    def nodes(self, *types: type[ast.AST]) -> list[ast.AST]: ...

    def nodes(self, *types: type[ast.AST]) -> list[Any]:
        """This scope's own nodes of these types (one type: as indexed; several: in source order)."""
        if len(types) == 1:
            return self.by_type.get(types[0], [])
        out: list[ast.AST] = []
        for t in types:
            out.extend(self.by_type.get(t, ()))
        out.sort(key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
        return out


def every_node(module: Scope, *types: type[ast.AST]) -> list[Any]:
    """Nodes of these types anywhere in the module (every scope's, class bodies and lambdas
    included), in source order: what ``ast.walk`` of the whole tree would find, from the index."""
    def build() -> list[ast.AST]:
        out: list[ast.AST] = []
        stack = [module]
        while stack:
            scope = stack.pop()
            stack.extend(scope.children)
            for kind in types:
                out.extend(scope.by_type.get(kind, ()))
        out.sort(key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
        return out
    return module.cached("every_node:" + ",".join(t.__name__ for t in types), build)


def top_level_functions(module: Scope) -> list[Scope]:
    """The scopes of the functions the module's body defines (not methods, not nested defs)."""
    top = {id(node) for node in module.node.body}  # type: ignore[attr-defined]
    return [scope for scope in module.children
            if id(scope.node) in top and isinstance(scope.node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def index_scopes(tree: ast.Module) -> tuple[Scope, list[Scope], list[ClassInfo]]:
    """Return (module scope, function scopes in source order, classes)."""
    module = Scope(qualname="<module>", node=tree)
    functions: list[Scope] = []
    classes: list[ClassInfo] = []
    # Stack items: (node, owning scope, qualname prefix, class whose body we are in, the compound
    # statements around it in its scope's body: None where none are recorded)
    stack: list[tuple[ast.AST, Scope, str, ClassInfo | None, tuple[ast.AST, ...] | None]] = [
        (child, module, "", None, ()) for child in reversed(tree.body)
    ]
    push = stack.append
    while stack:
        node, scope, prefix, cls, chain = stack.pop()
        kind = type(node)
        if chain:
            scope.ancestry[id(node)] = chain
        if kind in LEAVES:
            scope.by_type[kind].append(node)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):  # narrows the type for the checker
            scope.by_type[kind].append(node)
            qualname = prefix + node.name
            fn = Scope(qualname=qualname, node=node, cls=cls, parent=scope)
            scope.children.append(fn)
            functions.append(fn)
            for body_node in reversed(node.body):
                push((body_node, fn, qualname + ".<locals>.", None, ()))
            # Evaluated in the enclosing scope when the def runs.
            outer = [*node.decorator_list, *node.args.defaults,
                     *(d for d in node.args.kw_defaults if d is not None)]
            if node.returns is not None:
                outer.append(node.returns)
            for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                        node.args.vararg, node.args.kwarg):
                if arg is not None and arg.annotation is not None:
                    outer.append(arg.annotation)
            for extra in reversed(outer):
                push((extra, scope, prefix, cls, None))
            continue
        if isinstance(node, ast.ClassDef):
            scope.by_type[kind].append(node)
            info = ClassInfo(qualname=prefix + node.name, node=node, bases=list(node.bases))
            classes.append(info)
            for body_node in reversed(node.body):
                push((body_node, scope, info.qualname + ".", info, None))
            for extra in reversed([*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]):
                push((extra, scope, prefix, cls, None))
            continue
        scope.by_type[kind].append(node)
        if chain is not None:
            chain = None if kind is ast.Lambda else (chain + (node,) if kind in _COMPOUND else chain)
        kids = children(node)
        for i in range(len(kids) - 1, -1, -1):
            push((kids[i], scope, prefix, cls, chain))
    functions.sort(key=lambda s: (s.node.lineno, s.node.col_offset))  # type: ignore[attr-defined]
    return module, functions, classes
