"""Properties over arbitrary user text: it can never change the structure of a report."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from tfadvisor.model import Facts, Finding, FunctionReport, Report, Severity, Verdict
from tfadvisor.report import render

from .test_sarif import SCHEMA

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self.tags.append("/" + tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _report(text: str, path: str) -> Report:
    # reasons are rule codes the tool writes; user text there must not spell a real one ("TF601"
    # gets a link to its rule, by design), so it is kept but prefixed
    fn = FunctionReport(f"{path}::{text}", path, text or "f", 1, 2, False, Facts(), Verdict.DECORATE,
                        ["x" + text[:8]], assumptions=[text])
    finding = Finding("TF201", Severity.WARNING, path, 1, 0, 1, 4, fn.id, text)
    return Report(functions=[fn], findings=[finding])


def _structure(page: str) -> tuple[list[str], str]:
    parser = Tags()
    parser.feed(page)
    return parser.tags, "".join(parser.text)


@settings(max_examples=60, deadline=None)
@given(text=TEXT, path=TEXT)
def test_html_structure_does_not_depend_on_user_text(text: str, path: str) -> None:
    path = (path or "p") + ".py"
    hostile, hostile_text = _structure(render(_report(text, path), "html", root="/nonexistent"))
    benign, _ = _structure(render(_report("x", "p.py"), "html", root="/nonexistent"))
    assert hostile == benign
    assert text.replace("\r\n", "\n").replace("\r", "\n") in hostile_text.replace("\r\n", "\n").replace("\r", "\n")


@settings(max_examples=60, deadline=None)
@given(text=TEXT, path=TEXT)
def test_annotations_stay_one_line_and_round_trip(text: str, path: str) -> None:
    out = render(_report(text, path or "p.py"), "github")
    assert out.count("\n") == 1 and "\r" not in out
    message = out.rstrip("\n").split("::", 2)[2]
    assert message.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%") == f"TF201 {text}".strip()


@settings(max_examples=30, deadline=None)
@given(text=TEXT, path=TEXT)
def test_sarif_is_always_valid(text: str, path: str) -> None:
    import jsonschema

    log = json.loads(render(_report(text, path or "p.py"), "sarif"))
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert log["runs"][0]["results"][0]["message"]["text"] == (text or "TF201 print-in-graph")
