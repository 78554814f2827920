"""The pre-commit hooks, installed and run by pre-commit itself on a temporary git repository.

`pre-commit try-repo` installs this checkout (with uncommitted changes) into a fresh hook
environment, as users get it, and runs both hooks on a staged file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tfadvisor

CHECKOUT = Path(tfadvisor.__file__).resolve().parents[2]
PRE_COMMIT = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or shutil.which("pre-commit")

MODEL = '''import tensorflow as tf


def train_step(model, optimizer, x: tf.Tensor, y: tf.Tensor):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def logged_step(x):
    loss = tf.reduce_sum(x * x)
    print("loss", loss)
    return loss


def fit(model, optimizer, dataset):
    for x, y in dataset:
        train_step(model, optimizer, x, y)
'''


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True)


@pytest.mark.slow
def test_hooks_run_on_a_temporary_git_repo(tmp_path: Path) -> None:
    if PRE_COMMIT is None:
        if os.environ.get("CI"):
            pytest.fail("pre-commit is required in CI (pip install pre-commit)")
        pytest.skip("pre-commit not installed (pip install pre-commit)")
    if not (CHECKOUT / ".git").exists() or not (CHECKOUT / ".pre-commit-hooks.yaml").exists():
        pytest.skip("tfadvisor is not installed from a git checkout")
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "dev@example.invalid")
    git(repo, "config", "user.name", "dev")
    (repo / "model.py").write_text(MODEL, encoding="utf-8")
    git(repo, "add", "model.py")

    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "NO_COLOR": "1"}
    proc = subprocess.run(
        [PRE_COMMIT, "try-repo", str(CHECKOUT), "--files", "model.py", "--color", "never"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=540,
    )
    out = proc.stdout + proc.stderr
    assert "An error has occurred" not in out, out
    assert proc.returncode == 1, out  # both hooks fail: findings, and files changed by the fix
    check_part = out[out.index("tfadvisor check"):out.index("tfadvisor fix")]
    assert "Failed" in check_part and "TF201" in check_part and "TF501" in check_part, out
    fix_part = out[out.index("tfadvisor fix"):]
    assert "Failed" in fix_part and "files were modified by this hook" in fix_part, out
    fixed = (repo / "model.py").read_text(encoding="utf-8")
    assert "@tf.function\ndef train_step(" in fixed
    assert fixed.replace("@tf.function\ndef train_step(", "def train_step(") == MODEL  # nothing else touched


def test_manifest_declares_both_hooks() -> None:
    """The manifest's hooks, read without a YAML library: ids, entries and file types."""
    text = (CHECKOUT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    hooks = [block for block in text.split("\n- ")[1:]]
    ids = [b.split("\n", 1)[0].removeprefix("id: ").strip() for b in hooks]
    assert ids == ["tfadvisor-check", "tfadvisor-fix"]
    for block, entry in zip(hooks, ("entry: tfadvisor check", "entry: tfadvisor fix")):
        assert entry in block and "language: python" in block and "types_or: [python, jupyter]" in block
