"""Hazards: which rule hits stand against a function, folded over what it calls.

A function's own real hits in graph-scope rules (not suppressed) count for it and, when the rule
is transitive, for every caller; hits about a function found elsewhere (its own decorator, a call
site that passes it a Python value) count for that function only. ``advice/static.py`` decides
from the result; ``check.py`` turns the real hits into findings.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tfadvisor.analysis.project import Linked, Project
from tfadvisor.analysis.summary import CallSite, FunctionSummary, Hit, ModuleSummary
from tfadvisor.rules.base import Rule

# (rule code, severity, speculative): one hazard as the decision steps see it.
HazardKey = tuple[str, str, bool]


@dataclass
class Found:
    real_hits: dict[str, list[tuple[Hit, bool]]] = field(default_factory=dict)  # id -> (hit, speculative)
    hazards: dict[str, frozenset[HazardKey] | set[HazardKey]] = field(default_factory=dict)
    module_hits: list[tuple[ModuleSummary, Hit]] = field(default_factory=list)  # top-level hits that stand


def collect(project: Project, by_code: dict[str, type[Rule]], modules: list[ModuleSummary]) -> Found:
    """Every function's real hits and its hazards (its own, its callees', and those about it)."""
    found = Found()
    suppressions = {m.path: m.suppressed for m in modules if m.suppressed}
    own: dict[str, frozenset[HazardKey]] = {}
    about: dict[str, set[HazardKey]] = defaultdict(set)
    for fid, linked in project.functions.items():
        kept = _real_hits(project, fid, linked, by_code, about)
        found.real_hits[fid] = kept
        table = suppressions.get(linked.fn.path, {})
        mine = frozenset((h.rule, by_code[h.rule].severity.value, spec) for h, spec in kept
                         if h.rule in by_code and by_code[h.rule].scope in ("graph", "project")
                         and h.callee is None and not silenced(table, h.rule, (h.line, linked.fn.line)))
        own[fid] = frozenset(h for h in mine if by_code[h[0]].transitive)
        about[fid].update(h for h in mine if not by_code[h[0]].transitive)
        if linked.decorated:  # e.g. TF406 on its own decorator
            about[fid].update((h.rule, by_code[h.rule].severity.value, spec) for h, spec in kept
                              if h.rule in by_code and by_code[h.rule].scope in ("always", "decorated")
                              and h.callee is None and h.line <= linked.fn.line
                              and not silenced(table, h.rule, (h.line, linked.fn.line)))
    for mod in modules:
        for hit in mod.module_hits:
            if hit.rule not in by_code or not by_code[hit.rule].hit_stands(project, mod, hit):
                continue
            if hit.callee is not None:
                target = decorated_callee(project, None, mod.module, hit, mod.path)
                if target is None:
                    continue
                about[target].add((hit.rule, by_code[hit.rule].severity.value, hit.speculative))
            found.module_hits.append((mod, hit))
    def across(caller: Linked, site: CallSite, target: FunctionSummary, theirs: frozenset[HazardKey]) -> frozenset[HazardKey]:
        # a function tf.py_function runs is Python even inside a graph: its hazards stay with it
        return frozenset() if project.functions[target.id].eager_reason is not None else theirs

    eager_run = any(x.eager_reason is not None for x in project.functions.values())
    folded = project.fold(lambda x: own[x.fn.id], lambda a, b: a | b, through_guarded=False,
                          via=across if eager_run else None)
    found.hazards = {fid: folded[fid] | about.get(fid, set()) for fid in folded}
    return found


def _real_hits(project: Project, fid: str, linked: Linked, by_code: dict[str, type[Rule]],
               about: dict[str, set[HazardKey]]) -> list[tuple[Hit, bool]]:
    """The function's hits that stand (with whether each is speculative); a hit about a callee
    goes to that tf.function's ``about`` set."""
    kept = []
    module = project.module_summary(linked.fn.module)
    for h in [*linked.fn.hits, *project.project_hits.get(fid, [])]:
        if h.rule in by_code and module is not None and not by_code[h.rule].hit_stands(project, module, h):
            continue
        spec = speculative(h, linked)
        if spec is None or (h.rule == "TF202" and project.escapes.only_trace_local(fid, h.line, h.col)):
            continue  # a change to an object the trace made (analysis/escape.py)
        if h.callee is not None:
            target = decorated_callee(project, linked.fn, linked.fn.module, h)
            if target is None:
                continue
            about[target].add((h.rule, by_code[h.rule].severity.value, spec))
        kept.append((h, spec))
    return kept


def speculative(hit: Hit, linked: Linked) -> bool | None:
    """None if the hit is not real (it needs a parameter that is a Python value, or to run without
    AutoGraph where the function does not), else speculative?"""
    if hit.unconverted_only and linked.unconverted is None:
        return None
    if not hit.depends_on:
        return hit.speculative
    if any(p.startswith("#") for p in hit.depends_on):
        # "#x": the hit stands only where call sites pass x NumPy arrays (rules/tf109_numpy_float64_argument.py)
        facts = [linked.params.get(p.lstrip("#")) for p in hit.depends_on]
        return hit.speculative if all(k is not None and k.rich == "numpy" and not k.mixed for k in facts) else None
    if any(p.startswith("~") for p in hit.depends_on):
        # "~x": the hit stands only where call sites (or an annotation) show x is a Python value
        # (rules/tf310_python_cond_predicate.py): never guessed, never mixed with tensors, and not
        # where an input_signature converts what callers pass to tensors
        if "input_signature" in {**linked.fn.decorator_options, **linked.wrap_options}:
            return None
        facts = [linked.params.get(p.lstrip("~")) for p in hit.depends_on]
        return hit.speculative if all(k is not None and k.kind == "primitive" and k.strength >= 2 and not k.guessed
                                      and not k.mixed for k in facts) else None
    if any(p.startswith("!") for p in hit.depends_on):
        # "!x": the hit stands only where a call site shows x is a tensor (a comprehension over a
        # parameter is as often over a list: no guess, not even an info-level one).
        certain = [linked.params.get(p.lstrip("!")) for p in hit.depends_on]
        return hit.speculative if any(k is not None and k.kind == "tensor" and not k.guessed and not k.mixed
                                      and k.rich in ("unknown", "tensor") for k in certain) else None
    kinds = [linked.params.get(p) for p in hit.depends_on]
    if any(k is not None and k.kind == "tensor" and not k.guessed and not k.mixed for k in kinds):
        return hit.speculative
    if all(k is not None and k.kind == "primitive" for k in kinds):
        return None
    if any(k is not None and k.kind == "object" for k in kinds) and not any(
            k is not None and k.kind in ("tensor", "unknown") for k in kinds):
        return None
    return True


def decorated_callee(project: Project, caller: FunctionSummary | None, module: str, hit: Hit,
                     path: str | None = None) -> str | None:
    """The id of the tf.function a hit with ``callee`` is about, or None if the hit does not stand."""
    target = project.resolve(caller, module, hit.callee or "", hit.line, path)
    if target is None:
        return None
    linked = project.functions[target.id]
    # ``NN(x)`` where only ``NN_func = tf.function(NN)`` is a tf.function: the Python function runs
    return target.id if linked.decorated and not linked.runs_python_as(hit.callee or "") else None


def silenced(table: dict[int, frozenset[str] | None], rule: str, lines: tuple[int, ...]) -> bool:
    """Whether ``# tfadvisor: ignore[...]`` on any of ``lines`` silences ``rule``."""
    for line in lines:
        if line in table:
            codes = table[line]
            if codes is None or rule in codes:
                return True
    return False
