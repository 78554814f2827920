"""The HTML report in a real headless Chromium: loads offline with no console errors, sorts on
click, shows its plots, and never runs user content as markup or script.

Needs Debian's ``chromium`` and ``chromium-driver`` (``apt-get install -y chromium chromium-driver``)
and selenium (driving /usr/bin/chromedriver; nothing is downloaded). Skipped when they are absent on
a developer machine; in CI (``CI`` set) their absence is a failure, not a skip.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tfadvisor.model import Report
from tfadvisor.report import render


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Render the measured report, open it once, collect logs and a full-page screenshot."""
    from tfadvisor.report import _source

    from .conftest import PROJECT, make_report, open_page

    folder = tmp_path_factory.mktemp("html")
    here = os.getcwd()
    os.chdir(PROJECT)
    try:
        _source.clear_cache()
        text = render(make_report(), "html")
    finally:
        os.chdir(here)
    html_file = folder / "report.html"
    html_file.write_text(text, encoding="utf-8")
    return open_page(browser, html_file, folder / "report.png")


def test_page_loads_offline_with_no_console_errors(page: dict) -> None:
    assert page["ready"] == "1", "the page script did not run"
    errors = [e for e in page["log"] if e["level"] in ("SEVERE", "ERROR", "WARNING")]
    assert errors == []
    requested = page["requested"]
    assert page["file"].as_uri() in requested
    remote = [u for u in requested if not u.startswith(("file:", "data:", "chrome:", "about:"))]
    assert remote == []


def test_plots_are_drawn_and_visible(browser, page: dict) -> None:
    from .conftest import plot_boxes

    boxes = plot_boxes(browser)
    assert [b[0] for b in boxes] == ["plot-time-per-call", "plot-time-saved", "plot-break-even"]
    assert all(w > 300 and h > 100 for _, w, h in boxes), boxes
    assert page["png"].stat().st_size > 20_000
    assert page["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _column(browser, index: int) -> list[str]:
    return browser.execute_script(
        "var i = arguments[0]; return Array.from(document.querySelectorAll('#function-table tbody tr'))"
        ".map(function (r) { return r.cells[i].getAttribute('data-sort'); });", index
    )


def test_table_sorts_on_click(browser, page: dict) -> None:
    from selenium.webdriver.common.by import By

    headers = browser.find_elements(By.CSS_SELECTOR, "#function-table thead th")
    names = [h.text.strip(" ▲▼") for h in headers]
    saves = names.index("graph saves")

    headers[saves].find_element(By.TAG_NAME, "button").click()
    up = _column(browser, saves)
    numbers = [float(v) for v in up if v]
    assert numbers == sorted(numbers) and len(numbers) == 3
    assert up[len(numbers):] == [""] * (len(up) - len(numbers))  # unmeasured rows last
    assert headers[saves].get_attribute("aria-sort") == "ascending"

    headers[saves].find_element(By.TAG_NAME, "button").click()
    down = [float(v) for v in _column(browser, saves) if v]
    assert down == sorted(numbers, reverse=True)
    assert headers[saves].get_attribute("aria-sort") == "descending"

    fn = names.index("function")
    headers[fn].find_element(By.TAG_NAME, "button").click()
    ids = _column(browser, fn)
    assert ids == sorted(ids, key=str.lower)
    assert browser.get_log("browser") == []


def test_user_content_is_text_not_markup(browser, page: dict) -> None:
    assert browser.execute_script("return document.scripts.length") == 1
    assert browser.execute_script("return document.querySelectorAll('pre.src b, .finding b').length") == 0
    texts = browser.execute_script(
        "return Array.from(document.querySelectorAll('pre.src span.hit')).map(function (s) { return s.textContent; })"
    )
    assert any("</script><script>alert('x')</script> <b>&amp;</b>" in t for t in texts)
    messages = browser.execute_script(
        "return Array.from(document.querySelectorAll('.finding > p')).map(function (p) { return p.textContent; })"
    )
    assert "a <b>message</b> with </script> & 'quotes'" in messages


def test_a_report_without_measurements_has_no_plots(browser, tmp_path: Path, static_report: Report) -> None:
    out = tmp_path / "static.html"
    out.write_text(render(static_report, "html"), encoding="utf-8")
    browser.get(out.as_uri())
    assert browser.execute_script("return document.documentElement.getAttribute('data-ready')") == "1"
    assert browser.execute_script("return document.querySelectorAll('svg.plot').length") == 0
    assert browser.execute_script("return document.querySelectorAll('#function-table tbody tr').length") == 5
    assert browser.get_log("browser") == []


def test_the_console_check_would_catch_errors(browser, tmp_path: Path) -> None:
    """The harness itself: a page whose script and remote image the CSP blocks shows SEVERE entries."""
    from tfadvisor.report._html_assets import content_security_policy

    from .conftest import open_page

    bad = tmp_path / "bad.html"
    bad.write_text(
        "<!DOCTYPE html><html><head><meta charset=utf-8>"
        f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy()}"></head><body>'
        "<script>console.error('boom')</script><img src='https://example.invalid/x.png'></body></html>",
        encoding="utf-8",
    )
    page = open_page(browser, bad)
    severe = [e["message"] for e in page["log"] if e["level"] == "SEVERE"]
    assert any("Content Security Policy" in m for m in severe), page["log"]
