"""docs/rules.md is generated from the registry (stale = failure); `rules` and `explain` work."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tfadvisor.cli.main import main
from tfadvisor.rules import all_rules
from tfadvisor.rules.docs import main as docs_main
from tfadvisor.rules.docs import render_markdown

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_docs_rules_md_is_up_to_date() -> None:
    assert DOCS.is_file(), "docs/rules.md is missing: python -m tfadvisor.rules.docs --write docs/rules.md"
    assert DOCS.read_text(encoding="utf-8") == render_markdown(), (
        "docs/rules.md is stale: run python -m tfadvisor.rules.docs --write docs/rules.md")


def test_docs_have_every_rule_with_ruff_style_sections() -> None:
    text = render_markdown()
    for rule in all_rules():
        section = text.split(f"### {rule.code} {rule.name}\n", 1)[1].split("\n### TF", 1)[0]
        for heading in ("#### What it does", "#### Why is this bad?", "#### Example", "#### Use instead",
                        "#### Fix safety"):
            assert heading in section, (rule.code, heading)


def test_docs_check_mode_detects_staleness(tmp_path: Path) -> None:
    stale = tmp_path / "rules.md"
    stale.write_text("# old\n", encoding="utf-8")
    assert docs_main(["--check", str(stale)]) == 1
    assert docs_main(["--write", str(stale)]) == 0
    assert docs_main(["--check", str(stale)]) == 0


def test_rules_json_lists_every_rule() -> None:
    result = CliRunner().invoke(main, ["rules", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [d["code"] for d in data] == [r.code for r in all_rules()]
    assert {"code", "name", "severity", "summary", "fix"} <= set(data[0])
    assert {d["fix"] for d in data} <= {"none", "safe", "unsafe"}


def test_rules_table_names_every_code() -> None:
    result = CliRunner().invoke(main, ["rules"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for rule in all_rules():
        assert rule.code in result.output


def test_rules_select_filters_by_prefix() -> None:
    result = CliRunner().invoke(main, ["rules", "--format", "json", "--select", "TF3"])
    codes = [d["code"] for d in json.loads(result.output)]
    assert codes and all(c.startswith("TF3") for c in codes)


def test_explain_shows_what_why_examples_and_fix() -> None:
    result = CliRunner().invoke(main, ["explain", "TF301"])
    assert result.exit_code == 0, result.output
    out = result.output
    for words in ("return-in-one-branch", "What it does", "Why is this bad?", "Example", "Use instead",
                  "Fix safety", "must also be returned", "tf.greater"):
        assert words in out, words


def test_explain_accepts_lower_case_and_names() -> None:
    assert CliRunner().invoke(main, ["explain", "tf201"]).exit_code == 0
    result = CliRunner().invoke(main, ["explain", "print-in-graph", "--format", "json"])
    assert json.loads(result.output)["code"] == "TF201"


def test_explain_unknown_code_exits_2_with_close_codes() -> None:
    result = CliRunner().invoke(main, ["explain", "TF399"])
    assert result.exit_code == 2
    assert "unknown rule 'TF399'" in result.output
    assert "TF309" in result.output
    assert "Traceback" not in result.output
