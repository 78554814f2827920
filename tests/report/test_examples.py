"""Reports of the shipped examples: `check` gives upload-ready SARIF; measured, the HTML report opens
in Chromium with its plots visible."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import tfadvisor
from tfadvisor.model import Report
from tfadvisor.report import render

from .conftest import open_page, plot_boxes
from .test_sarif import SCHEMA

ROOT = Path(tfadvisor.__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

pytestmark = pytest.mark.skipif(not EXAMPLES.is_dir(), reason="examples/ not present (not a source checkout)")


@pytest.fixture(scope="module")
def examples_report() -> Report:
    import os

    from tfadvisor.check import check_paths

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        return check_paths(["examples"], jobs=1)
    finally:
        os.chdir(here)


def test_examples_sarif_is_upload_ready(examples_report: Report, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    log = json.loads(render(examples_report, "sarif"))
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    run = log["runs"][0]
    assert len(run["results"]) == len(examples_report.findings) > 0
    fired = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert fired == {f.rule for f in examples_report.findings}
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"].startswith("examples/")
        assert (ROOT / location["artifactLocation"]["uri"]).is_file()
        assert location["region"]["startLine"] >= 1 and location["region"]["startColumn"] >= 1
    prints = [r["partialFingerprints"]["tfadvisor/v1"] for r in run["results"]]
    assert len(set(prints)) == len(prints)


def _measure(report: Report) -> Report:
    """Measure two example functions for real (as `run` would) and attach the measurements."""
    import numpy as np

    from tfadvisor.runtime.profile.profiling import Profiler

    rng = np.random.default_rng(0)
    images = rng.random((32, 28, 28, 1), dtype=np.float32)
    onehot = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 32)]
    targets = {
        "examples/preprocessing.py:standardize": [((images,), {})] * 20,
        "examples/preprocessing.py:accumulate":
            [((np.zeros((10, 1), np.float32), np.zeros((10,), np.float32), images, onehot), {})] * 20,
    }
    with Profiler() as profiler:
        for target, calls in targets.items():
            result = profiler.profile(str(ROOT / target.split(":")[0]) + ":" + target.split(":")[1], calls,
                                      expected_calls=1500, modes=("eager", "graph"), static=False)
            assert result.ok, (target, result.measurement.error)
            fn = report.function(target.replace(":", "::"))
            assert fn is not None, target
            fn.measurement = result.measurement
    return report


@pytest.mark.slow
@pytest.mark.tf
def test_examples_html_with_measurements_in_chromium(browser, examples_report: Report, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    report = _measure(examples_report)
    html_file = tmp_path / "examples.html"
    html_file.write_text(render(report, "html"), encoding="utf-8")
    page = open_page(browser, html_file, tmp_path / "examples.png")
    assert page["ready"] == "1"
    assert [e for e in page["log"] if e["level"] in ("SEVERE", "ERROR", "WARNING")] == []
    assert [u for u in page["requested"] if not u.startswith(("file:", "data:", "chrome:", "about:"))] == []
    boxes = plot_boxes(browser)
    assert [b[0] for b in boxes] == ["plot-time-per-call", "plot-time-saved", "plot-break-even"]
    assert all(w > 300 and h > 100 for _, w, h in boxes), boxes
    rows = browser.execute_script("return document.querySelectorAll('#function-table tbody tr').length")
    assert rows == len(report.functions)
    assert (tmp_path / "examples.png").stat().st_size > 20_000
