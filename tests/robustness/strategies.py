"""Hypothesis strategies for TensorFlow-flavoured modules.

hypothesmith makes valid but TensorFlow-free Python: it exercises the parser-facing code but
rarely any rule. These strategies build modules out of the constructs the analysis and the fixes
care about (decorator forms, import styles, classes that are Keras models, nested functions,
tensor control flow, side effects, variables, recursion, generators, async code) and splice
hypothesmith's statements into function bodies, so every rule sees odd neighbours. Some
combinations are valid for the parser but rejected by the compiler (``break`` outside a loop,
``yield`` inside ``async def`` with a ``return`` value): that is deliberate, ``check`` reads
parse trees and must survive them.
"""

from __future__ import annotations

import ast
import textwrap

import hypothesmith
from hypothesis import strategies as st

IMPORTS = (
    "import tensorflow as tf",
    "import tensorflow",
    "import tensorflow as tfx",
    "from tensorflow import function",
    "from tensorflow import keras",
    "from tensorflow.keras import layers",
    "import tensorflow.compat.v1 as tf1",
    "import numpy as np",
    "import functools",
    "from tensorflow import function as tff",
)

DECORATORS = (
    "@tf.function",
    "@tf.function()",
    "@tf.function(jit_compile=True)",
    "@tf.function(reduce_retracing=True)",
    "@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])",
    "@tf.function(\n    jit_compile=True,\n    autograph=False,\n)",
    "@tensorflow.function",
    "@tfx.function",
    "@function",
    "@tff",
    "@functools.lru_cache",
    "@staticmethod",
    "@classmethod",
    "@property",
    "@tf.autograph.experimental.do_not_convert",
    "@some.unknown(decorator)",
)

STATEMENTS = (
    "y = tf.matmul(x, x)",
    "x = x * 2.0 + tf.nn.relu(x)",
    "y = tf.reduce_sum(x)",
    "print(x)",
    "print(f'x is {x}')",
    "tf.print(x)",
    "if x > 0:\n    return x",
    "if tf.reduce_sum(x) > 0:\n    y = 1\nelse:\n    y = 2",
    "if tf.reduce_sum(x) > 0:\n    z = x",
    "for i in range(n):\n    x = x * 2",
    "for i in range(x):\n    x += 1",
    "for i in tf.range(n):\n    acc.append(x)",
    "for row in x:\n    print(row)",
    "while x < 10:\n    x += 1",
    "while tf.reduce_sum(x) < 10.0:\n    x = x + 1.0\n    if x[0] > 3:\n        break",
    "v = tf.Variable(1.0)",
    "if self.v is None:\n    self.v = tf.Variable(0.0)",
    "self.counter += 1",
    "self.history.append(x)",
    "global G\nG += 1",
    "nonlocal n",
    "with open('log.txt', 'a') as h:\n    h.write(str(x))",
    "try:\n    x = helper(x)\nexcept ValueError:\n    pass\nfinally:\n    y = 0",
    "return helper(x)",
    "return recurse(x - 1)",
    "yield x",
    "await x",
    "f = lambda a: a * x",
    "del x",
    "x = [i * 2 for i in x]",
    "y = x.numpy()",
    "y = np.array(x)",
    "y = float(x)",
    "assert x is not None",
    "raise ValueError(x)",
    "break",
    "continue",
    "match x:\n    case 1:\n        pass\n    case [a, *rest]:\n        y = a\n    case _:\n        y = None",
    "if (w := tf.shape(x)[0]) > 1:\n    x = x[:w]",
    "a, *b = x",
    "x[0] = 1",
    "y = tf.keras.layers.Dense(3)(x)",
    "model.fit(x, epochs=1)",
    "self.v.assign_add(1.0)",
    "y = tf.py_function(np.sin, [x], tf.float32)",
    "x = tf.cond(x > 0, lambda: x, lambda: -x)",
    "async for item in x:\n    print(item)",
    "async with lock:\n    x = x + 1",
    "import os\nos.makedirs('out', exist_ok=True)",
    "from . import sibling",
    "exec('x = 1')",
    "x: tf.Tensor = tf.zeros([3])",
    "pass",
    "'''a docstring'''",
    "return",
    "return x",
    "return x, {'k': [x, (x,)]}",
    "# tfadvisor: ignore[TF201]",
    "print(x)  # tfadvisor: ignore",
    "print(x)  # tfadvisor: ignore[TF999, nonsense]",
)

PARAMS = ("x", "x, n", "x, n=3", "self, x", "self, x, training=False", "x: tf.Tensor, n: int",
          "*args, **kwargs", "x, /, n, *, k=1", "cls, x", "", "x=tf.constant(1.0)")

BASES = ("", "(tf.keras.Model)", "(keras.layers.Layer)", "(tf.Module)", "(object)", "(Base, metaclass=Meta)")


# Built once: each from_grammar() call compiles a LALR parser (seconds).
_NOISE_STATEMENT = hypothesmith.from_grammar(start="single_input")
_NOISE_MODULE = hypothesmith.from_grammar()


def _indent(text: str, by: int = 4) -> str:
    return textwrap.indent(text, " " * by, lambda line: True)


@st.composite
def bodies(draw: st.DrawFn, depth: int = 0) -> str:
    """A function body: statements, maybe a nested def, maybe generated Python noise."""
    parts = draw(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=5))
    if depth < 2 and draw(st.booleans()):
        parts.insert(draw(st.integers(0, len(parts))), draw(functions(depth=depth + 1)))
    if draw(st.integers(0, 4)) == 0:  # a statement from the grammar, indented into the body
        noise = draw(_NOISE_STATEMENT).strip("\n")
        if noise.strip():
            parts.append(noise)
    return "\n".join(parts)


@st.composite
def functions(draw: st.DrawFn, depth: int = 0) -> str:
    name = draw(st.sampled_from(("f", "g", "step", "train_step", "call", "helper", "recurse", "build", "__call__")))
    decorators = draw(st.lists(st.sampled_from(DECORATORS), max_size=2))
    kind = draw(st.sampled_from(("def", "def", "def", "async def")))
    params = draw(st.sampled_from(PARAMS))
    head = "".join(d + "\n" for d in decorators) + f"{kind} {name}({params}):\n"
    text = head + _indent(draw(bodies(depth=depth)))
    if draw(st.integers(0, 5)) == 0:
        text += f"\n{name} = tf.function({name})"
    return text


@st.composite
def classes(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(("Model", "Trainer", "Block", "C")))
    methods = draw(st.lists(functions(depth=1), min_size=0, max_size=3))
    body = "\n\n".join(methods) if methods else "pass"
    return f"class {name}{draw(st.sampled_from(BASES))}:\n" + _indent(body)


@st.composite
def tf_modules(draw: st.DrawFn) -> str:
    """A whole module: imports, then functions, classes and top-level statements, in any order."""
    imports = draw(st.lists(st.sampled_from(IMPORTS), max_size=4, unique=True))
    blocks = draw(st.lists(st.one_of(functions(), functions(), classes(),
                                     st.sampled_from(("G = 0", "model = Model()", "f(tf.constant(1.0))",
                                                      "if __name__ == '__main__':\n    f(1)",
                                                      "for k in range(3):\n    step(k)"))),
                           min_size=1, max_size=6))
    if draw(st.integers(0, 3)) == 0:
        blocks.append(draw(_NOISE_MODULE))
    return "\n".join(imports) + "\n\n" + "\n\n".join(blocks) + "\n"


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def expected_ids(text: str, path: str) -> set[str]:
    """Function ids as Python names them (``outer.<locals>.inner``, ``C.m``), found independently;
    a qualname defined again gets ``#2``, ``#3``... in source order (issue 13)."""
    found: list[tuple[int, int, str]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((child.lineno, child.col_offset, f"{prefix}{child.name}"))
                walk(child, f"{prefix}{child.name}.<locals>.")
            elif isinstance(child, ast.ClassDef):
                walk(child, f"{prefix}{child.name}.")
            else:
                walk(child, prefix)

    walk(ast.parse(text), "")
    seen: dict[str, int] = {}
    out: set[str] = set()
    for _, _, qualname in sorted(found):
        seen[qualname] = seen.get(qualname, 0) + 1
        out.add(f"{path}::{qualname}" + (f"#{seen[qualname]}" if seen[qualname] > 1 else ""))
    return out


notebook_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(("cells", "cell_type", "source", "metadata", "outputs", "nbformat", "x")), inner, max_size=4),
    max_leaves=20,
)


@st.composite
def notebooks(draw: st.DrawFn) -> object:
    """Notebook-shaped JSON, often well-formed, sometimes not at all (cells of the wrong types)."""
    cell = st.fixed_dictionaries({
        "cell_type": st.sampled_from(("code", "markdown", "raw", 3, None)),
        "source": st.one_of(st.lists(st.sampled_from(STATEMENTS).map(lambda s: s + "\n"), max_size=4),
                            st.sampled_from(STATEMENTS), notebook_json),
    })
    shaped = st.fixed_dictionaries({"cells": st.lists(cell, max_size=4), "nbformat": st.just(4), "metadata": st.just({})})
    return draw(st.one_of(shaped, shaped, notebook_json))
