"""Which Python state changes outlive a trace, and which only touch objects the trace made.

A tf.function runs its Python code once, while tracing: a change to Python state that outlives
the call (a global, an object the caller keeps) happens once, not per call (TF202, TF203). But
object-detection code builds small helper objects inside the traced function (``boxes =
BoxList(t); boxes.add_field("scores", s)``) and passes them down: their state lives and dies
within one trace and the graph computes the same as eager code (checked under TensorFlow 2.21:
tests/check/test_trace_local.py). So each mutation is tracked by whose state it changes, in the
terms of the function that makes it:

- ``outer``: a global, a closed-over or otherwise outliving object: it outlives any trace;
- ``self``: the receiver's state; ``param:<name>``: the object a parameter holds.

At a call site these map to the caller's terms: ``self`` to what the method was called on
(``self.x.m()`` keeps ``self``; an object made in the caller, ``b = BoxList(); b.m()``, drops it),
``param:p`` to the argument passed for ``p`` (the caller's own parameter, or a new object: dropped).
A function that is graph code only through its callers, whose every caller passes objects made in
the trace for ``self`` or ``p``, changes only trace-local state there (``trace_local``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING

from tfadvisor.analysis.summary import CallSite, FunctionSummary

if TYPE_CHECKING:  # the project pass owns an Escape: imported for types only
    from tfadvisor.analysis.project import Linked, Project

# root -> (the function whose own code changes it, what it does): the first seen per root
Mutations = Mapping[str, tuple[str, str]]
_BASE = re.compile(r"[A-Za-z_]\w*")


def root_of(fn: FunctionSummary, what: str) -> str:
    """Whose state ``what`` (a side-effect fact: ``sets self.data[k]``, ``history.append()``)
    changes, in ``fn``'s terms."""
    expr = what[5:] if what.startswith("sets ") else what[:-2] if what.endswith("()") else ""
    match = _BASE.match(expr)
    base = match.group(0) if match else ""
    if base in ("self", "cls"):
        return "self"
    if base and fn.param(base) is not None:
        return f"param:{base}"
    return "outer"


def is_mutation(what: str) -> bool:
    """A change of Python state (not I/O, not a print): sets, writes, or a mutating method call."""
    return what.startswith(("sets ", "writes ")) or what.endswith("()")


class Escape:
    """Mutations per function (its own and its callees', in its own terms) and trace-local roots."""

    def __init__(self, project: Project) -> None:
        self.project = project

    @cached_property
    def mutations(self) -> dict[str, Mutations]:
        def own(linked: Linked) -> dict[str, tuple[str, str]]:
            out: dict[str, tuple[str, str]] = {}
            for _line, _col, what in linked.fn.side_effects:
                if is_mutation(what):
                    out.setdefault(root_of(linked.fn, what), (linked.fn.qualname, what))
            return out

        def combine(a: Mutations, b: Mutations) -> dict[str, tuple[str, str]]:
            return {**b, **a}

        return self.project.fold(own, combine, through_guarded=False, via=self.through)

    def through(self, caller: Linked, site: CallSite, callee: FunctionSummary, found: Mutations) -> Mutations:
        """``found`` (the callee's mutations, in its terms) in the caller's terms at ``site``."""
        if not found:
            return found
        out: dict[str, tuple[str, str]] = {}
        bound: dict[str, str] | None = None
        for root, value in found.items():
            if root == "self":
                mapped = self._receiver_root(site)
            elif root.startswith("param:"):
                if bound is None:
                    bound = {param: key for key, param, _kind in self.project.bind(site, callee)}
                mapped = self._argument_root(caller, site, bound.get(root[6:]))
            else:
                mapped = "outer"
            if mapped is not None:
                out.setdefault(mapped, value)
        return out

    def _receiver_root(self, site: CallSite) -> str | None:
        if site.callee.startswith(("self.", "cls.")):
            return "self"
        if site.on_instance and site.receiver is None:
            return None  # ``b = BoxList(t); b.add_field(...)``: an object this call made
        if site.receiver is not None and site.receiver[0] == "param":
            return f"param:{site.receiver[1]}"
        if site.receiver is not None and site.receiver[0] == "self":
            return "self"
        return "outer"

    def _argument_root(self, caller: Linked, site: CallSite, key: str | None) -> str | None:
        if key is None:
            return "outer"
        if key in site.forwarded:
            return f"param:{site.forwarded[key]}"
        if key in site.fresh:
            return None
        source = site.sources.get(key)
        if (source is not None and source[0] == "call" and isinstance(source[1], str)
                and self.project.class_named(caller.fn.module, source[1]) is not None):
            return None  # a local made from one of the project's classes in this call
        return "outer"

    def only_trace_local(self, fid: str, line: int, col: int) -> bool:
        """Whether the function's own change of state at ``line:col`` (a TF202 hit: the same node
        as its side-effect fact, analysis/state.py) touches only objects the trace made."""
        local = self.trace_local.get(fid)
        if not local:
            return False
        fn = self.project.functions[fid].fn
        return any(root_of(fn, what) in local for at_line, at_col, what in fn.side_effects
                   if (at_line, at_col) == (line, col) and is_mutation(what))

    @cached_property
    def trace_local(self) -> dict[str, frozenset[str]]:
        """Function id -> the roots (``self``, ``param:p``) that hold only objects made inside the
        trace: the function is graph code only through its callers, and each caller passes such
        objects (made there, or trace-local there too). Callers first, so chains resolve."""
        project = self.project
        roots = project.graph_roots
        out: dict[str, frozenset[str]] = {}
        for fid in project.callers_first():
            linked = project.functions[fid]
            if fid not in roots or roots[fid] == fid or not linked.callers:
                continue
            candidates = {"self"} | {f"param:{p.name}" for p in linked.fn.params}
            for caller_fn, site in linked.callers:
                if caller_fn is None or caller_fn.id not in roots:
                    continue  # called eagerly there: each call changes the state, no trace involved
                local = out.get(caller_fn.id, frozenset())
                caller = project.functions[caller_fn.id]
                # a root stays trace-local if the caller's object for it is made in the trace
                # (dropped) or is itself trace-local there
                candidates = {root for root in candidates
                              if all(m in local for m in self.through(caller, site, linked.fn, {root: ("", "")}))}
            if candidates:
                out[fid] = frozenset(candidates)
        return out
