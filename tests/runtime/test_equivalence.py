"""Comparing plain results between modes: nested, dtype-aware, NaN-aware (NumPy only)."""

from __future__ import annotations

import numpy as np

from tfadvisor.runtime.equivalence import Opaque, differences, noisy_paths, to_plain


def test_equal_nested_structures_with_nan_and_float_noise():
    a = {"loss": np.array([1.0, np.nan], np.float32), "steps": [1, 2, (3, "x")]}
    b = {"loss": np.array([1.0 + 1e-7, np.nan], np.float32), "steps": [1, 2, (3, "x")]}
    assert differences(a, b, "result") == []


def test_float_tolerance_depends_on_dtype():
    assert differences(np.array([1.0], np.float16), np.array([1.004], np.float16), "r") == []
    assert differences(np.array([1.0], np.float64), np.array([1.0 + 1e-5]), "r") != []


def test_integer_values_must_match_exactly():
    out = differences(np.array([1, 2]), np.array([1, 3]), "result")
    assert out == ["result: values differ (max abs difference 1)"]


def test_list_length_difference_is_named():
    out = differences([1, 2, 3, 4, 5], [1], "global `log`")
    assert out == ["global `log`: 5 items eagerly, 1 under tf.function"]


def test_shape_dtype_and_kind_differences():
    assert "shape" in differences(np.ones(3), np.ones(4), "r")[0]
    assert "dtype" in differences(np.ones(3, np.int32), np.ones(3, np.float32), "r")[0]
    assert "SymbolicTensor" in differences(np.ones(1), Opaque("SymbolicTensor", "<tf.Tensor ...>"), "r")[0]
    assert differences({"a": 1}, {"b": 1}, "d")[0].startswith("d: keys")


def test_to_plain_keeps_structure_and_makes_unknowns_opaque():
    class Thing:
        pass

    plain = to_plain({"a": [np.float32(1.5), (1, None)], "t": Thing(), "s": {3, 1}})
    assert isinstance(plain["a"][0], np.ndarray)
    assert plain["a"][1] == (1, None)
    assert isinstance(plain["t"], Opaque) and plain["t"].type.endswith("Thing")
    assert plain["s"] == {"__set__": ["1", "3"]}


# -- random draws: judged against eager's own noise ------------------------------------------------


def test_values_eager_does_not_reproduce_are_compared_by_shape_and_statistics() -> None:
    rng = np.random.default_rng(0)
    first, again = rng.normal(size=(64, 8)).astype("float32"), rng.normal(size=(64, 8)).astype("float32")
    graph = rng.normal(size=(64, 8)).astype("float32")
    fixed = np.ones(3, dtype="float32")
    noise = noisy_paths((first, fixed), (again, fixed), "result")
    assert list(noise) == ["result[0]"]  # the deterministic part is not noise
    assert differences((first, fixed), (graph, fixed), "result", noise=noise) == []
    assert differences((first, fixed), (graph, fixed * 2), "result", noise=noise) == ["result[1]: values differ (max abs difference 1)"]
    wrong_shape = differences((first, fixed), (graph[:10], fixed), "result", noise=noise)
    assert wrong_shape and "shape" in wrong_shape[0]
    other_distribution = differences((first, fixed), (graph + 50.0, fixed), "result", noise=noise)
    assert other_distribution and "another distribution" in other_distribution[0]


def test_random_scalars_and_lists_of_other_length() -> None:
    noise = noisy_paths({"lr": 0.1, "log": [1.0]}, {"lr": 0.3, "log": [1.0]}, "state")
    assert list(noise) == ["state['lr']"]
    assert differences({"lr": 0.1, "log": [1.0]}, {"lr": 0.9, "log": [1.0]}, "state", noise=noise) == []
    assert differences({"lr": 0.1, "log": [1.0]}, {"lr": "x", "log": [1.0]}, "state", noise=noise)
