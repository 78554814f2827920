"""Applying edits to one module with libcst, so that comments and formatting survive.

Two passes over the concrete syntax tree: a visitor finds the functions (by qualname, as Python
names them: ``Class.method``, ``outer.<locals>.inner``), their tf.function wrappers (decorators and
``f = tf.function(g)`` assignments) and the calls rule fixes point at; then a transformer rewrites
exactly those nodes. Every edit is idempotent: one already in place changes nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from tfadvisor.fix.edits import (
    AddDecorator,
    DecoratorOptions,
    DisableRunEagerly,
    Edit,
    FunctionEdit,
    GraphPerCall,
    PassAsTensors,
    PrintToTfPrint,
    RangeToTfRange,
    RemoveDecorator,
    RuleEdit,
    SetDecoratorOptions,
)
from tfadvisor.fix.names import TfNames, tf_names
from tfadvisor.rules.tf307_unrolled_loop import LARGE as SHORT_LOOP


class TransformError(Exception):
    """The module cannot be edited (it does not parse); the message is one line."""


@dataclass
class TransformResult:
    code: str
    applied: list[Edit] = field(default_factory=list)
    unchanged: list[Edit] = field(default_factory=list)  # already in place
    skipped: list[tuple[Edit, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    import_added: str | None = None

    @property
    def changed(self) -> bool:
        return bool(self.applied) or self.import_added is not None


def dotted(node: cst.BaseExpression) -> str | None:
    """``tf.config.run`` for an Attribute chain of Names, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def _tf_function_target(expr: cst.BaseExpression, names: TfNames) -> tuple[bool, cst.Call | None]:
    """(is a tf.function wrapper, the Call when it has parentheses)."""
    if isinstance(expr, cst.Call):
        return names.is_tf_function(dotted(expr.func)), expr
    return names.is_tf_function(dotted(expr)), None


@dataclass
class _FunctionInfo:
    qualname: str
    key: str  # how edits name it: the qualname, ``#n`` for its n-th definition in the module
    def_line: int
    end_line: int
    first_line: int  # first decorator, or the def
    is_method: bool
    is_static: bool
    params: cst.Parameters
    decorated: bool
    node: cst.FunctionDef


@dataclass
class _CallInfo:
    node: cst.Call
    name: str  # dotted name of the callee
    line: int
    col: int  # character column
    in_for_iter: bool
    function: str | None  # qualname of the enclosing function


class _Scoped:
    """Qualified names as the scanner and the rewriter walk classes and functions."""

    scope: list[tuple[str, str]]

    def qualname(self, name: str) -> str:
        if not self.scope:
            return name
        kind, parent = self.scope[-1]
        return f"{parent}.<locals>.{name}" if kind == "function" else f"{parent}.{name}"

    def prefix(self) -> str:
        if not self.scope:
            return ""
        kind, parent = self.scope[-1]
        return f"{parent}.<locals>." if kind == "function" else f"{parent}."


class _Scanner(_Scoped, cst.CSTVisitor):
    """First pass: functions, wrapper assignments and calls, with their positions."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, names: TfNames) -> None:
        super().__init__()
        self.names = names
        self.scope: list[tuple[str, str]] = []  # (kind, qualname)
        self.functions: dict[str, _FunctionInfo] = {}  # by key (qualname, ``#n`` when defined again)
        self.by_node: dict[int, _FunctionInfo] = {}  # id(FunctionDef) -> its info
        self._definitions: dict[str, int] = {}
        self.wrapped: set[str] = set()  # qualnames wrapped by `x = tf.function(f)`
        self.calls: list[_CallInfo] = []
        self.identifiers: set[str] = set()  # every name the module uses, for a new local's name
        self._for_iters: list[cst.BaseExpression] = []

    def visit_Name(self, node: cst.Name) -> None:
        self.identifiers.add(node.value)


    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.append(("class", self.qualname(node.name.value)))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.scope.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        qualname = self.qualname(node.name.value)
        pos = self.get_metadata(PositionProvider, node)
        first = pos.start.line
        if node.decorators:
            first = self.get_metadata(PositionProvider, node.decorators[0]).start.line
        decorator_names = {dotted(d.decorator) for d in node.decorators}
        self._definitions[qualname] = number = self._definitions.get(qualname, 0) + 1
        key = qualname + (f"#{number}" if number > 1 else "")
        self.by_node[id(node)] = self.functions[key] = _FunctionInfo(
            qualname=qualname, key=key, def_line=pos.start.line, end_line=pos.end.line, first_line=first,
            is_method=bool(self.scope) and self.scope[-1][0] == "class",
            is_static="staticmethod" in decorator_names,
            params=node.params,
            decorated=any(_tf_function_target(d.decorator, self.names)[0] for d in node.decorators),
            node=node,
        )
        self.scope.append(("function", qualname))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.scope.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        wrapped = _wrapped_name(node.value, self.names)
        if wrapped:
            self.wrapped.add(self.prefix() + wrapped)

    def visit_For(self, node: cst.For) -> None:
        self._for_iters.append(node.iter)

    def leave_For(self, original_node: cst.For) -> None:
        self._for_iters.pop()

    def visit_Call(self, node: cst.Call) -> None:
        name = dotted(node.func)
        if name is None:
            return
        pos = self.get_metadata(PositionProvider, node)
        function = next((q for kind, q in reversed(self.scope) if kind == "function"), None)
        self.calls.append(_CallInfo(node, name, pos.start.line, pos.start.column,
                                    bool(self._for_iters) and self._for_iters[-1] is node, function))


def _wrapped_name(value: cst.BaseExpression, names: TfNames) -> str | None:
    """``g`` for ``tf.function(g, ...)``."""
    if isinstance(value, cst.Call) and names.is_tf_function(dotted(value.func)) and value.args:
        first = value.args[0]
        if first.keyword is None and not first.star and isinstance(first.value, cst.Name):
            return first.value.value
    return None


# -- decorator options -------------------------------------------------------------------------

def _option_values(edit: DecoratorOptions, info: _FunctionInfo | None, tf: str,
                   notes: list[str]) -> list[tuple[str, str]]:
    """The keyword arguments (name, source) an edit asks for, input_signature checked first."""
    out: list[tuple[str, str]] = []
    reduce_retracing = edit.reduce_retracing
    if edit.input_signature is not None:
        problem = _signature_problem(info, len(edit.input_signature)) if info else "function not found"
        if problem:
            notes.append(f"{edit.qualname}: no input_signature ({problem}); reduce_retracing=True instead")
            reduce_retracing = True
        else:
            specs = ", ".join(spec.source(tf) for spec in edit.input_signature)
            out.append(("input_signature", f"[{specs}]"))
    if reduce_retracing is not None:
        out.append(("reduce_retracing", str(reduce_retracing)))
    if edit.jit_compile is not None:
        out.append(("jit_compile", str(edit.jit_compile)))
    return out


def _signature_problem(info: _FunctionInfo, count: int) -> str | None:
    params = info.params
    if params.star_arg not in (cst.MaybeSentinel.DEFAULT, None) and isinstance(params.star_arg, cst.Param):
        return "it takes *args"
    if params.star_kwarg is not None:
        return "it takes **kwargs"
    if params.kwonly_params:
        return "it has keyword-only parameters"
    positional = list(params.posonly_params) + list(params.params)
    if info.is_method and not info.is_static and positional:
        positional = positional[1:]
    if any(p.default is not None for p in positional):
        return "a parameter has a default value"
    if len(positional) != count:
        return f"{len(positional)} parameters but {count} observed arguments"
    return None


def _append_arg(args: list[cst.Arg], arg: cst.Arg, call: cst.Call | None) -> None:
    """Append keeping the call's style: a trailing comma stays last, one argument a line stays so."""
    if args and isinstance(args[-1].comma, cst.Comma):
        before = call.whitespace_before_args if call is not None else None
        sep = before if isinstance(before, cst.ParenthesizedWhitespace) else cst.SimpleWhitespace(" ")
        arg = arg.with_changes(comma=args[-1].comma)
        args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=sep))
    args.append(arg)


def _set_options(call: cst.Call | None, func: cst.BaseExpression, options: list[tuple[str, str]]) -> cst.Call | None:
    """The wrapper call with ``options`` set; None when nothing changes."""
    args = list(call.args) if call is not None else []
    changed = call is None and bool(options)
    for key, source in options:
        value = cst.parse_expression(source)
        index = next((i for i, a in enumerate(args) if a.keyword and a.keyword.value == key), None)
        if index is None:
            _append_arg(args, cst.Arg(value=value, keyword=cst.Name(key),
                                      equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))),
                        call)
            changed = True
        elif cst.Module([]).code_for_node(args[index].value) != cst.Module([]).code_for_node(value):
            args[index] = args[index].with_changes(value=value)
            changed = True
    if not changed:
        return None
    if call is None:
        return cst.Call(func=func, args=args)
    # A trailing comma that used to end the list now sits before the new arguments: fine in Python.
    return call.with_changes(args=args)


# -- the transformer ---------------------------------------------------------------------------

@dataclass
class _CallSites:
    """A ``PassAsTensors`` edit at work: the parameters to wrap, by name and by position."""

    edit: PassAsTensors
    positions: dict[int, str]  # positional index -> parameter name
    wrapped: int = 0  # arguments wrapped so far
    seen: int = 0  # calls of the function met


def _call_sites(edit: PassAsTensors, info: _FunctionInfo) -> _CallSites | str:
    """Where the arguments sit in a call, or why the calls cannot be rewritten."""
    if "." in info.qualname:
        return "only calls of module-level functions are rewritten; pass them as tensors where it is called"
    params = [*info.params.posonly_params, *info.params.params]
    names = [p.name.value for p in params]
    missing = [name for name, _ in edit.arguments if name not in names and
               name not in [p.name.value for p in info.params.kwonly_params]]
    if missing:
        return f"no parameter {', '.join(missing)} in {edit.qualname}"
    wanted = {name for name, _ in edit.arguments}
    return _CallSites(edit, {i: name for i, name in enumerate(names) if name in wanted})


def _as_tensor(value: cst.BaseExpression, dtype: str, tf: str) -> cst.BaseExpression | None:
    """``tf.constant(value, tf.<dtype>)``; None when ``value`` is already a TensorFlow call
    (``tf`` is the module's alias, or the one the edit adds)."""
    if isinstance(value, cst.Call) and (dotted(value.func) or "").startswith(f"{tf}."):
        return None
    return cst.Call(func=cst.parse_expression(f"{tf}.constant"),
                    args=[cst.Arg(value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                          cst.Arg(cst.parse_expression(f"{tf}.{dtype}"))])


class _Rewriter(_Scoped, cst.CSTTransformer):
    def __init__(self, scanner: _Scanner, function_edits: dict[str, list[FunctionEdit]],
                 call_edits: dict[int, RuleEdit], tf: str, fn_spelling: str,
                 result: TransformResult, call_sites: dict[str, _CallSites] | None = None) -> None:
        super().__init__()
        self.scanner = scanner
        self.function_edits = function_edits
        self.call_edits = call_edits  # id(original Call node) -> edit
        self.call_sites = call_sites or {}  # callee name -> PassAsTensors at work
        self.tf = tf
        self.fn_spelling = fn_spelling
        self.result = result
        self.scope: list[tuple[str, str]] = []
        self.live: dict[str, str] = {}  # qualname -> key of its last definition met so far

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.scope.append(("class", self.qualname(node.name.value)))

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> cst.ClassDef:
        self.scope.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scope.append(("function", self.qualname(node.name.value)))

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self.scope.pop()
        info = self.scanner.by_node.get(id(original_node))
        if info is None:
            return updated_node
        self.live[info.qualname] = info.key
        for edit in self.function_edits.get(info.key, []):
            updated_node = self._edit_function(edit, info, updated_node)
        return updated_node

    def _edit_function(self, edit: FunctionEdit, info: _FunctionInfo, node: cst.FunctionDef) -> cst.FunctionDef:
        decorators = list(node.decorators)
        targets = [i for i, d in enumerate(decorators) if _tf_function_target(d.decorator, self.scanner.names)[0]]
        if isinstance(edit, AddDecorator):
            if targets or info.qualname in self.scanner.wrapped:
                self.result.unchanged.append(edit)
                return node
            options = _option_values(edit, info, self.tf, self.result.notes)
            func = cst.parse_expression(self.fn_spelling)
            expr = (_set_options(None, func, options) or func) if options else func
            decorators.append(cst.Decorator(decorator=expr))
            self.result.applied.append(edit)
            return node.with_changes(decorators=decorators)
        if isinstance(edit, RemoveDecorator):
            if not targets:
                if info.qualname not in self.scanner.wrapped:  # assignment form is handled below
                    self.result.unchanged.append(edit)
                return node
            lines_after = node.lines_after_decorators
            for i in reversed(targets):
                removed = decorators.pop(i)
                if i < len(decorators):  # keep the comments that sat above the removed decorator
                    decorators[i] = decorators[i].with_changes(
                        leading_lines=[*removed.leading_lines, *decorators[i].leading_lines])
                else:
                    lines_after = [*removed.leading_lines, *lines_after]
            self.result.applied.append(edit)
            return node.with_changes(decorators=decorators, lines_after_decorators=lines_after)
        if isinstance(edit, GraphPerCall):
            return self._graph_per_call(edit, node)
        if isinstance(edit, SetDecoratorOptions):
            if not targets:
                if info.qualname not in self.scanner.wrapped:
                    self.result.skipped.append((edit, "not a tf.function here"))
                return node
            options = _option_values(edit, info, self.tf, self.result.notes)
            changed = False
            for i in targets:
                _, call = _tf_function_target(decorators[i].decorator, self.scanner.names)
                func = call.func if call is not None else decorators[i].decorator
                new = _set_options(call, func, options)
                if new is not None:
                    decorators[i] = decorators[i].with_changes(decorator=new)
                    changed = True
            (self.result.applied if changed else self.result.unchanged).append(edit)
            return node.with_changes(decorators=decorators) if changed else node
        return node

    def _graph_per_call(self, edit: GraphPerCall, node: cst.FunctionDef) -> cst.FunctionDef:
        """``callee_fn = tf.function(callee)`` at the top of ``node``, its calls through it."""
        spellings = _CalleeSpellings(edit.callee)
        node.body.visit(spellings)
        if not spellings.found:
            self.result.skipped.append((edit, f"no call of {edit.callee} in {edit.qualname}"))
            return node
        if len(spellings.found) > 1:
            self.result.skipped.append((edit, f"{edit.callee} is called as {' and '.join(sorted(spellings.found))}"))
            return node
        spelling = next(iter(spellings.found))
        local = next(n for n in (f"{edit.callee}_fn", f"{edit.callee}_graph", f"{edit.callee}_tf_function")
                     if n not in self.scanner.identifiers)
        body = node.body.visit(_RenameCalls(spelling, local))
        assert isinstance(body, cst.IndentedBlock)  # a def with one-line body has no calls to loop over
        statements = list(body.body)
        at = 1 if statements and _is_docstring(statements[0]) else 0
        statements.insert(at, cst.parse_statement(f"{local} = {self.fn_spelling}({spelling})\n"))
        self.result.applied.append(edit)
        return node.with_changes(body=body.with_changes(body=statements))

    # `g = tf.function(f, ...)`: remove or reconfigure the wrapper
    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine
                                  ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        if len(updated_node.body) != 1 or not isinstance(updated_node.body[0], cst.Assign):
            return updated_node
        assign = updated_node.body[0]
        wrapped = _wrapped_name(assign.value, self.scanner.names)
        if not wrapped:
            return updated_node
        qualname = self.prefix() + wrapped
        key = self.live.get(qualname, qualname)  # the definition above: ``f#2`` if f was defined again
        for edit in self.function_edits.get(key, []):
            if isinstance(edit, RemoveDecorator):
                self.result.applied.append(edit)
                targets = assign.targets
                if len(targets) == 1 and isinstance(targets[0].target, cst.Name) and targets[0].target.value == wrapped:
                    return cst.RemoveFromParent()
                return updated_node.with_changes(body=[assign.with_changes(value=cst.Name(wrapped))])
            if isinstance(edit, SetDecoratorOptions):
                info = self.scanner.functions.get(key)
                options = _option_values(edit, info, self.tf, self.result.notes)
                call = assign.value
                assert isinstance(call, cst.Call)
                new = _set_options(call, call.func, options)
                if new is None:
                    self.result.unchanged.append(edit)
                    return updated_node
                self.result.applied.append(edit)
                assign = assign.with_changes(value=new)
                updated_node = updated_node.with_changes(body=[assign])
        return updated_node

    def _wrap_arguments(self, sites: _CallSites, call: cst.Call) -> cst.Call:
        sites.seen += 1
        dtypes = dict(sites.edit.arguments)
        args = list(call.args)
        for i, arg in enumerate(args):
            if arg.star:
                break  # positions after *args are unknown
            name = arg.keyword.value if arg.keyword is not None else sites.positions.get(i)
            if name not in dtypes:
                continue
            wrapped = _as_tensor(arg.value, dtypes[name], self.tf)
            if wrapped is not None:
                args[i] = arg.with_changes(value=wrapped)
                sites.wrapped += 1
        return call.with_changes(args=args)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        sites = self.call_sites.get(dotted(original_node.func) or "")
        if sites is not None:
            updated_node = self._wrap_arguments(sites, updated_node)
        edit = self.call_edits.get(id(original_node))
        if edit is None:
            return updated_node
        if isinstance(edit, PrintToTfPrint):
            new, problem = _print_to_tf_print(updated_node, self.tf)
        elif isinstance(edit, RangeToTfRange):
            new, problem = _range_to_tf_range(updated_node, self.tf)
        elif isinstance(edit, DisableRunEagerly):
            new, problem = _disable_run_eagerly(updated_node)
        else:  # pragma: no cover - every RuleEdit kind is listed above
            new, problem = None, "no rewrite for this edit"
        if new is None:
            self.result.skipped.append((edit, problem or "cannot rewrite"))
            return updated_node
        self.result.applied.append(edit)
        return new


class _CalleeSpellings(cst.CSTVisitor):
    """How a body calls ``name``: ``name(...)``, ``steps.name(...)``, ``self.name(...)``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.found: set[str] = set()

    def visit_Call(self, node: cst.Call) -> None:
        spelled = dotted(node.func)
        if spelled is not None and (spelled == self.name or spelled.endswith("." + self.name)):
            self.found.add(spelled)


class _RenameCalls(cst.CSTTransformer):
    """Calls spelled ``spelling`` go through ``local`` instead."""

    def __init__(self, spelling: str, local: str) -> None:
        self.spelling = spelling
        self.local = local

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if dotted(original_node.func) == self.spelling:
            return updated_node.with_changes(func=cst.Name(self.local))
        return updated_node


# -- rule rewrites -----------------------------------------------------------------------------

_STREAMS = {"sys.stdout", "sys.stderr"}


def _print_to_tf_print(call: cst.Call, tf: str) -> tuple[cst.Call | None, str | None]:
    """``print(a, b, sep=..., end=...)`` -> ``tf.print(...)``; refuse what tf.print cannot do."""
    split = _split_fstring(call)
    if split is not None:
        return call.with_changes(func=cst.parse_expression(f"{tf}.print"), args=split), None
    args: list[cst.Arg] = []
    for arg in call.args:
        if arg.star == "**":
            return None, "print(**kwargs) cannot be checked against tf.print's options"
        if arg.keyword is None:
            if isinstance(arg.value, (cst.FormattedString, cst.ConcatenatedString)) and _has_fields(arg.value):
                return None, ("an f-string with a format spec, or beside other arguments, would be formatted once, "
                              "at trace time: pass the values as separate arguments by hand")
            args.append(arg)
            continue
        key = arg.keyword.value
        if key in ("sep", "end"):
            if not isinstance(arg.value, (cst.SimpleString, cst.ConcatenatedString)):
                return None, f"tf.print needs a literal string for {key}="
            args.append(arg)
        elif key == "file" and dotted(arg.value) in _STREAMS:
            args.append(arg.with_changes(keyword=cst.Name("output_stream")))
        else:
            return None, f"tf.print has no {key}= option"
    func = cst.parse_expression(f"{tf}.print")
    return call.with_changes(func=func, args=args), None


def _split_fstring(call: cst.Call) -> list[cst.Arg] | None:
    """``print(f"loss {loss} at {step}")`` -> args of ``tf.print("loss ", loss, " at ", step, sep="")``.

    Only for a lone f-string (optionally with ``end=``) whose fields have no format spec, no
    conversion and no ``=``: then tf.print shows each value on every call, the same text around.
    """
    positional = [a for a in call.args if a.keyword is None]
    keywords = [a for a in call.args if a.keyword is not None]
    if len(positional) != 1 or positional[0].star or any(k.keyword is None or k.keyword.value != "end" for k in keywords):
        return None
    node = positional[0].value
    if not isinstance(node, cst.FormattedString) or not _has_fields(node) or "b" in node.prefix.lower():
        return None
    quote = node.end
    raw = "r" in node.prefix.lower()
    pieces: list[cst.BaseExpression] = []
    for part in node.parts:
        if isinstance(part, cst.FormattedStringText):
            if not part.value:
                continue
            text = part.value.replace("{{", "{").replace("}}", "}")  # literal braces in an f-string
            pieces.append(cst.SimpleString(("r" if raw else "") + quote + text + quote))
        elif isinstance(part, cst.FormattedStringExpression):
            if part.format_spec is not None or part.conversion is not None or part.equal is not None:
                return None
            pieces.append(part.expression)
        else:
            return None
    args = [cst.Arg(value=p) for p in pieces]
    args.append(cst.Arg(keyword=cst.Name("sep"), value=cst.SimpleString(quote[0] * 2),
                        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))))
    for k in keywords:
        args.append(k.with_changes(comma=cst.MaybeSentinel.DEFAULT))
    return args


def _has_fields(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.FormattedString):
        return any(isinstance(p, cst.FormattedStringExpression) for p in node.parts)
    if isinstance(node, cst.ConcatenatedString):
        return _has_fields(node.left) or _has_fields(node.right)
    return False


def _range_to_tf_range(call: cst.Call, tf: str) -> tuple[cst.Call | None, str | None]:
    """TF307 fires where AutoGraph leaves ``range`` to Python (a Python int bound: a literal, an
    argument the call sites pass as an int, a static size of the data), which unrolls the loop;
    ``tf.range`` of the same bound is one TensorFlow loop (conformance variants
    power-iteration-1000 and tf-range-instead). A short literal loop is left alone: unrolling a few
    iterations is what graph code is for."""
    if not call.args or any(a.keyword or a.star for a in call.args):
        return None, "range() with keyword or starred arguments"
    if all(isinstance(a.value, cst.Integer) and int(a.value.value, 0) < SHORT_LOOP for a in call.args):
        return None, f"a literal range of fewer than {SHORT_LOOP} iterations: unrolled, it stays small"
    return call.with_changes(func=cst.parse_expression(f"{tf}.range")), None


def _disable_run_eagerly(call: cst.Call) -> tuple[cst.Call | None, str | None]:
    """``run_functions_eagerly(True)`` and ``compile(..., run_eagerly=True)``: True becomes False."""
    keyword = [i for i, a in enumerate(call.args) if a.keyword is not None and a.keyword.value == "run_eagerly"]
    index = keyword[0] if keyword else (0 if len(call.args) == 1 else None)
    value = call.args[index].value if index is not None else None
    if index is None or not (isinstance(value, cst.Name) and value.value == "True"):
        return None, "argument is not the literal True"
    args = list(call.args)
    args[index] = args[index].with_changes(value=cst.Name("False"))
    return call.with_changes(args=args), None


# -- locating rule edits -----------------------------------------------------------------------

_CALL_NAMES = {PrintToTfPrint: "print", RangeToTfRange: "range"}


def _byte_to_char_col(line_text: str, col: int) -> int:
    return len(line_text.encode("utf-8")[:col].decode("utf-8", errors="ignore"))


def _locate(edit: RuleEdit, scanner: _Scanner, lines: list[str]) -> tuple[_CallInfo | None, str | None]:
    loc = edit.location
    line = loc.line
    if loc.function and loc.def_offset is not None:
        info = scanner.functions.get(loc.function)
        if info is None:
            return None, f"function {loc.function} not found (the code changed since the report)"
        if loc.span is not None and loc.span not in (info.end_line - info.def_line, info.end_line - info.first_line):
            return None, f"{loc.function} changed since the report (it has another length)"
        line = info.def_line + loc.def_offset
    col = _byte_to_char_col(lines[line - 1], loc.col) if 0 < line <= len(lines) else loc.col

    def wanted(call: _CallInfo) -> bool:
        if isinstance(edit, DisableRunEagerly):
            return (scanner.names.is_tf_attr(call.name, "config.run_functions_eagerly")
                    or (call.name.endswith(".compile") and any(
                        a.keyword is not None and a.keyword.value == "run_eagerly" for a in call.node.args)))
        target = _CALL_NAMES[type(edit)]
        if call.name != target:
            return False
        return call.in_for_iter if isinstance(edit, RangeToTfRange) else True

    end = line + max(0, loc.end_line - loc.line)
    candidates = [c for c in scanner.calls if wanted(c) and line <= c.line <= end]
    exact = [c for c in candidates if c.line == line and c.col == col]
    if exact:
        return exact[0], None
    if len(candidates) == 1:
        return candidates[0], None
    if not candidates:
        return None, "nothing to change at that place (already fixed, or the code changed)"
    return None, "several candidates at that place; fix it by hand"


# -- entry point -------------------------------------------------------------------------------

def apply_edits(code: str, edits: Sequence[Edit], *, names: TfNames | None = None,
                insert_import: bool = True) -> TransformResult:
    """Apply ``edits`` to the module ``code``; raise ``TransformError`` when it does not parse.

    ``names`` overrides the TensorFlow names read from ``code`` (a notebook's cells share theirs);
    with ``insert_import=False`` a missing alias is not added here (the caller adds it elsewhere,
    e.g. to a notebook's first cell) and ``tf`` is written as the alias to add would be.
    """
    try:
        module = cst.parse_module(code)
        tree = ast.parse(code)
    except (cst.ParserSyntaxError, SyntaxError, ValueError) as exc:
        raise TransformError(f"does not parse: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    if names is None:
        names = tf_names(tree)
    result = TransformResult(code=code)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    scanner = _Scanner(names)
    wrapper.visit(scanner)

    alias = names.module_alias
    import_line = None
    if alias is None:
        import_line, alias = names.import_to_add()
    fn_spelling = names.function_spelling or f"{alias}.function"

    function_edits: dict[str, list[FunctionEdit]] = {}
    call_edits: dict[int, RuleEdit] = {}
    call_sites: dict[str, _CallSites] = {}
    lines = code.splitlines()
    for edit in edits:
        if isinstance(edit, PassAsTensors):
            info = scanner.functions.get(edit.qualname)
            sites = _call_sites(edit, info) if info is not None else f"function {edit.qualname} not found"
            if isinstance(sites, str):
                result.skipped.append((edit, sites))
            else:
                call_sites[info.qualname] = sites  # type: ignore[union-attr]
        elif isinstance(edit, FunctionEdit):
            if edit.qualname not in scanner.functions:
                result.skipped.append((edit, f"function {edit.qualname} not found"))
                continue
            function_edits.setdefault(edit.qualname, []).append(edit)
        elif isinstance(edit, RuleEdit):
            call, problem = _locate(edit, scanner, lines)
            if call is None:
                if problem and problem.startswith("nothing to change"):
                    result.unchanged.append(edit)
                else:
                    result.skipped.append((edit, problem or "not found"))
            elif id(call.node) in call_edits:
                result.unchanged.append(edit)  # two findings on the same call
            else:
                call_edits[id(call.node)] = edit
    if not function_edits and not call_edits and not call_sites:
        return result

    rewriter = _Rewriter(scanner, function_edits, call_edits, alias, fn_spelling, result, call_sites)
    new_module = module.visit(rewriter)
    for sites in call_sites.values():
        if sites.wrapped:
            result.applied.append(sites.edit)
        elif sites.seen:
            result.unchanged.append(sites.edit)  # every call passes tensors already
        else:
            result.skipped.append((sites.edit, "no call in this file; pass the arguments as tensors where it is called"))
    # The import is needed when an applied edit writes the module alias that does not exist yet.
    uses_alias = any(
        isinstance(e, (RuleEdit, PassAsTensors)) or (isinstance(e, DecoratorOptions) and e.input_signature is not None)
        or (isinstance(e, (AddDecorator, GraphPerCall)) and not names.function_spelling)
        for e in result.applied)
    if import_line and uses_alias and insert_import:
        new_module = add_import(new_module, import_line)
        result.import_added = import_line
    elif import_line and uses_alias:
        result.import_added = import_line  # the caller places it
    result.code = new_module.code
    return result


def _is_docstring(stmt: cst.CSTNode) -> bool:
    return (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
            and isinstance(stmt.body[0], cst.Expr)
            and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


def _is_future(stmt: cst.CSTNode) -> bool:
    return (isinstance(stmt, cst.SimpleStatementLine)
            and all(isinstance(s, cst.ImportFrom) and isinstance(s.module, cst.Name) and s.module.value == "__future__"
                    for s in stmt.body))


def add_import(module: cst.Module, statement: str) -> cst.Module:
    """Insert ``statement`` after the module docstring and ``from __future__`` imports."""
    body = list(module.body)
    index = 0
    if body and _is_docstring(body[0]):
        index = 1
    while index < len(body) and _is_future(body[index]):
        index += 1
    new = cst.parse_statement(statement + module.default_newline, config=module.config_for_parsing)
    body.insert(index, new)
    return module.with_changes(body=body)


def add_import_to_code(code: str, statement: str) -> str:
    return add_import(cst.parse_module(code), statement).code
