"""The ``tfadvisor`` command group. Each command lives in its own module of this package.

Nothing here imports TensorFlow: ``run`` and ``profile`` load the runtime inside the command.
"""

from __future__ import annotations

import click

from tfadvisor import __version__
from tfadvisor.cli.check import check
from tfadvisor.cli.explain import explain, rules
from tfadvisor.cli.fix import fix
from tfadvisor.cli.profile import profile
from tfadvisor.cli.report import report
from tfadvisor.cli.run import run


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
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


for command in (check, run, profile, fix, report, explain, rules):
    main.add_command(command)


if __name__ == "__main__":  # pragma: no cover
    main()
