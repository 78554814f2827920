"""tfadvisor: should this be a @tf.function? Answers with evidence, then applies them.

Importing this package never imports TensorFlow; ``profile`` loads the runtime lazily.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = ["__version__", "profile"]


def profile(fn: Any, calls: Any, **options: Any) -> Any:
    """Measure ``fn`` eagerly, as a tf.function and with XLA over ``calls``; see ``runtime.profiling``."""
    from tfadvisor.runtime.profiling import profile as _profile

    return _profile(fn, calls, **options)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext tfadvisor``: registers the notebook magics (see ``tfadvisor.ipython``)."""
    from tfadvisor.ipython import load_ipython_extension as _load

    _load(ipython)
