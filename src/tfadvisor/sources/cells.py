"""One notebook cell as the Python that IPython runs, line for line.

IPython turns a cell into Python before running it: ``!cmd`` and ``%magic`` become calls (with
``\\`` continuation lines, inside blocks, after ``x =``), ``obj?`` asks for help, a ``%%time`` cell
runs its body, an indented cell is dedented. We use IPython's own transformer
(``IPython.core.inputtransformer2``) with one difference: where IPython joins a continued command
into one line (or drops leading blank lines) we keep blank lines in its place, so that line N of the
Python is line N of the cell and every finding points at the cell's own line. A one-line cell that
is not Python but starts with a line magic or shell alias (``pip install x``) is read as IPython's
shell runs it (automagic).

Without IPython (it is a dependency, but an install may lack it) ``_fallback`` reads the same
syntax by hand, less faithfully (no ``>>>`` prompts, cruder help and magic detection), and never
worse than blanking magic lines did before.
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
import tokenize
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

# Cell magics whose body IPython runs as Python of the notebook (``%%time`` transforms and runs it);
# every other cell magic (``%%bash``, ``%%writefile``, ``%%html``) holds something else.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "memit", "debug"})
_TRANSFORM_LIMIT = 500  # IPython's own bound on transforms in one cell


@dataclass(frozen=True)
class CellCode:
    """A cell as Python: ``lines`` has one entry per line of the cell (no line endings)."""

    lines: tuple[str, ...]
    source: tuple[str, ...]  # the cell's own lines
    # (first, last) 0-based lines of each piece of IPython syntax: ``lines[first]`` is what it
    # became (a call, or blank for a ``%%time`` line), the rest of the range is blank.
    ipython: tuple[tuple[int, int], ...] = ()
    not_python: str | None = None  # why nothing in the cell is Python (``%%bash cell``)
    indent: str = ""  # the indentation IPython removed from every line (an indented cell)
    faithful: bool = True  # read by IPython's own transformer (False: by ``_fallback``)

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n" if self.lines else ""


def to_python(text: str) -> CellCode:
    """The Python IPython would run for the cell ``text``, one line per line of the cell."""
    manager = _manager()
    if manager is not None:
        try:
            return _with_ipython(text, manager)
        except Exception:  # noqa: BLE001 - IPython's transformer failing on odd input: read by hand
            pass
    return _fallback(text)


def ipython_available() -> bool:
    return _manager() is not None


@lru_cache(maxsize=1)
def _manager() -> Any:
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except Exception:  # noqa: BLE001 - absent, or broken by a missing dependency of its own
        return None
    return TransformerManager()


def _line(raw: str) -> str:
    """A line without its line ending (any of those ``str.splitlines`` knows)."""
    parts = raw.splitlines()
    return parts[0] if parts else ""


def _leading_blank(lines: list[str]) -> int:
    """How many lines IPython's ``leading_empty_lines`` drops."""
    for index, line in enumerate(lines):
        if line and not line.isspace():
            return index
    return len(lines)


def _removed_indent(before: list[str], after: list[str]) -> str:
    """The prefix dedenting took off the first non-blank line ('' if something else changed)."""
    for old, new in zip(before, after, strict=False):
        old, new = _line(old), _line(new)
        if old.strip():
            return old[: len(old) - len(new)] if old.endswith(new) and not old[: len(old) - len(new)].strip() else ""
    return ""


def _cell_magic(first: str) -> str | None:
    """The name of the cell magic a cell starts with (``time`` for ``%%time -n 2``), or None."""
    if not first.startswith("%%") or re.match(r"%%\w+\?", first):
        return None
    return first[2:].strip().split(" ", 1)[0].split("\t", 1)[0] or None


class _Unfaithful(Exception):
    """IPython's transformer changed the line count in a way we cannot map back."""


def _with_ipython(text: str, manager: Any) -> CellCode:
    source = tuple(text.splitlines())
    raw = text.splitlines(keepends=True)
    if raw and not raw[-1].endswith(("\n", "\r")):
        raw[-1] += "\n"
    lead = _leading_blank(raw)
    lines = raw[lead:]
    for transform in manager.cleanup_transforms:  # dedent, >>> and In [1]: prompts
        cleaned = transform(lines)
        if len(cleaned) != len(lines):
            raise _Unfaithful(getattr(transform, "__name__", "cleanup"))
        lines = cleaned
    indent = _removed_indent(raw[lead:], lines)
    head = [""] * lead
    if lines:
        magic = _cell_magic(lines[0])
        if magic is not None:
            return _magic_cell(source, head, lines, magic, indent)
    python, blocks = _token_transforms(lines, manager)
    python, blocks = _automagic(python, blocks)
    out = tuple(head + [_line(x) for x in python])
    if len(out) != len(source):
        raise _Unfaithful("line count")
    return CellCode(out, source, tuple((a + lead, b + lead) for a, b in blocks), indent=indent)


def _magic_cell(source: tuple[str, ...], head: list[str], lines: list[str], magic: str,
                indent: str, faithful: bool = True) -> CellCode:
    """A cell that starts with ``%%magic``: its body when IPython runs that as Python, else nothing."""
    first = len(head)
    if magic not in PYTHON_CELL_MAGICS:
        return CellCode(tuple("" for _ in source), source, ((first, len(source) - 1),),
                        not_python=f"%%{magic} cell", indent=indent, faithful=faithful)
    body = to_python("".join(lines[1:])) if faithful else _fallback("".join(lines[1:]))
    out = tuple(head + [""] + list(body.lines))
    if len(out) != len(source):
        raise _Unfaithful("line count")
    blocks = ((first, first), *((a + first + 1, b + first + 1) for a, b in body.ipython))
    return CellCode(out, source, blocks, indent=indent, faithful=faithful and body.faithful)


def _automagic(lines: list[str], blocks: list[tuple[int, int]]) -> tuple[list[str], list[tuple[int, int]]]:
    """A one-line cell ``pip install x``, ``ls $DIR``: IPython's shell runs it as the magic (automagic,
    on by default, applies to a cell that is one line after the transforms). Only a line that is not
    Python is read so: a name the user bound (``ls = 1``) would shadow the magic."""
    if len(lines) - sum(last - first for first, last in blocks) != 1:  # IPython's lines, without our padding
        return lines, blocks
    line = lines[0]
    match = re.match(r"([ \t]*)([\w.]+)(.*)$", _line(line))
    if match is None or match.group(2) not in _automagics() or match.group(3).lstrip()[:1] in ("=", ","):
        return lines, blocks
    if not _parse_fails(_line(line)):
        return lines, blocks
    pre, name, rest = match.groups()
    call = f"{pre}get_ipython().run_line_magic({name!r}, {rest.lstrip()!r})\n"
    return [call, *lines[1:]], blocks or [(0, len(lines) - 1)]


def _parse_fails(python: str) -> bool:
    try:
        compile(python, "<cell>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError):
        return True
    return False


# Line magics and shell aliases of a plain IPython (names only), for when IPython cannot tell us.
_KNOWN_AUTOMAGICS = frozenset({
    "alias", "cd", "conda", "env", "history", "load_ext", "ls", "matplotlib", "pip", "pwd", "run", "time",
    "timeit", "who", "whos", "cat", "cp", "mkdir", "mv", "rm", "rmdir", "ll", "lf", "lk", "ldir", "lx"})


@lru_cache(maxsize=1)
def _automagics() -> frozenset[str]:
    """The line magics and shell aliases automagic reaches in a plain IPython shell."""
    try:
        from IPython.core import magics
        from IPython.core.alias import default_aliases
        from IPython.core.magic import Magics
    except Exception:  # noqa: BLE001 - without IPython: the usual names
        return _KNOWN_AUTOMAGICS
    names = line_magics(magics, Magics)
    names.update(name for name, _ in default_aliases())
    return frozenset(names) or _KNOWN_AUTOMAGICS


def line_magics(module: Any, base: type) -> set[str]:
    """The line magics the ``Magics`` classes of ``module`` register. Their ``magics`` table is
    None on a class no ``@magics_class`` filled (IPython 8's ``Magics`` base itself, which
    ``IPython.core.magics`` re-exports): such a class registers nothing."""
    names: set[str] = set()
    for attr in dir(module):
        try:
            found = getattr(module, attr)
        except Exception:  # noqa: BLE001 - a lazily imported magics module that fails to import
            continue
        if isinstance(found, type) and issubclass(found, base):
            names.update((getattr(found, "magics", None) or {}).get("line", {}))
    return names


def _token_transforms(lines: list[str], manager: Any) -> tuple[list[str], list[tuple[int, int]]]:
    """IPython's token transforms one at a time, each padded back to the lines it replaced."""
    blocks: list[tuple[int, int]] = []
    for _ in range(_TRANSFORM_LIMIT):
        changed, new = manager.do_one_token_transform(lines)
        if not changed:
            return lines, blocks
        removed = len(lines) - len(new)
        if removed < 0:
            raise _Unfaithful("a transform added lines")
        first = next((i for i, (a, b) in enumerate(zip(lines, new, strict=False)) if a != b), len(new) - 1)
        new[first + 1:first + 1] = ["\n"] * removed
        blocks.append((first, first + removed))
        lines = new
    raise _Unfaithful("too many transforms")


# -- without IPython ----------------------------------------------------------------------------

_ESCAPE = re.compile(r"^[ \t]*(%|!|\?)")
_ASSIGN_FROM_ESCAPE = re.compile(r"^([ \t]*[\w.,\[\]() \t]+?)[ \t]*=[ \t]*(!|%\w)")
_HELP = re.compile(r"^[ \t]*(%{0,2}\??[\w.*]+(\[-?\d+\])*\?\??)[ \t]*$")


def _continues(lines: list[str]) -> bool:
    """Whether the next line continues a statement of ``lines`` (open bracket, string or ``\\``):
    a ``%`` there is an operator, not a magic."""
    try:
        for _ in tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline):
            pass
    except tokenize.TokenError:  # EOF in a multi-line statement or string
        return True
    except (SyntaxError, ValueError):  # not tokenizable at all: no opinion
        return False
    return False


def _fallback(text: str) -> CellCode:
    """The cell read by hand: a magic, shell escape or help line becomes ``pass`` (``x = None`` for
    ``x = !cmd``) where IPython puts its call, and its continuation lines blank."""
    source = tuple(text.splitlines())
    lead = _leading_blank(list(source))
    body = list(source[lead:])
    dedented = textwrap.dedent("\n".join(body)).split("\n") if body else []
    if len(dedented) != len(body):
        dedented = body
    indent = _removed_indent(body, dedented)
    head = [""] * lead
    if dedented:
        magic = _cell_magic(dedented[0])
        if magic is not None:
            return _magic_cell(source, head, [x + "\n" for x in dedented], magic, indent, faithful=False)
    out: list[str] = []
    blocks: list[tuple[int, int]] = []
    index = 0
    while index < len(dedented):
        line = dedented[index]
        assign = _ASSIGN_FROM_ESCAPE.match(line)
        if not (assign or _ESCAPE.match(line) or _HELP.match(line)) or _continues(out):
            out.append(line)
            index += 1
            continue
        last = index
        while dedented[last].rstrip().endswith("\\") and last + 1 < len(dedented):
            last += 1
        # A statement where IPython puts its call (a block may need one), with the line's indentation.
        out.append(assign.group(1) + " = None" if assign else line[: len(line) - len(line.lstrip())] + "pass")
        out.extend("" for _ in range(index + 1, last + 1))
        blocks.append((index, last))
        index = last + 1
    out_lines, blocks = _automagic([x + "\n" for x in out], blocks)
    return CellCode(tuple(head + [_line(x) for x in out_lines]), source,
                    tuple((a + lead, b + lead) for a, b in blocks), indent=indent, faithful=False)
