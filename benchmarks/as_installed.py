"""Time tfadvisor as pip installs it: with its bytecode compiled.

``pip install`` compiles a package's ``.pyc`` files; an editable install never does, and where
``PYTHONDONTWRITEBYTECODE`` is set (as on this project's machines) Python does not write them
either, so every ``tfadvisor`` process compiles its ~100 modules from source again: about 0.1 s
of CPU a process, twice under ``run`` (the background ``check`` too). On a 4 s program that is
2-3 points of the ``--budget 0`` overhead that no user pays. The timing benchmarks call
``compile_tfadvisor()`` first (``compileall`` writes the files whatever that variable says).
"""

from __future__ import annotations

import compileall
import os

import tfadvisor


def compile_tfadvisor() -> None:
    """Write the bytecode of the tfadvisor package in use (a no-op where it is up to date)."""
    compileall.compile_dir(os.path.dirname(tfadvisor.__file__), quiet=1)
