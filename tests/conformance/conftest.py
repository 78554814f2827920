"""The conformance suite's TensorFlow run, shared by its tests: one child process per session."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import sys
from typing import Any

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def _tensorflow_build() -> str:
    """The installed TensorFlow's distribution and version (tensorflow, tensorflow-cpu ...)."""
    from importlib.metadata import PackageNotFoundError, version

    for name in ("tensorflow", "tensorflow-cpu", "tensorflow-intel", "tf-nightly", "tf-nightly-cpu"):
        try:
            return f"{name}=={version(name)}"
        except PackageNotFoundError:
            continue
    return "tensorflow==unknown"


def _digest() -> str:
    """The variants and the installed TensorFlow: TensorFlow's labels depend on nothing else."""
    h = hashlib.sha256(_tensorflow_build().encode())
    for folder, _dirs, files in sorted(os.walk(HERE)):
        for name in sorted(f for f in files if f.endswith(".py")):
            with open(os.path.join(folder, name), "rb") as handle:
                h.update(name.encode() + handle.read())
    return h.hexdigest()[:16]


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """TensorFlow's labels for every variant: one child process per test session (shared by xdist
    workers through a locked file)."""
    shared = tmp_path_factory.getbasetemp().parent
    out = shared / f"conformance-{_digest()}.json"
    with open(shared / "conformance.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not out.exists():
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.path.dirname(HERE), *sys.path])}
            subprocess.run([sys.executable, os.path.join(HERE, "runner.py"), "--out", str(out) + ".tmp"],
                           check=True, env=env, capture_output=True, timeout=900)
            os.replace(str(out) + ".tmp", out)
    with open(out, encoding="utf-8") as handle:
        data: list[dict[str, Any]] = json.load(handle)
    return data
