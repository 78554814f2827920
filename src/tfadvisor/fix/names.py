"""How a file spells TensorFlow: the names that reach ``tensorflow`` and ``tf.function``.

Fixes must write ``tf.function`` the way the file already does (``tf``, ``tensorflow``, a
``from tensorflow import function``), and add ``import tensorflow as tf`` only when nothing reaches
TensorFlow. Only module-level imports count: they are the ones every function can see.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

TF_MODULES = ("tensorflow", "tensorflow.compat.v2", "tensorflow.compat.v1")
FUNCTION_PATHS = tuple(f"{m}.function" for m in TF_MODULES)


@dataclass
class TfNames:
    """Module aliases (``tf`` -> ``tensorflow``) and names bound to ``tf.function`` itself."""

    modules: dict[str, str] = field(default_factory=dict)  # local dotted name -> module path
    functions: set[str] = field(default_factory=set)  # local names bound to tf.function
    bound: set[str] = field(default_factory=set)  # every name the module binds anywhere

    @property
    def module_alias(self) -> str | None:
        """The name to write for ``tensorflow`` (prefer ``tf``), or None when none is imported."""
        aliases = sorted((a for a, m in self.modules.items() if m in TF_MODULES),
                         key=lambda a: (self.modules[a] != "tensorflow", a != "tf", len(a), a))
        return aliases[0] if aliases else None

    @property
    def function_spelling(self) -> str | None:
        alias = self.module_alias
        if alias:
            return f"{alias}.function"
        return min(self.functions) if self.functions else None

    def import_to_add(self) -> tuple[str, str]:
        """(statement, alias) to add when no alias exists: ``tf`` unless the file uses that name."""
        if "tf" in self.bound:
            return "import tensorflow", "tensorflow"
        return "import tensorflow as tf", "tf"

    def resolve(self, dotted: str) -> str | None:
        """The full path a dotted name refers to (``tf.function`` -> ``tensorflow.function``)."""
        if dotted in self.functions:
            return "tensorflow.function"
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            head = ".".join(parts[:cut])
            if head in self.modules:
                return ".".join([self.modules[head], *parts[cut:]])
        return None

    def is_tf_function(self, dotted: str | None) -> bool:
        return dotted is not None and self.resolve(dotted) in FUNCTION_PATHS

    def is_tf_attr(self, dotted: str | None, attr: str) -> bool:
        """Whether ``dotted`` is ``tensorflow.<attr>`` (``tf.print``, ``tf.config.run_functions_eagerly``)."""
        return dotted is not None and self.resolve(dotted) in {f"{m}.{attr}" for m in TF_MODULES}

    def is_tf_call(self, dotted: str | None) -> bool:
        """Whether ``dotted`` names something inside TensorFlow (``tf.shape``, ``tf.size`` ...)."""
        resolved = self.resolve(dotted) if dotted else None
        return resolved is not None and resolved.startswith("tensorflow.")


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports at module level, also inside top-level ``if``/``try`` (``try: import tensorflow``)."""
    out: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop(0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        elif isinstance(node, ast.If):
            todo.extend(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            todo.extend(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                todo.extend(handler.body)
    return out


def _bound_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def tf_names(tree: ast.Module) -> TfNames:
    """Read the TensorFlow names of one parsed module (or of a notebook's joined cells)."""
    result = TfNames(bound=_bound_names(tree))
    for node in _top_level_imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in TF_MODULES:
                    if alias.asname:
                        result.modules[alias.asname] = alias.name
                    else:  # `import tensorflow.compat.v2` binds `tensorflow`
                        result.modules[alias.name] = alias.name
                        result.modules.setdefault("tensorflow", "tensorflow")
        elif node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                local = alias.asname or alias.name
                if full in FUNCTION_PATHS:
                    result.functions.add(local)
                elif full in TF_MODULES:  # from tensorflow.compat import v2 as tf
                    result.modules[local] = full
    # A name rebound to something else later (`tf = None`) would still count: rare, and the
    # re-parse check after editing cannot see it; keep the simple rule.
    return result
