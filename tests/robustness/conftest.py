"""Hypothesis profiles for the robustness tests: bounded in CI, thorough on demand.

``ci`` (the default here) keeps the whole folder at a minute or two on 2 cores; ``long`` is for a
local soak: ``pytest tests/robustness --hypothesis-profile=long``. The profiles are registered
here, so name this folder on the command line when choosing one: pytest reads this file before
the hypothesis plugin loads the profile only when the folder is an argument.

Tests take their settings from ``robust_settings()`` rather than the global default, so loading
the ``ci`` profile here never changes the number of examples of other folders' property tests.
"""

from __future__ import annotations

import os

from hypothesis import settings

# The "ci" and "long" profiles are registered in tests/conftest.py (no shrinking in "ci": a known
# xfail bug must not cost minutes of shrinking on every run).


def robust_settings(scale: float = 1.0) -> settings:
    """The active robustness profile (``long`` when chosen, else ``ci``), examples scaled by ``scale``.

    ``scale`` lets a slow strategy (hypothesmith.from_node, a CLI run per example) take fewer
    examples than a fast one under the same profile.
    """
    name = os.environ.get("TFADVISOR_HYPOTHESIS_PROFILE") or settings.get_current_profile_name()
    base = settings.get_profile(name if name in ("ci", "long") else "ci")
    return settings(base, max_examples=max(1, int(base.max_examples * scale)))
