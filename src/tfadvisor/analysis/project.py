"""The project pass: link every file's summary into one call graph and finish the facts.

Resolves call sites to the project's functions (``helper()``, ``self.step()``, ``pkg.mod.f()``,
through base classes), infers parameter kinds from call sites across modules (a fixpoint, so a
tensor passed through two functions is still a tensor), propagates side effects and tensor work
through callees, finds recursion, and knows which functions are graph code.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.summary import CallSite, ClassSummary, FunctionSummary, Hit, Kind, ModuleSummary


T = TypeVar("T")


@dataclass
class ParamFacts:
    kind: Kind = "unknown"
    evidence: str = ""
    guessed: bool = False  # kind from the parameter's name only
    strength: int = 0  # 3 annotation, 2 call site, 1 use or default, 0 none/name
    varying: bool = False  # fed values that change from call to call (loop counters)


@dataclass
class Linked:
    """What the project pass adds to one function's summary."""

    fn: FunctionSummary
    callees: list[tuple[CallSite, FunctionSummary]] = field(default_factory=list)
    callers: list[tuple[FunctionSummary | None, CallSite]] = field(default_factory=list)
    params: dict[str, ParamFacts] = field(default_factory=dict)
    recursive: bool = False
    wrapped: bool = False  # made a tf.function by ``tf.function(f)`` somewhere
    wrap_options: dict[str, str] = field(default_factory=dict)

    @property
    def decorated(self) -> bool:
        return self.fn.decorated or self.wrapped


class Project:
    def __init__(self, modules: Iterable[ModuleSummary]) -> None:
        self.modules = list(modules)
        self.functions: dict[str, Linked] = {}
        self._by_module: dict[str, dict[str, FunctionSummary]] = defaultdict(dict)
        self._classes: dict[str, dict[str, ClassSummary]] = defaultdict(dict)
        self._by_suffix: dict[str, list[FunctionSummary]] = defaultdict(list)
        # A qualname defined more than once in a module (a notebook redefining ``train_step``):
        # every definition in source order. ``_by_module`` holds the last, the one importers see.
        definitions: dict[tuple[str, str], list[FunctionSummary]] = defaultdict(list)
        self._class_lines: dict[tuple[str, str], list[int]] = defaultdict(list)
        for mod in self.modules:
            for fn in mod.functions:
                self.functions[fn.id] = Linked(fn=fn)
                self._by_module[mod.module][fn.qualname] = fn
                definitions[(mod.module, fn.qualname)].append(fn)
                if "<locals>" not in fn.qualname:
                    self._by_suffix[f"{mod.module.rsplit('.', 1)[-1]}.{fn.qualname}"].append(fn)
            for cls in mod.classes:
                self._classes[mod.module][cls.qualname] = cls
                self._class_lines[(mod.path, cls.qualname)].append(cls.line)
        self._redefined = {key: defs for key, defs in definitions.items() if len(defs) > 1}
        self.project_hits: dict[str, list[Hit]] = defaultdict(list)
        self._link()

    # -- resolution ---------------------------------------------------------------------------
    def resolve(self, caller: FunctionSummary | None, module: str, callee: str, line: int | None = None,
                path: str | None = None) -> FunctionSummary | None:
        """The project function a call of ``callee`` reaches. ``line`` (and ``path`` for top-level
        code) place the call: of a qualname defined more than once, the definition above it."""
        local = self._by_module.get(module, {})
        where = path or (caller.path if caller else None)
        if callee.startswith(("self.", "cls.")):
            if caller is None or caller.class_qualname is None or callee.count(".") != 1:
                return None
            return self._same_class_body(self.method(module, caller.class_qualname, callee.split(".", 1)[1]), caller)
        if "." not in callee:
            if caller is not None:  # nested functions, innermost first
                prefix = caller.qualname
                while prefix:
                    hit = local.get(f"{prefix}.<locals>.{callee}")
                    if hit is not None:
                        return self._live(hit, line, where)
                    prefix = prefix.rpartition(".<locals>.")[0]
            return self._live(local.get(callee), line, where)
        # A dotted name: a function of another module (or a class's method called on the class).
        found = self._split_module(callee)
        if found is not None:
            return self._by_module.get(found[0], {}).get(found[1])
        if callee.split(".", 1)[0] in local or callee.split(".", 1)[0] in self._classes.get(module, {}):
            return local.get(callee)
        candidates = self._by_suffix.get(".".join(callee.rsplit(".", 2)[-2:]), [])
        return candidates[-1] if len({(c.module, c.qualname) for c in candidates}) == 1 else None

    def _live(self, fn: FunctionSummary | None, line: int | None, path: str | None) -> FunctionSummary | None:
        """Of ``fn``'s qualname defined more than once, the definition live at ``line`` of ``path``:
        the last one above it (the first when none is)."""
        defs = self._redefined.get((fn.module, fn.qualname)) if fn is not None and line is not None else None
        if not defs:
            return fn
        here = [d for d in defs if d.path == path] or defs
        above = [d for d in here if d.line <= line]  # type: ignore[operator]
        return above[-1] if above else here[0]

    def _same_class_body(self, fn: FunctionSummary | None, caller: FunctionSummary) -> FunctionSummary | None:
        """Of a method defined more than once (a class redefined in a later cell), the one in the
        caller's own class body; else the one live at the caller."""
        defs = self._redefined.get((fn.module, fn.qualname)) if fn is not None else None
        if not defs:
            return fn
        starts = self._class_lines.get((caller.path, caller.class_qualname or ""), [])
        start = max((s for s in starts if s <= caller.line), default=None)
        if start is not None:
            end = min((s for s in starts if s > start), default=None)
            inside = [d for d in defs if d.path == caller.path and d.line >= start and (end is None or d.line < end)]
            if inside:
                return inside[-1]
        return self._live(fn, caller.line, caller.path)

    def method(self, module: str, class_qualname: str, name: str, _depth: int = 0) -> FunctionSummary | None:
        fn = self._by_module.get(module, {}).get(f"{class_qualname}.{name}")
        if fn is not None or _depth > 8:
            return fn
        cls = self._classes.get(module, {}).get(class_qualname)
        for base in cls.bases if cls else ():
            found = self._class(module, base)
            if found is not None:
                hit = self.method(found[0], found[1], name, _depth + 1)
                if hit is not None:
                    return hit
        return None

    def _class(self, module: str, name: str) -> tuple[str, str] | None:
        if name in self._classes.get(module, {}):
            return module, name
        found = self._split_module(name)
        if found is not None and found[1] in self._classes.get(found[0], {}):
            return found
        return None

    def _split_module(self, dotted: str) -> tuple[str, str] | None:
        """('pkg.mod', 'Class.method') for 'pkg.mod.Class.method': the longest known module prefix.

        A module is also known by the tail of its name (``mlproj.losses`` for
        ``corpus.mlproj.losses``), when that tail is unique: imports name modules from wherever the
        program runs, which need not be the folder whose packages we derived names from.
        """
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:cut])
            if prefix in self._by_module or prefix in self._classes:
                return prefix, ".".join(parts[cut:])
            candidates = self._module_tails.get(prefix)
            if candidates is not None and len(candidates) == 1:
                return candidates[0], ".".join(parts[cut:])
        return None

    @cached_property
    def _module_tails(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for module in {*self._by_module, *self._classes}:
            parts = module.split(".")
            for start in range(1, len(parts)):
                out[".".join(parts[start:])].append(module)
        return out

    def class_of(self, fn: FunctionSummary) -> ClassSummary | None:
        if fn.class_qualname is None:
            return None
        return self._classes.get(fn.module, {}).get(fn.class_qualname)

    # -- linking ------------------------------------------------------------------------------
    def _link(self) -> None:
        self._site_modules: dict[int, str] = {}
        self.unresolved_methods: set[str] = set()
        for mod in self.modules:
            for site in mod.module_calls:
                self._site_modules[id(site)] = mod.module
                target = self.resolve(None, mod.module, site.callee, site.line, mod.path)
                if target is not None:
                    self.functions[target.id].callers.append((None, site))
            for fn in mod.functions:
                for site in fn.calls:
                    target = self.resolve(fn, mod.module, site.callee, site.line)
                    if target is not None:
                        self.functions[fn.id].callees.append((site, target))
                        self.functions[target.id].callers.append((fn, site))
                    elif "." in site.callee:
                        # ``model.cell(x)`` on an object of unknown class: some method named
                        # ``cell`` may have callers we cannot see.
                        self.unresolved_methods.add(site.callee.rsplit(".", 1)[1])
            for name, line, options in mod.wrapped:
                target = self.resolve(None, mod.module, name, line, mod.path) or self._wrapped_method(mod, name)
                if target is not None:
                    linked = self.functions[target.id]
                    linked.wrapped, linked.wrap_options = True, options
        self._infer_params()
        self._find_recursion()
        self.graph_roots = self.graph_code(fid for fid, linked in self.functions.items() if linked.decorated)

    def _wrapped_method(self, mod: ModuleSummary, name: str) -> FunctionSummary | None:
        # ``self.step = tf.function(self._step)`` in __init__: the method of the same class.
        if name.startswith("self."):
            for fn in mod.functions:
                if fn.class_qualname and fn.name == name[5:]:
                    return fn
        return None

    def _infer_params(self) -> None:
        for linked in self.functions.values():
            for p in linked.fn.params:
                strength = 3 if p.evidence.startswith("annotated") else (1 if p.kind != "unknown" else 0)
                linked.params[p.name] = ParamFacts(kind=p.kind, evidence=p.evidence, strength=strength)
        for _ in range(4):  # a fixpoint over call chains; rarely more than a couple of rounds
            changed = False
            for linked in self.functions.values():
                callee = linked.fn
                positional = [p for p in callee.params if not p.variadic]
                for caller, site in linked.callers:
                    caller_params = self.functions[caller.id].params if caller else {}
                    offset = 1 if (callee.is_method and not site.callee.startswith(("self.", "cls."))
                                   and "." in site.callee and self._called_on_class(site, callee)) else 0
                    keyed: list[tuple[str, str, Kind]] = []
                    for index, kind in enumerate(site.args):
                        if index - offset < 0 or index - offset >= len(positional):
                            continue
                        keyed.append((str(index), positional[index - offset].name, kind))
                    for key, kind in site.kwargs.items():
                        if callee.param(key) is not None:
                            keyed.append((key, key, kind))
                    for key, pname, kind in keyed:
                        facts = linked.params.get(pname)
                        if facts is None:
                            continue
                        forwarded = site.forwarded.get(key)
                        source = site.sources.get(key)
                        if kind == "unknown" and source is not None:
                            producer = self.resolve(caller, caller.module if caller else self._module_of(site), source,
                                                    site.line)
                            if producer is not None and producer.returns_tensor:
                                kind = "tensor"
                        if kind == "unknown" and forwarded and forwarded in caller_params:
                            kind = caller_params[forwarded].kind if not caller_params[forwarded].guessed else "unknown"
                        if key in site.varying and kind == "primitive" and not facts.varying:
                            facts.varying, changed = True, True
                        if kind not in ("tensor", "primitive") or facts.strength > 2:
                            continue
                        if facts.strength < 2 or (kind == "tensor" and facts.kind != "tensor"):
                            where = f"{caller.qualname}()" if caller else "module level"
                            facts.kind, facts.evidence = kind, f"call site in {where}, line {site.line}"
                            facts.strength = 2
                            changed = True
            if not changed:
                break
        for linked in self.functions.values():  # last resort: the parameter's name, labelled a guess
            for name, facts in linked.params.items():
                if facts.kind != "unknown":
                    continue
                if name in tfapi.TENSOR_NAME_HINTS:
                    facts.kind, facts.guessed, facts.evidence = "tensor", True, "guessed from its name"
                elif name in tfapi.PRIMITIVE_NAME_HINTS:
                    facts.kind, facts.guessed, facts.evidence = "primitive", True, "guessed from its name"

    def _module_of(self, site: CallSite) -> str:
        return self._site_modules.get(id(site), "")

    @staticmethod
    def _called_on_class(site: CallSite, callee: FunctionSummary) -> bool:
        return bool(callee.class_qualname) and site.callee.endswith(f"{callee.class_qualname}.{callee.name}")

    def _find_recursion(self) -> None:
        """Tarjan's strongly connected components, iteratively (deep call chains are fine)."""
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        on_stack: set[str] = set()
        stack: list[str] = []
        counter = 0
        self._components: list[list[str]] = []  # reverse topological order: callees first
        edges = {fid: [t.id for _, t in linked.callees] for fid, linked in self.functions.items()}
        for start in self.functions:
            if start in index:
                continue
            work: list[tuple[str, int]] = [(start, 0)]
            while work:
                node, i = work.pop()
                if i == 0:
                    index[node] = low[node] = counter
                    counter += 1
                    stack.append(node)
                    on_stack.add(node)
                recurse = False
                targets = edges[node]
                while i < len(targets):
                    nxt = targets[i]
                    i += 1
                    if nxt not in index:
                        work.append((node, i))
                        work.append((nxt, 0))
                        recurse = True
                        break
                    if nxt in on_stack:
                        low[node] = min(low[node], index[nxt])
                if recurse:
                    continue
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    self._components.append(component)
                    if len(component) > 1 or node in edges[node]:
                        for member in component:
                            self.functions[member].recursive = True
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])

    # -- queries ------------------------------------------------------------------------------
    def callers_first(self) -> list[str]:
        """Every function id, callers before callees (reverse topological order of the SCCs)."""
        return [fid for component in reversed(self._components) for fid in component]

    def graph_code(self, roots: Iterable[str]) -> dict[str, str]:
        """Function id -> the root whose graph it runs in, for every function reached from roots.

        One breadth-first search from all roots at once: linear in the size of the call graph.
        """
        out: dict[str, str] = {}
        queue: deque[str] = deque()
        for root in roots:
            if root not in out:
                out[root] = root
                queue.append(root)
        while queue:
            current = queue.popleft()
            for _site, target in self.functions[current].callees:
                if target.id not in out:
                    out[target.id] = out[current]
                    queue.append(target.id)
        return out

    def fold(self, own: Callable[[Linked], T], combine: Callable[[T, T], T]) -> dict[str, T]:
        """Combine a per-function value over each function and everything it calls.

        Walks the strongly connected components callees-first, so each function is visited once
        whatever the shape of the call graph (no quadratic closures on big trees).
        """
        out: dict[str, T] = {}
        for component in self._components:
            value: T | None = None
            for fid in component:
                mine = own(self.functions[fid])
                value = mine if value is None else combine(value, mine)
            members = set(component)
            for fid in component:
                for _site, target in self.functions[fid].callees:
                    if target.id not in members:
                        value = combine(value, out[target.id])  # type: ignore[arg-type]
            for fid in component:
                out[fid] = value  # type: ignore[assignment]
        return out

    @cached_property
    def tensor_work(self) -> dict[str, int]:
        """Tensor ops in each function and its callees (capped: only small counts matter)."""
        def own(linked: Linked) -> int:
            extra = sum(1 for deps in linked.fn.param_ops
                        if any(linked.params.get(d, ParamFacts()).kind == "tensor" for d in deps))
            return linked.fn.tensor_ops + extra

        return self.fold(own, lambda a, b: min(a + b, 10_000))

    @cached_property
    def side_effect(self) -> dict[str, tuple[str, str] | None]:
        """For each function, one Python side effect it or a callee has: (where, what), or None."""
        def own(linked: Linked) -> tuple[str, str] | None:
            if linked.fn.side_effects:
                return (linked.fn.qualname, linked.fn.side_effects[0][2])
            return None
        return self.fold(own, lambda a, b: a or b)

    @cached_property
    def variables(self) -> dict[str, str]:
        order = {"none": 0, "guarded": 1, "unguarded": 2}
        return self.fold(lambda l: l.fn.variables, lambda a, b: a if order[a] >= order[b] else b)
