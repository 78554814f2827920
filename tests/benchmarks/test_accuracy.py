"""Scoring: the arithmetic on a hand-made case, and the real `check` against the real labels."""

from __future__ import annotations

import json

import accuracy as acc


def _labels():
    def f(label, broken=False):
        return {"label": label, "broken": broken, "decorated": False, "why": "w"}

    return {"functions": {"a": f("decorate"), "b": f("fix-first", True), "c": f("leave-eager"), "d": f(None)}}


def test_score_counts_accuracy_precision_recall_and_unsafe_advice():
    preds = {"a": acc.Prediction("decorate"), "b": acc.Prediction("decorate"), "c": acc.Prediction("leave-eager")}
    s = acc.score("t", _labels(), preds)
    assert (s.n, s.correct) == (3, 2)
    assert s.unsafe == ["b"]  # decorate advised for a function that breaks under tf.function
    assert s.precision("decorate") == 0.5 and s.recall("decorate") == 1.0
    assert s.recall("fix-first") == 0.0 and s.precision("fix-first") is None
    assert "| `fix-first` | 1 | 0 | - | 0% |" in acc.per_verdict_table(s)


def test_check_is_scored_on_the_corpus_and_docs_render(tmp_path):
    labels = acc.load_labels()
    static, elapsed = acc.static_predictions()
    assert set(labels["functions"]) <= set(static), "check must report every corpus function by the same id"
    s = acc.score("check", labels, static)
    assert s.n >= 80 and not s.missing
    text = acc.render_markdown(labels, static, elapsed, None, acc.labels_fresh(labels))
    assert "| `check`, all verdicts (static) |" in text and "not yet available" in text
    docs = tmp_path / "b.md"
    assert acc.main(["--write-docs", "--docs", str(docs)]) == 0
    assert docs.read_text().startswith("# Accuracy benchmark")


def test_missing_labels_is_one_clear_line(tmp_path, capsys):
    assert acc.main(["--labels", str(tmp_path / "none.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "ground_truth.py" in err
