"""The planner: which verdicts and findings become edits, and the input_signature built from run's signatures."""

from __future__ import annotations

from tfadvisor.fix.edits import AddDecorator, SetDecoratorOptions, TensorSpecData
from tfadvisor.fix.planner import Options, input_signature, observed_calls, plan
from tfadvisor.model import Facts, Finding, FixInfo, FunctionReport, Measurement, Report, Severity, Verdict


def _fn(qualname: str, verdict: Verdict, reasons: list[str], **kw) -> FunctionReport:
    return FunctionReport(id=f"m.py::{qualname}", path="m.py", qualname=qualname, line=1, end_line=2,
                          decorated=kw.pop("decorated", verdict is not Verdict.DECORATE), facts=Facts(),
                          verdict=verdict, reasons=reasons, **kw)


def test_signature_from_runtime_named_signatures() -> None:
    calls = observed_calls(Measurement(calls=2, signatures=[
        {"self": ["object", "Model", 1], "x": ["tensor", "float32", [32, 3]], "y": ["tensor", "int64", []]},
        {"self": ["object", "Model", 1], "x": ["tensor", "float32", [7, 3]], "y": ["tensor", "int64", []]},
    ]))
    assert input_signature(calls) == (TensorSpecData((None, 3), "float32"), TensorSpecData((), "int64"))


def test_no_signature_when_a_python_value_or_variable_or_nesting_was_seen() -> None:
    assert input_signature([[["tensor", "float32", [2]], ["value", "int", "3"]]]) is None
    assert input_signature([[["variable", "float32", [2]]]]) is None
    assert input_signature(observed_calls(Measurement(calls=1, signatures=[
        {"batch": ["container", "dict", 1], "batch['x']": ["tensor", "float32", [2]]}]))) is None
    assert input_signature([[["tensor", "float32", [2, 3]]], [["tensor", "int32", [2, 3]]]]) is None  # dtype changed
    assert input_signature([[["tensor", "float32", [2, 3]]], [["tensor", "float32", [2]]]]) == (
        TensorSpecData(None, "float32"),)  # rank changed
    assert input_signature([]) is None


def test_reconfigure_uses_signature_when_known_else_reduce_retracing() -> None:
    report = Report(functions=[_fn("a", Verdict.RECONFIGURE, ["TF104"]), _fn("b", Verdict.RECONFIGURE, ["TF104"]),
                               _fn("c", Verdict.RECONFIGURE, ["TF506", "TF601"]),
                               _fn("d", Verdict.RECONFIGURE, ["TF101"]), _fn("e", Verdict.RECONFIGURE, ["TF601"])])
    by_id = {f.qualname: f for f in report.functions}
    by_id["a"].measurement = Measurement(calls=2, signatures=[{"x": ["tensor", "float32", [4, 2]]},
                                                              {"x": ["tensor", "float32", [5, 2]]}])
    by_id["c"].measurement = Measurement(calls=2, xla_equivalent=True)
    by_id["e"].measurement = Measurement(calls=2, signatures=[{"x": ["tensor", "float32", [2]], "step": ["value", "int", "1"]},
                                                              {"x": ["tensor", "float32", [2]], "step": ["value", "int", "2"]}])
    result = plan(report, Options())
    edits = {e.qualname: e for e in result.edits["m.py"]}
    assert isinstance(edits["a"], SetDecoratorOptions)
    assert edits["a"].input_signature == (TensorSpecData((None, 2), "float32"),)
    assert edits["b"].reduce_retracing is True and edits["b"].input_signature is None
    assert edits["c"].jit_compile is True and edits["c"].reduce_retracing is True
    # Python values that change: reduce_retracing would not stop the traces, so no option edit.
    assert "d" not in edits and "e" not in edits
    assert {s.what for s in result.skipped} == {"reconfigure d", "reconfigure e"}
    assert all("Python arguments" in s.reason for s in result.skipped)


def test_certain_only_by_default_and_unknown_reasons_are_skipped() -> None:
    report = Report(functions=[
        _fn("sure", Verdict.DECORATE, ["TF501"]),
        _fn("guess", Verdict.DECORATE, ["TF501"], confidence="speculative"),
        _fn("odd", Verdict.RECONFIGURE, ["TF999"]),
        _fn("kept", Verdict.KEEP, []),
    ])
    safe = plan(report, Options())
    assert [e.qualname for e in safe.edits["m.py"]] == ["sure"]
    reasons = {s.what: s.reason for s in safe.skipped}
    assert "speculative" in reasons["decorate guess"] and "TF999" in reasons["reconfigure odd"]
    unsafe = plan(report, Options(unsafe=True))
    added = [e for e in unsafe.edits["m.py"] if isinstance(e, AddDecorator)]
    assert [(e.qualname, e.safe) for e in added] == [("sure", True), ("guess", False)]


def test_findings_need_a_fix_and_advice_findings_are_left_to_verdicts() -> None:
    def finding(rule: str, safe: bool | None, suppressed: bool = False) -> Finding:
        return Finding(rule=rule, severity=Severity.WARNING, path="m.py", line=2, col=4, end_line=2, end_col=9,
                       function="m.py::a", message=rule, suppressed=suppressed,
                       fix=None if safe is None else FixInfo(safe=safe, description=rule))

    report = Report(functions=[_fn("a", Verdict.KEEP, [])],
                    findings=[finding("TF201", True), finding("TF201", True, suppressed=True), finding("TF202", None),
                              finding("TF506", False), finding("TF402", True), finding("TF307", False)])
    result = plan(report, Options())
    assert [e.origin for e in result.edits["m.py"]] == ["TF201"]
    assert [e.location.def_offset for e in result.edits["m.py"]] == [1]
    reasons = sorted(s.reason for s in result.skipped)
    assert reasons == ["no automatic edit for this rule yet", "unsafe fix; --unsafe-fixes applies it"]


def test_select_and_ignore_prefixes_and_verdict_names() -> None:
    opts = Options(select=("TF2", "decorate"), ignore=("TF203",))
    assert opts.wants(["TF201"]) and opts.wants(["decorate", "TF501"])
    assert not opts.wants(["TF203"]) and not opts.wants(["TF307"]) and not opts.wants(["undecorate", "TF502"])
    assert Options().wants(["anything"])


def test_jit_compile_needs_checked_xla_results_or_unsafe() -> None:
    report = Report(functions=[_fn("f", Verdict.DECORATE, ["TF501", "TF506"]),
                               _fn("g", Verdict.RECONFIGURE, ["TF506"])])
    safe = plan(report, Options())
    assert [(e.qualname, e.jit_compile) for e in safe.edits["m.py"]] == [("f", None)]
    assert all("XLA results were not checked" in s.reason for s in safe.skipped)
    unsafe = plan(report, Options(unsafe=True))
    assert [(e.qualname, e.jit_compile) for e in unsafe.edits["m.py"]] == [("f", True), ("g", True)]


def test_retrace_explained_by_a_python_value_gets_no_reduce_retracing() -> None:
    from tfadvisor.model import Measurement

    by_value = _fn("t", Verdict.RECONFIGURE, ["TF601", "TF503"], measurement=Measurement(
        calls=120, traces=120, retraces=["call 2 traced again: `step` Python value 1 (closest earlier trace: 0)"]))
    by_shape = _fn("u", Verdict.RECONFIGURE, ["TF601"], measurement=Measurement(
        calls=9, traces=3, retraces=["call 4 traced again: `x` shape [7, 3] (closest earlier trace: [32, 3])"]))
    result = plan(Report(functions=[by_value, by_shape]), Options())
    assert [(e.qualname, e.reduce_retracing) for e in result.edits["m.py"]] == [("u", True)]
    assert [s.what for s in result.skipped] == ["reconfigure t"]


def test_a_saved_report_is_planned_like_the_one_in_memory() -> None:
    """fix --from reads the typed Measurement back from JSON: same edit as from the report in memory."""
    m = Measurement(calls=3, xla_equivalent=True,
                    signatures=[{"x": ["tensor", "float32", [4, 2]]}, {"x": ["tensor", "float32", [9, 2]]}])
    fn = _fn("f", Verdict.RECONFIGURE, ["TF104", "TF506"], measurement=m)
    [edit] = plan(Report(functions=[fn]), Options()).edits["m.py"]
    assert edit.input_signature == (TensorSpecData((None, 2), "float32"),) and edit.jit_compile is True
    [again] = plan(Report.from_dict(Report(functions=[fn]).to_dict()), Options()).edits["m.py"]
    assert again == edit


def test_measured_advice_is_applied_as_it_is() -> None:
    """fix --from applies the Advice's edits: the option the policy chose (reduce_retracing, not an
    input_signature recomputed from reason codes) and the call-site change of a decorate (issue 21)."""
    from tfadvisor.fix.edits import PassAsTensors
    from tfadvisor.model import Advice, AdviceEdit

    signatures = [{"x": ["tensor", "float32", [8, 3]]}, {"x": ["tensor", "float32", [4, 3]]}]
    relaxed = _fn("relax", Verdict.RECONFIGURE, ["TF601", "TF104"], decorated=True,
                  measurement=Measurement(calls=9, signatures=signatures),
                  advice=Advice(Verdict.RECONFIGURE, option="reduce_retracing",
                                edits=[AdviceEdit("set-option", option="reduce_retracing")]))
    epoch = _fn("step", Verdict.DECORATE, ["TF501", "TF601", "TF101"], measurement=Measurement(calls=9),
                advice=Advice(Verdict.DECORATE, option="input_signature",
                              edits=[AdviceEdit("decorate"), AdviceEdit("pass-as-tensors", arguments={"epoch": "int32"})]))
    xla = _fn("fast", Verdict.RECONFIGURE, ["TF506"], decorated=True, measurement=Measurement(calls=9),
              advice=Advice(Verdict.RECONFIGURE, option="jit_compile", edits=[AdviceEdit("set-option", option="jit_compile")]))
    result = plan(Report(functions=[relaxed, epoch, xla]))
    edits = result.edits["m.py"]
    options = next(e for e in edits if isinstance(e, SetDecoratorOptions))
    assert options.reduce_retracing is True and options.input_signature is None
    assert any(isinstance(e, AddDecorator) and e.qualname == "step" and e.input_signature is None for e in edits)
    assert any(isinstance(e, PassAsTensors) and e.arguments == (("epoch", "int32"),) for e in edits)
    assert [s.what for s in result.skipped] == ["jit_compile=True on fast"]  # XLA results unchecked: listed
