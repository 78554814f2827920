"""From a Report to edits per file: which verdicts and findings become changes, and which do not.

A measured report (``run``, ``profile``) carries each function's ``Advice``: its edits are applied
as they are (``_plan_advice``), the option the policy chose included. Without one (``check``):
verdicts: ``decorate`` adds the decorator, ``undecorate`` removes it, ``reconfigure`` sets options
from the reasons. TF506: ``jit_compile=True``, only when XLA's results are known to match or with
unsafe fixes. Retracing (TF101/TF104/TF503/TF601): ``input_signature`` when the calls ``run``
observed were all tensors; ``reduce_retracing=True`` for shape retracing (TF104/TF601) that no
Python value explains. Python-value retracing no option cures: when ``run`` replayed those
arguments as tensors (one trace, same results: ``measurement.as_tensors``), their call sites in the
function's module pass them as tensors (``PassAsTensors``); otherwise nothing. Only
``certain`` verdicts unless unsafe fixes are allowed. Findings: the rule's fix from the registry
(``finding.fix``), safe ones by default, unsafe ones on request. Everything left out is a
``Skipped`` with the reason, so the summary can say why."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from tfadvisor.fix.edits import (
    RULE_EDITS,
    AddDecorator,
    Edit,
    GraphPerCall,
    Location,
    PassAsTensors,
    RemoveDecorator,
    SetDecoratorOptions,
    Skipped,
    TensorSpecData,
)
from tfadvisor.model import Advice, Finding, FunctionReport, Measurement, Report, Verdict, local_id, split_local_id
from tfadvisor.rules import get_rule

RETRACE_REASONS = ("TF101", "TF104", "TF503", "TF601")
SHAPE_RETRACE_REASONS = ("TF104", "TF601")  # retracing that reduce_retracing can cure
XLA_REASONS = ("TF506",)
DTYPES = {"float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
          "uint16", "uint32", "uint64", "bool", "string", "complex64", "complex128"}


@dataclass
class Options:
    unsafe: bool = False
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def wants(self, codes: Iterable[str]) -> bool:
        """Ruff-style prefixes (``TF2`` selects TF201...); verdict names (``decorate``) work too."""
        codes = [c.upper() for c in codes]
        select = [s.upper() for s in self.select]
        ignore = [s.upper() for s in self.ignore]
        if select and "ALL" not in select and not any(c.startswith(s) for c in codes for s in select):
            return False
        return not any(c.startswith(s) for c in codes for s in ignore)


@dataclass
class Plan:
    edits: dict[str, list[Edit]] = field(default_factory=dict)  # path -> edits
    skipped: list[Skipped] = field(default_factory=list)

    def add(self, path: str, edit: Edit) -> None:
        self.edits.setdefault(path, []).append(edit)


def plan(report: Report, options: Options | None = None) -> Plan:
    """Edits for every file of ``report`` (a measured report's ``Measurement`` carries what ``run``
    observed: argument signatures, XLA equivalence, numbers to pass as tensors)."""
    options = options or Options()
    result = Plan()
    functions = {fn.id: fn for fn in report.functions}
    for fn in report.functions:
        _plan_verdict(fn, options, result, functions)
    for finding in report.findings:
        _plan_finding(finding, functions.get(finding.function or ""), options, result)
    _plan_keras(report, options, result)
    return result


def _plan_keras(report: Report, options: Options, out: Plan) -> None:
    """A `run` report's measured Keras advice: compile() options and tf.data edits (fix/keras_edits.py)."""
    from tfadvisor.fix import keras_edits

    edits, skipped = keras_edits.plan(report, options.wants)
    for edit in edits:
        out.add(edit.path, edit)
    out.skipped += skipped


def _plan_verdict(fn: FunctionReport, options: Options, out: Plan,
                  functions: dict[str, FunctionReport] | None = None) -> None:
    if fn.advice is not None:
        _plan_advice(fn, fn.advice, options, out, functions or {})
        return
    verdict = Verdict(fn.verdict)
    codes = [verdict.value, *fn.reasons]
    if not verdict.edits_code or not options.wants(codes):
        return
    name = local_id(fn.id)  # ``train_step#2`` for a second definition: the one this entry judged
    what = f"{verdict.value} {name}"
    if fn.confidence != "certain" and not options.unsafe:
        out.skipped.append(Skipped(fn.path, what, "speculative verdict; --unsafe-fixes applies it"))
        return
    common: dict[str, Any] = dict(origin=verdict.value, reasons=tuple(fn.reasons), safe=fn.confidence == "certain",
                  qualname=name)
    if verdict is Verdict.DECORATE:
        if fn.decorated:
            return
        jit = _jit_compile(fn, options, out)
        retrace = _retrace_options(fn)
        out.add(fn.path, AddDecorator(**common, jit_compile=jit, description=f"add @tf.function to {name}",
                                      **(retrace if isinstance(retrace, dict) else {})))
    elif verdict is Verdict.UNDECORATE:
        if fn.decorated:
            out.add(fn.path, RemoveDecorator(**common, description=f"remove tf.function from {name}"))
    else:
        jit = _jit_compile(fn, options, out)
        retrace = _retrace_options(fn)
        if isinstance(retrace, str):
            tensors = _as_tensors(fn.measurement)
            if tensors and fn.decorated:
                names = ", ".join(f"`{name}`" for name, _ in tensors)
                out.add(fn.path, PassAsTensors(**common, arguments=tensors,
                                               description=f"pass {names} to {name} as tensors where it is called"))
            else:
                out.skipped.append(Skipped(fn.path, what, retrace))
            retrace = {}
        if jit is None and not retrace:
            if not any(r in RETRACE_REASONS + XLA_REASONS for r in fn.reasons):  # those said why already
                out.skipped.append(Skipped(fn.path, what, f"no option change is known for {', '.join(fn.reasons) or 'no reasons'}"))
            return
        edit = SetDecoratorOptions(**common, jit_compile=jit, **retrace)
        out.add(fn.path, replace(edit, description=f"set {edit.options_text()} on {name}"))


def _plan_advice(fn: FunctionReport, advice: Advice, options: Options, out: Plan,
                 functions: dict[str, FunctionReport]) -> None:
    """A measured report's answer, applied as it is: each of its edits (decorate with the option it
    chose, undecorate, set that option, pass Python numbers as tensors at the call sites), or a
    ``Skipped`` saying why not. Nothing is recomputed from reason codes: what was measured is
    what is applied."""
    verdict = advice.verdict
    if not verdict.edits_code or not options.wants([verdict.value, *fn.reasons]):
        return
    name = local_id(fn.id)
    what = f"{verdict.value} {name}"
    if fn.confidence != "certain" and not options.unsafe:
        out.skipped.append(Skipped(fn.path, what, "speculative verdict; --unsafe-fixes applies it"))
        return
    if not advice.edits:
        out.skipped.append(Skipped(fn.path, what, "the measured advice names no edit (" + (advice.why or "no option") + ")"))
        return
    common: dict[str, Any] = dict(origin=verdict.value, reasons=tuple(fn.reasons), safe=fn.confidence == "certain",
                                  qualname=name)
    for edit in advice.edits:
        if edit.kind == "decorate" and not fn.decorated:
            settings = _option_settings(fn, edit.option, options, out, required=False)
            out.add(fn.path, AddDecorator(**common, description=f"add @tf.function to {name}", **(settings or {})))
        elif edit.kind == "decorate-per-call" and not fn.decorated:
            caller = functions.get(edit.caller or "")
            if caller is None:
                out.skipped.append(Skipped(fn.path, what, f"its caller {edit.caller} is not in the report"))
            elif edit.option is not None:
                out.skipped.append(Skipped(fn.path, what, f"{edit.option} on a tf.function made per call is not "
                                                          "written by fix; make it by hand"))
            else:
                where = local_id(caller.id)
                out.add(caller.path, GraphPerCall(**{**common, "qualname": where}, callee=split_local_id(name)[0].split(".")[-1],
                                                  description=f"make one tf.function of {name} per call of {where}"))
        elif edit.kind == "undecorate" and fn.decorated:
            out.add(fn.path, RemoveDecorator(**common, description=f"remove tf.function from {name}"))
        elif edit.kind == "set-option":
            settings = _option_settings(fn, edit.option, options, out, required=True)
            if settings:
                change = SetDecoratorOptions(**common, **settings)
                out.add(fn.path, replace(change, description=f"set {change.options_text()} on {name}"))
        elif edit.kind == "pass-as-tensors":
            tensors = _as_tensors(Measurement(calls=0, as_tensors=edit.arguments))
            if tensors:
                names = ", ".join(f"`{n}`" for n, _ in tensors)
                out.add(fn.path, PassAsTensors(**common, arguments=tensors,
                                               description=f"pass {names} to {name} as tensors where it is called"))
            else:
                out.skipped.append(Skipped(fn.path, f"pass as tensors to {name}", "no argument with a known dtype"))


def _option_settings(fn: FunctionReport, option: str | None, options: Options, out: Plan, *,
                     required: bool) -> dict[str, Any] | None:
    """Decorator keywords for the option the advice chose; None (and a ``Skipped``) when it cannot
    be written. With ``required=False`` (decorate) the decorator is still added without it."""
    name = local_id(fn.id)
    if option is None:
        return {}
    if option == "reduce_retracing":
        return {"reduce_retracing": True}
    if option == "jit_compile":
        if (fn.measurement is not None and fn.measurement.xla_equivalent is True) or options.unsafe:
            return {"jit_compile": True}
        out.skipped.append(Skipped(fn.path, f"jit_compile=True on {name}",
                                   "XLA results were not checked against eager (XLA can change random streams "
                                   "and rounding); --unsafe-fixes applies it"))
        return None if required else {}
    if option == "input_signature":
        signature = input_signature(observed_calls(fn.measurement))
        if signature is not None:
            return {"input_signature": signature}
        out.skipped.append(Skipped(fn.path, f"input_signature on {name}",
                                   "the observed calls do not give one tensor dtype and rank per argument"))
        return None if required else {}
    out.skipped.append(Skipped(fn.path, f"{option} on {name}", "an option fix does not know"))
    return None if required else {}


def _jit_compile(fn: FunctionReport, options: Options, out: Plan) -> bool | None:
    """``True`` when TF506 asks for XLA and its results are known to match (or unsafe fixes are on).

    XLA may change results, not only speed: on examples/preprocessing.py, stateless random image
    ops under ``jit_compile=True`` gave another checksum than eager and plain tf.function. A
    report says XLA matched only with ``measurement.xla_equivalent: true``; otherwise the option
    waits for ``--unsafe-fixes``.
    """
    if not any(r in XLA_REASONS for r in fn.reasons):
        return None
    if (fn.measurement is not None and fn.measurement.xla_equivalent is True) or options.unsafe:
        return True
    out.skipped.append(Skipped(fn.path, f"jit_compile=True on {local_id(fn.id)}",
                               "XLA results were not checked against eager (XLA can change random streams "
                               "and rounding); --unsafe-fixes applies it"))
    return None


def _retrace_options(fn: FunctionReport) -> dict[str, Any] | str:
    """Options against retracing, or the reason none helps. ``reduce_retracing`` only generalises
    shapes: a Python value that changes still traces anew (measured on TF 2.21: 10 ints, 10 traces
    with or without it), so Python-argument retracing (TF101/TF503) gets no option edit."""
    if not any(r in RETRACE_REASONS for r in fn.reasons):
        return {}
    calls = observed_calls(fn.measurement)
    signature = input_signature(calls)
    if signature is not None:
        return {"input_signature": signature}
    if (_python_values_vary(calls) or _retraced_on_values(fn)
            or not any(r in SHAPE_RETRACE_REASONS for r in fn.reasons)):
        return ("Python arguments that change retrace whatever the options; "
                "pass them as tensors at the call site, or undecorate")
    return {"reduce_retracing": True}


def _as_tensors(m: Measurement | None) -> tuple[tuple[str, str], ...]:
    """(parameter, dtype) pairs ``run`` replayed as tensors with one trace and the same results."""
    found = (m.as_tensors if m is not None else None) or {}
    return tuple((name, dtype) for name, dtype in sorted(found.items())
                 if isinstance(name, str) and name.isidentifier() and dtype in DTYPES)


def _retraced_on_values(fn: FunctionReport) -> bool:
    """Whether ``run`` explained a retrace by a changed Python value (``runtime.signature`` words it
    "`step` Python value 1 (closest earlier trace: 0)")."""
    retraces = fn.measurement.retraces if fn.measurement else []
    return any("Python value" in r for r in retraces)


def _python_values_vary(calls: list[list[Any]]) -> bool:
    for position in zip(*calls, strict=False) if calls and len({len(c) for c in calls}) == 1 else ():
        values = [json.dumps(v, sort_keys=True, default=str) for v in position if _spec(v) is None]
        if len(set(values)) > 1:
            return True
    return False


def _plan_finding(finding: Finding, fn: FunctionReport | None, options: Options, out: Plan) -> None:
    if finding.suppressed or finding.fix is None or not options.wants([finding.rule]):
        return
    rule = get_rule(finding.rule)
    if rule is not None and rule.fix_by != "edit":
        return  # the function's verdict edit (decorator options) or the Keras advice carries it out
    at = Location(finding.line, 0, 0, cell=finding.cell, cell_line=finding.cell_line)  # cell and line in a notebook
    what = f"{finding.rule} at {at.where()}" + (f" in {local_id(fn.id)}" if fn else "")
    kind = RULE_EDITS.get(finding.rule)
    if kind is None:
        out.skipped.append(Skipped(finding.path, what, "no automatic edit for this rule yet"))
        return
    if not finding.fix.safe and not options.unsafe:
        out.skipped.append(Skipped(finding.path, what, "unsafe fix; --unsafe-fixes applies it"))
        return
    if fn is not None:
        location = Location(line=finding.line, col=finding.col, end_line=finding.end_line, function=local_id(fn.id),
                            def_offset=finding.line - fn.line, span=fn.end_line - fn.line,
                            cell=finding.cell, cell_line=finding.cell_line)
    else:
        location = Location(line=finding.line, col=finding.col, end_line=finding.end_line, cell=finding.cell,
                            cell_line=finding.cell_line)
    out.add(finding.path, kind(origin=finding.rule, reasons=(finding.rule,), safe=finding.fix.safe,
                               description=finding.fix.description, location=location))


# -- observed signatures -----------------------------------------------------------------------

def observed_calls(m: Measurement | None) -> list[list[Any]]:
    """The argument lists ``run`` observed for one function: ``Measurement.signatures`` in
    ``tfadvisor.runtime.signature``'s named form (``{"x": ["tensor", "float32", [32, 3]], "step":
    ["value", "int", "3"]}``), a leading ``self``/``cls`` object dropped."""
    return [_named_call(call) for call in (m.signatures if m is not None else None) or [] if isinstance(call, dict)]


def _named_call(named: dict[str, Any]) -> list[Any]:
    items = list(named.items())
    if items and items[0][0] in ("self", "cls") and isinstance(items[0][1], list) and items[0][1][:1] == ["object"]:
        items = items[1:]
    if any("[" in key or "." in key for key, _ in items):
        return [None]  # nested structures: no flat input_signature
    return [leaf for _, leaf in items]


def _spec(arg: Any) -> tuple[str, tuple[int | None, ...] | None] | None:
    """(dtype, shape) of a tensor argument (``["tensor", dtype, shape]``), None for anything else
    (Python values, variables: a TensorSpec would read them, objects)."""
    if not (isinstance(arg, list) and len(arg) == 3 and arg[0] == "tensor"):
        return None
    _, dtype, shape = arg
    if dtype not in DTYPES:
        return None
    if shape is None:
        return dtype, None
    if not isinstance(shape, (list, tuple)) or not all(d is None or isinstance(d, int) for d in shape):
        return None
    return dtype, tuple(shape)


def input_signature(calls: list[list[Any]]) -> tuple[TensorSpecData, ...] | None:
    """One TensorSpec per argument when every observed call passed only tensors of one dtype and
    rank per position; dimensions that varied become ``None``. None when that does not hold."""
    if not calls:
        return None
    specs = [[_spec(a) for a in call] for call in calls]
    width = len(specs[0])
    if width == 0 or any(len(s) != width for s in specs) or any(x is None for s in specs for x in s):
        return None
    out: list[TensorSpecData] = []
    for position in range(width):
        seen = [s[position] for s in specs]
        dtypes = {d for d, _ in seen}  # type: ignore[misc]
        shapes = [shape for _, shape in seen]  # type: ignore[misc]
        if len(dtypes) != 1:
            return None
        if any(s is None for s in shapes) or len({len(s) for s in shapes}) != 1:  # type: ignore[arg-type]
            out.append(TensorSpecData(None, dtypes.pop()))
            continue
        dims = tuple(d[0] if len(set(d)) == 1 else None for d in zip(*shapes, strict=False))
        out.append(TensorSpecData(dims, dtypes.pop()))
    return tuple(out)
