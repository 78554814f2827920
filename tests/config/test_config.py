"""`[tool.tfadvisor]` end to end through `tfadvisor check`: discovery, select/ignore, per-file
ignores, excludes, `--config`, command-line overrides, and bad configs (exit 2, file and key named)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from tfadvisor.cli.main import main
from tfadvisor.config import Config, ConfigError, find_config, load_config

# One file that fires TF201 (print in graph code, warning) and TF205 (np.random, error).
SOURCE = """\
import numpy as np
import tensorflow as tf

@tf.function
def step(x):
    print("x is", x)
    noise = np.random.normal()
    return tf.square(x) + noise
"""


def run(*args: str, cwd: Path) -> tuple[int, str, dict | None]:
    old = os.getcwd()
    try:
        os.chdir(cwd)
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)
    data = None
    if "json" in args and result.exit_code in (0, 1):
        data = json.loads(result.output)
    return result.exit_code, result.output, data


def rules_of(data: dict | None, path: str | None = None) -> set[str]:
    assert data is not None
    return {f["rule"] for f in data["findings"] if not f.get("suppressed") and (path is None or f["path"] == path)}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text(SOURCE)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "run_model.py").write_text(SOURCE)
    return tmp_path


def write_config(root: Path, body: str) -> Path:
    path = root / "pyproject.toml"
    path.write_text("[project]\nname = 'demo'\n\n[tool.tfadvisor]\n" + body)
    return path


def test_no_config_runs_every_rule(project: Path) -> None:
    code, _, data = run("check", ".", "-f", "json", cwd=project)
    assert code == 1
    assert {"TF201", "TF205"} <= rules_of(data, "pkg/model.py")


def test_select_by_prefix_and_ignore_by_code(project: Path) -> None:
    write_config(project, 'select = ["TF2"]\nignore = ["TF205"]\n')
    _, _, data = run("check", ".", "-f", "json", cwd=project)
    assert rules_of(data) == {"TF201"}


def test_config_is_found_walking_up_from_the_checked_path(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    write_config(project, 'ignore = ["TF201"]\n')
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    assert find_config(project / "pkg" / "model.py") == project / "pyproject.toml"
    _, _, data = run("check", str(project / "pkg"), "-f", "json", cwd=elsewhere)
    assert "TF201" not in rules_of(data) and "TF205" in rules_of(data)


def test_pyproject_without_our_table_is_skipped_on_the_way_up(project: Path) -> None:
    write_config(project, 'ignore = ["TF205"]\n')
    (project / "pkg" / "pyproject.toml").write_text("[project]\nname = 'inner'\n")
    assert find_config(project / "pkg") == project / "pyproject.toml"


def test_per_file_ignores(project: Path) -> None:
    write_config(project, '[tool.tfadvisor.per-file-ignores]\n"scripts/*" = ["TF2"]\n')
    _, _, data = run("check", ".", "-f", "json", cwd=project)
    assert rules_of(data, "scripts/run_model.py") == set()
    assert {"TF201", "TF205"} <= rules_of(data, "pkg/model.py")


def test_per_file_ignores_are_relative_to_the_config_file(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    write_config(project, '[tool.tfadvisor.per-file-ignores]\n"scripts/*" = ["TF201"]\n')
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    _, _, data = run("check", str(project), "-f", "json", cwd=elsewhere)
    tests_file = next(f["path"] for f in data["files"] if f["path"].endswith("scripts/run_model.py"))
    assert "TF201" not in rules_of(data, tests_file) and "TF205" in rules_of(data, tests_file)


def test_exclude_and_extend_exclude(project: Path) -> None:
    write_config(project, 'exclude = ["scripts"]\n')
    _, _, data = run("check", ".", "-f", "json", cwd=project)
    assert [f["path"] for f in data["files"]] == ["pkg/model.py"]
    write_config(project, 'extend-exclude = ["model.py"]\n')
    _, _, data = run("check", ".", "-f", "json", cwd=project)
    assert [f["path"] for f in data["files"]] == ["scripts/run_model.py"]


def test_config_option_overrides_the_found_config(project: Path) -> None:
    write_config(project, 'ignore = ["TF201"]\n')
    other = project / "strict.toml"
    other.write_text('[tool.tfadvisor]\nselect = ["TF201"]\n')
    _, _, data = run("check", ".", "-f", "json", "--config", "strict.toml", cwd=project)
    assert rules_of(data) == {"TF201"}


def test_command_line_select_and_ignore_override_the_config(project: Path) -> None:
    write_config(project, 'select = ["TF201"]\n')
    _, _, data = run("check", ".", "-f", "json", "--select", "TF205", cwd=project)
    assert rules_of(data) == {"TF205"}
    write_config(project, 'ignore = ["TF205"]\n')
    _, _, data = run("check", ".", "-f", "json", "--ignore", "TF201", cwd=project)
    assert "TF201" not in rules_of(data)


def test_fail_on_from_config(project: Path) -> None:
    write_config(project, 'select = ["TF201"]\nfail-on = "error"\n')
    code, _, _ = run("check", ".", cwd=project)
    assert code == 0  # TF201 is a warning: below the threshold
    write_config(project, 'select = ["TF205"]\nfail-on = "error"\n')
    assert run("check", ".", cwd=project)[0] == 1


BAD_CONFIGS = {
    "unknown key": ('selekt = ["TF2"]\n', "selekt"),
    "unknown code": ('ignore = ["TF999"]\n', "TF999"),
    "wrong type": ('select = "TF2"\n', "select"),
    "wrong element type": ("ignore = [201]\n", "ignore"),
    "bad per-file table": ('per-file-ignores = ["scripts/*"]\n', "per-file-ignores"),
    "unknown code per file": ('[tool.tfadvisor.per-file-ignores]\n"scripts/*" = ["TF2O1"]\n', "TF2O1"),
    "bad fail-on": ('fail-on = "sometimes"\n', "fail-on"),
    "bad exclude": ("exclude = true\n", "exclude"),
}


@pytest.mark.parametrize("case", BAD_CONFIGS, ids=list(BAD_CONFIGS))
def test_bad_config_is_one_line_naming_file_and_key(project: Path, case: str) -> None:
    body, key = BAD_CONFIGS[case]
    write_config(project, body)
    code, out, _ = run("check", ".", cwd=project)
    assert code == 2, out
    assert "pyproject.toml" in out and key in out, out
    assert "Traceback" not in out
    assert len(out.strip().splitlines()) == 1, out


def test_invalid_toml_and_missing_config_file_exit_2(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.tfadvisor\nselect = \n")
    code, out, _ = run("check", ".", "--config", "pyproject.toml", cwd=project)
    assert code == 2 and "pyproject.toml" in out and "TOML" in out
    code, out, _ = run("check", ".", "--config", "missing.toml", cwd=project)
    assert code == 2 and "missing.toml" in out and "Traceback" not in out


def test_unknown_code_on_the_command_line_exits_2(project: Path) -> None:
    code, out, _ = run("check", ".", "--ignore", "TF2,XX1", cwd=project)
    assert code == 2 and "XX1" in out


def test_load_config_api() -> None:
    assert load_config(None) == Config()
    with pytest.raises(ConfigError):
        from tfadvisor.config import parse_table

        parse_table({"min-tensor-ops": -1}, "x.toml")
    cfg = Config(select=("TF2",)).with_overrides(select=None, ignore=("TF201",))
    assert cfg.select == ("TF2",) and cfg.ignore == ("TF201",)


def test_fail_on_never_from_config(project: Path) -> None:
    write_config(project, 'fail-on = "never"\n')
    assert run("check", ".", cwd=project)[0] == 0


def test_invalid_toml_found_automatically_is_an_error_not_ignored(project: Path) -> None:
    """Issue 22: a broken pyproject.toml found by walking up was skipped without a word, and the
    user's select/ignore silently dropped. Now it stops `check` (exit 2) and `fix` with its name and
    where TOML broke, from the folder itself and from a folder below it."""
    (project / "pyproject.toml").write_text('[tool.tfadvisor]\nignore = [TF201]\n')
    (project / "sub").mkdir()
    (project / "sub" / "m.py").write_text(SOURCE)
    for where, target in ((project, "."), (project / "sub", "m.py")):
        code, out, _ = run("check", target, cwd=where)
        assert code == 2, out
        assert "pyproject.toml: not valid TOML" in out and "line 2" in out, out
        assert "Traceback" not in out and len(out.strip().splitlines()) == 1, out
    code, out, _ = run("fix", "--diff", ".", cwd=project)
    assert code != 0 and "not valid TOML" in out, out
    if importlib.util.find_spec("tensorflow") is not None:  # `run` stops before the program starts
        (project / "sub" / "prog.py").write_text("open('ran', 'w').close()\n")
        code, out, _ = run("run", "prog.py", cwd=project / "sub")
        assert code == 2 and "pyproject.toml: not valid TOML" in out and not (project / "sub" / "ran").exists(), out
