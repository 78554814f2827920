"""benchmarks/realworld/blind.py: the per-repository cap and the repository-resampled interval do
what the split protocols (docs/decisions/0019) rely on."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "realworld"))

import blind  # noqa: E402


def test_cap_keeps_at_most_n_per_repository_and_is_a_fixed_draw():
    keys = [f"big:f.py::f{i}" for i in range(20)] + ["small:g.py::g", "small:g.py::h"]
    first = blind.capped(keys, 6, 7)
    assert sum(k.startswith("big:") for k in first) == 6
    assert {k for k in first if k.startswith("small:")} == {"small:g.py::g", "small:g.py::h"}
    assert first == blind.capped(list(reversed(keys)), 6, 7)  # the input's order does not matter
    assert blind.capped(keys, None, 7) == keys


def test_one_repository_carrying_a_figure_widens_the_resampled_interval():
    # 40 right items in one repository, 1 wrong item in each of 4 others: 89% on items
    scored = [f"big:f.py::f{i}" for i in range(40)] + [f"r{i}:f.py::f" for i in range(4)]
    good = scored[:40]
    lo, hi = blind.cluster_interval(good, scored)
    wilson_lo, _ = blind.wilson(len(good), len(scored))
    assert lo < wilson_lo - 0.2 and hi > 0.85
    # the same share spread evenly over repositories keeps a narrow interval
    even = [f"r{i}:f.py::f{j}" for i in range(11) for j in range(4)]
    even_good = [k for k in even if not k.endswith("f3")] + [k for k in even if k.endswith("f3")][:7]
    lo2, _ = blind.cluster_interval(even_good, even)
    assert lo2 > lo


def test_claims_count_in_a_repository_with_no_judged_verdict(tmp_path, capsys):
    """A repository can hold judged claims and no drawn verdict (a Keras-only project whose one
    tf.function prints): its claims are scored all the same."""
    import json

    reports, judged = tmp_path / "reports", tmp_path / "judged"
    reports.mkdir()
    judged.mkdir()
    (reports / "repo.json").write_text(json.dumps({"functions": [], "findings": [
        {"path": "train.py", "line": 3, "rule": "TF201", "severity": "warning", "message": "print"}]}))
    (judged / "j-findings.jsonl").write_text(json.dumps({"key": "repo:train.py:3:TF201", "right": True}) + "\n")
    assert blind.main(["--reports", str(reports), "--judgments", str(judged)]) == 0
    assert "error/warning findings right: 100% (1/1" in capsys.readouterr().out


def _recall_read(tmp_path, capsys, functions: list[dict], cases: list[dict]) -> str:
    """What blind.py prints for one repository's functions and recall cases."""
    import json

    reports, judged = tmp_path / "reports", tmp_path / "judged"
    reports.mkdir()
    judged.mkdir()
    (reports / "repo.json").write_text(json.dumps({"functions": functions, "findings": []}))
    (judged / "j-recall.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    assert blind.main(["--reports", str(reports), "--judgments", str(judged)]) == 0
    return capsys.readouterr().out


def test_recall_is_also_read_on_the_cases_where_the_judge_insists_on_a_change(tmp_path, capsys):
    """A case whose judge also accepts leave-eager counts in recall, not among the insisted ones."""
    functions = [{"id": "train.py::step", "verdict": "decorate"}, {"id": "train.py::loss", "verdict": "leave-eager"}]
    cases = [{"key": "repo:train.py::step", "acceptable": ["decorate"]},
             {"key": "repo:train.py::loss", "acceptable": ["decorate", "leave-eager"]}]
    out = _recall_read(tmp_path, capsys, functions, cases)
    assert "recall, a verdict of the right kind: 50% (1/2" in out
    assert "insists on a change (no status quo acceptable): 100% (1/1" in out


def test_a_note_saying_the_change_is_read_beside_the_bars_recall_not_in_it(tmp_path, capsys):
    """A driver left eager with TF508's note (move the inline step into a decorated function) where
    the judge's first choice is fix-first: counted on the notes' line only, not in the bar's figure."""
    functions = [{"id": "train.py::train", "verdict": "leave-eager", "reasons": ["TF508"]},
                 {"id": "train.py::fit", "verdict": "leave-eager", "reasons": ["TF508"]}]
    cases = [{"key": "repo:train.py::train", "acceptable": ["fix-first", "leave-eager"]},
             {"key": "repo:train.py::fit", "acceptable": ["decorate", "leave-eager"]}]
    out = _recall_read(tmp_path, capsys, functions, cases)
    assert "recall, right kind or a finding in the function: 0% (0/2" in out
    assert "a note saying the change (TF507/TF508; not the bar's figure): 50% (1/2" in out


def test_recall_without_tensorflow_1_files_leaves_out_their_cases(tmp_path, capsys):
    """A case in a file the reports note as TensorFlow 1 code (TF100), or whose text turns on
    TensorFlow 1's eager mode, is read apart (the protocols' "recall without TensorFlow 1 files")."""
    import json

    reports, judged, corpus = tmp_path / "reports", tmp_path / "judged", tmp_path / "corpus"
    for folder in (reports, judged, corpus / "repo"):
        folder.mkdir(parents=True)
    (corpus / "repo" / "eager1.py").write_text("import tensorflow as tf\ntf.enable_eager_execution()\n")
    (corpus / "repo" / "train.py").write_text("import tensorflow as tf\n")
    functions = [{"id": f"{name}.py::step", "verdict": "leave-eager"} for name in ("train", "graph1", "eager1")]
    findings = [{"path": "graph1.py", "line": 1, "rule": "TF100", "severity": "info", "message": "TensorFlow 1"}]
    (reports / "repo.json").write_text(json.dumps({"functions": functions, "findings": findings}))
    cases = [{"key": f"repo:{name}.py::step", "acceptable": ["decorate"]} for name in ("train", "graph1", "eager1")]
    (judged / "j-recall.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    assert blind.main(["--reports", str(reports), "--judgments", str(judged), "--corpus", str(corpus)]) == 0
    assert "recall without TensorFlow 1 files (2 case(s) left out): 0% (0/1" in capsys.readouterr().out


def test_the_walk_ends_before_the_fetch_limits_first_refusal(tmp_path, capsys):
    """draw.py walked: names in walk order up to the first LIMIT in any helper's log; later names
    fetched in the same batches are not walked."""
    import draw
    import pytest

    walk = tmp_path / "walk.txt"
    walk.write_text("".join(f"o/r{i}\n" for i in range(6)))
    (tmp_path / "fetch0.log").write_text("o/r0\tOK\tp\no/r2\tFAIL\tno snapshot\no/r4\tOK\tp\n")
    (tmp_path / "fetch1.log").write_text("o/r1\tOK\tp\no/r3\tLIMIT\tno more\no/r5\tLIMIT\tno more\n")
    out = tmp_path / "walked.txt"
    draw.main([  # the command line as a protocol runs it
        "walked", str(walk), str(tmp_path / "fetch0.log"), str(tmp_path / "fetch1.log"), "--out", str(out)])
    assert out.read_text() == "o/r0\no/r1\no/r2\n"
    assert "walked 3: 2 fetched, 1 not; 1 later names fetched" in capsys.readouterr().out
    (tmp_path / "fetch0.log").write_text("o/r0\tOK\tp\n")  # a helper that stopped before o/r2
    with pytest.raises(SystemExit, match="never tried"):
        draw.main(["walked", str(walk), str(tmp_path / "fetch0.log"), str(tmp_path / "fetch1.log"),
                        "--out", str(out)])


def test_chunks_deal_the_walk_to_the_helpers_in_order(tmp_path):
    """draw.py chunks: name i to chunk i mod N, each chunk in walk order, and a prompt per helper
    naming its chunk and its log."""
    import draw

    walk = tmp_path / "walk.txt"
    walk.write_text("".join(f"o/r{i}\n" for i in range(7)))
    draw.main(["chunks", str(walk), "--into", str(tmp_path / "d"), "--helpers", "3"])
    assert (tmp_path / "d" / "chunk1").read_text() == "o/r1\no/r4\n"
    prompt = (tmp_path / "d" / "prompt1.txt").read_text()
    assert str(tmp_path / "d" / "chunk1") in prompt and str(tmp_path / "d" / "fetch1.log") in prompt
    assert "(2 names" in prompt


def test_folders_set_up_each_judge_from_the_draw(tmp_path):
    """draw.py folders: each judge's folder holds its repositories and round A's recall
    repositories (never round B's files), the split's instructions sit beside the folders, and
    each prompt names its judge."""
    import json

    import draw

    judges = tmp_path / "judges.json"
    judges.write_text(json.dumps({"h43a": ["h43-one"], "h43b": ["h43-two", "h43-three"]}))
    for judge in ("h43a", "h43b"):
        (tmp_path / "roundB" / judge).mkdir(parents=True)
        (tmp_path / "roundB" / judge / "recall_repos.txt").write_text("h43-one\n")
        (tmp_path / "roundB" / judge / "functions.txt").write_text("secret\n")
    excluded = tmp_path / "EXCLUDED.txt"
    excluded.write_text("# none\n")
    into, prompts, scripts = tmp_path / "judges", tmp_path / "prompts", tmp_path / "scripts"
    scripts.mkdir()
    draw.main(["folders", "heldout43", "--judges", str(judges), "--round-b", str(tmp_path / "roundB"),
               "--excluded", str(excluded), "--into", str(into), "--prompts", str(prompts), "--scripts", str(scripts)])
    assert (into / "h43b" / "repos.txt").read_text() == "h43-two\nh43-three\n"
    assert (into / "h43b" / "recall_repos.txt").exists() and (into / "h43b" / "scratch").is_dir()
    assert not (into / "h43b" / "functions.txt").exists()  # round B's files come only after round A
    assert {p.name for p in into.iterdir() if p.is_file()} >= {"INSTRUCTIONS.md", "BOTH43.md", "EXCLUDED43.txt"}
    prompt = (prompts / "judge-h43b.txt").read_text()
    assert "h43b" in prompt and "JUDGE" not in prompt
    assert (scripts / "roundB43.sh").exists()


def test_each_version_is_read_on_its_own_capped_draw(tmp_path, capsys):
    """draw.py own: two versions asking changes on 10 functions of one repository each drew 2 (the
    judged union holds up to 4); each is scored on its own 2 only (heldout45, decision 0050)."""
    import json

    import draw

    split, first, second = tmp_path / "split", tmp_path / "F", tmp_path / "K"
    for folder in (split, first, second):
        folder.mkdir()
    names = [f"f{i}" for i in range(10)]
    for folder in (first, second):
        functions = [{"id": f"m.py::{n}", "verdict": "decorate"} for n in names]
        (folder / "repo.json").write_text(json.dumps({"functions": functions, "findings": []}))
    (split / "judges.json").write_text(json.dumps({"a": ["repo"]}))
    (split / "EXCLUDED.txt").write_text("# none\n")
    (split / "a-judgments.jsonl").write_text("".join(
        json.dumps({"key": f"repo:m.py::{n}", "acceptable": ["decorate"]}) + "\n" for n in names))
    draw.main(["own", str(split), "--reports", str(first), "--reports", str(second), "--seed", "3", "--cap", "2"])
    out = capsys.readouterr().out
    assert f"{first}: change-asking right on its own draw: 2/2 (1 repositories)" in out
    assert f"{second}: change-asking right on its own draw: 2/2 (1 repositories)" in out


def test_agreement_reads_one_version_against_two_judges(tmp_path, capsys):
    """agreement.py: on the functions both judges judged, the version's change-asking verdicts
    right by each judge, and how often the judges' first choices agree."""
    import json

    import agreement

    first, second, reports = tmp_path / "first", tmp_path / "second", tmp_path / "reports"
    for folder in (first, second, reports):
        folder.mkdir()
    functions = [{"id": "t.py::step", "verdict": "decorate"}, {"id": "t.py::plot", "verdict": "leave-eager"}]
    (reports / "repo.json").write_text(json.dumps({"functions": functions, "findings": []}))
    (first / "j-judgments.jsonl").write_text(
        json.dumps({"key": "repo:t.py::step", "acceptable": ["decorate"]}) + "\n"
        + json.dumps({"key": "repo:t.py::plot", "acceptable": ["leave-eager"]}) + "\n")
    (second / "k-judgments.jsonl").write_text(
        json.dumps({"key": "repo:t.py::step", "acceptable": ["leave-eager"]}) + "\n"
        + json.dumps({"key": "repo:t.py::plot", "acceptable": ["leave-eager"]}) + "\n")
    assert agreement.main(["--first", str(first), "--second", str(second), "--reports", str(reports)]) == 0
    out = capsys.readouterr().out
    assert "change-asking right: first judge 100% (1/1" in out and "second judge 0% (0/1" in out
    assert "first choices equal: 50% (1/2" in out
