"""Keras advice as edits: the measured ``compile()`` options and ``tf.data`` pipeline edits.

A `run` report's ``run.keras`` says, per trained model, which compile options and pipeline edits
were measured faster with the same results, and where the program made those calls (the call's
first position and its closing parenthesis, which tells apart the calls of one chain). ``plan``
turns that into edits; ``apply`` makes them with libcst (formatting kept) before the other edits
of the same file (``fix/engine.py``). Only calls found where the report says, still of the method
it names, are edited; everything else is a ``Skipped`` with its reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from tfadvisor.fix.edits import Edit, Skipped
from tfadvisor.model import Report, RunSummary, Verdict
from tfadvisor.model_keras import CallSite

PIPELINE_WORDS = {"parallel_map": "num_parallel_calls=tf.data.AUTOTUNE", "prefetch": ".prefetch(tf.data.AUTOTUNE)",
                  "cache": ".cache()"}


@dataclass(frozen=True)
class KerasCallEdit(Edit):
    """An edit at one call the program made (located by the call's end and its method name)."""

    path: str = ""
    line: int = 0
    col: int = 0  # of the call's start, UTF-8 bytes
    end_line: int = 0
    end_col: int = 0  # of its closing parenthesis, UTF-8 bytes
    method: str = ""

    @property
    def label(self) -> str:
        return f"{self.origin} at line {self.end_line}"


@dataclass(frozen=True)
class SetCompileOptions(KerasCallEdit):
    """``model.compile(...)``: set keyword options (``(name, source)``: ``("jit_compile", "True")``)."""

    options: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        return f"compile({', '.join(f'{k}={v}' for k, v in self.options)}) at line {self.line}"


@dataclass(frozen=True)
class EditPipeline(KerasCallEdit):
    """One ``tf.data`` edit: ``parallel_map`` on a map call, ``prefetch``/``cache`` after a call."""

    kind: str = "prefetch"

    @property
    def label(self) -> str:
        return f"{PIPELINE_WORDS.get(self.kind, self.kind)} at line {self.end_line}"


def plan(report: Report, wants: Callable[[list[str]], bool]) -> tuple[list[KerasCallEdit], list[Skipped]]:
    """The edits a `run` report's Keras trainings ask for (``wants``: the fix options' selection)."""
    edits: list[KerasCallEdit] = []
    skipped: list[Skipped] = []
    run = report.run
    if not isinstance(run, RunSummary):
        return edits, skipped
    for t in run.keras:
        if t.verdict is not Verdict.RECONFIGURE:
            continue
        if t.options and wants(["reconfigure", "TF606"]):
            if t.compile_site is None:
                skipped.append(Skipped("<unknown>", f"compile options for {t.model}",
                                       "the compile() call was not made by the project's code"))
            else:
                options = tuple((k, repr(v)) for k, v in t.options.items())
                edits.append(SetCompileOptions(origin="TF606", reasons=("TF606",), description="set " + ", ".join(
                    f"{k}={v}" for k, v in options) + " in compile()", options=options, **_at(t.compile_site)))
        if t.pipeline_edits and wants(["reconfigure", "TF607"]):
            for e in t.pipeline_edits:
                edits.append(EditPipeline(origin="TF607", reasons=("TF607",), kind=e.kind,
                                          description=PIPELINE_WORDS.get(e.kind, e.kind), **_at(e.site)))
    return edits, skipped


def _at(site: CallSite) -> dict[str, Any]:
    return dict(path=site.path, line=site.line, col=site.col, end_line=site.end_line, end_col=site.end_col,
                method=site.method)


# -- applying ----------------------------------------------------------------------------------

@dataclass
class Applied:
    code: str
    applied: list[Edit] = field(default_factory=list)
    unchanged: list[Edit] = field(default_factory=list)
    skipped: list[tuple[Edit, str]] = field(default_factory=list)
    import_added: str | None = None


class _Calls(cst.CSTVisitor):
    """Every call with its position: (end line, end column in characters) -> (call, start)."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self) -> None:
        super().__init__()
        self.by_end: dict[tuple[int, int], list[cst.Call]] = {}

    def visit_Call(self, node: cst.Call) -> None:
        pos = self.get_metadata(PositionProvider, node)
        self.by_end.setdefault((pos.end.line, pos.end.column), []).append(node)


def _method(call: cst.Call) -> str | None:
    return call.func.attr.value if isinstance(call.func, cst.Attribute) else None


def apply(code: str, edits: Sequence[KerasCallEdit]) -> Applied:
    """Make ``edits`` in ``code`` (one module); raises ``cst.ParserSyntaxError`` if it does not parse."""
    result = Applied(code)
    if not edits:
        return result
    module = cst.parse_module(code)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    calls = _Calls()
    wrapper.visit(calls)
    lines = code.splitlines()
    from tfadvisor.fix.names import tf_names

    alias = tf_names(ast.parse(code)).module_alias
    import_line = None
    if alias is None:
        import_line, alias = "import tensorflow as tf", "tf"
    targets: dict[int, list[KerasCallEdit]] = {}
    nodes: dict[int, cst.Call] = {}
    for edit in edits:
        call = _find(calls, lines, edit)
        if call is None:
            result.skipped.append((edit, f"no {edit.method}() call ends at line {edit.end_line} (the code changed "
                                         "since the report)"))
            continue
        problem = _problem(call, edit, code, lines, calls)
        if problem == "in place":
            result.unchanged.append(edit)
        elif problem:
            result.skipped.append((edit, problem))
        else:
            targets.setdefault(id(call), []).append(edit)
            nodes[id(call)] = call
    if not targets:
        return result
    new = module.visit(_Rewrite(targets, alias))
    result.applied = [e for group in targets.values() for e in group]
    if import_line and any(isinstance(e, EditPipeline) for e in result.applied):
        from tfadvisor.fix.transform import add_import

        new = add_import(new, import_line)
        result.import_added = import_line
    result.code = new.code
    return result


def _find(calls: _Calls, lines: list[str], edit: KerasCallEdit) -> cst.Call | None:
    if not 0 < edit.end_line <= len(lines):
        return None
    end_col = len(lines[edit.end_line - 1].encode("utf-8")[: edit.end_col].decode("utf-8", errors="ignore"))
    found = [c for c in calls.by_end.get((edit.end_line, end_col), []) if _method(c) == edit.method]
    return found[0] if len(found) == 1 else None


_FOLLOWED = {"prefetch": r"\s*\.\s*prefetch\s*\(", "cache": r"\s*\.\s*cache\s*\("}


def _problem(call: cst.Call, edit: KerasCallEdit, code: str, lines: list[str], calls: _Calls) -> str | None:
    """Why the edit cannot be made ("in place": already made), or None."""
    if isinstance(edit, SetCompileOptions):
        if any(a.star == "**" for a in call.args):
            return "compile() takes **kwargs: set the options by hand"
        current = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        todo = []
        for key, source in edit.options:
            value = current.get(key)
            if value is None:
                todo.append(key)
            elif _code(value) != source:
                if key == "run_eagerly" and not (isinstance(value, cst.Name) and value.value == "True"):
                    return "run_eagerly is set from an expression: set it to False by hand where it is decided"
                todo.append(key)
        return None if todo else "in place"
    assert isinstance(edit, EditPipeline)
    if edit.kind == "parallel_map":
        given = [a for a in call.args if a.keyword is not None and a.keyword.value == "num_parallel_calls"]
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if given or len(positional) >= 2:
            return "in place"
        if any(a.star for a in call.args):
            return "map() takes *args or **kwargs: set num_parallel_calls by hand"
        return None
    offset = _offset(lines, edit.end_line, edit.end_col)
    if re.match(_FOLLOWED[edit.kind], code[offset:]):
        return "in place"
    return None


def _offset(lines: list[str], line: int, byte_col: int) -> int:
    text = lines[line - 1]
    col = len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))
    return sum(len(x) + 1 for x in lines[: line - 1]) + col


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


class _Rewrite(cst.CSTTransformer):
    def __init__(self, targets: dict[int, list[KerasCallEdit]], alias: str):
        super().__init__()
        self.targets = targets
        self.alias = alias

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        edits = self.targets.get(id(original_node))
        if not edits:
            return updated_node
        node: cst.BaseExpression = updated_node
        for edit in sorted(edits, key=lambda e: ("parallel_map", "cache", "prefetch").index(e.kind)
                           if isinstance(e, EditPipeline) else -1):
            if isinstance(edit, SetCompileOptions):
                node = _set_keywords(node, edit.options)  # type: ignore[arg-type]
            elif isinstance(edit, EditPipeline) and edit.kind == "parallel_map":
                node = _set_keywords(node, (("num_parallel_calls", f"{self.alias}.data.AUTOTUNE"),))  # type: ignore[arg-type]
            elif isinstance(edit, EditPipeline) and edit.kind == "cache":
                node = _then(node, "cache", [])
            elif isinstance(edit, EditPipeline):
                node = _then(node, "prefetch", [cst.Arg(cst.parse_expression(f"{self.alias}.data.AUTOTUNE"))])
        return node


def _then(node: cst.BaseExpression, method: str, args: list[cst.Arg]) -> cst.Call:
    """``node.method(args)``; parentheses around ``node`` go around the new call (``(a.b(1))`` ->
    ``(a.b(1).method())``)."""
    inner = node.with_changes(lpar=[], rpar=[])
    return cst.Call(func=cst.Attribute(value=inner, attr=cst.Name(method)), args=args,
                    lpar=node.lpar, rpar=node.rpar)


def _set_keywords(call: cst.Call, options: Sequence[tuple[str, str]]) -> cst.Call:
    """``call`` with each keyword set to its source: replaced in place, else appended in the call's
    style (a trailing comma stays last, one argument a line stays so)."""
    args = list(call.args)
    for key, source in options:
        value = cst.parse_expression(source)
        index = next((i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == key), None)
        if index is not None:
            args[index] = args[index].with_changes(value=value)
            continue
        arg = cst.Arg(value=value, keyword=cst.Name(key),
                      equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
        if args and isinstance(args[-1].comma, cst.Comma):
            last = args[-1].comma
            before = call.whitespace_before_args
            separator = before if isinstance(before, cst.ParenthesizedWhitespace) else cst.SimpleWhitespace(" ")
            args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=separator))
            arg = arg.with_changes(comma=last)
        elif args:
            args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        args.append(arg)
    return call.with_changes(args=args)


def apply_with(code: str, edits: Sequence[Edit], others: Callable[[str, Sequence[Edit]], Any]) -> Any:
    """Keras edits first, then ``others`` (``fix.transform.apply_edits``) on the result; one
    ``TransformResult`` with both. ``fix/engine.py`` calls this for Python files."""
    keras = [e for e in edits if isinstance(e, KerasCallEdit)]
    if not keras:
        return others(code, edits)
    try:
        done = apply(code, keras)
    except cst.ParserSyntaxError:
        done = Applied(code, skipped=[(e, "the file does not parse") for e in keras])
    result = others(done.code, [e for e in edits if not isinstance(e, KerasCallEdit)])
    result.applied = done.applied + result.applied
    result.unchanged = done.unchanged + result.unchanged
    result.skipped = done.skipped + result.skipped
    if done.import_added and not result.import_added:
        result.import_added = done.import_added
    return result
