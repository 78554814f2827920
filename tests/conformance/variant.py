"""One conformance variant: a small real program, what TensorFlow does with it, where it comes from.

A variant is a module's source with a ``main()`` that calls the function under test the way a
program would. The runner (``runner.py``) runs it eagerly and as graphs under the installed
TensorFlow and labels it; the static rule is run on the same source. ``tf`` is the label
TensorFlow gave when the variant was written (the runner checks it still does: that is the
evidence), ``real`` marks the shapes real code takes (from the issue or the tuning corpora,
written afresh), and ``note`` says what the variant shows.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

# What the runner can say about a program (more than one can hold):
# raises    the graph run raises where the eager run does not;
# differs   both finish but outputs, Python state or printed output differ (or they raise differently);
# retraces  graph mode traces again for Python values or objects, not for new tensor shapes or dtypes
#           (and as often as TensorFlow's own retracing warning needs: 5 traces);
# unrolled  the traced graph is large (a Python loop unrolled) or grows with the data;
# eager-on  tf.functions run eagerly at the end of the program (run_functions_eagerly left on, and
#           the program called some tf.function);
# empty     every traced graph holds no computation (only placeholders, constants, identities);
# same      none of these.
LABELS = ("raises", "differs", "retraces", "unrolled", "eager-on", "empty", "same")


@dataclass(frozen=True)
class V:
    name: str
    source: str
    tf: str  # the label(s) TensorFlow gives, "+"-joined when several hold ("raises", "differs+retraces")
    real: bool = False  # a shape real code takes (the cases, the tuning corpora's patterns)
    note: str = ""
    known: str = ""  # a disagreement kept on purpose: why the rule cannot (or should not) see it

    def __post_init__(self) -> None:
        object.__setattr__(self, "source", textwrap.dedent(self.source).lstrip("\n"))
        for label in self.labels:
            if label not in LABELS:
                raise ValueError(f"{self.name}: unknown label {label!r}")

    @property
    def labels(self) -> frozenset[str]:
        return frozenset(self.tf.split("+"))
