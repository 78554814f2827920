"""`tfadvisor explain CODE` (one rule, in the terminal) and `tfadvisor rules` (the whole catalog).

Both read the rule registry through ``tfadvisor.rules.docs`` (the same data as docs/rules.md), so
what the terminal says, what the docs say and what the tests check are one text.
"""

from __future__ import annotations

import difflib
import json

import click

from tfadvisor.rules import all_rules, get_rule
from tfadvisor.rules.base import Rule
from tfadvisor.rules.docs import DETECTION, rule_doc, rule_markdown
from tfadvisor.ui import console

_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


class UnknownRule(click.ClickException):
    """An unknown rule code: exit status 2, like a usage error, with the close codes."""

    exit_code = 2


def find_rule(query: str) -> type[Rule]:
    """A rule by code (``TF301``, ``tf301``, ``301``) or by name (``return-in-one-branch``)."""
    text = query.strip()
    if text.isdigit():
        text = "TF" + text
    rule = get_rule(text)
    if rule is not None:
        return rule
    by_name = {r.name: r for r in all_rules()}
    if text.lower() in by_name:
        return by_name[text.lower()]
    raise UnknownRule(f"unknown rule {query!r}{_close(text)}")


def _close(text: str) -> str:
    rules = all_rules()
    codes = [r.code for r in rules]
    upper = text.upper()
    close = difflib.get_close_matches(upper, codes, n=5, cutoff=0.6)
    names = difflib.get_close_matches(text.lower(), [r.name for r in rules], n=3, cutoff=0.6)
    close += [r.code for r in rules if r.name in names and r.code not in close]
    if not close and len(upper) >= 3:
        close = [c for c in codes if c.startswith(upper[:3])][:5]
    if not close:
        return "; `tfadvisor rules` lists them all"
    return f"; did you mean {', '.join(close)}? (`tfadvisor rules` lists them all)"


@click.command()
@click.argument("code", metavar="CODE")
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text",
              show_default=True, help="Output format.")
def explain(code: str, fmt: str) -> None:
    """What rule CODE means: what it flags, why, bad and good code, and whether a fix is safe.

    \b
    tfadvisor explain TF301
    tfadvisor explain return-in-one-branch
    """
    rule = find_rule(code)
    if fmt == "json":
        click.echo(json.dumps(rule_doc(rule), indent=2))
        return
    if fmt == "markdown":
        click.echo(rule_markdown(rule, level=1), nl=False)
        return
    _render_rule(rule)


def _render_rule(rule: type[Rule]) -> None:
    from rich.markdown import Markdown
    from rich.panel import Panel
    from rich.syntax import Syntax
    from rich.text import Text

    doc = rule_doc(rule)
    out = console()
    title = Text.assemble((doc["code"], "bold"), " ", (doc["name"], "bold"), "  ",
                          (doc["severity"], _SEVERITY_STYLE.get(doc["severity"], "")))
    out.print(title)
    out.print(Text(f"Detection: {DETECTION[doc['detection']]}", style="dim"))
    out.print()
    out.print(Text("What it does", style="bold underline"))
    out.print(doc["summary"][:1].upper() + doc["summary"][1:])
    out.print()
    out.print(Text("Why is this bad?", style="bold underline"))
    out.print(Markdown(doc["why"]))
    out.print()
    for heading, examples, style in (("Example", doc["bad"], "red"), ("Use instead", doc["good"], "green")):
        out.print(Text(heading, style="bold underline"))
        for example in examples:
            out.print(Panel(Syntax(example, "python", theme="ansi_dark", background_color="default"),
                            border_style=style, expand=False))
    out.print(Text("Fix safety", style="bold underline"))
    out.print(doc["fix_safety"])


@click.command()
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text",
              show_default=True, help="Output format.")
@click.option("--select", metavar="CODES", default=None,
              help="Only these codes or prefixes, comma-separated (TF2,TF301).")
def rules(fmt: str, select: str | None) -> None:
    """List every rule: code, name, severity, how it is detected, fix availability, summary."""
    from tfadvisor.rules import matches

    chosen = all_rules()
    if select:
        patterns = [p.strip() for p in select.split(",") if p.strip()]
        chosen = [r for r in chosen if matches(r.code, patterns)]
    if fmt == "json":
        keys = ("code", "name", "severity", "summary", "fix", "fix_description", "detection", "scope")
        click.echo(json.dumps([{k: rule_doc(r)[k] for k in keys} for r in chosen], indent=2))
        return
    if fmt == "markdown":
        from tfadvisor.rules.docs import render_markdown

        click.echo(render_markdown(), nl=False)
        return
    from rich.table import Table

    table = Table(title=f"tfadvisor rules ({len(chosen)})", title_justify="left", expand=False)
    table.add_column("code", style="bold", no_wrap=True)
    table.add_column("name", no_wrap=True)
    table.add_column("severity", no_wrap=True)
    table.add_column("det.", no_wrap=True)
    table.add_column("fix", no_wrap=True)
    table.add_column("summary")
    for rule in chosen:
        sev = rule.severity.value
        table.add_row(rule.code, rule.name, f"[{_SEVERITY_STYLE.get(sev, '')}]{sev}[/]", rule.detection,
                      rule.fix, rule.summary)
    out = console()
    out.print(table)
    out.print("det.: S static, S~ static with a type guess, D run time only. "
              "`tfadvisor explain CODE` for details.", style="dim")
