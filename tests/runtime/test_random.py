"""Random draws are not behaviour differences (real TensorFlow, in the child worker).

A function is judged on speed when it draws at random (a tf.random.Generator, stateful random
ops), never told `fix-first: TF603` because eager and graph drew other numbers; and a calls factory
that draws without a seed gives the same verdict as seeded inputs, because every mode gets the
same inputs. A draw frozen at trace time (NumPy inside a tf.function) is still a difference."""

from __future__ import annotations

import pytest

from tfadvisor.model import Verdict


pytestmark = pytest.mark.tf
EAGER_GRAPH = ("eager", "graph")
MODULE = "runtime.tfa_random"


def ref(name: str) -> str:
    return f"{MODULE}:{name}"


def rules(result) -> set[str]:
    return set(result.reasons) | {f.rule for f in result.findings}


def test_unseeded_calls_factory_gives_the_verdict_of_seeded_inputs(profiler) -> None:
    unseeded = profiler.profile(ref("gram_total"), ref("unseeded_calls"), modes=EAGER_GRAPH)
    seeded = profiler.profile(ref("gram_total"), ref("seeded_calls"), modes=EAGER_GRAPH)
    assert unseeded.ok and seeded.ok
    assert unseeded.measurement.equivalent is True and "TF603" not in rules(unseeded)
    assert unseeded.measurement.random_values == []  # the inputs were the same in every mode
    assert unseeded.verdict is seeded.verdict


@pytest.mark.parametrize("name", ["jitter_with_generator", "jitter_with_stateful_ops"])
def test_random_augmentation_is_judged_on_speed_not_tf603(profiler, name: str) -> None:
    r = profiler.profile(ref(name), ref("image_calls"), modes=EAGER_GRAPH)
    assert r.ok, r.measurement.error
    assert r.measurement.equivalent is True, r.measurement.differences
    assert "TF603" not in rules(r)
    assert r.verdict in (Verdict.DECORATE, Verdict.LEAVE_EAGER)  # a speed verdict
    if name == "jitter_with_stateful_ops":  # said in the report: compared by shape and statistics
        assert r.measurement.random_values
        assert any("random" in a for a in r.assumptions)
    else:  # a Generator starts every mode from the same state: the values themselves match
        assert r.measurement.random_values == []


def test_numpy_draw_frozen_by_tracing_is_still_a_difference(profiler) -> None:
    r = profiler.profile(ref("frozen_numpy_noise"), ref("image_calls"), modes=EAGER_GRAPH)
    assert r.measurement.equivalent is False and "TF603" in rules(r)
