"""A module that does not parse whole is analysed without its broken top-level blocks, which are
reported (sources/recover.py); nothing else in it is lost, and fix leaves it untouched."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tfadvisor.check import check_paths
from tfadvisor.cli.main import main
from tfadvisor.model import Verdict
from tfadvisor.report import render
from tfadvisor.sources.recover import recover

LISTING = '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.1)


@tf.function
def evaluate(x):
    return model(x)


def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print \u201ctraining\u201d


def report(value):
    print "loss", value


for i in range(100):
    train_step(tf.ones([4, 3]), tf.zeros([4, 1]))
'''


def test_blocks_that_parse_are_kept_line_for_line_and_the_others_listed() -> None:
    text, skipped = recover(LISTING)  # type: ignore[misc]
    assert text.splitlines()[6] == "@tf.function"  # decorators stay with what they decorate
    assert text.splitlines()[19] == ""  # the curly-quoted print, blanked in place
    assert [(s.start, s.end) for s in skipped] == [(20, 20), (23, 24)]
    assert "U+201C" in skipped[0].reason and "print" in skipped[1].reason


def test_nothing_to_keep_is_still_a_syntax_error() -> None:
    assert recover("def f(:\n    pass\n") is None
    assert recover("x = 1\n") is None  # it parses: nothing to recover


def test_check_analyses_the_rest_and_says_what_it_left_out(tmp_path: Path, schema_valid) -> None:
    (tmp_path / "listing.py").write_text(LISTING, encoding="utf-8")
    report = check_paths([str(tmp_path)])
    status = report.files[0]
    assert status.status == "ok" and len(status.skipped_lines) == 2
    verdicts = {fn.qualname: fn.verdict for fn in report.functions}
    assert verdicts["train_step"] is Verdict.DECORATE
    assert verdicts["evaluate"] is Verdict.KEEP
    assert "report" not in verdicts
    schema_valid(report.to_dict())
    assert "lines that are not Python" in render(report, "text")
    assert "line=20" in render(report, "github") and "lines-skipped" in render(report, "sarif")


def test_fix_leaves_such_a_file_as_it_is(tmp_path: Path) -> None:
    target = tmp_path / "listing.py"
    target.write_text(LISTING, encoding="utf-8")
    result = CliRunner().invoke(main, ["fix", str(target)])
    assert result.exit_code == 1
    assert "left untouched" in result.output
    assert target.read_text(encoding="utf-8") == LISTING


def test_lines_are_pythons_lines_not_unicode_ones() -> None:
    """``\\x1c`` and ``\\u2028`` end a line for str.splitlines() but not for Python: a block is cut
    only at newlines, and text Python rejects there stays an error on disk and in memory alike."""
    assert recover("x = 1\x1cy = 2\n") is None
    text, skipped = recover("a = '\u2028'\n\nprint 'py2'\n\ndef f(x):\n    return x\n")  # type: ignore[misc]
    assert text.split("\n")[0] == "a = '\u2028'" and [(s.start, s.end) for s in skipped] == [(3, 3)]
