"""`tfadvisor run` and `profile` in a Python without TensorFlow (as after `pip install tfadvisor`):
a message with the install command, never a ModuleNotFoundError traceback (issue 22)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# A Python without TensorFlow, as after `pip install tfadvisor`: a meta-path finder refuses it.
_NO_TENSORFLOW = '''\
import sys

class _NoTensorFlow:
    def find_spec(self, name, path=None, target=None):
        if name == "tensorflow" or name.startswith("tensorflow."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _NoTensorFlow())
'''


def test_run_and_profile_without_tensorflow_say_how_to_install_it(tmp_path: Path) -> None:
    """Issue 22: `run` without TensorFlow ended in a raw ModuleNotFoundError traceback. Now one
    message with the install command, exit 2; `check` works as before."""
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(_NO_TENSORFLOW)
    (tmp_path / "train.py").write_text("import tensorflow as tf\n\ndef f(x):\n    return tf.square(x)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(blocker), os.environ.get("PYTHONPATH")]))}
    probe = subprocess.run([sys.executable, "-c", "import tensorflow"], cwd=tmp_path, env=env, capture_output=True,
                           text=True, timeout=60)
    assert probe.returncode != 0 and "ModuleNotFoundError" in probe.stderr  # the blocker works

    def tfadvisor(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tfadvisor", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)

    for args in (("run", "train.py"), ("profile", "train.py:f", "--calls", "train.py:f")):
        result = tfadvisor(*args)
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr and "ModuleNotFoundError" not in result.stderr, result.stderr
        assert f"tfadvisor {args[0]}: needs TensorFlow" in result.stderr
        assert "pip install 'tfadvisor[tf]'" in result.stderr
    assert tfadvisor("check", "train.py").returncode == 0


def test_readme_install_section_matches_the_extras_and_the_hint() -> None:
    """The README tells a user what each extra gives; the extras it names are pyproject's, and the
    command `run` prints without TensorFlow is the README's."""
    from tfadvisor.cli.options import INSTALL_TF
    from tfadvisor.config import tomllib  # tomli on Python 3.10

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    section = readme[readme.index("## Install"):readme.index("## Quick start")]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert "pip install tfadvisor " in section and INSTALL_TF in section
    for extra in ("tf", "html"):
        assert f"| `{extra}` |" in section, extra
    assert "tensorflow-cpu" in " ".join(extras["tf"]) and "`tensorflow-cpu`" in section
    assert "## Exit status" in readme and "a named path that does not exist" in readme
