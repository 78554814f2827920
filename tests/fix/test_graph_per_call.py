"""One tf.function per call of a caller (``decorate-per-call``): for a step that ``run`` saw handed
new objects that build variables after its first call (a model trained, restored into a fresh
one, trained again). One tf.function for the program raises there (TF401); one made where the
models are received traces each model first. The advice names the caller, the planner turns it
into a ``GraphPerCall`` on the caller's file, the transformer writes ``step_fn = tf.function(step)``
at the caller's top and sends its calls through it."""

from __future__ import annotations

import textwrap

from tfadvisor.advice.measured import advice_edits
from tfadvisor.fix.edits import GraphPerCall
from tfadvisor.fix.planner import Options, plan
from tfadvisor.fix.transform import apply_edits
from tfadvisor.model import Advice, AdviceEdit, Facts, FunctionReport, Report, Verdict

RESUME = textwrap.dedent('''\
    import tensorflow as tf


    def train_step(model, optimizer, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x) - y) ** 2)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss


    def run_epochs(model, optimizer, batches):
        """Train one model on every batch."""
        for x, y in batches:
            loss = train_step(model, optimizer, x, y)
        return loss
''')


def _edit(**kw) -> GraphPerCall:
    return GraphPerCall(origin="decorate", qualname="run_epochs", callee="train_step", **kw)


def test_the_caller_makes_the_tf_function_and_calls_through_it() -> None:
    result = apply_edits(RESUME, [_edit()])
    assert result.applied and not result.skipped
    body = result.code.split("def run_epochs", 1)[1]
    lines = [line.strip() for line in body.splitlines()]
    # after the docstring, before the loop; the call goes through the new local
    assert lines[1] == '"""Train one model on every batch."""'
    assert lines[2] == "train_step_fn = tf.function(train_step)"
    assert "loss = train_step_fn(model, optimizer, x, y)" in lines
    assert "def train_step(model, optimizer, x, y):" in result.code  # the step itself is untouched
    compile(result.code, "m.py", "exec")


def test_a_method_called_on_self_is_wrapped_bound_and_names_do_not_clash() -> None:
    code = textwrap.dedent('''\
        import tensorflow as tf


        class Trainer:
            def step(self, x):
                return x * 2.0

            def fit(self, data):
                step_fn = None
                for x in data:
                    self.step(x)
                return step_fn
    ''')
    result = apply_edits(code, [GraphPerCall(origin="decorate", qualname="Trainer.fit", callee="step")])
    assert result.applied
    assert "step_graph = tf.function(self.step)" in result.code  # `step_fn` is taken
    assert "step_graph(x)" in result.code


def test_two_spellings_or_no_call_are_skipped_with_the_reason() -> None:
    head, _, _ = RESUME.rpartition("    return loss\n")
    code = head + "    return loss + steps.train_step(model, optimizer, x, y)\n"
    code = code.replace("def run_epochs", "import steps\n\n\ndef run_epochs")
    result = apply_edits(code, [_edit()])
    assert not result.applied and "called as" in result.skipped[0][1]
    assert apply_edits(code, [GraphPerCall(origin="decorate", qualname="train_step", callee="run_epochs")]).skipped


def test_the_import_is_added_when_the_module_has_no_tensorflow_alias() -> None:
    code = RESUME.replace("import tensorflow as tf\n", "from tensorflow import GradientTape, reduce_mean\n")
    code = code.replace("tf.GradientTape", "GradientTape").replace("tf.reduce_mean", "reduce_mean")
    result = apply_edits(code, [_edit()])
    assert result.applied and result.import_added == "import tensorflow as tf"
    assert "train_step_fn = tf.function(train_step)" in result.code


def test_the_advice_names_the_caller_only_for_decorate() -> None:
    edits = advice_edits(Verdict.DECORATE, None, {}, per_call_of="m.py::run_epochs")
    assert edits == [AdviceEdit("decorate-per-call", caller="m.py::run_epochs")]
    assert advice_edits(Verdict.LEAVE_EAGER, None, {}, per_call_of="m.py::run_epochs") == []
    assert advice_edits(Verdict.DECORATE, None, {}) == [AdviceEdit("decorate")]


def _report(caller_path: str) -> Report:
    def fn(path: str, qualname: str, advice: Advice | None) -> FunctionReport:
        return FunctionReport(id=f"{path}::{qualname}", path=path, qualname=qualname, line=1, end_line=2,
                              decorated=False, facts=Facts(), verdict=advice.verdict if advice else Verdict.LEAVE_EAGER,
                              advice=advice)
    step = fn("steps.py", "train_step", Advice(Verdict.DECORATE, edits=[
        AdviceEdit("decorate-per-call", caller=f"{caller_path}::run_epochs")]))
    return Report(functions=[step, fn(caller_path, "run_epochs", None)])


def test_the_planner_puts_the_edit_on_the_callers_file() -> None:
    result = plan(_report("train.py"), Options())
    assert list(result.edits) == ["train.py"]
    (edit,) = result.edits["train.py"]
    assert isinstance(edit, GraphPerCall) and edit.qualname == "run_epochs" and edit.callee == "train_step"
    assert not result.skipped


def test_the_planner_skips_a_caller_the_report_does_not_hold() -> None:
    report = _report("train.py")
    report.functions.pop()
    result = plan(report, Options())
    assert not result.edits and "not in the report" in result.skipped[0].reason
