"""The same randomness in every mode, and the user's random state left as it was found.

Why: eager and graph must be compared on the same draws, or a data-augmentation function reads as
"behaves differently" (TF603) because the numbers changed, not the function. So before a calls
factory runs and before each mode, Python's ``random``, NumPy's global generator and TensorFlow's
global seed are seeded alike, and every ``tf.random.Generator`` the function can reach starts each
mode from the same state (a Generator draws the same numbers eagerly and in a graph from the same
state). Stateful random ops (``tf.random.uniform`` without a generator) still draw differently in
a graph whatever the seed; eager's second run under ``NOISE_SEED`` exposes the values they feed,
which ``equivalence.noisy_paths`` then compares by their statistics instead of their values.

In-process replay (``run``, the notebook magic) must leave the user's random state as it was:
``RandomState`` snapshots it and ``restore`` puts it back.
"""

from __future__ import annotations

import random
import types
from collections.abc import Iterable
from typing import Any

SEED = 0  # every mode and the calls factory start from this
NOISE_SEED = 1  # TensorFlow's global seed for eager's second run (Python and NumPy keep SEED)
_MAX_DEPTH = 3
_MAX_ITEMS = 256


def seed_all(tf_seed: int = SEED) -> None:
    """Seed Python's ``random``, NumPy's global generator (``SEED``) and TensorFlow (``tf_seed``)."""
    import numpy as np
    import tensorflow as tf

    random.seed(SEED)
    np.random.seed(SEED)
    tf.random.set_seed(tf_seed)


def reset_global_generator() -> None:
    """A fresh ``tf.random.get_global_generator()`` from ``SEED`` (child processes only: replaces it)."""
    import tensorflow as tf

    tf.random.set_global_generator(tf.random.Generator.from_seed(SEED))


def find_generators(roots: Iterable[Any]) -> list[Any]:
    """``tf.random.Generator`` objects among ``roots``, in containers and in objects' attributes."""
    import tensorflow as tf

    found: dict[int, Any] = {}
    seen: set[int] = set()

    def walk(obj: Any, depth: int) -> None:
        if depth > _MAX_DEPTH or id(obj) in seen or obj is None or isinstance(obj, (str, bytes, int, float, bool, type)):
            return
        seen.add(id(obj))
        if isinstance(obj, tf.random.Generator):
            found.setdefault(id(obj), obj)
            return
        if isinstance(obj, (list, tuple, set)):
            for item in list(obj)[:_MAX_ITEMS]:
                walk(item, depth + 1)
        elif isinstance(obj, dict):
            for item in list(obj.values())[:_MAX_ITEMS]:
                walk(item, depth + 1)
        elif isinstance(obj, types.MethodType):
            walk(obj.__self__, depth)
        elif not isinstance(obj, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType)):
            attrs = getattr(obj, "__dict__", None)
            if isinstance(attrs, dict):
                for item in list(attrs.values())[:_MAX_ITEMS]:
                    walk(item, depth + 1)

    for root in roots:
        walk(root, 0)
    return list(found.values())


class RandomState:
    """The process's random state (Python, NumPy, TensorFlow's global seed and global generator)
    and the state of the given generators, saved now; ``restore`` puts every part back in place."""

    def __init__(self, generators: Iterable[Any] = ()) -> None:
        import numpy as np
        from tensorflow.python.eager import context
        from tensorflow.python.ops import stateful_random_ops

        self.python = random.getstate()
        self.numpy = np.random.get_state()
        ctx = context.context()
        self.tf_seed = getattr(ctx, "_seed", None)
        rng = getattr(ctx, "_rng", None)
        self.tf_rng = rng.getstate() if rng is not None else None
        gens = list(generators)
        if stateful_random_ops.global_generator is not None:
            gens.append(stateful_random_ops.global_generator)
        self.generators = [(g, g.state.numpy()) for g in {id(g): g for g in gens}.values()]

    def rewind_generators(self) -> None:
        """Every saved generator back to its saved state (before each mode)."""
        for gen, state in self.generators:
            gen.state.assign(state)

    def restore(self) -> None:
        import numpy as np
        from tensorflow.python.eager import context

        random.setstate(self.python)
        np.random.set_state(self.numpy)
        ctx = context.context()
        if self.tf_seed is None:
            ctx._seed = None  # no global seed, as before (ops draw from the OS again)
            if self.tf_rng is None and hasattr(ctx, "_rng"):
                del ctx._rng
        else:
            ctx._set_global_seed(self.tf_seed)
        if self.tf_rng is not None and getattr(ctx, "_rng", None) is not None:
            ctx._rng.setstate(self.tf_rng)
        self.rewind_generators()
