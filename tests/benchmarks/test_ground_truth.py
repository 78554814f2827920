"""The harness: source variants, the labelling rule, and one real function run eagerly and as a graph."""

from __future__ import annotations

import ast
import json

import pytest

import ground_truth as gt

SOURCE = '''import tensorflow as tf


@tf.function(reduce_retracing=True)
def decorated(x):
    """Doc."""
    return x + 1


class Model:
    def step(self, x):
        def inner(y):
            return y * 2
        return inner(x)
'''


def test_eager_variant_removes_the_decorator_and_counts_body_runs():
    out = gt.variant_source(SOURCE, "decorated", "eager")
    fn = gt.find_function(ast.parse(out), "decorated")
    assert fn.decorator_list == []
    assert ast.unparse(fn.body[1]) == "__tfa_count__()"  # after the docstring


def test_graph_variant_keeps_options_and_decorates_nested_functions():
    out = gt.variant_source(SOURCE, "decorated", "graph")
    assert "@__tfa_function__(reduce_retracing=True)" in out
    nested = gt.variant_source(SOURCE, "Model.step.<locals>.inner", "graph")
    inner = gt.find_function(ast.parse(nested), "Model.step.<locals>.inner")
    assert ast.unparse(inner.decorator_list[0]) == "__tfa_function__"


def _obs(decorated=False, eager=None, graph=None, **variants):
    base = {"ok": True, "error": None, "calls": 100, "est_s": 1.0, "tensor_work": True, "body_runs": 100,
            "equivalent": None, "differences": []}
    modes = {"eager": {**base, **(eager or {})}, "graph": {**base, "equivalent": True, "body_runs": 1, **(graph or {})}}
    for name, m in variants.items():
        modes[name] = {**base, "equivalent": True, **m}
    return {"decorated": decorated, "modes": modes}


@pytest.mark.parametrize(
    ("obs", "verdict"),
    [
        (_obs(graph={"est_s": 0.5}), "decorate"),
        (_obs(graph={"est_s": 0.9}), "leave-eager"),
        (_obs(graph={"ok": False, "error": "ValueError: x"}), "leave-eager"),  # payoff not measured
        (_obs(graph={"equivalent": False, "differences": ["d"], "est_s": 0.5}), "fix-first"),  # pays once fixed
        (_obs(graph={"equivalent": False, "differences": ["d"], "est_s": 0.9}), "leave-eager"),  # would not pay
        (_obs(decorated=True, graph={"ok": False, "error": "ValueError: x"}), "fix-first"),
        (_obs(eager={"calls": 3}, graph={"equivalent": False, "differences": ["d"]}), "leave-eager"),
        (_obs(decorated=True, graph={"equivalent": False, "differences": ["d"]}), "fix-first"),
        (_obs(decorated=True, graph={"est_s": 0.5}), "keep"),
        (_obs(decorated=True, graph={"est_s": 2.0}), "undecorate"),
        (_obs(decorated=True, graph={"est_s": 2.0, "body_runs": 50}, relaxed={"est_s": 0.5, "body_runs": 2}), "reconfigure"),
        # reduce_retracing that does not cut traces is noise, not a reason to reconfigure
        (_obs(decorated=True, graph={"est_s": 2.0, "body_runs": 5}, relaxed={"est_s": 0.5, "body_runs": 5}), "undecorate"),
        (_obs(decorated=True, eager={"tensor_work": False}), "undecorate"),
        (_obs(eager={"tensor_work": False}), "leave-eager"),
    ],
)
def test_labelling_rule(obs, verdict):
    assert gt.label(obs)[0] == verdict


def test_labels_are_the_tools_own_policy_applied_to_their_observations():
    """One written rule: every stored label is what advice/policy.py decides from the harness's
    observations (the labels are regenerated when the policy changes: corpus_digest covers it)."""
    from tfadvisor.advice import policy

    labels = json.loads(gt.LABELS.read_text())["functions"]
    for fid, entry in labels.items():
        obs = entry["observations"]
        if entry["label"] is None:
            continue
        assert entry["label"] == policy.decide(gt.evidence(obs)).verdict.value == gt.label(obs)[0], fid


def test_random_draws_are_compared_by_shape_only():
    eager = {"outputs": [[1.0, 2.0]], "state": {}}
    again = {"outputs": [[1.0, 3.0]], "state": {}}
    paths = gt.random_paths(eager, again)
    assert paths == {"outputs[0][1]"}
    assert gt.differences([[1.0, 2.0]], [[1.0, 7.0]], "outputs", random=frozenset(paths)) == []
    assert gt.differences([[1.0, 2.0]], [[5.0, 7.0]], "outputs", random=frozenset(paths))


def test_borderline_only_for_timing_decisions():
    from tfadvisor.advice import policy

    assert gt.borderline(_obs(graph={"est_s": 1.0 / policy.DECORATE_SPEEDUP}))  # exactly at the decorate threshold
    assert not gt.borderline(_obs(graph={"est_s": 0.2}))  # 5x: clear
    assert not gt.borderline(_obs(graph={"ok": False, "error": "E"}))  # an error is never noise


def test_robust_total_keeps_traces_and_medians_the_rest():
    total, special = gt.robust_total([5.0, 1.0, 9.0, 1.0, 1.0], [True, False, True, False, False], graph=True)
    assert (total, special) == (5.0 + 9.0 + 3 * 1.0, 2)
    eager_total, _ = gt.robust_total([5.0, 1.0, 9.0, 1.0, 1.0], [True] * 5, graph=False)
    assert eager_total == 5.0 + 4 * 1.0  # eager: a spike counts at the median


@pytest.mark.slow
def test_a_real_side_effect_is_measured_as_a_break(capsys):
    pytest.importorskip("tensorflow")
    assert gt.main(["--only", "mlproj/hazards_state.py::counted_step", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "breaks under tf.function" in out  # never labelled graph advice (decorate / keep)
    assert "state.calls" in out  # the global counter moved once under tf.function, 50 times eagerly
