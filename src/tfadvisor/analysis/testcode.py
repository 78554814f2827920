"""Whether code is test code: tests drive the code under test and use tf.function on purpose, so
their call sites are not the workload and their tf.functions are not advice material.

Test code is known by where it is, as the test runners find it, never by a name alone: a
``train_step``/``test_step`` pair in a training script is workload (TensorFlow's own tutorials
name the evaluation step ``test_step``).

- test files, as pytest collects them (``test_*.py``, ``*_test.py``, ``conftest.py``) and files
  under a ``tests/`` folder, unless the workload calls their functions (``train_validation_test.py``
  holding the ``train()`` a training script calls is a module of the workload);
- methods of ``unittest.TestCase`` classes (``tf.test.TestCase``, absl's ``parameterized.TestCase``
  and the project's own subclasses of them), wherever they are, and functions nested in them.
"""

from __future__ import annotations

from collections.abc import Iterable

from tfadvisor.analysis.summary import FunctionSummary

# Base classes that make a class a unittest test case (canonical names, or their last part).
_TEST_CASE_BASES = ("TestCase", "IsolatedAsyncioTestCase", "parameterized.TestCase")


def is_test_path(path: str) -> bool:
    path = path.replace("\\", "/")
    base = path.rsplit("/", 1)[-1]
    return (base.endswith(("_test.py", "_tests.py")) or base.startswith(("test_", "conftest"))
            or "/tests/" in f"/{path}")


def is_test_case(bases: Iterable[str]) -> bool:
    """Whether a class with these (canonical, transitive) bases is a unittest ``TestCase``."""
    return any(b.rsplit(".", 1)[-1] in _TEST_CASE_BASES or b.endswith(_TEST_CASE_BASES) for b in bases)


def is_test(fn: FunctionSummary, test_classes: frozenset[tuple[str, str]] = frozenset(),
            workload_files: frozenset[str] = frozenset()) -> bool:
    """``test_classes``: (module, class qualname) of the project's TestCase classes;
    ``workload_files``: files named like tests that the workload imports and calls, which hold no
    test code but their TestCase classes."""
    if is_test_path(fn.path) and fn.path not in workload_files:
        return True
    outer_class = fn.class_qualname
    if outer_class is None and ".<locals>." in fn.qualname:
        # a function nested in a method: the method's class
        head = fn.qualname.split(".<locals>.")[0]
        outer_class = head.rsplit(".", 1)[0] if "." in head else None
    while outer_class:
        if (fn.module, outer_class) in test_classes:
            return True
        outer_class = outer_class.rsplit(".", 1)[0] if "." in outer_class else None
    return False
