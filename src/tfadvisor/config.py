"""Configuration: ``[tool.tfadvisor]`` in ``pyproject.toml``, overridden by the command line.

Found by walking up from the first checked path; ``--config FILE`` names one. A bad key, an
unknown rule code or a wrong type is a ``ConfigError`` naming the file and the key.
"""

from __future__ import annotations

import fnmatch
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class ConfigError(Exception):
    """A configuration the user must correct; the message names the file and key."""


# A function with fewer tensor ops than this (itself and its callees; no loop, no model call) gains
# little or loses from graph mode: a tf.function call costs about as much as a handful of eager ops
# on CPU (the accuracy corpus measured 4-9 op functions at 0.3-0.9x over hundreds of calls). Below
# it we say leave-eager, labelled a static estimate; `min-tensor-ops` in the config (advice/static.py reads it).
MIN_TENSOR_OPS = 8


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    fail_on: str = "warning"  # lowest severity that makes `check` exit 1 ("never": always 0)
    min_tensor_ops: int = MIN_TENSOR_OPS
    # Decorators that are tf.function under another name (``tf_agents.utils.common.function``);
    # wrappers defined in the checked project itself are found without this.
    function_decorators: tuple[str, ...] = ()
    source: str | None = None  # the file this came from

    def excludes(self) -> tuple[str, ...]:
        return (*self.exclude, *self.extend_exclude)

    def ignored_in(self, path: str) -> tuple[str, ...]:
        """Codes ignored for one file by ``per-file-ignores`` (glob patterns on the path)."""
        out: list[str] = []
        candidates = [path.replace(os.sep, "/"), os.path.basename(path)]
        if self.source:  # patterns are relative to the config file's folder, wherever we run from
            rel = os.path.relpath(os.path.abspath(path), os.path.dirname(os.path.abspath(self.source)))
            if not rel.startswith(".."):
                candidates.append(rel.replace(os.sep, "/"))
        for pattern, codes in self.per_file_ignores.items():
            if any(fnmatch.fnmatch(c, pattern) for c in candidates):
                out.extend(codes)
        return tuple(out)

    def with_overrides(self, **changes: Any) -> Config:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


_KEYS = {"select", "ignore", "per-file-ignores", "exclude", "extend-exclude", "fail-on", "min-tensor-ops",
         "function-decorators"}


def find_config(start: str | os.PathLike[str]) -> Path | None:
    """The nearest ``pyproject.toml`` with a ``[tool.tfadvisor]`` table, walking up from ``start``.

    One that is not valid TOML is a ``ConfigError``, as ruff has it: whether it holds our table
    cannot be known, and going on without it would silently drop the user's settings.
    """
    here = Path(start).resolve()
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                with open(candidate, "rb") as handle:
                    if "tfadvisor" in tomllib.load(handle).get("tool", {}):
                        return candidate
            except OSError:  # unreadable: not ours to judge; keep walking up
                continue
            except tomllib.TOMLDecodeError as exc:
                raise ConfigError(f"{_shown(candidate)}: not valid TOML: {exc}") from None
    return None


def _shown(path: Path) -> str:
    """A config path as the user would type it: relative to the current folder when inside it."""
    try:
        return os.path.relpath(path) if not os.path.relpath(path).startswith("..") else str(path)
    except ValueError:  # another drive (Windows)
        return str(path)


def load_config(path: str | os.PathLike[str] | None) -> Config:
    if path is None:
        return Config()
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    table = data.get("tool", {}).get("tfadvisor", {}) if Path(path).name == "pyproject.toml" or "tool" in data else data
    return parse_table(table, str(path))


def parse_table(table: Any, source: str) -> Config:
    from tfadvisor.rules import all_rules

    if not isinstance(table, dict):
        raise ConfigError(f"{source}: [tool.tfadvisor] must be a table")
    unknown = set(table) - _KEYS
    if unknown:
        raise ConfigError(f"{source}: unknown key {sorted(unknown)[0]!r} in [tool.tfadvisor] "
                          f"(known: {', '.join(sorted(_KEYS))})")
    codes = {r.code for r in all_rules()}

    def code_list(key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{source}: {key} must be a list of rule codes or prefixes")
        for v in value:
            check_code_pattern(v, codes, f"{source}: {key}")
        return tuple(v.upper() for v in value)

    def str_list(key: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{source}: {key} must be a list of strings")
        return tuple(value)

    per_file: dict[str, tuple[str, ...]] = {}
    raw = table.get("per-file-ignores", {})
    if not isinstance(raw, dict):
        raise ConfigError(f"{source}: per-file-ignores must be a table of glob = [codes]")
    for pattern, value in raw.items():
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{source}: per-file-ignores.{pattern!r} must be a list of rule codes")
        for v in value:
            check_code_pattern(v, codes, f"{source}: per-file-ignores.{pattern!r}")
        per_file[pattern] = tuple(v.upper() for v in value)
    fail_on = table.get("fail-on", "warning")
    if fail_on not in ("error", "warning", "info", "never"):
        raise ConfigError(f"{source}: fail-on must be one of error, warning, info, never")
    min_ops = table.get("min-tensor-ops", MIN_TENSOR_OPS)
    if not isinstance(min_ops, int) or isinstance(min_ops, bool) or min_ops < 0:
        raise ConfigError(f"{source}: min-tensor-ops must be a non-negative integer")
    return Config(select=code_list("select") or ("ALL",), ignore=code_list("ignore"),
                  per_file_ignores=per_file, exclude=str_list("exclude"),
                  extend_exclude=str_list("extend-exclude"), fail_on=fail_on,
                  min_tensor_ops=min_ops, function_decorators=str_list("function-decorators"),
                  source=source)


def check_code_pattern(value: str, codes: set[str], where: str) -> None:
    """Accept a full code (TF201), a prefix (TF2, TF20) or ALL; anything else is an error."""
    upper = value.upper()
    if upper == "ALL" or upper in codes or any(c.startswith(upper) for c in codes if len(upper) >= 3):
        return
    close = sorted(c for c in codes if c[:3] == upper[:3])[:5]
    hint = f" (close: {', '.join(close)})" if close else ""
    raise ConfigError(f"{where}: unknown rule code {value!r}{hint}")
