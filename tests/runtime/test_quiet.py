"""runtime/quiet.py on its own: what it silences, which frames it drops, which line of an error it keeps."""

from __future__ import annotations

import subprocess
import sys
import traceback

import pytest

from tfadvisor.runtime import quiet


def test_measuring_silences_fd2_tensorflows_logger_and_warnings_then_gives_them_back() -> None:
    """In a subprocess, so that file descriptor 2 is a real pipe: a C-level write (as TensorFlow's
    C++ logs are), the "tensorflow" logger and a Python warning inside ``measuring`` are dropped;
    the same three after it reach stderr."""
    script = (
        "import logging, os, sys, warnings\n"
        "from tfadvisor.runtime import quiet\n"
        "logging.basicConfig()\n"
        "def noise(tag):\n"
        "    os.write(2, f'C-{tag}\\n'.encode())\n"
        "    logging.getLogger('tensorflow').warning('LOG-%s', tag)\n"
        "    warnings.warn(f'WARN-{tag}')\n"
        "    print(f'PY-{tag}', file=sys.stderr)\n"
        "with quiet.measuring():\n"
        "    noise('inside')\n"
        "noise('after')\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "inside" not in result.stderr, result.stderr
    for kind in ("C", "LOG", "WARN", "PY"):
        assert f"{kind}-after" in result.stderr, result.stderr


def test_error_line_keeps_what_went_wrong_of_an_autograph_error() -> None:
    tf = pytest.importorskip("tensorflow")

    @tf.function
    def step(x):
        return tf.reshape(x, [3, 3])

    with pytest.raises(ValueError) as caught:
        step(tf.ones([4]))
    assert str(caught.value).lstrip().startswith("in user code:")  # TensorFlow's framing
    line = quiet.error_line(caught.value)
    assert line.startswith("ValueError: Cannot reshape a tensor with 4 elements to shape [3,3]"), line
    assert "\n" not in line and len(line) <= 320


def test_error_line_drops_the_function_node_tag_and_keeps_plain_messages() -> None:
    tag = "{{function_node __wrapped__Reshape_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
    assert quiet.headline(tag + "Input to reshape is a tensor with 4 values [Op:Reshape]") == (
        "Input to reshape is a tensor with 4 values [Op:Reshape]")
    assert quiet.error_line(ZeroDivisionError("division by zero")) == "ZeroDivisionError: division by zero"
    assert quiet.error_line(KeyError()) == "KeyError"


def test_without_own_frames_drops_tfadvisors_frames_and_keeps_the_users() -> None:
    """A frame counts as tfadvisor's by its module (AutoGraph's conversion of a tfadvisor function
    runs in a temporary file, with the function's module globals)."""
    ours: dict = {"__name__": "tfadvisor.runtime.run.observe"}
    exec(compile("def observed(fn, *a):\n    return fn(*a)\n", "/tmp/__autograph_generated_fileX.py", "exec"), ours)

    def user(x):
        return 1 / x

    try:
        ours["observed"](user, 0)
    except ZeroDivisionError as exc:
        shown = "".join(traceback.format_exception(quiet.without_own_frames(exc)))
    assert "in user" in shown and "in observed" not in shown and "__autograph_generated" not in shown, shown
