"""fix/keras_edits.py: compile() options and tf.data edits made where the report says, formatting kept."""

from __future__ import annotations

import ast

from tfadvisor.fix.keras_edits import EditPipeline, SetCompileOptions, apply, plan
from tfadvisor.model import Report, RunSummary, Verdict
from tfadvisor.model_keras import CallSite, KerasTraining, PipelineEdit


def _site_of(code: str, method: str, nth: int = 0) -> dict:
    """The call site the observer records: the call's start and its closing parenthesis (ast positions)."""
    calls = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == method]
    calls.sort(key=lambda n: (n.end_lineno, n.end_col_offset))
    node = calls[nth]
    return dict(path="p.py", line=node.lineno, col=node.col_offset, end_line=node.end_lineno,
                end_col=node.end_col_offset, method=method)


COMPILE = '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(
    optimizer="adam",  # the default
    loss="mse",
    run_eagerly=True,
)
model.fit(x, y)
'''


def test_compile_options_set_and_appended_in_the_call_style() -> None:
    edit = SetCompileOptions(origin="TF606", options=(("run_eagerly", "False"), ("steps_per_execution", "32")),
                             **_site_of(COMPILE, "compile"))
    result = apply(COMPILE, [edit])
    assert result.applied == [edit]
    assert result.code == COMPILE.replace("    run_eagerly=True,\n", "    run_eagerly=False,\n    steps_per_execution=32,\n")
    again = apply(result.code, [SetCompileOptions(origin="TF606", options=edit.options,
                                                  **_site_of(result.code, "compile"))])
    assert not again.applied and again.unchanged  # idempotent


def test_compile_on_one_line() -> None:
    code = 'model.compile(optimizer="adam", loss="mse")\n'
    edit = SetCompileOptions(origin="TF606", options=(("jit_compile", "True"),), **_site_of(code, "compile"))
    assert apply(code, [edit]).code == 'model.compile(optimizer="adam", loss="mse", jit_compile=True)\n'


def test_run_eagerly_from_an_expression_is_left_to_the_user() -> None:
    code = 'model.compile(optimizer="adam", loss="mse", run_eagerly=args.debug)\n'
    edit = SetCompileOptions(origin="TF606", options=(("run_eagerly", "False"),), **_site_of(code, "compile"))
    result = apply(code, [edit])
    assert result.code == code and "expression" in result.skipped[0][1]


def test_compile_with_double_star_kwargs_is_skipped() -> None:
    code = "model.compile(**settings)\n"
    edit = SetCompileOptions(origin="TF606", options=(("jit_compile", "True"),), **_site_of(code, "compile"))
    assert "kwargs" in apply(code, [edit]).skipped[0][1]


PIPELINE = '''\
import tensorflow as tf

train = (tf.data.Dataset.from_tensor_slices((x, y))
         .map(load)  # decode
         .shuffle(1000)
         .map(augment)
         .batch(32))
'''


def test_pipeline_edits_in_one_chain() -> None:
    edits = [EditPipeline(origin="TF607", kind="parallel_map", **_site_of(PIPELINE, "map", 0)),
             EditPipeline(origin="TF607", kind="cache", **_site_of(PIPELINE, "map", 0)),
             EditPipeline(origin="TF607", kind="parallel_map", **_site_of(PIPELINE, "map", 1)),
             EditPipeline(origin="TF607", kind="prefetch", **_site_of(PIPELINE, "batch"))]
    result = apply(PIPELINE, edits)
    assert result.code == '''\
import tensorflow as tf

train = (tf.data.Dataset.from_tensor_slices((x, y))
         .map(load, num_parallel_calls=tf.data.AUTOTUNE).cache()  # decode
         .shuffle(1000)
         .map(augment, num_parallel_calls=tf.data.AUTOTUNE)
         .batch(32).prefetch(tf.data.AUTOTUNE))
'''
    again = apply(result.code, [EditPipeline(origin="TF607", kind="prefetch", **_site_of(result.code, "batch")),
                                EditPipeline(origin="TF607", kind="parallel_map", **_site_of(result.code, "map", 1))])
    assert not again.applied and len(again.unchanged) == 2


def test_a_call_that_moved_is_skipped_with_the_reason() -> None:
    site = _site_of(PIPELINE, "batch")
    site["end_line"] += 1
    result = apply(PIPELINE, [EditPipeline(origin="TF607", kind="prefetch", **site)])
    assert result.code == PIPELINE and "changed since the report" in result.skipped[0][1]


def test_import_added_when_tensorflow_is_not_imported() -> None:
    code = "import keras\n\nds = make().batch(8)\n"
    result = apply(code, [EditPipeline(origin="TF607", kind="prefetch", **_site_of(code, "batch"))])
    assert result.code == "import tensorflow as tf\nimport keras\n\nds = make().batch(8).prefetch(tf.data.AUTOTUNE)\n"


def test_plan_reads_the_measured_advice_only() -> None:
    site = CallSite(**_site_of(COMPILE, "compile"))
    advised = KerasTraining(id="p.py::<compile>@4", model="m", model_class="Sequential", compile_site=site,
                            verdict=Verdict.RECONFIGURE, options={"run_eagerly": False, "steps_per_execution": 32},
                            pipeline_edits=[PipelineEdit("prefetch", site)])
    kept = KerasTraining(id="p.py::<compile>@9", model="n", model_class="Sequential", compile_site=site,
                         verdict=Verdict.KEEP, options={"jit_compile": True})
    report = Report(command="run", run=RunSummary(keras=[advised, kept]))
    edits, skipped = plan(report, lambda codes: True)
    assert [type(e).__name__ for e in edits] == ["SetCompileOptions", "EditPipeline"]
    assert edits[0].options == (("run_eagerly", "False"), ("steps_per_execution", "32"))
    assert plan(report, lambda codes: "TF606" not in codes)[0] == [edits[1]]
    assert Report.from_dict(report.to_dict()).run.keras[0] == advised  # type: ignore[union-attr]
