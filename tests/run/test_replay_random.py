"""`run`'s in-process replay tells random draws from behaviour differences (real TensorFlow)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("tensorflow")

from tfadvisor.runtime.run.analysis import RunAnalysis  # noqa: E402
from tfadvisor.runtime.run.session import run_program  # noqa: E402

PROGRAM = Path(__file__).parent / "fixtures" / "random_program.py"


@pytest.fixture(scope="module")
def report():
    result, observer = run_program(str(PROGRAM), [])
    assert result.exit_status == 0, result.error
    gen = result.namespace["rng"]
    state = gen.state.numpy().copy()
    analysis = RunAnalysis(result, observer, None, budget_s=60)
    analysis.analyse()
    assert (gen.state.numpy() == state).all()  # the program's generator is where it was
    return {f.qualname: f for f in analysis.report().functions}


@pytest.mark.parametrize("name", ["augment_with_generator", "augment_with_ops"])
def test_random_augmentation_is_equivalent_and_judged_on_speed(report, name: str) -> None:
    fn = report[name]
    m = fn.measurement
    assert m.error is None and m.equivalent is True, m.differences
    assert "TF603" not in fn.reasons
    assert fn.verdict.value in ("decorate", "leave-eager")
    if name == "augment_with_ops":
        assert m.random_values and any("random" in a for a in fn.assumptions)
    else:  # the generator is rewound before each mode: same draws, compared by value
        assert m.random_values == []
