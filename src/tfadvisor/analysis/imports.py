"""Import aliases: which local name means which module or object.

``import tensorflow as tf``, ``from tensorflow import keras, function``, ``import tensorflow.compat.v2
as tf`` and relative imports of the project's own modules all become one canonical dotted name, so
the rest of the analysis asks "is this ``tensorflow.function``?" without caring how it was spelled.
"""

from __future__ import annotations

import ast
from functools import lru_cache

_PREFIX_REWRITES = (
    ("tensorflow.compat.v2.", "tensorflow."),
    ("tensorflow.compat.v1.keras.", "keras."),  # the same Keras (tf.compat.v1.keras.layers.Conv2D is a layer)
    ("tensorflow.compat.v1.", "tensorflow.compat.v1."),
    ("tensorflow.keras.", "keras."),
    ("tensorflow.python.keras.", "keras."),
    ("tf_keras.", "keras."),
    ("keras.src.", "keras."),
    ("keras_core.", "keras."),  # Keras 3's preview package, same API (keras-team/keras-core)
    ("tensorflow.experimental.numpy.", "tensorflow.experimental.numpy."),
)
_EXACT_REWRITES = {"tensorflow.compat.v2": "tensorflow", "tensorflow.keras": "keras", "tf_keras": "keras",
                   "keras_core": "keras"}


@lru_cache(maxsize=65536)
def canonical(name: str) -> str:
    """Normalise equivalent spellings of the same API (``tf.keras`` is ``keras`` in TF 2.16+)."""
    if not name.startswith(("tensorflow", "tf_keras", "keras")):
        return name
    if name in _EXACT_REWRITES:
        return _EXACT_REWRITES[name]
    for prefix, replacement in _PREFIX_REWRITES:
        if name.startswith(prefix):
            return replacement + name[len(prefix):]
    if name.startswith("keras.api."):
        return "keras." + name[len("keras.api."):]
    return name


# Aliases so conventional that a name bound by no import but used after a star import is them.
_CONVENTIONAL = {"tf": "tensorflow", "np": "numpy"}
# Packages where those names are something else (``from tensorflow.compat import v1``; ROS's ``tf``).
_CONVENTIONAL_HOMES = ("tensorflow", "numpy", "keras", "tf")


class ImportMap:
    """Local names bound by the import statements of one module (anywhere in it)."""

    def __init__(self, module: str = "", is_package: bool = False) -> None:
        self.module = module
        self.is_package = is_package
        self.names: dict[str, str] = {}
        # ``from core.model import *`` where core/model.py did ``import tensorflow as tf``: the
        # conventional aliases then come through the star, which a per-file pass cannot follow
        self.star = False
        self.star_modules: list[str] = []  # ``from .losses import *``: the modules it names, in order
        # ``import tf_keras`` (or from it): Keras 2, which runs a layer's ``call`` through AutoGraph;
        # the canonical names hide it (they say ``keras``, as Keras 3's do)
        self.keras2 = False

    def add(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                self.keras2 = self.keras2 or alias.name.split(".", 1)[0] == "tf_keras"
                if alias.asname:
                    self.names[alias.asname] = canonical(alias.name)
                else:
                    root = alias.name.split(".", 1)[0]
                    self.names[root] = canonical(root)
            return
        self.keras2 = self.keras2 or (not node.level and (node.module or "").split(".", 1)[0] == "tf_keras")
        base = self._from_base(node)
        if base is None:
            return
        for alias in node.names:
            if alias.name == "*":
                self.star = True
                if base and not base.startswith(("tensorflow", "keras", "numpy")):
                    self.star_modules.append(base)
                continue
            full = f"{base}.{alias.name}" if base else alias.name
            if alias.name in _CONVENTIONAL and not base.startswith(_CONVENTIONAL_HOMES):
                # ``from lab_utils import tf, np``: a project module handing on its own imports
                full = _CONVENTIONAL[alias.name]
            self.names[alias.asname or alias.name] = canonical(full)

    def _from_base(self, node: ast.ImportFrom) -> str | None:
        if not node.level:
            return node.module or ""
        parts = self.module.split(".") if self.module else []
        # A package's own __init__ is its package; a module's package is its parent.
        keep = len(parts) - node.level + (1 if self.is_package else 0)
        if keep < 0:
            return None
        base = ".".join(parts[:keep])
        if node.module:
            base = f"{base}.{node.module}" if base else node.module
        return base

    def resolve(self, node: ast.AST) -> str | None:
        """Canonical dotted name of a ``Name``/``Attribute`` chain, or None if it is not one.

        A root name that no import binds resolves to itself (``print``, ``range``, a local).
        """
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        root = self.names.get(node.id) or (_CONVENTIONAL.get(node.id, node.id) if self.star else node.id)
        if parts:
            parts.reverse()
            return canonical(root + "." + ".".join(parts))
        return root

    def roots(self) -> set[str]:
        """The top-level packages the module's names come from (``np.linalg`` -> ``numpy``)."""
        return {v.split(".", 1)[0] for v in self.names.values()}

    def imports_tensorflow(self) -> bool:
        return any(v == "tensorflow" or v.startswith(("tensorflow.", "keras")) for v in self.names.values())
