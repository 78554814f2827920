"""Whether code is test code: tests drive the code under test and use tf.function on purpose, so
their call sites are not the workload and their tf.functions are not advice material."""

from __future__ import annotations

from tfadvisor.analysis.summary import FunctionSummary


def is_test_path(path: str) -> bool:
    path = path.replace("\\", "/")
    base = path.rsplit("/", 1)[-1]
    return (base.endswith(("_test.py", "_tests.py")) or base.startswith(("test_", "conftest"))
            or "/tests/" in f"/{path}")


def is_test(fn: FunctionSummary) -> bool:
    outer = fn.qualname.split(".<locals>.")[0].rsplit(".", 1)[-1]
    return fn.name.startswith(("test", "setUp", "tearDown")) or outer.startswith("test") or is_test_path(fn.path)
