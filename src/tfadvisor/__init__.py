"""tfadvisor: should this be a @tf.function? Answers with evidence, then applies them.

Importing this package never imports TensorFlow; ``profile`` and ``run`` load the runtime lazily.
The command line is a thin layer over these: ``tfadvisor.check.check_paths`` (check),
``run`` below (``tfadvisor.measure``), ``profile`` below, ``tfadvisor.fix`` (plan and apply).
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = ["__version__", "profile", "run"]


def profile(fn: Any, calls: Any, **options: Any) -> Any:
    """Measure ``fn`` eagerly, as a tf.function and with XLA over ``calls``; see ``runtime.profile.profiling``."""
    from tfadvisor.runtime.profile.profiling import profile as _profile

    return _profile(fn, calls, **options)


def run(target: str, args: Any = (), **options: Any) -> Any:
    """Run a script (or a module, ``is_module=True``) once, observed, and measure eager against
    graph on the calls it made; returns the ``Report`` (``report.run`` ranks the functions). The
    options are ``tfadvisor.measure.measure_program``'s."""
    from tfadvisor.measure import measure_program

    return measure_program(target, args, **options).report


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext tfadvisor``: registers the notebook magics (see ``tfadvisor.ipython``)."""
    from tfadvisor.ipython import load_ipython_extension as _load

    _load(ipython)
