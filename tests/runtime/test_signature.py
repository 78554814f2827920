"""Retrace explanations: which argument's value, type, dtype or shape changed (pure, NumPy only)."""

from __future__ import annotations

import numpy as np

from tfadvisor.runtime.signature import bind_arguments, compare, explain, signature_of


def f(x, step, *rest, scale=1.0, **options):
    return x


def sig(*args, **kwargs):
    return signature_of(bind_arguments(f, args, kwargs))


def test_bind_uses_parameter_names_including_varargs():
    named = bind_arguments(f, (1, 2, 3), {"scale": 2.0, "mode": "a"})
    assert set(named) == {"x", "step", "rest[0]", "scale", "options['mode']"}


def test_python_value_change_names_the_argument():
    x = np.ones(4, np.float32)
    r = explain(1, sig(x, 1), [sig(x, 0)])
    assert [c.argument for c in r.changes] == ["step"]
    assert r.changes[0].what == "value"
    assert "`step` Python value 1" in r.describe()


def test_shape_and_dtype_changes():
    before = sig(np.ones((8, 3), np.float32), 0)
    now = sig(np.ones((5, 3), np.float64), 0)
    whats = {c.what for c in compare(now, before)}
    assert whats == {"shape", "dtype"}


def test_closest_earlier_trace_is_chosen():
    x8, x5 = np.ones(8, np.float32), np.ones(5, np.float32)
    earlier = [sig(x8, 0), sig(x5, 1)]
    r = explain(2, sig(x5, 2), earlier)  # differs from the second only by step
    assert [(c.argument, c.what) for c in r.changes] == [("step", "value")]


def test_nested_structure_and_type_changes():
    before = sig({"a": np.ones(2)}, [1, 2])
    now = sig({"a": np.ones(3)}, [1, 2, 3])
    changes = compare(now, before)
    paths = {c.path: c.what for c in changes}
    assert paths["x['a']"] == "shape"
    assert paths["step"] == "length"  # the list's items are reported once, by the list
    assert all(not p.startswith("step[") for p in paths)
    assert compare(sig(np.ones(2), 1), sig(np.ones(2), 1.0))[0].what == "type"


def test_no_visible_change_is_explained_honestly():
    x = np.ones(2)
    r = explain(3, sig(x, 1), [sig(x, 1)])
    assert r.changes == ()
    assert "captured value" in r.describe()
