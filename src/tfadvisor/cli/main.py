"""The ``tfadvisor`` command group. Each command lives in its own module of this package.

Nothing here imports TensorFlow: ``run`` and ``profile`` load the runtime inside the command.
"""

from __future__ import annotations

import importlib

import click

from tfadvisor import __version__

# Each command's module, imported when the command is asked for: `tfadvisor run --budget 0` is
# judged by its overhead on the observed program (issue 21), and the other commands' imports
# (the rule registry, the fixers, the HTML report) are not its business.
_COMMANDS = {
    "check": "tfadvisor.cli.check:check",
    "run": "tfadvisor.cli.run:run",
    "profile": "tfadvisor.cli.profile:profile",
    "fix": "tfadvisor.cli.fix:fix",
    "report": "tfadvisor.cli.report:report",
    "explain": "tfadvisor.cli.explain:explain",
    "rules": "tfadvisor.cli.explain:rules",
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        command: click.Command = getattr(importlib.import_module(module), attr)
        return command


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="tfadvisor")
def main() -> None:
    """Should this be a @tf.function? Answers for every function, with evidence.

    \b
    check    static verdicts and findings (never imports or runs your code)
    run      run your program once, observed, and measure eager against graph
    profile  measure one function on given calls
    fix      apply the verdicts and safe fixes to the code
    explain  what a rule means; `rules` lists them all
    """


if __name__ == "__main__":  # pragma: no cover
    main()
