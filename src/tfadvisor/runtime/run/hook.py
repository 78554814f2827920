"""Installing observation into the project's code, and only the project's, as it is loaded.

Why a source transform: a script's functions are defined and called in one pass of its module
body (``main()`` at the bottom), so patching a module after it is imported is too late for
``__main__``. Instead each project file is compiled from an AST in which every module-level
``def`` and ``class`` gets one extra outermost decorator (``__tfadvisor_observe__``, a builtin
during the run). Line numbers are unchanged (the decorator takes the def's position), so
tracebacks, ``inspect.getsource`` and tf.function's AutoGraph see the user's code as written.

Library code is never touched: the import hook only claims modules whose file lies under the
project folder and outside the interpreter's prefixes (site-packages, the standard library) and
outside tfadvisor itself.
"""

from __future__ import annotations

import ast
import builtins
import importlib.abc
import importlib.machinery
import os
import sys
import sysconfig
from typing import Any

from tfadvisor.runtime.run.observe import Observer

FUNCTION_HOOK = "__tfadvisor_observe__"
CLASS_HOOK = "__tfadvisor_observe_class__"


class _Decorate(ast.NodeTransformer):
    """Adds the observing decorator to module-level functions and (nested) classes."""

    def __init__(self) -> None:
        self.depth = 0  # function nesting: closures are not observed

    def visit_FunctionDef(self, node: ast.FunctionDef) -> Any:
        return self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> Any:
        return node  # coroutines are never tf.function candidates

    def _function(self, node: ast.FunctionDef) -> Any:
        if self.depth == 0:
            node.decorator_list.insert(0, ast.copy_location(ast.Name(FUNCTION_HOOK, ast.Load()), node))
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> Any:
        if self.depth == 0:
            node.decorator_list.insert(0, ast.copy_location(ast.Name(CLASS_HOOK, ast.Load()), node))
        # Methods are wrapped by the class hook (it knows static/class methods); do not decorate them.
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node


def instrument(source: str | bytes, filename: str) -> Any:
    """Compile ``source`` with observation decorators added; falls back to plain compile on error."""
    try:
        tree = ast.parse(source, filename)
    except SyntaxError:
        tree = None
    if tree is None:  # outside the except block, so the user sees Python's own SyntaxError alone
        return compile(source, filename, "exec", dont_inherit=True)
    tree = _Decorate().visit(tree)
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec", dont_inherit=True)


class ProjectScope:
    """Which files are the project's: under one of ``roots``, not in an installed location."""

    def __init__(self, roots: list[str]):
        self.roots = [os.path.realpath(r) for r in roots]
        excluded = set()
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            path = sysconfig.get_paths().get(key)
            if path:
                excluded.add(path)
        import tfadvisor

        excluded.add(os.path.dirname(tfadvisor.__file__))
        self.excluded = [os.path.realpath(p) for p in excluded]
        self._dirs: dict[str, bool] = {}

    def may_hold(self, directory: str) -> bool:
        """Whether a package directory (an entry of a package's ``__path__``) can hold project files:
        under a root and not installed code. Cached: TensorFlow alone imports thousands of submodules."""
        known = self._dirs.get(directory)
        if known is None:
            path = os.path.realpath(directory)
            known = self._inside(path) or any(_under(root, path) for root in self.roots)
            self._dirs[directory] = known
        return known

    def contains(self, filename: str | None) -> bool:
        """True for a .py file under a root that is not installed code (a venv inside the project is not the project)."""
        if not filename or not filename.endswith(".py"):
            return False
        return self._inside(os.path.realpath(filename))

    def _inside(self, path: str) -> bool:
        """A real path under a root and outside installed code."""
        if not any(_under(path, root) for root in self.roots) or any(_under(path, ex) for ex in self.excluded):
            return False
        parts = path.split(os.sep)
        return "site-packages" not in parts and "dist-packages" not in parts


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


class _ObservingLoader(importlib.machinery.SourceFileLoader):
    """A source loader that compiles through ``instrument`` and never uses cached bytecode."""

    def get_code(self, fullname: str) -> Any:
        path = self.get_filename(fullname)
        return instrument(self.get_data(path), path)


class _ProjectFinder(importlib.abc.MetaPathFinder):
    def __init__(self, scope: ProjectScope):
        self.scope = scope

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if path is not None and not any(isinstance(d, str) and self.scope.may_hold(d) for d in path):
            return None  # a submodule of a package outside the project (tensorflow.python...): no search
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        if not self.scope.contains(spec.origin):
            return None
        spec.loader = _ObservingLoader(spec.loader.name, spec.loader.path)
        return spec


class Installation:
    """The hooks of one run: builtins for the decorators and the import finder. ``remove()`` undoes both."""

    def __init__(self, observer: Observer, scope: ProjectScope):
        self.observer = observer
        self.finder = _ProjectFinder(scope)

    def install(self) -> None:
        setattr(builtins, FUNCTION_HOOK, self._observe_function)
        setattr(builtins, CLASS_HOOK, self.observer.wrap_class)
        sys.meta_path.insert(0, self.finder)

    def remove(self) -> None:
        # The builtins stay (as identity decorators) in case the program defines functions later,
        # e.g. in a thread still running or an atexit handler.
        setattr(builtins, FUNCTION_HOOK, _identity)
        setattr(builtins, CLASS_HOOK, _identity)
        try:
            sys.meta_path.remove(self.finder)
        except ValueError:
            pass

    def _observe_function(self, fn: Any) -> Any:
        return self.observer.wrap(fn)


def _identity(x: Any) -> Any:
    return x
