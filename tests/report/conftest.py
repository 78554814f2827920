"""Hand-built reports (as `check` and `run` would produce them) over real source in data/project.

The measurements are shaped like the runtime's (per-call medians, trace time, break-even derived
from them); the renderers only read them, so their exact values do not matter to these tests.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tfadvisor.model import (
    Facts,
    FileStatus,
    Finding,
    FixInfo,
    FunctionReport,
    Measurement,
    ModeMeasurement,
    Report,
    RunSummary,
    Severity,
    Verdict,
)
from tfadvisor.report import _source

DATA = Path(__file__).parent / "data"
PROJECT = DATA / "project"
TRAINER = "pkg/trainer.py"


def measurement(calls: int, eager: float, graph: float, trace: float, xla: float | None = None) -> Measurement:
    saved = calls * (eager - graph) - trace
    break_even = trace / (eager - graph) if eager > graph else None
    modes = [
        ModeMeasurement("eager", first_call_s=eager * 3, per_call_s=eager, iqr_s=eager * 0.1, rounds=20),
        ModeMeasurement("graph", first_call_s=trace + graph, per_call_s=graph, iqr_s=graph * 0.1, rounds=20, traces=1),
    ]
    if xla is not None:
        modes.append(ModeMeasurement("xla", first_call_s=trace * 2, per_call_s=xla, iqr_s=xla * 0.1, rounds=20, traces=1))
    return Measurement(
        calls=calls, eager_s=eager, graph_s=graph, trace_s=trace, traces=1, xla_s=xla,
        break_even_calls=break_even, saved_s=saved, saved_interval_s=[saved * 0.9, saved * 1.1],
        equivalent=True, modes=modes,
    )


def finding(rule: str, sev: Severity, line: int, col: int, end_col: int, fn: str, msg: str, **kw) -> Finding:
    return Finding(rule, sev, TRAINER, line, col, line, end_col, f"{TRAINER}::{fn}" if fn else None, msg, **kw)


def make_report(measured: bool = True) -> Report:
    compute = Facts(tensor_computation=True, tensor_params=["x"], role="compute")
    functions = [
        FunctionReport(f"{TRAINER}::Trainer.step", TRAINER, "Trainer.step", 15, 22, True,
                       Facts(tensor_computation=True, tensor_params=["x", "y"], python_side_effects=True, role="compute"),
                       Verdict.FIX_FIRST, ["TF202", "TF201"],
                       measurement=measurement(1200, 2.1e-3, 3.5e-4, 0.18) if measured else None),
        FunctionReport(f"{TRAINER}::predict", TRAINER, "predict", 25, 26, False, compute, Verdict.DECORATE, ["TF501"],
                       measurement=measurement(400, 9.0e-4, 2.5e-4, 0.09, xla=1.2e-4) if measured else None),
        FunctionReport(f"{TRAINER}::noisy", TRAINER, "noisy", 29, 31, False, compute, Verdict.FIX_FIRST, ["TF301", "TF205"],
                       confidence="speculative", assumptions=["x is a tensor (name and use)"]),
        FunctionReport(f"{TRAINER}::label", TRAINER, "label", 34, 36, False, compute, Verdict.UNDECORATE, ["TF602"],
                       measurement=measurement(50, 1.0e-4, 1.4e-4, 0.05) if measured else None),
        FunctionReport(f"{TRAINER}::Trainer.__init__", TRAINER, "Trainer.__init__", 9, 12, False,
                       Facts(role="other"), Verdict.LEAVE_EAGER, []),
    ]
    findings = [
        finding("TF202", Severity.ERROR, 20, 8, 23, "Trainer.step", "`self.steps += 1` runs only while tracing",
                fix=FixInfo(False, "move the counter into a tf.Variable")),
        finding("TF201", Severity.WARNING, 21, 8, 33, "Trainer.step", "print() runs once per trace; use tf.print",
                fix=FixInfo(True, "replace print with tf.print")),
        finding("TF301", Severity.ERROR, 30, 4, 31, "noisy", "the tensor `if` returns on one branch only"),
        finding("TF205", Severity.WARNING, 31, 19, 34, "noisy", "random.random() is frozen at trace time"),
        finding("TF999", Severity.INFO, 35, 4, 62, "label", "a <b>message</b> with </script> & 'quotes'"),
        finding("TF201", Severity.WARNING, 21, 8, 33, "Trainer.step", "suppressed duplicate", suppressed=True),
    ]
    files = [FileStatus(TRAINER), FileStatus("pkg/broken.py", "error", "SyntaxError: invalid syntax (line 3)")]
    if measured:
        label = functions[3].measurement
        label.traces = 3
        label.retraces = ["x: shape (8,) then (5,) <last partial batch>"]
    return Report(files=files, functions=functions, findings=findings, command="run" if measured else "check",
                  run=RunSummary(target="train.py", argv=["<args>"], exit_status=0, wall_s=12.5) if measured else None)


@pytest.fixture
def in_project(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test from the project folder, as `check` would have (paths are relative to it)."""
    monkeypatch.chdir(PROJECT)
    _source.clear_cache()
    return PROJECT


@pytest.fixture
def report() -> Report:
    return make_report()


@pytest.fixture
def static_report() -> Report:
    return make_report(measured=False)


# -- a real headless Chromium (module-scoped: one browser per test module) ---------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def need_browser(condition: bool, what: str) -> None:
    if condition:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{what} is required in CI (apt-get install -y chromium chromium-driver; pip install selenium)")
    pytest.skip(f"{what} not installed: apt-get install -y chromium chromium-driver; pip install selenium")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    need_browser(CHROMIUM is not None and CHROMEDRIVER is not None, "chromium and chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        need_browser(False, "selenium")
        raise
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM  # type: ignore[assignment]
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,900",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()




def open_page(browser, html_file: Path, screenshot: Path | None = None) -> dict:
    """Load ``html_file``; return whether its script ran, the console log, requested URLs, screenshot."""
    browser.get(html_file.as_uri())
    ready = browser.execute_script("return document.documentElement.getAttribute('data-ready')")
    log = browser.get_log("browser")
    network = [json.loads(e["message"])["message"] for e in browser.get_log("performance")]
    requested = [m["params"]["request"]["url"] for m in network if m["method"] == "Network.requestWillBeSent"]
    if screenshot is not None:
        shot = browser.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        screenshot.write_bytes(base64.b64decode(shot["data"]))
    return {"file": html_file, "ready": ready, "log": log, "requested": requested, "png": screenshot}


def plot_boxes(browser) -> list:
    """[figure id, width, height] of every plot as laid out on the page."""
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('svg.plot')).map(function (s) {"
        " var r = s.getBoundingClientRect(); return [s.closest('figure').id, r.width, r.height]; })"
    )
