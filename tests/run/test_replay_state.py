"""Snapshots of plain containers keep references, never copies; restore puts the same objects back."""

from __future__ import annotations

import pytest

from tfadvisor.runtime.run.replay_state import restore, snapshot


class Opaque:
    """Stands for a variable, layer or optimizer: must never be copied."""

    def __deepcopy__(self, memo):  # a deep copy would be a bug: fail loudly
        raise AssertionError("copied")


def test_restore_puts_back_the_same_items_in_place() -> None:
    a, b, inner = Opaque(), Opaque(), [1, 2]
    state = {"weights": {"h1": a, "h2": b}, "log": inner, "pair": (inner, a), "tags": {"x"}}
    shot = snapshot(state)
    state["weights"]["h1"] = Opaque()  # replaced (what a deep-copying restore used to do)
    del state["weights"]["h2"]
    inner.append(3)
    state["tags"].add("y")
    state["new"] = 1
    weights = state["weights"]
    assert restore(shot) is state
    assert state["weights"] is weights and weights["h1"] is a and weights["h2"] is b
    assert state["log"] is inner and inner == [1, 2] and state["pair"][0] is inner
    assert state["tags"] == {"x"} and "new" not in state


def test_cycles_and_shared_items_are_restored_once() -> None:
    shared: list = [Opaque()]
    outer = [shared, shared]
    outer.append(outer)
    shot = snapshot(outer)
    shared.clear()
    outer.pop()
    restore(shot)
    assert outer[0] is shared and outer[1] is shared and outer[2] is outer and len(shared) == 1


def test_variables_keep_their_identity_and_get_their_values_back() -> None:
    tf = pytest.importorskip("tensorflow")
    from tfadvisor.runtime.run.observe import CallSample, FunctionStats
    from tfadvisor.runtime.run.replay_state import ReplayState

    weights = {"w": tf.Variable([1.0, 2.0])}

    def step(x):
        weights["w"].assign_add(x)
        return weights["w"]

    stats = FunctionStats("step", "m", "m.py", 1, step)
    stats.samples.append(CallSample((tf.constant([1.0, 1.0]),), {}, 0))
    state = ReplayState(stats)
    var = weights["w"]
    step(tf.constant([5.0, 5.0]))
    weights["w"] = tf.Variable([0.0, 0.0])  # rebinding, too
    state.restore()
    assert weights["w"] is var and var.numpy().tolist() == [1.0, 2.0]
