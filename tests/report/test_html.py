"""HTML report as text: self-contained, everything escaped, plots only with measurements."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tfadvisor.model import Report, RunSummary
from tfadvisor.report import render
from tfadvisor.report._html_assets import SCRIPT, script_hash
from tfadvisor.report.plots import plots


@pytest.fixture(scope="module")
def page() -> str:
    """The measured report's HTML, rendered once from the project folder (sources readable)."""
    from tfadvisor.report import _source

    from .conftest import PROJECT, make_report

    here = os.getcwd()
    os.chdir(PROJECT)
    try:
        _source.clear_cache()
        return render(make_report(), "html")
    finally:
        os.chdir(here)


def test_self_contained_and_pinned_by_csp(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>")
    assert "Content-Security-Policy" in page and "default-src &#x27;none&#x27;" in page
    assert script_hash().replace("'", "&#x27;") in page
    assert page.count("<script") == 1 and page.count("</script>") == 1
    assert f"<script>{SCRIPT}</script>" in page
    # nothing fetched: no src/href attributes at all except SVG-internal references
    assert not re.search(r'\b(src|href)="(?!#)', page)
    assert "@import" not in page and "url(http" not in page
    assert page.count("<svg") == 3


def test_user_content_is_escaped(page: str) -> None:
    assert "&lt;/script&gt;&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &lt;b&gt;&amp;amp;&lt;/b&gt;" in page
    assert "a &lt;b&gt;message&lt;/b&gt; with &lt;/script&gt; &amp; &#x27;quotes&#x27;" in page
    assert "<b>" not in page


def test_hostile_names_and_paths(tmp_path: Path, report: Report) -> None:
    for fn in report.functions:
        fn.qualname = 'f$x$"><img src=x onerror=alert(1)>--'
        fn.id = fn.path + "::" + fn.qualname
    page = render(report, "html", root=str(tmp_path))  # sources absent: no excerpts, still a page
    assert "<img" not in page and "onerror=alert(1)&gt;" in page
    assert 'class="src"' not in page


def test_svg_ids_are_unique_across_plots(page: str) -> None:
    svgs = re.findall(r"<svg .*?</svg>", page, flags=re.S)
    assert len(svgs) == 3
    ids = [i for svg in svgs for i in re.findall(r'\bid="([^"]+)"', svg)]
    assert len(ids) == len(set(ids)) and ids
    for svg in svgs:
        own = set(re.findall(r'\bid="([^"]+)"', svg))
        refs = set(re.findall(r'(?:href="#|url\(#)([^")]+)', svg))
        assert refs <= own  # every internal reference points inside the same figure
        assert "<?xml" not in svg and "<style" not in svg


def test_no_measurements_no_matplotlib() -> None:
    code = (
        "import sys\n"
        "sys.path.insert(0, %r)\n"
        "from report.conftest import make_report\n"
        "from tfadvisor.report import render\n"
        "page = render(make_report(measured=False), 'html')\n"
        "render(make_report(), 'sarif'); render(make_report(), 'github')\n"
        "assert '<svg' not in page\n"
        "print('matplotlib' in sys.modules)\n"
    ) % str(Path(__file__).parent.parent)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_summary_figures(page: str) -> None:
    saving = re.search(r'id="projected-saving">([^<]+)<', page)
    assert saving and saving.group(1).startswith("+")
    assert "1 suppressed" in page and "pkg/broken.py" in page


def test_run_facts_and_measurement_notes_are_shown_escaped(page: str) -> None:
    assert '<section id="run">' in page and "train.py" in page and "&lt;args&gt;" in page
    notes = page[page.index('id="measurement-notes"'):]
    assert "3 traces" in notes and "retrace: x: shape (8,) then (5,) &lt;last partial batch&gt;" in notes


def test_many_measured_functions_are_capped_and_said_so() -> None:
    import copy

    from tfadvisor.report.plots import MAX_BARS, MAX_CURVES, MAX_PER_CALL

    from .conftest import make_report

    base = make_report()
    report = copy.deepcopy(base)
    report.functions = []
    for i in range(40):
        fn = copy.deepcopy(base.functions[1])
        fn.qualname, fn.id = f"f{i}", f"pkg/trainer.py::f{i}"
        fn.measurement.eager_s = (i + 1) * 1e-4
        report.functions.append(fn)
    figures = {p.key: p for p in plots(report)}
    assert f"The {MAX_PER_CALL} slowest of 40" in figures["time-per-call"].caption
    assert f"The {MAX_BARS} largest of 40" in figures["time-saved"].caption
    assert f"The {MAX_CURVES} functions with the largest effect of 40" in figures["break-even"].caption
    assert "f39" in figures["time-per-call"].svg and "f0 " not in figures["time-per-call"].svg


def test_run_table_is_written_for_people() -> None:
    """Issue 13: units and words, never raw field names and values (``memory_budget_bytes 536870912``)."""
    run = RunSummary(target="train.py", module=False, argv=["--epochs", "2"], exit_status=0, outcome="ok",
                     error=None, wall_s=12.5, observed_functions=7, replayed_functions=3, budget_s=60.0,
                     replay_s=4.25, replay_interrupted=False, memory_budget_bytes=536870912,
                     memory_used_bytes=3 * 2 ** 20 + 2 ** 19, projected_saved_s=0.75)
    page = render(Report(command="run", run=run), "html")
    section = page[page.index('<section id="run">'):]
    section = section[:section.index("</section>")]
    rows = dict(re.findall(r"<th scope=row>([^<]+)</th><td>([^<]*)</td>", section))
    assert rows == {
        "program": "train.py", "run as": "a script", "arguments": "--epochs 2", "exit status": "0",
        "the program": "ended normally", "wall time": "12.50 s", "functions observed": "7",
        "functions measured": "3", "measuring budget": "60.00 s", "time spent measuring": "4.25 s",
        "measuring interrupted": "no", "memory allowed for recorded calls": "512 MiB",
        "memory used by recorded calls": "3.5 MiB", "projected saving": "+750 ms"}
    assert not re.search(r"_bytes|_s\b|\bFalse\b|536870912", section)


def test_undecorate_saving_has_the_sign_of_the_text_report() -> None:
    """Issue 21: the HTML summary showed an undecorate saving with the opposite sign of its own table
    and of the text report. Every renderer reads the advice's saving (positive: time saved)."""
    from tfadvisor.model import Advice, Facts, FunctionReport, Measurement, Verdict
    from tfadvisor.report._summary import summarize

    m = Measurement(calls=50, eager_s=1e-4, graph_s=1e-3, saved_s=0.04)
    fn = FunctionReport("a.py::f", "a.py", "f", 1, 2, True, Facts(), Verdict.UNDECORATE, measurement=m,
                        advice=Advice(Verdict.UNDECORATE, saving_s=0.04))
    report = Report(functions=[fn], command="run", run=RunSummary(projected_saved_s=0.04, wall_s=1.0))
    assert summarize(report).projected_saving_s == pytest.approx(0.04)
    html = render(report, "html")
    assert re.search(r'id="projected-saving">\+40', html)
