"""Property tests: whatever the module and the edits, fix output parses and a second fix changes nothing.

Modules are generated Python (hypothesmith, from the grammar) around generated function sets that
use every decorator form and import style fix must handle.
"""

from __future__ import annotations

import ast

import hypothesmith
import libcst as cst
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from casekit import function_lines
from tfadvisor.fix.edits import (
    AddDecorator,
    Location,
    PrintToTfPrint,
    RangeToTfRange,
    RemoveDecorator,
    SetDecoratorOptions,
    TensorSpecData,
)
from tfadvisor.fix.transform import apply_edits
from tfadvisor.fix.writer import parse_problem

IMPORTS = {
    "alias": ("import tensorflow as tf\n", "tf.function"),
    "plain": ("import tensorflow\n", "tensorflow.function"),
    "from": ("from tensorflow import function\n", "function"),
    "other_alias": ("import tensorflow as tfx\n", "tfx.function"),
    "none": ("", None),
}
FORMS = ("none", "bare", "call", "multiline", "assign")
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
SLOW_SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))


@st.composite
def function_sets(draw):
    """(module text, list of (qualname, def-line-finder info)) with several functions."""
    style = draw(st.sampled_from(sorted(IMPORTS)))
    header, fn = IMPORTS[style]
    parts = [header]
    specs = []
    for k in range(draw(st.integers(1, 4))):
        place = draw(st.sampled_from(["module", "method", "nested"]))
        form = draw(st.sampled_from(FORMS)) if fn else "none"
        params = [f"a{i}" for i in range(draw(st.integers(0, 3)))]
        if params and draw(st.booleans()):
            params[-1] += "=1"
        body = []
        if draw(st.booleans()):
            body.append("print(a0, 'x')" if params else "print('x')")
        if draw(st.booleans()):
            body.append("for i in range(a0):\n    pass" if params else "for i in range(3):\n    pass")
        body.append(draw(st.sampled_from(["return 1", "pass  # comment", "'''doc'''\nreturn None"])))
        name = f"fn{k}"
        decorator = {"none": "", "bare": f"@{fn}\n", "call": f"@{fn}(jit_compile=True)\n",
                     "multiline": f"@{fn}(\n    reduce_retracing=True,\n)\n", "assign": ""}[form]
        indent = lambda text, n: "".join(" " * n + line + "\n" for line in text.splitlines())  # noqa: E731
        if place == "method":
            sig = ", ".join(["self", *params])
            code = f"class C{k}:\n" + indent(decorator + f"def {name}({sig}):\n" + indent("\n".join(body), 4), 4)
            if form == "assign":
                code += f"    {name} = {fn}({name})\n"
            qual = f"C{k}.{name}"
        elif place == "nested":
            inner = decorator + f"def {name}({', '.join(params)}):\n" + indent("\n".join(body), 4)
            if form == "assign":
                inner += f"{name} = {fn}({name})\n"
            code = f"def outer{k}():\n" + indent(inner + f"return {name}", 4)
            qual = f"outer{k}.<locals>.{name}"
        else:
            code = decorator + f"def {name}({', '.join(params)}):\n" + indent("\n".join(body), 4)
            if form == "assign":
                code += f"{name} = {fn}({name})\n"
            qual = name
        parts.append(code)
        specs.append((qual, len([p for p in params if "=" not in p])))
    return "\n\n".join(parts), specs


@st.composite
def edits_for(draw, code: str, specs):
    lines = function_lines(code)
    edits = []
    for qual, arity in specs:
        kind = draw(st.sampled_from(["add", "remove", "set", "skip"]))
        if kind == "add":
            edits.append(AddDecorator(origin="decorate", qualname=qual,
                                      jit_compile=draw(st.sampled_from([None, True]))))
        elif kind == "remove":
            edits.append(RemoveDecorator(origin="undecorate", qualname=qual))
        elif kind == "set":
            sig = None
            if draw(st.booleans()):
                sig = tuple(TensorSpecData(draw(st.sampled_from([None, (None,), (None, 3), ()])), "float32")
                            for _ in range(draw(st.sampled_from([arity, arity + 1]))))
            edits.append(SetDecoratorOptions(origin="reconfigure", qualname=qual, input_signature=sig,
                                             reduce_retracing=draw(st.sampled_from([None, True])),
                                             jit_compile=draw(st.sampled_from([None, True, False]))))
    source_lines = code.splitlines()
    for qual, _ in specs:
        def_line, end = lines[qual]
        for n in range(def_line, end + 1):
            text = source_lines[n - 1]
            for word, kind in (("print(", PrintToTfPrint), ("range(", RangeToTfRange)):
                col = text.find(word)
                if col >= 0 and "tf." not in text[max(0, col - 3):col]:
                    edits.append(kind(origin="rule", safe=False, location=Location(
                        line=n, col=col if "for" not in text else text.find("for"), end_line=n,
                        function=qual, def_offset=n - def_line, span=end - def_line)))
    return edits


def _check(code: str, edits) -> None:
    first = apply_edits(code, edits)
    assert parse_problem(first.code) is None, first.code
    second = apply_edits(first.code, edits)
    assert second.code == first.code, (first.code, second.code)
    assert not second.applied
    tree = ast.parse(first.code)
    for edit in first.applied:
        if isinstance(edit, AddDecorator):
            assert any("function" in d for d in _decorators(tree, edit.qualname)), first.code
        elif isinstance(edit, RemoveDecorator):
            assert not any("function" in d for d in _decorators(tree, edit.qualname)), first.code


def _decorators(tree: ast.AST, qualname: str) -> list[str]:
    """Decorator sources of the first function named ``qualname`` (as the engine edits the first)."""
    def walk(node: ast.AST, prefix: str):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef):
                if prefix + child.name == qualname:
                    yield [ast.unparse(d) for d in child.decorator_list]
                yield from walk(child, prefix + child.name + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, prefix + child.name + ".")
            else:
                yield from walk(child, prefix)

    return next(walk(tree, ""))


@SETTINGS
@given(data=st.data(), module=function_sets(), crlf=st.booleans())
def test_generated_function_sets(data, module, crlf) -> None:
    code, specs = module
    if crlf:
        code = code.replace("\n", "\r\n")
    edits = data.draw(edits_for(code.replace("\r\n", "\n"), specs))
    _check(code, edits)


@SETTINGS
@given(data=st.data(), noise=hypothesmith.from_grammar(), module=function_sets())
def test_generated_python_around_functions(data, noise, module) -> None:
    code, specs = module
    combined = code + "\n\n" + noise + ("\n" if not noise.endswith("\n") else "")
    try:
        tree = ast.parse(combined)
        compile(tree, "<generated>", "exec", dont_inherit=True)
        cst.parse_module(combined)  # fix refuses (TransformError) what libcst cannot read
    except (SyntaxError, ValueError, cst.ParserSyntaxError):
        assume(False)
    assume(all(q in function_lines(combined) for q, _ in specs))
    edits = data.draw(edits_for(code, specs))
    _check(combined, edits)


@SLOW_SETTINGS  # hypothesmith.from_node is slow: ~0.5 s an example
@given(noise=hypothesmith.from_node())
def test_arbitrary_module_with_edits_that_find_nothing(noise) -> None:
    """Any valid module: edits for absent functions change nothing and never crash."""
    result = apply_edits(noise, [AddDecorator(origin="decorate", qualname="absent_fn"),
                                 RemoveDecorator(origin="undecorate", qualname="Absent.m")])
    assert result.code == noise and not result.applied
