"""Observing Keras training in a real program (real TensorFlow, in this process): what is recorded,
the pipeline rebuilt from it, and the model left exactly as the program left it after measuring."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tfadvisor.runtime.keras.observe import KerasObserver
from tfadvisor.runtime.keras.session import KerasSession
from tfadvisor.runtime.run.hook import ProjectScope

FIXTURES = Path(__file__).parent / "fixtures"
tf = pytest.importorskip("tensorflow")


def _observe(name: str, monkeypatch: pytest.MonkeyPatch) -> tuple[KerasSession, dict]:
    from tfadvisor.runtime.run.session import run_program

    monkeypatch.chdir(FIXTURES)
    session = KerasSession(str(FIXTURES))
    session.install()
    try:
        program, _ = run_program(name, [])
    finally:
        session.remove()
    assert program.outcome == "ok", program.error
    return session, program.namespace or {}


def _line_of(name: str, text: str) -> int:
    return next(i for i, line in enumerate((FIXTURES / name).read_text().splitlines(), 1) if text in line)


def test_compile_fit_and_pipeline_are_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    session, _ = _observe("pipeline.py", monkeypatch)
    (record,) = session.observer.trainings()
    assert record.site is not None and record.site.line == _line_of("pipeline.py", "model.compile(")
    assert record.in_force == {"run_eagerly": False, "jit_compile": False, "steps_per_execution": 1}
    (fit,) = [c for c in record.calls if c.kind == "fit"]
    assert fit.steps == 2 * 16 and fit.wall_s > 0
    (training,) = session.summarize()
    assert training.data == "tf.data.Dataset" and training.steps_per_epoch == 16
    assert [(s.method, s.parallel, s.random) for s in training.pipeline] == [
        ("map", False, False), ("shuffle", None, None), ("map", False, True), ("batch", None, None)]
    assert [s.site.line for s in training.pipeline if s.site] == [
        _line_of("pipeline.py", ".map(standardize)"), _line_of("pipeline.py", ".shuffle("),
        _line_of("pipeline.py", ".map(jitter)"), _line_of("pipeline.py", ".batch(32)")]


def test_hooks_are_removed_after_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    import keras
    from tensorflow.python.data.ops import dataset_ops

    before = (keras.Model.fit, keras.Model.compile, dataset_ops.DatasetV2.map)
    _observe("pipeline.py", monkeypatch)
    assert (keras.Model.fit, keras.Model.compile, dataset_ops.DatasetV2.map) == before
    assert "fit" not in vars(keras.Model) or vars(keras.Model)["fit"] is before[0]


def test_pipeline_rebuilt_with_edits_gives_the_same_elements(tmp_path: Path) -> None:
    from tfadvisor.runtime.keras.pipeline import describe, rebuild

    observer = KerasObserver(ProjectScope([str(Path(__file__).parent)]))
    observer.install()
    try:
        dataset = tf.data.Dataset.range(40).map(lambda x: x * 3).filter(lambda x: x % 2 == 0).map(lambda x: x + 1)
        dataset = dataset.batch(4)
    finally:
        observer.remove()
    pipeline = describe(observer, dataset)
    assert pipeline is not None and [s.method for s in pipeline.stages] == ["map", "filter", "map", "batch"]
    assert pipeline.cache_point() == 2 and pipeline.parallel_possible and pipeline.prefetch_possible
    expected = [b.numpy().tolist() for b in dataset]
    for edits in [(), ("parallel_map",), ("parallel_map", "prefetch", "cache")]:
        assert [b.numpy().tolist() for b in rebuild(pipeline, edits)] == expected, edits


def test_no_cache_after_a_shuffle_or_a_random_map(monkeypatch: pytest.MonkeyPatch) -> None:
    from tfadvisor.runtime.keras.pipeline import describe

    observer = KerasObserver(ProjectScope([str(Path(__file__).parent)]))
    observer.install()
    try:
        shuffled = tf.data.Dataset.range(20).shuffle(5).map(lambda x: x + 1).batch(2)
        noisy = tf.data.Dataset.range(20).map(lambda x: tf.cast(x, tf.float32) + tf.random.uniform([])).batch(2)
    finally:
        observer.remove()
    assert describe(observer, shuffled).cache_point() is None  # type: ignore[union-attr]
    assert describe(observer, noisy).cache_point() is None  # type: ignore[union-attr]


@pytest.mark.slow
def test_measuring_leaves_the_model_as_the_program_left_it(monkeypatch: pytest.MonkeyPatch) -> None:
    session, namespace = _observe("eager_mlp.py", monkeypatch)
    (record,) = session.observer.trainings()
    model = record.model
    before = [v.numpy().copy() for v in model.variables + model.optimizer.variables]
    iterations = int(model.optimizer.iterations.numpy())
    session.measure(budget_s=40)
    (training,) = session.trainings
    assert training.trials and training.trials[0].name == "as compiled"
    after = [v.numpy() for v in model.variables + model.optimizer.variables]
    assert all((a == b).all() for a, b in zip(before, after, strict=True))
    assert int(model.optimizer.iterations.numpy()) == iterations
    assert model.run_eagerly is True and model.steps_per_execution == 1
    assert os.getcwd() == str(FIXTURES)
