"""The project pass: link every file's summary into one call graph and finish the facts.

Resolves call sites to the project's functions (``helper()``, ``self.step()``, ``pkg.mod.f()``,
through base classes), infers parameter kinds from call sites across modules (a fixpoint, so a
tensor passed through two functions is still a tensor), propagates side effects and tensor work
through callees, finds recursion, and knows which functions are graph code.
"""

from __future__ import annotations

import os
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from tfadvisor.analysis import escape, graph_context, testcode, tfapi, values
from tfadvisor.analysis.summary import SIGNED, CallSite, ClassSummary, FunctionSummary, Hit, Kind, ModuleSummary
from tfadvisor.analysis.testcode import is_test_path

T = TypeVar("T")


@dataclass
class ParamFacts:
    kind: Kind = "unknown"
    evidence: str = ""
    guessed: bool = False  # kind from the parameter's name only
    strength: int = 0  # 3 annotation, 2 call site, 1 use or default, 0 none/name
    varying: bool = False  # fed values that change from call to call (loop counters)
    mixed: bool = False  # call sites pass a tensor at some places and a Python value at others
    rich: str = "unknown"  # dataset, model, numpy ... where call sites tell (values.py)


HANDED_TO_A_TRACER = "handed to an API that traces it"
# How ``needs_graph`` says a graph is exported: its own get_concrete_function/signatures=, or a
# model's ``call`` exported where the analysis cannot tell the model's class.
EXPORTED_GRAPH = "its graph is exported"
EXPORTED_CALL = "a model's call is exported"
EXPORTED = (EXPORTED_GRAPH, EXPORTED_CALL)


# Fewer calls than a trace costs for a function without a loop of its own. TensorFlow 2.21 on this
# project's machines, a one-variable gradient step: 1.1 ms a call eagerly, 0.35 ms as a graph, and
# 53 ms for the first (tracing) call: about 70 calls to break even. A larger step costs more to
# trace as well as to run eagerly; fifty written calls stay under either.
FEW_CALLS = 50


def _traced_with_tensors(linked: Linked) -> None:
    """What ``ds.map(f)``, ``tf.vectorized_map(f, ...)`` or ``Lambda(f)`` pass ``f`` first is a
    tensor (an element, a slice, the layer's input): a first parameter nothing else tells about is
    a tensor there, not the Python number its name suggests (heldout27: a map function's ``n``,
    guessed a count). Only the first: ``Lambda(f, arguments={...})`` passes the rest as Python
    values, and a function the program also calls itself (inside a ``lambda`` handed to ``map``,
    with closure constants) gets its kinds from those calls. Only for a tf.function handed over
    (whether its decorator gives anything): an undecorated map function's first parameter may be a
    tuple of tensors, iterated in Python (heldout27: a TF208 claim, judged wrong and run)."""
    if linked.callers or not linked.decorated:
        return  # (undecorated map functions keep their kinds from use: a first element may be a tuple)
    first = next((name for name in linked.params if name not in ("self", "cls")), None)
    facts = linked.params.get(first) if first is not None else None
    if facts is not None and facts.kind == "unknown" and facts.strength == 0:
        facts.kind, facts.strength = "tensor", 1
        facts.evidence = f"what the API passes: {linked.graph_reason}"


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
    # The names ``tf.function(f)`` is bound to: ``f`` itself (``f = tf.function(f)``), or another
    # (``NN_func = tf.function(NN)``), whose calls alone are the tf.function's
    wrapped_as: set[str] = field(default_factory=set)
    custom_decorated: str | None = None  # the project's (or a configured) tf.function wrapper
    graph_reason: str | None = None  # why it runs as a graph without a decorator of its own
    needs_graph: list[str] = field(default_factory=list)  # why it must stay a tf.function
    eager_reason: str | None = None  # why it runs eagerly even inside a graph (tf.py_function)
    graph_root: str | None = None  # the function whose tracing makes it graph code (itself, a caller)
    control_flow: str | None = None  # where it is handed to tf.while_loop, tf.cond, tf.map_fn ...
    framework: str | None = None  # "keras" / "framework": a method such a framework calls for you
    repeated: bool = False  # a call site runs it many times (in a loop, or from such a function)
    opaque: int = 0  # calls whose target the analysis could not see (itself and its callees)
    # The function through which it runs without AutoGraph when traced (a Keras layer's ``call``, a
    # model's step, a metric Keras's ``__call__`` runs, a tf.function with ``autograph=False``)
    unconverted: str | None = None

    @property
    def decorated(self) -> bool:
        return self.fn.decorated or self.wrapped or self.custom_decorated is not None

    def calls_the_graph(self, site: CallSite) -> bool:
        """Whether this call site runs the tf.function, not the Python function it wraps under
        another name (``NN(x)`` where only ``NN_func = tf.function(NN)`` is one)."""
        return not self.runs_python_as(site.callee)

    def runs_python_as(self, callee: str) -> bool:
        """A call of it written ``callee`` runs the Python function though it is wrapped: the
        tf.function is bound to other names only."""
        return (self.wrapped and not self.fn.decorated and self.custom_decorated is None
                and self.fn.name not in self.wrapped_as and callee.rsplit(".", 1)[-1] == self.fn.name)


class Project:
    def __init__(self, modules: Iterable[ModuleSummary], function_decorators: Iterable[str] = ()) -> None:
        self.modules = list(modules)
        self._function_decorators = frozenset(function_decorators)
        self._splits: dict[tuple[str, str | None], tuple[str, str] | None] = {}
        self.functions: dict[str, Linked] = {}
        self._by_module: dict[str, dict[str, FunctionSummary]] = defaultdict(dict)
        self._classes: dict[str, dict[str, ClassSummary]] = defaultdict(dict)
        self._by_suffix: dict[str, list[FunctionSummary]] = defaultdict(list)
        # A qualname defined more than once in a module (a notebook redefining ``train_step``):
        # every definition in source order. ``_by_module`` holds the last, the one importers see
        # (not one under ``if __name__ == "__main__":``, which they never see).
        definitions: dict[tuple[str, str], list[FunctionSummary]] = defaultdict(list)
        self._class_lines: dict[tuple[str, str], list[int]] = defaultdict(list)
        for mod in self.modules:
            for fn in mod.functions:
                self.functions[fn.id] = Linked(fn=fn)
                if not (fn.script_only and fn.qualname in self._by_module[mod.module]):
                    self._by_module[mod.module][fn.qualname] = fn
                definitions[(mod.module, fn.qualname)].append(fn)
                if "<locals>" not in fn.qualname:
                    self._by_suffix[f"{mod.module.rsplit('.', 1)[-1]}.{fn.qualname}"].append(fn)
            for cls in mod.classes:
                self._classes[mod.module][cls.qualname] = cls
                self._class_lines[(mod.path, cls.qualname)].append(cls.line)
        self._redefined = {key: defs for key, defs in definitions.items() if len(defs) > 1}
        self.project_hits: dict[str, list[Hit]] = defaultdict(list)
        # Files that use TensorFlow 1 APIs (Sessions, placeholders, Estimators): out of scope.
        self.tf1: dict[str, tuple[int, int, str]] = {m.path: m.tf1 for m in self.modules if m.tf1}
        # modules written for TensorFlow 1's eager mode (and nothing of its graph mode)
        self.tf1_eager: dict[str, tuple[int, int, str]] = {m.path: m.tf1_eager for m in self.modules
                                                           if m.tf1_eager and not m.tf1}
        self.other_framework = {m.path: m.other_framework for m in self.modules if m.other_framework}
        self.numpy_only = frozenset(m.path for m in self.modules if m.numpy_only)
        self._modules_by_name = {m.module: m for m in self.modules}
        self._sites_by_module: dict[str, list[CallSite]] = {}
        self._module_folder = {m.module: os.path.dirname(m.path) for m in self.modules}
        self._module_file = {m.module: m.path for m in self.modules}
        self._attribute_memo: dict[tuple[str, str], dict[str, list[tuple[FunctionSummary, tuple]]]] = {}
        self._assigns_by_class: dict[tuple[str, str], list[FunctionSummary]] | None = None
        self.values = values.Evaluator(self)
        self._receiver_sites: list[tuple[Linked, CallSite]] | None = None
        self.test_classes = frozenset(
            (mod.module, cls.qualname) for mod in self.modules for cls in mod.classes
            if testcode.is_test_case(self.class_bases(mod.module, cls.qualname)))
        self._link()

    @cached_property
    def keras_driven_modules(self) -> set[str]:
        """Modules that run Keras's own loops (``model.fit(...)``, ``model.predict(x)``). A call of
        a name that a class of the project defines as a method (an LDA metric's own ``fit``, a
        trainer's ``predict``) is taken for that method, not Keras's loop (heldout29: a Keras
        metric whose own ``fit`` the program calls eagerly was taken for graph code)."""
        own = {fn.name for mod in self.modules for fn in mod.functions
               if fn.class_qualname is not None and not self.is_test_file(mod.path)}
        return {m.module for m in self.modules if m.driver_calls - own}

    @cached_property
    def made_where_fitted(self) -> set[tuple[str, str]]:
        """Classes of the project a module that runs Keras's loops makes (``model = Net()`` in a
        train script, the class in another module): Keras traces their ``call`` there."""
        made: set[tuple[str, str]] = set()
        for module in self.keras_driven_modules:
            for site in self._module_sites(module):
                found = self._class(module, site.callee)
                if found is not None:
                    made.add(found)
        return made

    @cached_property
    def model_builds(self) -> list[tuple[str, int, str | None]]:
        """Where code outside tests builds a model before its first call (``model.build(shape)``),
        and the class it was made from when the building scope says so."""
        return [(m.path, line, made) for m in self.modules if not self.is_test_file(m.path)
                for line, made in m.model_builds]

    @cached_property
    def observed_calls(self) -> list[tuple[str, int, str]]:
        """Where code outside tests calls an instance on one observation, and its class."""
        return [(m.path, line, made) for m in self.modules if not self.is_test_file(m.path)
                for line, made in m.observed_calls]

    def is_test(self, fn: FunctionSummary) -> bool:
        """Test code, by where it is: a test file, or a method of a TestCase class (analysis/testcode.py).
        A file named like a test whose functions the workload calls is a module of the workload
        (``utils/train_validation_test.py``'s ``train()`` and ``validation()``, called by the
        training scripts: heldout25)."""
        return testcode.is_test(fn, self.test_classes, self._workload_test_named)

    def is_test_file(self, path: str) -> bool:
        """A test file as the test runners find it, unless the workload calls its functions."""
        return testcode.is_test_path(path) and path not in self._workload_test_named

    @cached_property
    def _workload_test_named(self) -> frozenset[str]:
        """Files named like tests (``*_test.py``) some of whose functions code outside test files
        calls. Asked once the calls are linked."""
        out: set[str] = set()
        for linked in self.functions.values():
            path = linked.fn.path
            if not testcode.is_test_path(path) or path in out:
                continue
            for caller, site in linked.callers:
                where = caller.path if caller is not None else self.path_of_site(site)
                if not testcode.is_test_path(where) and (caller is None or not testcode.is_test(caller, self.test_classes)):
                    out.add(path)
                    break
        return frozenset(out)

    # -- resolution ---------------------------------------------------------------------------
    def module_summary(self, name: str) -> ModuleSummary | None:
        return self._modules_by_name.get(name)

    def is_module(self, name: str) -> bool:
        """A module of the checked project, as an import names it: ``pkg.models``, or
        ``ch4.recipe3.styletransfer`` for the ``styletransfer`` of a folder without ``__init__``."""
        return name in self._modules_by_name or any(
            name.endswith("." + known) for known in self._modules_by_name)

    def resolve(self, caller: FunctionSummary | None, module: str, callee: str, line: int | None = None,
                path: str | None = None) -> FunctionSummary | None:
        """The project function a call of ``callee`` reaches. ``line`` (and ``path`` for top-level
        code) place the call: of a qualname defined more than once, the definition above it."""
        local = self._by_module.get(module, {})
        where = path or (caller.path if caller else None)
        if callee == "self" and caller is not None and caller.class_qualname is not None:
            # ``theta = self(states)`` in a method: what calling an object of its class runs
            return self._same_class_body(self.called_method(module, caller.class_qualname), caller)
        if callee.startswith(("self.", "cls.")):
            if caller is None or caller.class_qualname is None or callee.count(".") != 1:
                return None
            name = callee.split(".", 1)[1]
            if callee.startswith("self.") and self._shadowed_by(module, caller.class_qualname, name) - {caller.id}:
                return None  # ``self.encoder = self.encoder()``: later calls reach the built model
            return self._same_class_body(self.method(module, caller.class_qualname, name), caller)
        if "." not in callee:
            if caller is not None:  # nested functions, innermost first
                prefix = caller.qualname
                while prefix:
                    hit = local.get(f"{prefix}.<locals>.{callee}")
                    if hit is not None:
                        return self._live(hit, line, where)
                    prefix = prefix.rpartition(".<locals>.")[0]
            found_here = self._live(local.get(callee), line, where)
            if found_here is None and callee not in self._classes.get(module, {}):
                return self._star_imported(module, callee, where)
            return found_here
        # A dotted name: a function of another module (or a class's method called on the class).
        found = self._split_through_reexports(callee, near=where)
        if found is not None:
            return self._by_module.get(found[0], {}).get(found[1])
        if callee.split(".", 1)[0] in local or callee.split(".", 1)[0] in self._classes.get(module, {}):
            return self._live(local.get(callee), line, where)
        return self._suffix_unique.get(".".join(callee.rsplit(".", 2)[-2:]))

    def _split_through_reexports(self, dotted: str, near: str | None = None) -> tuple[str, str] | None:
        """``_split_module`` of ``dotted``, or of the name a chain of packages hands it on as
        (``_through_reexport``): the module that defines it and the name there."""
        for _ in range(5):  # the name, then a chain of packages handing it on (never a cycle)
            found = self._split_module(dotted, near=near)
            if found is not None:
                return found
            handed_on = self._through_reexport(dotted)
            if handed_on is None:
                return None
            dotted = handed_on
        return None

    def _through_reexport(self, dotted: str) -> str | None:
        """``tf2_gnn.models.GraphTaskModel.run_one_epoch`` where ``tf2_gnn/models/__init__.py`` does
        ``from .graph_task_model import GraphTaskModel``: the name that import hands on, with the
        rest (``tf2_gnn.models.graph_task_model.GraphTaskModel.run_one_epoch``)."""
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            package = self._modules_by_name.get(".".join(parts[:cut]))
            target = package.reexports.get(parts[cut]) if package is not None else None
            if target is not None and target != ".".join(parts[:cut + 1]):
                return ".".join([target, *parts[cut + 1:]])
        return None

    def _star_imported(self, module: str, name: str, where: str | None) -> FunctionSummary | None:
        """``color_loss(a, b)`` after ``from .losses import *``: the function of that name in the
        first star-imported module of the project that defines it."""
        summary = self._modules_by_name.get(module)
        for star in summary.star_modules if summary is not None else ():
            found = self._split_module(f"{star}.{name}", near=where)
            if found is not None and found[1] in self._by_module.get(found[0], {}):
                return self._by_module[found[0]][found[1]]
        return None

    def _shadowed_by(self, module: str, class_qualname: str, name: str) -> set[str]:
        """The methods of the class that replace its method ``name`` on the instance with what it
        builds (``self.encoder = self.encoder()``) or a value of a known kind: an instance
        attribute hides a method, so ``self.name(x)`` after it calls that value."""
        return self._instance_values.get((module, class_qualname, name), set())

    @cached_property
    def _instance_values(self) -> dict[tuple[str, str, str], set[str]]:
        out: dict[tuple[str, str, str], set[str]] = {}
        for linked in self.functions.values():
            fn = linked.fn
            if fn.class_qualname is None:
                continue
            for attr, value in fn.self_assigns:
                if value == ("call", f"self.{attr}") or (value[0] == "kind" and value != values.UNKNOWN):
                    out.setdefault((fn.module, fn.class_qualname, attr), set()).add(fn.id)
        return out

    @cached_property
    def _suffix_unique(self) -> dict[str, FunctionSummary]:
        """``mod.func`` -> the one function of the project it names (left out when several do)."""
        return {key: found[-1] for key, found in self._by_suffix.items()
                if len({(c.module, c.qualname) for c in found}) == 1}

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

    def called_method(self, module: str, class_qualname: str) -> FunctionSummary | None:
        """What calling an object of the class runs: its ``__call__``, or for a Keras layer or
        model without one of the project's, its ``call`` (Keras's ``__call__`` runs it)."""
        found = self.method(module, class_qualname, "__call__")
        if found is None and graph_context.is_keras_class(self.class_bases(module, class_qualname)):
            found = self.method(module, class_qualname, "call")
        return found

    def called_methods(self, module: str, class_qualname: str) -> list[FunctionSummary]:
        """Every method of the project calling an object of the class runs: ``called_method``, or
        for a Keras metric its ``update_state`` and ``result`` (Keras's ``Metric.__call__`` runs
        both, without AutoGraph: TensorFlow 2.21, tests/conformance/variants/tf304.py)."""
        found = self.called_method(module, class_qualname)
        if found is not None:
            return [found]
        if not graph_context.is_keras_class(self.class_bases(module, class_qualname)):
            return []
        return [m for name in sorted(graph_context.KERAS_METRIC_METHODS)
                if (m := self.method(module, class_qualname, name)) is not None]

    def _class(self, module: str, name: str, near: str | None = None) -> tuple[str, str] | None:
        if name in self._classes.get(module, {}):
            return module, name
        found = self._split_module(name, near=near or self._module_file.get(module))
        if found is not None and found[1] in self._classes.get(found[0], {}):
            return found
        return None

    def _split_module(self, dotted: str, near: str | None = None) -> tuple[str, str] | None:
        """('pkg.mod', 'Class.method') for 'pkg.mod.Class.method': the longest known module prefix.

        A module is also known by the tail of its name (``mlproj.losses`` for
        ``corpus.mlproj.losses``), when that tail is unique: imports name modules from wherever the
        program runs, which need not be the folder whose packages we derived names from.
        """
        key = (dotted, near)
        if key not in self._splits:  # asked again and again while linking and inferring values
            self._splits[key] = self._split_module_uncached(dotted, near)
        return self._splits[key]

    def _split_module_uncached(self, dotted: str, near: str | None) -> tuple[str, str] | None:
        parts = dotted.split(".")
        sibling = self._sibling_module(parts[0], near) if near is not None and len(parts) > 1 else None
        rest = ".".join(parts[1:])
        if sibling is not None and (rest in self._by_module.get(sibling, {}) or parts[1] in self._classes.get(sibling, {})
                                    or rest in self._modules_by_name[sibling].globals):
            # the script's own folder comes first on sys.path (unless the name is not there:
            # ``data_generator/data_generator.py`` importing ``data_generator.data_utils``, its package)
            return sibling, rest
        for cut in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:cut])
            if prefix in self._by_module or prefix in self._classes:
                return prefix, ".".join(parts[cut:])
            candidates = self._module_tails.get(prefix)
            if candidates is not None and len(candidates) > 1 and near is not None:
                # ``from model import Net`` in lesson06/main.py: lesson06/model.py, the one beside it
                folder = os.path.dirname(near)
                candidates = [c for c in candidates if self._module_folder.get(c) == folder]
            if candidates is not None and len(candidates) == 1:
                return candidates[0], ".".join(parts[cut:])
        return self._namespace_module(parts, near) if near is not None else None

    def _namespace_module(self, parts: list[str], near: str) -> tuple[str, str] | None:
        """``maddpg.buffer.Buffer`` imported by train.py when ``maddpg/`` has no ``__init__.py``: an
        implicit namespace package, found as a file under the importer's folder or one above it (the
        folders a program is run from), though the module is named ``buffer`` (check.py names
        modules by their ``__init__.py`` packages)."""
        folder = os.path.dirname(os.path.abspath(near))
        for _ in range(3):
            for cut in range(len(parts) - 1, 1, -1):
                module = self._module_by_file.get(os.path.join(folder, *parts[:cut]) + ".py")
                if module is not None:
                    return module, ".".join(parts[cut:])
            folder, tail = os.path.split(folder)
            if not tail:
                break
        return None

    @cached_property
    def _module_by_file(self) -> dict[str, str]:
        return {os.path.abspath(path): module for module, path in self._module_file.items()}

    def _sibling_module(self, name: str, near: str) -> str | None:
        """The module ``name`` as a script beside ``near`` imports it (``from pinn import PINN`` in
        03_wave/main.py is 03_wave/pinn.py, even when 03_wave is a package and another folder
        has a top-level pinn.py)."""
        folder = os.path.dirname(near)
        found = [m for m in (name, *self._module_tails.get(name, ())) if m in self._module_folder
                 and self._module_folder[m] == folder and os.path.basename(self._module_file[m]) != "__init__.py"]
        return found[0] if len(found) == 1 else None

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

    def is_keras_class_named(self, module: str, name: str) -> bool:
        """Whether ``name``, as called in ``module``, makes an object of a Keras subclass of the project."""
        found = self._class(module, name)
        return found is not None and graph_context.is_keras_class(self.class_bases(*found))

    def is_keras_instance(self, rich: str) -> bool:
        return all(graph_context.is_keras_class(self.class_bases(*cls)) for cls in values.instance_classes(rich))

    def _resolve_receivers(self) -> bool:
        """``model.step(x)`` where ``model`` is a parameter or a local: once values are known, the
        class it is an instance of gives the method. True when a call was linked."""
        if self._receiver_sites is None:
            self._receiver_sites = []
            for linked in self.functions.values():
                resolved = {id(site) for site, _ in linked.callees}
                self._receiver_sites.extend(
                    (linked, site) for site in linked.fn.calls
                    if site.receiver is not None and id(site) not in resolved
                    and ("." in site.callee or site.calls_object))
        linked_any = False
        pending: list[tuple[Linked, CallSite]] = []
        for linked, site in self._receiver_sites:
            fn = linked.fn
            targets: list[FunctionSummary] = []
            for module, qualname in self.values.called_classes(site.receiver, fn, fn.module):  # type: ignore[arg-type]
                found = (self.called_methods(module, qualname) if site.calls_object
                         else [self.method(module, qualname, site.callee.rsplit(".", 1)[1])])
                targets.extend(f for f in found if f is not None and f.id != fn.id and f not in targets)
            if targets:
                site.on_instance = True
                for target in targets:  # each class's method: the call reaches one of them
                    linked.callees.append((site, target))
                    self.functions[target.id].callers.append((fn, site))
                linked_any = True
                self._resolved(site)
            else:
                pending.append((linked, site))
        self._receiver_sites = pending
        return linked_any

    def _resolved(self, site: CallSite) -> None:
        """A call of ``x.name(...)`` linked once ``x``'s class was known: it no longer counts as a
        caller nobody sees (heldout31: an autoencoder's update helper, called only from a
        fix-first train step through ``self.net``, was told to decorate on its own)."""
        self._unresolved_sites.get(site.callee.rsplit(".", 1)[-1], set()).discard(id(site))

    def has_unseen_callers(self, method: str) -> bool:
        """Some call of a method of this name is on an object whose class the analysis could not
        tell: the project's methods of that name may have callers it cannot see."""
        return bool(self._unresolved_sites.get(method))

    def class_named(self, module: str, name: str) -> tuple[str, str] | None:
        """(module, class qualname) of the project's class that ``name`` (as called) makes; an
        import of a module name several folders have goes to the one beside ``module``'s file."""
        return self._class(module, name)

    def _made_by_factory(self, module: str, name: str) -> FunctionSummary | None:
        """``ds.map(load_function)`` with ``load_function = make_loader(...)`` at module level (here
        or in the module it is imported from) and ``make_loader`` returning its nested ``def load``:
        the function handed is that nested one."""
        dotted = name if "." in name else f"{module}.{name}"
        found = self.module_global(dotted)
        if found is None or found[1][:1] != ("call",):
            return None
        return self._returned_def(self.resolve(None, found[0], found[1][1]))

    def _returned_def(self, factory: FunctionSummary | None) -> FunctionSummary | None:
        """The nested def a factory returns (``return load``), if it returns one."""
        # (``return load`` of a nested def is written down as the global ``<module>.load``: the
        # per-file pass does not count a def among the function's locals)
        returned = factory.returns_value if factory is not None else None
        if factory is None or not returned or returned[0] != "global":
            return None
        nested = f"{factory.qualname}.<locals>.{returned[1].rsplit('.', 1)[-1]}"
        return self._by_module.get(factory.module, {}).get(nested)

    def module_global(self, dotted: str) -> tuple[str, tuple] | None:
        """(module, value term) of a module-level name of the project (``data.pipeline.train_ds``)."""
        found = self._split_module(dotted)
        if found is None:
            # a module of constants only (``config.py``: ``TAU = 0.005``), which defines no function
            # or class for ``_split_module`` to know it by
            module, _, name = dotted.rpartition(".")
            found = (module, name) if module in self._modules_by_name else None
        if found is None or "." in found[1]:
            return None
        mod = self._modules_by_name.get(found[0])
        if mod is None or found[1] not in mod.globals:
            return None
        return found[0], mod.globals[found[1]]

    def attribute_values(self, module: str, class_qualname: str, attr: str) -> list[tuple[FunctionSummary, tuple]]:
        """What the class's methods (and its bases') assign to ``self.attr``, with the method."""
        if self._assigns_by_class is None:  # one index of every method's ``self.x = ...``
            self._assigns_by_class = defaultdict(list)
            for linked in self.functions.values():
                owner = values.class_of(linked.fn)
                if owner is not None and linked.fn.self_assigns:
                    self._assigns_by_class[(linked.fn.module, owner)].append(linked.fn)
        key = (module, class_qualname)
        table = self._attribute_memo.get(key)
        if table is None:
            table = self._attribute_memo[key] = {}
            classes = [(module, class_qualname)]
            for base in self.class_bases(module, class_qualname):
                found = self._class(module, base)
                if found is not None:
                    classes.append(found)
            for cls in classes:
                for fn in self._assigns_by_class.get(cls, ()):
                    for name, value in fn.self_assigns:
                        table.setdefault(name, []).append((fn, value))
        return table.get(attr, [])

    # -- linking ------------------------------------------------------------------------------
    def _link(self) -> None:
        self._site_modules: dict[int, str] = {}
        self._site_paths: dict[int, str] = {}
        # method name -> its calls on objects of unknown class not linked yet (``model.cell(x)``)
        self._unresolved_sites: dict[str, set[int]] = {}
        # caller id -> (site, subclass override) its ``self.method(x)`` may run instead: traced
        # with it when the caller is graph code, but no evidence of how often the override is called
        self.dispatched: dict[str, list[tuple[CallSite, FunctionSummary]]] = {}
        for mod in self.modules:
            for site in mod.module_calls:
                self._site_modules[id(site)] = mod.module
                self._site_paths[id(site)] = mod.path
                target = self.resolve(None, mod.module, site.callee, site.line, mod.path)
                if target is not None:
                    self.functions[target.id].callers.append((None, site))
            for fn in mod.functions:
                for site in fn.calls:
                    target = self.resolve(fn, mod.module, site.callee, site.line)
                    if target is not None:
                        self.functions[fn.id].callees.append((site, target))
                        self.functions[target.id].callers.append((fn, site))
                        overrides = self._overrides(site.callee, target)
                        if overrides and target.stub:
                            self._link_to_subclasses(fn, site)  # an abstract method: only overrides run
                        elif overrides:
                            self.dispatched.setdefault(fn.id, []).extend((site, o) for o in overrides)
                    elif not self._link_to_subclasses(fn, site) and "." in site.callee:
                        # ``model.cell(x)`` on an object of unknown class: some method named
                        # ``cell`` may have callers we cannot see.
                        self._unresolved_sites.setdefault(site.callee.rsplit(".", 1)[1], set()).add(id(site))
            for name, line, options, alias in mod.wrapped:
                target = self.resolve(None, mod.module, name, line, mod.path) or self._wrapped_method(mod, name)
                # a test that wraps library code to trace it does not make the library's function a
                # tf.function (it stays as written for its users); by name, as the calls that make a
                # test-named file the workload's (is_test_file) are not linked yet
                if target is not None and not (is_test_path(mod.path) and not is_test_path(target.path)):
                    linked = self.functions[target.id]
                    linked.wrapped, linked.wrap_options = True, options
                    linked.wrapped_as.add(alias or linked.fn.name)
        self._link_passed_functions()
        self._mark_custom_decorators()
        self._mark_handed_and_exported()
        self._mark_exported_through_params()
        self._mark_framework_methods()
        self._infer_params()
        self._find_recursion()
        self.graph_roots = self._graph_context()
        self._mark_unconverted()
        self._unmark_varying_inside_graphs()
        self._mark_repeated()
        self._mark_opaque()

    def _link_passed_functions(self) -> None:
        """``_train_step(net, x, y, acc=accuracy)`` and, inside, ``acc(y_pred, y)``: the call of the
        parameter is a call of ``accuracy``, for side effects, hazards and parameter kinds alike.

        Only where every call site that passes a function for that parameter passes the same one: a
        helper that applies whatever it is given (``random_apply(func, p, x)``) is not charged with
        every function any caller hands it."""
        for linked in list(self.functions.values()):
            fn = linked.fn
            names = {p.name for p in fn.params if not p.variadic}
            resolved = {id(site) for site, _ in linked.callees}
            calls = [s for s in fn.calls if s.callee in names and id(s) not in resolved]
            if not calls:
                continue
            passed: dict[str, set[str]] = {}
            for caller, outer in linked.callers:
                for key, pname, _ in self.bind(outer, fn):
                    if pname not in {s.callee for s in calls}:
                        continue
                    named = outer.functions.get(key)
                    module = caller.module if caller else self.module_of_site(outer)
                    target = self.resolve(caller, module, named, outer.line,
                                          None if caller else self.path_of_site(outer)) if named else None
                    passed.setdefault(pname, set()).add(target.id if target is not None else "?")
            for site in calls:
                targets = passed.get(site.callee, set())
                if len(targets) != 1 or "?" in targets:
                    continue
                target = self.functions[next(iter(targets))].fn
                if target.id != fn.id:
                    linked.callees.append((site, target))
                    self.functions[target.id].callers.append((fn, site))

    def _mark_exported_through_params(self) -> None:
        """``test(f, x)`` where ``test`` calls ``f.get_concrete_function(x)``: the function passed
        there is used through its tf.function API, so it must stay one (undecorated, the call
        raises AttributeError)."""
        for linked in list(self.functions.values()):
            fn = linked.fn
            if not fn.exported_params:
                continue
            for caller, outer in linked.callers:
                for key, pname, _ in self.bind(outer, fn):
                    named = outer.functions.get(key) if pname in fn.exported_params else None
                    if not named:
                        continue
                    module = caller.module if caller else self.module_of_site(outer)
                    target = self.resolve(caller, module, named, outer.line, None if caller else self.path_of_site(outer))
                    if target is not None:
                        reason = f"passed to {fn.qualname}() (line {outer.line}), which uses it as a tf.function (get_concrete_function)"
                        if reason not in self.functions[target.id].needs_graph:
                            self.functions[target.id].needs_graph.append(reason)

    # -- graph context (analysis/graph_context.py says what each API does) -----------------------
    def _mark_custom_decorators(self) -> None:
        """Decorators that are tf.function under another name: wrappers the project defines, and
        the ``function-decorators`` of the configuration."""
        wrappers = set(self._function_decorators)
        for mod in self.modules:
            # one that hands the function to tf.py_function inside its tf.function runs it eagerly
            wrappers.update(f"{mod.module}.{name}" for name in mod.function_wrappers if name not in mod.eager_wrappers)
        if not wrappers:
            return
        for mod in self.modules:
            for fn in mod.functions:
                for name, _options in fn.decorators:
                    full = self._wrapper_name(mod, name)
                    if full in wrappers or name in wrappers:
                        self.functions[fn.id].custom_decorated = full
                        break

    def _wrapper_name(self, mod: ModuleSummary, name: str) -> str:
        """The decorator's canonical name: where the project defines it, through a package's
        re-exports (``from tf_dataclass import function``, which ``tf_dataclass/__init__.py``
        imports from ``packing_tools``: heldout48, a test's wrapped function told leave-eager)."""
        if "." not in name:
            return f"{mod.module}.{name}"
        found = self._split_through_reexports(name)
        return f"{found[0]}.{found[1]}" if found else name

    def _mark_handed_and_exported(self) -> None:
        eager_wrappers = {f"{mod.module}.{name}" for mod in self.modules for name in mod.eager_wrappers}
        for linked in self.functions.values():
            mod = self._modules_by_name[linked.fn.module]
            for name, _ in linked.fn.decorators:
                if name in graph_context.EAGER_FUNCTIONS:
                    # ``@tf.py_function(Tout=tf.bool)``: its body runs as Python, even inside a graph
                    linked.eager_reason = "decorated with tf.py_function/numpy_function: eager by construction"
                elif eager_wrappers and self._wrapper_name(mod, name) in eager_wrappers:
                    # the project's decorator that hands it to tf.py_function (references.eager_wrappers)
                    linked.eager_reason = (f"decorated with {name}, which runs it through tf.py_function or "
                                           f"tf.numpy_function: eager by construction")
                else:
                    continue
                break
        for mod in self.modules:
            local = self._by_module.get(mod.module, {})
            for name, kind, where, line in mod.handed:
                if name.endswith("()"):  # ``compile(loss=joint_loss(0.3))``: the def the factory returns
                    caller = local.get(where) if where else None
                    target = self._returned_def(self.resolve(caller, mod.module, name[:-2], line, mod.path))
                else:
                    target = self.resolve(local.get(where) if where else None, mod.module, name, line, mod.path)
                    target = target or self._made_by_factory(mod.module, name)
                if target is None:
                    continue
                linked = self.functions[target.id]
                place = f"line {line}" + (f" of {mod.path}" if mod.path != target.path else "")
                if kind == "applied-layer":
                    kind = "caller" if where and where in local and self._applies_layers_eagerly(local[where]) else "graph"
                if kind == "graph" and linked.graph_reason is None:
                    linked.graph_reason = f"{HANDED_TO_A_TRACER} ({place})"
                elif kind == "eager":
                    linked.eager_reason = f"run by tf.py_function/numpy_function ({place}): eager by construction"
                elif kind == "needs-graph":
                    linked.needs_graph.append(f"handed to ClusterCoordinator.schedule ({place}), which takes only tf.functions")
                elif (kind in ("caller", "control-flow") and where and where in local
                      # ``strategy.run(step, args=(...))`` is a call site already, with its arguments (module.py)
                      and not any(c.line == line and c.callee == name for c in local[where].calls)):
                    # ``strategy.run(step, args=...)``, ``tf.while_loop(cond, body, ...)``: run where called
                    caller = local[where]
                    site = CallSite(callee=name, line=line, col=0)
                    self.functions[caller.id].callees.append((site, target))
                    linked.callers.append((caller, site))
                if kind == "control-flow":
                    linked.control_flow = linked.control_flow or place
            for name, where, attribute, line in mod.api_reads:
                target = self.resolve(local.get(where) if where else None, mod.module, name, line, mod.path)
                if target is not None:
                    self.functions[target.id].needs_graph.append(
                        f"the program reads its {attribute} (line {line}), which only a tf.function has")
            for name, where, line in mod.exports:
                target = self.resolve(local.get(where) if where else None, mod.module, name, line, mod.path)
                if target is not None:
                    self.functions[target.id].needs_graph.append(
                        f"{EXPORTED_GRAPH} (get_concrete_function or signatures=, line {line})")
                elif name.endswith(".call"):
                    # ``self.model.call.get_concrete_function(spec)`` on a model whose class the
                    # analysis cannot tell: any decorated Keras ``call`` may be the one exported, and
                    # undecorated it has no get_concrete_function (heldout24: three text classifiers
                    # exported so, judged keep)
                    said = f"{EXPORTED_CALL} ({mod.path}"
                    # within the exporting script's part of the repository (its folder's parent: a
                    # model zoo holds many programs), not every model of the repository
                    near = os.path.dirname(os.path.dirname(mod.path))
                    for other in self.functions.values():
                        if (other.fn.name == "call" and other.fn.class_qualname is not None and other.decorated
                                and (not near or other.fn.path.startswith(near + os.sep))
                                and not any(r.startswith(said) for r in other.needs_graph)):
                            other.needs_graph.append(f"{said}, line {line}: get_concrete_function), maybe this one")
        for linked in self.functions.values():
            options = {**linked.fn.decorator_options, **linked.wrap_options}
            chosen = graph_context.needs_graph_options(options)
            if chosen and linked.decorated:
                linked.needs_graph.append(f"its decorator sets {', '.join(chosen)}")
            if linked.fn.distributed and linked.decorated:
                linked.needs_graph.append("a distributed step (strategy.run/reduce): it must run as a graph")

    def _mark_framework_methods(self) -> None:
        driven = self.keras_driven_modules
        for linked in self.functions.values():
            fn = linked.fn
            if fn.class_qualname is None or fn.name not in graph_context.FRAMEWORK_METHODS:
                continue
            if fn.name in graph_context.KERAS_STEP_METHODS and not self._keras_runs(linked, driven):
                continue  # the program's own method of that name, called by its own eager loop
                continue
            bases = self.class_bases(fn.module, fn.class_qualname)
            if graph_context.is_keras_class(bases):
                linked.framework = "keras"
            elif graph_context.is_framework_class(bases):
                linked.framework = "framework"

    def _keras_runs(self, linked: Linked, driven: set[str]) -> bool:
        """Whether Keras may run this ``train_step``/``compute_loss``/... itself: some code of its
        module or of its callers' modules calls fit/evaluate/predict, or nothing in the project calls
        it (then only Keras can). A VAE whose ``compute_loss`` the notebook's own loop calls, and
        that is never fit, runs it eagerly."""
        callers = linked.callers
        fn = linked.fn
        if any(c is not None and c.class_qualname is not None and c.name in graph_context.KERAS_LOOPS
               for c, _ in callers):
            return False  # the class overrides fit (evaluate, predict) with its own eager loop
        if fn.module in driven:
            return True
        if not callers:
            # ``for data in train_ds: model.train_step(data)`` on a model the analysis could not
            # follow to its class: the program's own loop calls it by name, and nothing calls fit
            return not self._called_by_name(fn.module, fn.name)
        return any((c.module if c is not None else self.module_of_site(s)) in driven for c, s in callers)

    def _applies_layers_eagerly(self, fn: FunctionSummary) -> bool:
        """A function that applies a ``Lambda`` layer at once runs it where it runs: it builds no
        functional model, is no Keras layer's method, and no caller of it does (a head helper
        called from a model builder gets symbolic inputs). heldout34: a detection script's
        ``Lambda(lambda x: yolo_nms(x, ...))(outputs)`` on a model's eager outputs, judged eager."""
        if fn.functional or (fn.class_qualname is not None and graph_context.is_keras_class(
                self.class_bases(fn.module, fn.class_qualname))):
            return False
        return not any(c is not None and c.functional for c, _ in self.functions[fn.id].callers)

    def _used_where_fitted(self, linked: Linked, driven: set[str]) -> bool:
        """A metric class's module fits, or a module that fits names the class (``compile(metrics=
        [MeanIoU()])``): Keras's compiled steps then trace its ``update_state`` and ``result``."""
        if linked.fn.module in driven:
            return True
        # named in a compile call's arguments: a metric made for a custom loop's eager
        # ``update_state`` calls, in a module that also fits its model, stays eager (heldout34: a
        # mean-AP metric's NumPy work, TF206 judged wrong)
        cls = (linked.fn.class_qualname or "").rsplit(".", 1)[-1]
        return any(cls in self._modules_by_name[module].compiled for module in driven
                   if module in self._modules_by_name)

    def _a_schedule(self, fn: FunctionSummary) -> bool:
        """A method of a Keras ``LearningRateSchedule`` subclass (heldout48: a schedule's ``__call__``
        that stored its rate with ``.numpy()``, which raises under fit; conformance TF206)."""
        return fn.class_qualname is not None and any(
            base.endswith(".LearningRateSchedule") for base in self.class_bases(fn.module, fn.class_qualname))

    def _called_by_name(self, module: str, name: str) -> bool:
        """Some code of ``module`` calls ``<object>.name(...)`` (not on self or super())."""
        return any(site.callee.endswith("." + name) and not site.callee.startswith(("self.", "super", "cls."))
                   for site in self._module_sites(module))

    def never_run(self, fn: FunctionSummary) -> bool:
        """A module-level function nothing in the project calls or hands on, outside a script's main
        block: a library's, waiting for a user (heldout38: a book's ``train_ch3`` no script calls;
        heldout39: a GAN module's ``set_batch_size`` setter)."""
        return (not self.functions[fn.id].callers and "<locals>" not in fn.qualname and not fn.script_only
                and not self.handed_on(fn.module, fn.name))

    def handed_on(self, module: str, name: str) -> bool:
        """Some call of ``module`` is handed the function ``name`` as an argument (``study.optimize(
        objective)``, ``train(step_fn=step)``): someone runs it, whoever calls it."""
        return any(named == name or named.endswith("." + name)
                   for site in self._module_sites(module) for named in site.functions.values())

    def _module_sites(self, module: str) -> list[CallSite]:
        """Every call site of a module: its top level's and its functions' (made once per module)."""
        sites = self._sites_by_module.get(module)
        if sites is None:
            mod = self._modules_by_name.get(module)
            sites = [] if mod is None else [*mod.module_calls, *(s for f in mod.functions for s in f.calls)]
            self._sites_by_module[module] = sites
        return sites

    def _link_to_subclasses(self, fn: FunctionSummary, site: CallSite) -> bool:
        """``self.train()`` in a base class that has no ``train``, or only a stub of it: the call runs
        the subclasses' ``train`` (heldout32: a trading agent's base ``run`` loop calls each
        algorithm's update, and every update was left eager, "not seen: a call site")."""
        if not site.callee.startswith("self.") or site.callee.count(".") != 1 or fn.class_qualname is None:
            return False
        name = site.callee.split(".", 1)[1]
        if self.attribute_values(fn.module, fn.class_qualname, name):
            return False  # ``self.policy = Policy()``: the call reaches that object, not a method
        targets = self._subclass_methods((fn.module, fn.class_qualname), name)
        for target in targets:
            self.functions[fn.id].callees.append((site, target))
            self.functions[target.id].callers.append((fn, site))
        return bool(targets)

    def _subclass_methods(self, cls: tuple[str, str], name: str) -> list[FunctionSummary]:
        """The project's subclasses' methods ``name`` (each subclass's own, nearest first)."""
        out: list[FunctionSummary] = []
        stack, seen = [cls], set()
        while stack:
            for sub in self._subclasses.get(stack.pop(), ()):
                if sub in seen:
                    continue
                seen.add(sub)
                stack.append(sub)
                found = self._by_module.get(sub[0], {}).get(f"{sub[1]}.{name}")
                if found is not None:
                    out.append(found)
        return out

    def _overrides(self, callee: str, target: FunctionSummary) -> list[FunctionSummary]:
        """``self.calc_style_loss(x)`` in a base class runs the subclass's override on the
        subclass's objects: the project's overrides of ``target``, which a base class's
        tf.function traces (graph_code follows them; nothing else does)."""
        if not callee.startswith("self.") or callee.count(".") != 1 or target.class_qualname is None:
            return []
        return [f for f in self._subclass_methods((target.module, target.class_qualname), target.name)
                if f.id != target.id]

    @cached_property
    def _subclasses(self) -> dict[tuple[str, str], list[tuple[str, str]]]:
        """(module, class) -> the project's classes that name it as a direct base."""
        out: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
        for module, classes in self._classes.items():
            for qualname, cls in classes.items():
                for base in cls.bases:
                    parent = self._class(module, base)
                    if parent is not None and parent != (module, qualname):
                        out[parent].append((module, qualname))
        return out

    def class_bases(self, module: str, class_qualname: str) -> list[str]:
        """Canonical names of a class's bases, through the project's own classes (8 levels)."""
        return [name for name, _ in self._walk_bases(module, class_qualname)]

    def _walk_bases(self, module: str, class_qualname: str, _depth: int = 0) -> Iterator[tuple[str, tuple[str, str] | None]]:
        """Each base of a class as written, with the project class it names (module, qualname) if
        any, then that class's bases in turn (8 levels)."""
        cls = self._classes.get(module, {}).get(class_qualname)
        if cls is None or _depth > 8:
            return
        for base in cls.bases:
            found = self._class(module, base)
            yield base, found
            if found is not None:
                yield from self._walk_bases(found[0], found[1], _depth + 1)

    def _graph_context(self) -> dict[str, str]:
        """Function id -> the root of the graph it runs in: tf.functions, functions handed to
        tracing APIs, Keras's graph methods, and what they call or define."""
        driven = self.keras_driven_modules
        # every compile of the project says run_eagerly=True: Keras runs the steps as Python
        eager_keras = (sum(m.eager_compiles for m in self.modules) > 0
                       and sum(m.graph_compiles for m in self.modules) == 0)
        # a module whose every compile says run_eagerly=True runs its own models' steps as Python
        eager_modules = {m.module for m in self.modules if m.eager_compiles and not m.graph_compiles}
        dynamic = {(m.module, c) for m in self.modules for c in m.dynamic_classes}

        def made_eager(module: str, cls: str) -> bool:
            """The class, or a project class it extends, is made to run eagerly."""
            classes = [(module, cls), *(found for _, found in self._walk_bases(module, cls) if found is not None)]
            return any((m, c) in dynamic or (m, c.rsplit(".", 1)[-1]) in dynamic for m, c in classes)

        def traced_by_keras(x: Linked) -> bool:
            cls = x.fn.qualname.rsplit(".", 1)[0] if "." in x.fn.qualname else ""
            if cls and made_eager(x.fn.module, cls):
                return False
            # a class that writes its own make_train_function (a backend's trainer) decides how
            # its step runs; Keras's tf.function is what that method would have made
            maker = graph_context.KERAS_STEP_MAKERS.get(x.fn.name)
            return not (maker and cls and self.method(x.fn.module, cls, maker) is not None)

        roots = [fid for fid, x in self.functions.items()
                 if x.decorated or (x.graph_reason is not None and x.eager_reason is None)
                 or (x.framework == "keras" and x.fn.name in graph_context.KERAS_TRACED_METHODS and not eager_keras
                     and x.fn.module not in eager_modules and traced_by_keras(x))
                 # a layer's call in a program that fits or predicts: Keras traces it there
                 or (x.framework == "keras" and x.fn.name == "call" and traced_by_keras(x)
                     and (x.fn.module in driven or (x.fn.module, x.fn.class_qualname or "") in self.made_where_fitted)
                     and not self._called_only_directly(x.fn))
                 # a metric that a fitting module uses: its compiled step traces update_state/result
                 or (x.framework == "keras" and x.fn.name in graph_context.KERAS_METRIC_METHODS
                     and self._used_where_fitted(x, driven))
                 # a learning-rate schedule a fitting module uses: the optimizer calls it in that step
                 or (x.framework == "keras" and x.fn.name == "__call__" and self._a_schedule(x.fn)
                     and self._used_where_fitted(x, driven))]
        graph = self.graph_code(roots)
        by_qualname = {(x.fn.module, x.fn.qualname): fid for fid, x in self.functions.items()}
        for _ in range(4):  # functions defined inside graph code are graph code too
            nested = [fid for fid, x in self.functions.items() if fid not in graph and "<locals>" in x.fn.qualname
                      and by_qualname.get((x.fn.module, x.fn.qualname.rsplit(".<locals>.", 1)[0])) in graph]
            if not nested:
                break
            for fid in nested:
                outer = self.functions[by_qualname[(self.functions[fid].fn.module,
                                                    self.functions[fid].fn.qualname.rsplit(".<locals>.", 1)[0])]]
                self.functions[fid].graph_reason = self.functions[fid].graph_reason or \
                    f"defined inside graph code ({outer.fn.qualname})"
            graph.update(self.graph_code(nested))
        for fid, root in graph.items():
            linked = self.functions[fid]
            linked.graph_root = root
            if linked.decorated or linked.graph_reason is not None:
                continue
            origin = self.functions[root]
            if origin.framework == "keras" and not origin.decorated and root == fid:
                linked.graph_reason = (
                    "the optimizer calls this schedule inside Keras's own tf.function (fit)" if self._a_schedule(origin.fn)
                    else f"Keras runs {origin.fn.name}() inside its own tf.function (fit, evaluate, predict)")
            else:
                linked.graph_reason = f"called from graph code ({origin.fn.qualname})"
        return graph

    def _called_only_directly(self, fn: FunctionSummary) -> bool:
        """The method's class is a Keras layer its module only calls directly (``layer(clip)``, no
        model holds it: ``ModuleSummary.eager_only_layers``) and no other module names it."""
        mod = self._modules_by_name.get(fn.module)
        cls = fn.class_qualname or ""
        if mod is None or cls not in mod.eager_only_layers:
            return False
        return not any(site.callee.rsplit(".", 1)[-1] == cls for other in self.modules if other is not mod
                       for site in self._module_sites(other.module))

    def _mark_unconverted(self) -> None:
        """What runs without AutoGraph when traced, and through which function: code Keras 3 traces
        itself (a layer's ``call``, a model's step, a compiled metric's methods or one an instance
        call runs through Keras's ``__call__``) and a tf.function with ``autograph=False``, with
        everything they call short of another tf.function (which converts its own body). There a
        Python ``if`` on a tensor raises (TensorFlow 2.21: a layer's helper method, a metric's
        ``result`` called through the metric; tests/conformance/variants/tf304.py)."""
        keras2 = {m.module for m in self.modules if m.keras2}
        through_call = {target.id for linked in self.functions.values() for site, target in linked.callees
                        if site.calls_object and target.name in graph_context.KERAS_METRIC_METHODS}

        def root(fid: str, x: Linked) -> bool:
            if x.decorated:
                options = {**x.fn.decorator_options, **x.wrap_options}
                return options.get("autograph") == "False"
            if x.framework != "keras" or x.fn.module in keras2:
                return False
            if x.fn.name == "call" or x.fn.name in graph_context.KERAS_STEP_METHODS:
                return True
            return x.fn.name in graph_context.KERAS_METRIC_METHODS and (
                self.graph_roots.get(fid) == fid or fid in through_call)

        roots = [fid for fid, x in self.functions.items() if fid in self.graph_roots and root(fid, x)]
        for fid, origin in self.graph_code(roots, enters=lambda x: not x.decorated).items():
            self.functions[fid].unconverted = self.functions[origin].fn.qualname

    def _mark_repeated(self) -> None:
        """Whether some call site runs a function many times: in a loop, or from such a function."""
        for fid in self.callers_first():
            linked = self.functions[fid]
            linked.repeated = any(
                ((site.in_loop and not site.rare and not self._a_handful(site, linked.fn, caller))
                 or (caller is not None and caller.id != fid and self.functions[caller.id].repeated))
                and not (self.is_test(caller) if caller is not None else self.is_test_file(self.path_of_site(site)))
                for caller, site in linked.callers)

    def _a_handful(self, site: CallSite, fn: FunctionSummary, caller: FunctionSummary | None) -> bool:
        """``for n in range(10): opt(f, x)``: ten calls of a step in all, fewer than its trace would
        repay (heldout34: a demo's gradient step told decorate, judged leave-eager). Not for a
        function that loops itself (an epoch over a dataset per call), nor from a caller that is
        itself called in a loop (a replay of ten updates once per episode is ten per episode)."""
        if site.written is None or site.written >= FEW_CALLS or fn.loops:
            return False
        linked = self.functions.get(caller.id) if caller is not None else None
        return linked is None or not (linked.repeated or any(s.in_loop for _, s in linked.callers))

    def _mark_opaque(self) -> None:
        """Calls the analysis could not follow, folded over callees: "no TensorFlow op found" is
        only certain when this is zero."""
        def own(linked: Linked) -> int:
            resolved = {id(site) for site, _ in linked.callees}
            unresolved = sum(1 for site in linked.fn.calls if id(site) not in resolved
                             and site.callee.rsplit(".", 1)[-1] not in tfapi.PYTHON_METHODS)
            # an abstract method called: its overrides (often in another project) do the work
            abstract = sum(1 for _, callee in linked.callees if callee.stub and callee.is_method)
            return linked.fn.dynamic_calls + unresolved + abstract
        for fid, count in self.fold(own, lambda a, b: min(a + b, 10_000)).items():
            self.functions[fid].opaque = count

    def _wrapped_method(self, mod: ModuleSummary, name: str) -> FunctionSummary | None:
        # ``self.step = tf.function(self._step)`` in __init__: the method of the same class.
        if name.startswith("self."):
            for fn in mod.functions:
                if fn.class_qualname and fn.name == name[5:]:
                    return fn
        return None

    def _unmark_varying_inside_graphs(self) -> None:
        """A loop inside graph code that hands a tf.function a few Python values (``for mask in
        anchor_masks: transform(y, grid_size, ...)`` in a ``Dataset.map`` function) traces once per
        value while its caller is traced, then never again: not a value that changes per call."""
        for linked in self.functions.values():
            varying = [name for name, facts in linked.params.items() if facts.varying]
            if not varying:
                continue
            if not any((site.varying or any(self.forwards_varying(caller, site, key) for key in site.forwarded))
                       and (caller is None or caller.id not in self.graph_roots)
                       for caller, site in linked.callers):
                for name in varying:
                    linked.params[name].varying = False

    def _infer_params(self) -> None:
        for linked in self.functions.values():
            for p in linked.fn.params:
                strength = 3 if p.evidence.startswith(("annotated", SIGNED)) else (1 if p.kind != "unknown" else 0)
                linked.params[p.name] = ParamFacts(kind=p.kind, evidence=p.evidence, strength=strength)
            if (linked.graph_reason or "").startswith(HANDED_TO_A_TRACER):
                _traced_with_tensors(linked)
        seen: dict[tuple[str, str], set[str]] = {}
        conflicts: set[tuple[str, str]] = set()
        for _ in range(4):  # a fixpoint over call chains; rarely more than a couple of rounds
            changed = False
            self.values.forget()  # parameter kinds changed: values that rest on them may too
            for linked in self.functions.values():
                callee = linked.fn
                for caller, site in linked.callers:
                    for key, pname, kind in self.bind(site, callee):
                        facts = linked.params.get(pname)
                        if facts is None:
                            continue
                        rich = self.arg_rich(caller, site, key, kind)
                        finer = isinstance(rich, str) and rich not in ("unknown", "tensor", "primitive", "object")
                        if finer and facts.strength <= 2 and (linked.fn.id, pname) not in conflicts \
                                and facts.rich != rich:
                            if facts.rich == "unknown":
                                facts.rich = rich
                            elif {facts.rich, rich} == {"numpy", "numpy32"}:
                                facts.rich = "numpy"  # float64 at some call sites
                            elif values.is_instance(rich) and values.is_instance(facts.rich):
                                facts.rich = values.instances([facts.rich, rich])  # objects of several classes
                            else:  # call sites disagree (a dataset here, a model there): not known
                                facts.rich = "unknown"
                                conflicts.add((linked.fn.id, pname))
                            changed = True
                        kind = values.to_kind(rich)
                        if kind in ("tensor", "primitive"):
                            seen.setdefault((linked.fn.id, pname), set()).add(kind)
                        if kind == "primitive" and not facts.varying and linked.calls_the_graph(site) and (
                                key in site.varying or self.forwards_varying(caller, site, key)):
                            facts.varying, changed = True, True
                        known = kind in ("tensor", "primitive") or (finer and facts.kind == "unknown")
                        if not known or facts.strength > 2:
                            continue
                        if facts.strength < 2 or (kind == "tensor" and facts.kind != "tensor"):
                            where = f"{caller.qualname}()" if caller else "module level"
                            source = site.sources.get(key)
                            origin = f" ({values.describe(source)})" if source is not None else ""
                            facts.kind, facts.evidence = kind, f"call site in {where}, line {site.line}{origin}"
                            facts.strength = 2
                            changed = True
            if self._resolve_receivers():
                changed = True
            if not changed:
                break
        for (fid, pname), kinds in seen.items():
            if len(kinds) > 1:
                self.functions[fid].params[pname].mixed = True
        for linked in self.functions.values():  # last resort: the parameter's name, labelled a guess
            for name, facts in linked.params.items():
                if facts.kind != "unknown":
                    continue
                if name in tfapi.TENSOR_NAME_HINTS:
                    facts.kind, facts.guessed, facts.evidence = "tensor", True, "guessed from its name"
                elif name in tfapi.PRIMITIVE_NAME_HINTS:
                    facts.kind, facts.guessed, facts.evidence = "primitive", True, "guessed from its name"

    def forwards_varying(self, caller: FunctionSummary | None, site: CallSite, key: str) -> bool:
        """``visualize_filter(i)`` called for i in range(64) passes ``i`` on to a tf.function:
        a value that changes from one call of the caller to the next changes here too."""
        param = site.forwarded.get(key)
        if caller is None or param is None:
            return False
        linked = self.functions[caller.id]
        facts = linked.params.get(param)
        if facts is None or not facts.varying:
            return False
        # only a loop's own values (``for i in range(64): visualize_filter(i)``): a name the loop
        # body rebinds to what a method returns may well be the same value every time
        for _, outer in linked.callers:
            for outer_key, pname, _kind in self.bind(outer, caller):
                source = outer.sources.get(outer_key)
                if pname == param and outer_key in outer.varying and (source is None or source[0] == "iter"):
                    return True
        return False

    def arg_kind(self, caller: FunctionSummary | None, site: CallSite, key: str, kind: Kind) -> Kind:
        """An argument's kind, completed with what the project knows: a parameter passed through
        (its kind in the caller), a value made by another of the project's functions, a batch of a
        dataset built in another module, an attribute set in ``__init__`` (values.py)."""
        return values.to_kind(self.arg_rich(caller, site, key, kind))

    def arg_rich(self, caller: FunctionSummary | None, site: CallSite, key: str, kind: Kind) -> values.Rich:
        """``arg_kind`` with the finer kinds: dataset, model, NumPy array, container."""
        if kind == "object" and key in site.sources:  # a Python object: a list (of what?), a model ...
            rich = self.values.kind(site.sources[key], caller, caller.module if caller else self.module_of_site(site))
            if rich == "unknown" and site.sources[key][0] == "any":
                return "unknown"  # bound to an object on one path only (a NumPy reshape, an env's reset())
            return rich if (rich in ("container", "dataset", "model", "numpy", "numpy32") or isinstance(rich, tuple)
                            or values.is_instance(rich) or values.is_list(rich)) else kind
        if kind != "unknown":
            return kind
        forwarded = site.forwarded.get(key)
        caller_params = self.functions[caller.id].params if caller else {}
        if forwarded and forwarded in caller_params and not caller_params[forwarded].guessed:
            facts = caller_params[forwarded]
            return facts.rich if facts.rich != "unknown" else facts.kind
        source = site.sources.get(key)
        if source is not None:
            return self.values.kind(source, caller, caller.module if caller else self.module_of_site(site))
        return kind

    def bind(self, site: CallSite, callee: FunctionSummary) -> list[tuple[str, str, Kind]]:
        """(argument key at the call site, the callee's parameter it binds, the argument's kind)."""
        positional = [p for p in callee.params if not p.variadic]
        offset = 1 if (callee.is_method and not site.on_instance and not site.callee.startswith(("self.", "cls."))
                       and "." in site.callee and self._called_on_class(site, callee)) else 0
        keyed: list[tuple[str, str, Kind]] = []
        for index, kind in enumerate(site.args):
            if index - offset < 0 or index - offset >= len(positional):
                continue
            keyed.append((str(index), positional[index - offset].name, kind))
        for key, kind in site.kwargs.items():
            if callee.param(key) is not None:
                keyed.append((key, key, kind))
        return keyed

    def path_of_site(self, site: CallSite) -> str:
        """The file of a module-level call site."""
        return self._site_paths.get(id(site), "")

    def module_of_site(self, site: CallSite) -> str:
        """The module of a module-level call site."""
        return self._site_modules.get(id(site), "")

    def steps_env_at(self, site: CallSite) -> bool:
        """A module-level call site in a script that steps a simulator."""
        module = self._modules_by_name.get(self.module_of_site(site))
        return module is not None and module.steps_env

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
    def recursive_components(self) -> dict[str, list[str]]:
        """For every recursive function, the members of its cycle."""
        out: dict[str, list[str]] = {}
        for component in self._components:
            if any(self.functions[f].recursive for f in component):
                for fid in component:
                    out[fid] = component
        return out

    def callers_first(self) -> list[str]:
        """Every function id, callers before callees (reverse topological order of the SCCs)."""
        return [fid for component in reversed(self._components) for fid in component]

    def graph_code(self, roots: Iterable[str], enters: Callable[[Linked], bool] | None = None) -> dict[str, str]:
        """Function id -> the root whose graph it runs in, for every function reached from roots
        (through callees ``enters`` accepts, when given).

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
            for site, target in (*self.functions[current].callees, *self.dispatched.get(current, ())):
                if site.guarded:
                    continue  # runs once, under a create-once guard or in tf.init_scope: not per call
                if target.id not in out and (enters is None or enters(self.functions[target.id])):
                    out[target.id] = out[current]
                    queue.append(target.id)
        return out

    def fold(self, own: Callable[[Linked], T], combine: Callable[[T, T], T],
             through_guarded: bool = True,
             via: Callable[[Linked, CallSite, FunctionSummary, T], T] | None = None) -> dict[str, T]:
        """Combine a per-function value over each function and everything it calls.

        Walks the strongly connected components callees-first, so each function is visited once
        whatever the shape of the call graph (no quadratic closures on big trees). With
        ``through_guarded=False`` calls under a create-once guard do not count (hazards: what runs
        once on purpose is not a per-call hazard). ``via`` turns a callee's value into the caller's
        terms at each call site (escape.py: whose state a mutation changes).
        """
        out: dict[str, T] = {}
        for component in self._components:
            value: T | None = None
            for fid in component:
                mine = own(self.functions[fid])
                value = mine if value is None else combine(value, mine)
            members = set(component)
            for fid in component:
                for site, target in self.functions[fid].callees:
                    if target.id not in members and (through_guarded or not site.guarded):
                        theirs = out[target.id] if via is None else via(self.functions[fid], site, target, out[target.id])
                        value = combine(value, theirs)  # type: ignore[arg-type]
            for fid in component:
                out[fid] = value  # type: ignore[assignment]
        return out

    @cached_property
    def escapes(self) -> escape.Escape:
        """Whose state each function's mutations change, and which only touch trace-made objects."""
        return escape.Escape(self)

    @cached_property
    def tensor_work(self) -> dict[str, int]:
        """Tensor ops in each function and its callees (capped: only small counts matter)."""
        def own(linked: Linked) -> int:
            extra = sum(1 for deps in linked.fn.param_ops
                        if any(linked.params.get(d, ParamFacts()).kind == "tensor" for d in deps))
            return linked.fn.tensor_ops + extra

        return self.fold(own, lambda a, b: min(a + b, 10_000))

    @cached_property
    def _model_attributes(self) -> frozenset[tuple[str, str, str]]:
        """(module, class, attribute) of ``self.<attribute>`` bound to an instance of one of the
        project's Keras model or layer classes (``self.actor = ActorNetwork(...)``, the class in
        another module): what the module pass, which sees one file, cannot tell is a model."""
        out: set[tuple[str, str, str]] = set()
        for linked in self.functions.values():
            fn = linked.fn
            if fn.class_qualname is None:
                continue
            for attr, value in fn.self_assigns:
                rich = self.values.kind(value, fn, fn.module)
                if isinstance(rich, str) and rich.startswith("instance:"):
                    module, qualname = values.instance_class(rich)
                    if graph_context.is_keras_class(self.class_bases(module, qualname)):
                        out.add((fn.module, fn.class_qualname, attr))
        return frozenset(out)

    def calls_a_model_attribute(self, fn: FunctionSummary) -> bool:
        """``self.actor(state)`` with ``self.actor`` one of the project's Keras models."""
        return fn.class_qualname is not None and any(
            site.calls_object and site.receiver is not None and site.receiver[0] == "self"
            and (fn.module, fn.class_qualname, site.receiver[1]) in self._model_attributes for site in fn.calls)

    @cached_property
    def heavy(self) -> dict[str, bool]:
        """Whether a function (or a callee) does the work that graphs speed up most: calls a model
        or layer, computes and applies gradients, or loops over tensor ops. A handful of
        elementwise ops rarely gains from a graph (the accuracy corpus measured 9-17 op losses at
        0.2-1.1x with tracing counted); steps with models, gradients and loops gained 1.8-9.6x."""
        def own(linked: Linked) -> bool:
            fn = linked.fn
            return bool(fn.model_calls or fn.training_ops or fn.optimizer_steps or (fn.long_loops and fn.tensor_ops)
                        or self.calls_a_model_attribute(fn))
        # Work inside callees that are tf.functions already runs as a graph: it does not make
        # decorating their caller pay.
        out: dict[str, bool] = {}
        for component in self._components:
            value = any(own(self.functions[f]) for f in component)
            members = set(component)
            for fid in component:
                for site, target in self.functions[fid].callees:
                    if (target.id not in members and not site.guarded and not self.functions[target.id].decorated
                            and out[target.id]):
                        value = True
            for fid in component:
                out[fid] = value
        return out

    @cached_property
    def functional(self) -> set[str]:
        """Functions that build a functional Keras model (``keras.Input``, ``keras.Model(inputs,
        outputs)``), and those called only from them: they run once per model, on symbolic inputs."""
        out = {fid for fid, linked in self.functions.items() if linked.fn.functional}
        for fid in self.callers_first():
            linked = self.functions[fid]
            if fid not in out and linked.callers and all(c is not None and c.id in out for c, _ in linked.callers):
                out.add(fid)
        return out

    @cached_property
    def tf1_only(self) -> set[str]:
        """Functions called only from TensorFlow 1 code: from TF1 files, or from functions that are
        themselves called only from there (a graph-building helper of a placeholder model)."""
        out: set[str] = set()
        for fid in self.callers_first():
            linked = self.functions[fid]
            if linked.fn.path in self.tf1 or not linked.callers:
                continue
            if all((c.id in out or c.path in self.tf1) if c is not None else self.path_of_site(s) in self.tf1
                   for c, s in linked.callers):
                out.add(fid)
        return out

    @cached_property
    def trains(self) -> dict[str, bool]:
        """Whether a function computes gradients, itself or through eager callees (a GAN's ``step``
        that calls ``train_d`` and ``train_g``)."""
        return self.fold(lambda x: bool(x.fn.training_ops or x.fn.optimizer_steps) and not x.decorated,
                         lambda a, b: a or b, through_guarded=False)

    @cached_property
    def numpy_on_values(self) -> dict[str, tuple[str, int] | None]:
        """For each function, one NumPy call on changing values it or an eager callee makes (path,
        line): under tf.function it runs once, while tracing, or fails on a symbolic tensor."""
        def own(linked: Linked) -> tuple[str, int] | None:
            fn = linked.fn
            lines = fn.numpy_on_values + (fn.numpy_on_init_values if fn.numpy_on_init_values
                                          and not self._made_once(fn) else [])
            # NumPy on Python numbers passed in is right in a graph: each value is its own trace
            lines += [line for line, names in fn.numpy_on_params
                      if not all(linked.params.get(n, ParamFacts()).kind == "primitive"
                                 and not linked.params[n].guessed for n in names)]
            return (fn.path, min(lines)) if lines and not linked.decorated else None
        return self.fold(own, lambda a, b: a or b, through_guarded=False)

    def _made_once(self, fn: FunctionSummary) -> bool:
        """Whether the objects of ``fn``'s class are made once, at module level or in an
        ``__init__`` that stores them (``self.q = ActionValueModel(...)``) or a Keras layer's
        ``build`` (which Keras runs once, before the first call), not one per call of a step
        (``IOU(box_1, box_2).calculate_iou()`` in a loss): then what their ``__init__`` set is the
        same on every call."""
        makers = self._makers.get((fn.module, fn.class_qualname or "")) or []
        return bool(makers) and all(
            maker is None or maker.name == "__init__" or self._built_from_constants(maker, site)
            for maker, site in makers)

    def _built_from_constants(self, maker: FunctionSummary, site: CallSite) -> bool:
        """Made in a Keras layer's ``build`` (Keras runs it once) from Python values only: a tensor
        handed in there is made inside the first trace, and NumPy on it fails (``Scale(tf.ones([d]))``);
        a ``build`` of any other class may run on every step."""
        return (maker.name == "build" and maker.class_qualname is not None
                and graph_context.is_keras_class(self.class_bases(maker.module, maker.class_qualname))
                and all(kind == "primitive" for kind in [*site.args, *site.kwargs.values()]))

    @cached_property
    def _makers(self) -> dict[tuple[str, str], list[tuple[FunctionSummary | None, CallSite]]]:
        """(module, class) -> the functions whose code makes objects of it (None: module level),
        each with the call that makes them."""
        out: dict[tuple[str, str], list[tuple[FunctionSummary | None, CallSite]]] = {}
        for mod in self.modules:
            sites = [(None, site) for site in mod.module_calls] + [(fn, site) for fn in mod.functions for site in fn.calls]
            for maker, site in sites:
                found = self._class(mod.module, site.callee, near=mod.path)
                if found is not None:
                    out.setdefault(found, []).append((maker, site))
        return out

    @cached_property
    def side_effect(self) -> dict[str, tuple[str, str] | None]:
        """For each function, one Python side effect it or a callee has: (where, what), or None."""
        def own(linked: Linked) -> tuple[str, str] | None:
            if linked.fn.side_effects:
                return (linked.fn.qualname, linked.fn.side_effects[0][2])
            for _line, _col, what, deps in linked.fn.stored_params:
                if all(linked.params.get(d, ParamFacts()).kind == "tensor" and not linked.params[d].guessed
                       for d in deps):
                    return (linked.fn.qualname, what)
            return None
        return self.fold(own, lambda a, b: a or b, through_guarded=False)

    @cached_property
    def variables(self) -> dict[str, str]:
        order = {"none": 0, "guarded": 1, "unguarded": 2}
        return self.fold(lambda x: x.fn.variables, lambda a, b: a if order[a] >= order[b] else b,
                         through_guarded=False)
