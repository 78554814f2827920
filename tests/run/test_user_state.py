"""Replay never touches the user's objects: after `run` (in-process replay) and after the notebook
magic, every variable, dict, optimizer and function is the same object with the same values.

The program is written the way the classic TF2 examples are (global dicts of variables, a Keras
optimizer built on them, a GradientTape step in a Python loop): a replay that restored the dicts
with copies gave the optimizer variables it had never seen ("Unknown variable"), and the
program's most profitable function went unmeasured."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tensorflow")

import numpy as np  # noqa: E402

from tfadvisor.model import Verdict  # noqa: E402
from tfadvisor.runtime.run.notebook import run_cell  # noqa: E402
from tfadvisor.runtime.run.analysis import RunAnalysis  # noqa: E402
from tfadvisor.runtime.run.session import run_program  # noqa: E402

RAW_MLP = Path(__file__).parent / "fixtures" / "examples_style" / "raw_mlp.py"
SNAPSHOT = """
_found = {
    "weights": (weights, {k: (v, v.numpy().copy()) for k, v in weights.items()}),
    "biases": (biases, {k: (v, v.numpy().copy()) for k, v in biases.items()}),
    "optimizer": (optimizer, [(v, np.array(v.numpy()).copy()) for v in optimizer.variables]),
    "random": (np.random.get_state()[1].copy(), __import__("random").getstate()),
}
"""


FUNCTIONS = ("neural_net", "cross_entropy", "accuracy", "run_optimization", "train")


def _assert_as_found(ns: dict[str, Any], found: dict[str, Any], functions: dict[str, Any]) -> None:
    for name in ("weights", "biases"):
        container, items = found[name]
        assert ns[name] is container, f"{name} was replaced"
        assert set(container) == set(items)
        for key, (var, value) in items.items():
            assert container[key] is var, f"{name}[{key!r}] is another variable"
            np.testing.assert_array_equal(var.numpy(), value)
    optimizer, slots = found["optimizer"]
    assert ns["optimizer"] is optimizer
    assert [id(v) for v in optimizer.variables] == [id(v) for v, _ in slots]
    for var, value in slots:
        np.testing.assert_array_equal(np.array(var.numpy()), value)
    for name, fn in functions.items():
        assert ns[name] is fn, f"{name} is not the user's function any more"
    numpy_state, python_state = found["random"]
    np.testing.assert_array_equal(np.random.get_state()[1], numpy_state)
    assert __import__("random").getstate() == python_state


def _by_name(report) -> dict[str, Any]:
    return {f.qualname: f for f in report.functions}


@pytest.fixture(scope="module")
def after_run() -> Iterator[tuple[dict[str, Any], dict[str, Any], Any]]:
    result, observer = run_program(str(RAW_MLP), [])
    assert result.exit_status == 0, result.error
    ns = result.namespace
    exec(SNAPSHOT, ns)  # what the program left, before replay
    functions = {name: ns[name] for name in FUNCTIONS}
    analysis = RunAnalysis(result, observer, None, budget_s=90)
    analysis.analyse()
    yield ns, (ns["_found"], functions), analysis.report()


def test_run_leaves_variables_dicts_optimizer_and_random_state_as_found(after_run) -> None:
    ns, (found, functions), _ = after_run
    _assert_as_found(ns, found, functions)


def test_run_replays_the_examples_style_step_and_advises_decorate(after_run) -> None:
    _, _, report = after_run
    step = _by_name(report)["run_optimization"]
    m = step.measurement
    assert m.error is None and m.equivalent is True, (m.error, m.differences)
    assert step.verdict is Verdict.DECORATE, (step.reasons, step.assumptions)
    assert m.saved_s > 0


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell

    os.environ["IPYTHONDIR"] = str(tmp_path_factory.mktemp("ipython"))
    sh = InteractiveShell.instance()
    sh.run_cell("%load_ext tfadvisor", store_history=True)
    yield sh
    InteractiveShell.clear_instance()


def test_magic_leaves_the_notebook_objects_as_found_and_advises_decorate(shell) -> None:
    source = RAW_MLP.read_text().split('if __name__ == "__main__":')[0]
    assert shell.run_cell(source, store_history=True).error_in_exec is None
    ns = shell.user_ns
    functions = {name: ns[name] for name in FUNCTIONS}  # observed during the cell, put back after
    result = shell.run_cell("%%tfadvisor_run --budget 90 --quiet\ntrain()\n" + SNAPSHOT, store_history=True)
    assert result.error_in_exec is None and result.error_before_exec is None, result
    _assert_as_found(ns, ns["_found"], functions)
    report = result.result.report
    step = _by_name(report)["run_optimization"]
    assert step.measurement.equivalent is True and step.verdict is Verdict.DECORATE, step.reasons


def test_a_failing_cell_is_its_outcome_and_the_functions_come_back(shell) -> None:
    shell.run_cell("def boom(x):\n    raise ValueError('no')\n", store_history=True)
    original = shell.user_ns["boom"]
    result = shell.run_cell("%%tfadvisor_run --quiet\nboom(1)\n", store_history=True)
    assert result.result.report.run.outcome == "exception"
    assert shell.user_ns["boom"] is original


def test_run_cell_restores_functions_even_when_interrupted() -> None:
    ns: dict[str, Any] = {}
    exec("def f(x):\n    return x\n", ns)
    ns["f"].__module__ = "nb"
    original = ns["f"]

    def execute() -> None:
        assert ns["f"] is not original  # observed while the cell runs
        raise KeyboardInterrupt

    report = run_cell(ns, execute, module="nb")
    assert ns["f"] is original and report.run.outcome == "interrupted"

