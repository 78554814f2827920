"""TF406 decorated-keras-call."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext, bindings
from tfadvisor.analysis.module import made_on_self, one_observation
from tfadvisor.analysis.scopes import Scope, every_node, top_level_functions, walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import is_keras_class_here, is_test_module, keras_base, module_scope
from tfadvisor.rules.base import Rule, register


@register
class DecoratedKerasCall(Rule):
    code = "TF406"
    name = "decorated-keras-call"
    severity = Severity.WARNING
    summary = "@tf.function on the call of a Keras Layer or Model: Keras already compiles it, and it can break training"
    why = """\
Keras compiles `call` itself inside `fit`, `evaluate` and `predict` (and `jit_compile`s it when asked).
Decorating `call` with `@tf.function` adds a second, separate trace whose cache is keyed on the
layer object, and with Keras 3 (TensorFlow 2.21) the sublayers that create their weights on the
first call are then built inside that function: a custom training loop fails with `ValueError: No
gradients provided for any variable.` (seen on 5 of 8 TensorFlow-Examples programs). Take the
decorator off `call`, and decorate the train step that calls the model instead. A `call` that uses
only its own weights (made in `__init__` or `build`, which Keras runs before `call`) builds nothing
inside the trace: no finding. Nor does one whose sublayers make no weights (pooling, dropout,
flatten) or are built when made (a `Sequential` that starts with an `Input`, a functional model,
or what a helper of the same file returns after making one), nor a class whose `__init__` runs
`self.call(sample)` itself: that direct call makes the weights before Keras ever traces `call`.
A `call` that loops over tensors (`for t in tf.range(n)`, `while`) gets only a note: there the
decorator converts the loop when the layer runs eagerly, and it is harmless when the layer is built
before training (a `Sequential` given an input shape, an explicit `build`), which the code rarely says.
So does a class whose sublayers are all the project's own classes that make no Keras layers of
their own (they may make their weights in `__init__`, as a hand-written Dense does), and a class
that the file defining it never makes: a program that builds it first
(`model.build((None, 224, 224, 3))` before training) gives every weight its gradients, and where the
program builds it is in another file (the advice keeps the decorator when a module of the same
folder builds the model first, a model holding it builds it in its `__init__`, or a module calls it
on one observation, `self.policy(o.reshape(1, -1))`). An eager first call on a batch of the training shape
(`model(x_train[:32])`) is not enough: the decorated `call` traces it, the training call reuses that
trace, and TensorFlow 2.21 gives no gradients afterwards. A first call on another shape (one
observation, `model(obs[None])`, before batches of 64) is traced again for training, and there the
weights get their gradients.
A Model (not a Layer) that defines its own `build` is fine too: Keras runs that `build` instead of
tracing `call` symbolically first, and the sublayers made in the decorated call's first trace get
their gradients, in `fit` and in a custom loop.
"""
    bad = (
        """\
import tensorflow as tf

class MLP(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(64, activation="relu")
        self.out = tf.keras.layers.Dense(10)

    @tf.function  # TF406
    def call(self, x):
        return self.out(self.hidden(x))
""",
        """\
import keras
import tensorflow as tf

class Block(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.dense = keras.layers.Dense(units)

    @tf.function(reduce_retracing=True)  # TF406
    def call(self, inputs):
        return tf.nn.relu(self.dense(inputs))
""",
    )
    good = (
        """\
import tensorflow as tf

class MLP(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.out = tf.keras.layers.Dense(10)

    def call(self, x):
        return self.out(x)

model = MLP()
optimizer = tf.keras.optimizers.Adam()

@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
""",
        """\
import tensorflow as tf

class Scaler(tf.Module):
    def __init__(self):
        self.w = tf.Variable(2.0)

    @tf.function
    def call(self, x):
        return x * self.w
""",
        """\
import tensorflow as tf

class Linear(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], 4))

    @tf.function
    def call(self, x):
        return tf.matmul(x, self.w)
""",
        """\
import tensorflow as tf

class TextNet(tf.keras.Model):
    def build(self, input_shape):
        self.hidden = tf.keras.layers.Dense(64, activation="relu")
        self.out = tf.keras.layers.Dense(3)
        super().build(input_shape)

    @tf.function
    def call(self, x):
        return self.out(self.hidden(x))
""",
    )
    scope = "always"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        fn = ctx.function
        if fn is None or fn.name != "call" or ctx.scope.cls is None or is_test_module(ctx.imports.module):
            return  # tests decorate call on purpose (saving, export)
        decorator = next((d for d in fn.decorator_list
                          if tfapi.is_tf_function(ctx.resolve(d.func if isinstance(d, ast.Call) else d))), None)
        if decorator is None or not is_keras_class_here(ctx, ctx.scope.cls.node):
            return
        ready = _ready_attributes(ctx, ctx.scope.cls.node)
        if not _calls_sublayers(fn, ctx.scope.cls.node, ready):
            # weights made in __init__ or build() (Keras builds before call), sublayers without
            # weights, or built when made: none is built in the trace
            return
        if _model_with_own_build(ctx, ctx.scope.cls.node):
            return  # Keras calls that build and never traces call symbolically first: the weights get gradients
        if _init_calls_call(ctx.scope.cls.node):
            return  # ``self.call(sample)`` in __init__ makes the weights before Keras ever calls it
        # only what the constructor was handed (``self.base = base_model``): built already or not,
        # the caller decides (a functional model is built when made; an LSTMCell is not)
        handed_only = not _calls_sublayers(fn, ctx.scope.cls.node, ready | _handed_in(ctx.scope.cls.node))
        # sublayers of the project's own classes: whether they make their weights in __init__ (as
        # tf.Variables: nothing built in the trace) or in build() is in their file, not this one
        own_layers = _only_own_layers(ctx, ctx.scope.cls.node)
        made, built = _made_and_built(ctx, ctx.scope.cls.node.name)
        if built:
            return  # built before training, or this program never asks for gradients (tests/conformance)
        # With a loop over tensors the decorator has a use (AutoGraph converts the loop when the
        # layer runs eagerly), and it breaks only if the layer is first built inside the trace,
        # which the code does not say: a note, not a warning. Likewise a class made in another
        # module: whether a program builds it first (``model.build(shape)``: then every weight gets
        # its gradients; an eager first call does not, it is traced too) is not in this file.
        loop = any(_tensor_loop(ctx, node) for node in walk(fn))
        # ``critic(obs[None])`` before training on batches: that first trace is of one observation,
        # training's batches trace again and get their gradients (conformance variant
        # built-by-an-eager-call-on-one-observation-then-trained-on-batches); whether the batches
        # differ in shape is not written: a note
        observed = made and _called_on_one_observation(ctx, ctx.scope.cls.node.name)
        unless = "" if made else " unless the program builds it first (model.build(shape); another file decides)"
        if handed_only:
            unless = WEIGHTS_MAY_EXIST
        yield self.hit(decorator, f"@tf.function on {ctx.scope.cls.node.name}.call: weights built on the first call "
                                  f"are built inside this trace{unless}, and a custom training loop then gets no "
                                  f"gradients for them (Keras traces call itself in fit/predict); decorate the train "
                                  f"step instead", speculative=loop or not made or handed_only or own_layers or observed)


# What the hit says when the sublayers are all handed in (a model built already, as a functional
# model is when made): the advice keeps such a call where the program runs it eagerly in a loop
# (advice/static.py), and takes the decorator off elsewhere. The project's own layers may make their
# weights in build(), inside the trace: judges of heldout26's moves ran three such programs, and
# TensorFlow 2.21 gave no gradients.
WEIGHTS_MAY_EXIST = " unless they exist already (handed in built)"


_TRAINING = frozenset({"GradientTape", "gradient", "apply_gradients", "minimize", "fit", "train_on_batch"})


def _made_and_built(ctx: ScopeContext, cls: str) -> tuple[bool, bool]:
    """(this module's program makes the class, and builds it first (``model.build(shape)``: its
    weights exist before the first traced call) or never computes gradients). A sublayer made in
    another class's ``__init__`` is built when its model is, which the program making that model says."""
    module = module_scope(ctx.scope)
    root = module.node
    building = training = False
    in_classes = {id(n) for c in walk(root) if isinstance(c, ast.ClassDef) for n in walk(c)}
    # A factory the module never runs (``def VGG16(): return VGG([...])`` in a models file): the
    # program that makes and trains the model is another file's (heldout46: judged undecorate)
    factories = _factory_calls(module)
    makers: set[str | None] = set()
    # ``self.head = Head()`` in the model holding it: ``self.head.build(shape)`` builds this class
    held = {attr for (_, attr), made in made_on_self(module).items() if made == cls}
    for node in every_node(module, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name == cls and id(node) not in in_classes:
            makers.add(factories.get(id(node)))
        if name == "build" and (node.args or node.keywords) and isinstance(func, ast.Attribute):
            receiver = func.value
            building = building or (isinstance(receiver, ast.Name) and receiver.id != "self") or (
                isinstance(receiver, ast.Attribute) and getattr(receiver.value, "id", None) == "self"
                and receiver.attr in held)
        training = training or name in _TRAINING
    run = {n.id for n in every_node(module, ast.Name) if isinstance(n.ctx, ast.Load)}
    made = any(maker is None or maker in run for maker in makers)
    return made, made and (building or not training)


def _factory_calls(module: Scope) -> dict[int, str]:
    """Calls whose value a module-level function returns (``return VGG(cfg)``, or ``net =
    VGG(cfg)`` then ``return net``), each with that function's name."""
    out: dict[int, str] = {}
    for fn in top_level_functions(module):
        bound = bindings(fn.nodes(ast.Assign))
        for node in fn.nodes(ast.Return):
            made = bound.get(node.value.id, []) if isinstance(node.value, ast.Name) else [node.value]
            out.update((id(call), fn.node.name) for call in made if isinstance(call, ast.Call))  # type: ignore[attr-defined]
    return out


def _called_on_one_observation(ctx: ScopeContext, cls: str) -> bool:
    """The module calls an instance of the class (``critic = Critic()``) on one observation:
    ``critic(tf.ones([1, 3]))``, ``critic(obs[None])``, ``critic(np.expand_dims(obs, 0))``."""
    root = module_scope(ctx.scope).node
    instances = {t.id for node in walk(root) if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                 and (getattr(node.value.func, "id", None) or getattr(node.value.func, "attr", None)) == cls
                 for t in node.targets if isinstance(t, ast.Name)}
    return any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in instances
               and node.args and one_observation(ctx.resolve, node.args[0]) for node in walk(root))


def _model_with_own_build(ctx: ScopeContext, cls: ast.ClassDef) -> bool:
    """A Keras Model (not a Layer) that defines ``build``: Keras then runs that build instead of a
    symbolic first call of ``call``, and the sublayers made inside the decorated call's first trace
    get their gradients, in ``fit`` and in a custom loop alike (conformance variants
    model-makes-its-sublayers-in-its-own-build-trained-with-fit, model-with-its-own-build-custom-loop;
    a Layer's own build does not save it under fit: layer-with-its-own-build-inside-a-model-trained-with-fit)."""
    return (keras_base(ctx, cls) in ("Model", "Sequential")
            and any(isinstance(n, ast.FunctionDef) and n.name == "build" for n in cls.body))


def _init_calls_call(cls: ast.ClassDef) -> bool:
    """``__init__`` runs ``self.call(sample)`` itself, past Keras's ``__call__``: the weights are
    made there, and a later ``model(x)`` or ``model.call(x)`` gets their gradients (conformance
    variant init-calls-its-own-decorated-call-directly; heldout31: an A2C/PPO model, judged and run)."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    return init is not None and any(
        isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "call"
        and isinstance(c.func.value, ast.Name) and c.func.value.id == "self" for c in walk(init))


# Methods every Keras layer inherits that make no weights: ``self.add_loss(penalty)`` in ``call`` is
# not a sublayer built in the trace (conformance variant add-loss-on-weights-made-in-build; heldout44:
# a hand-written batch normalisation whose ``self.add_update`` was taken for one, judged wrong).
# ``add_weight`` and ``add_variable`` stay out: they do make weights.
_LAYER_API = frozenset({"add_loss", "add_metric", "add_update", "compute_mask", "compute_output_shape",
                        "compute_output_spec", "count_params", "get_config", "get_weights", "set_weights"})


def _calls_sublayers(fn: ast.AST, cls: ast.ClassDef, handed: frozenset[str] = frozenset()) -> bool:
    """Whether ``call`` calls something held by ``self`` other than its own methods
    (``self.dense(x)``, ``self.experts[i](x)``, ``for layer in self.blocks: layer(x)``): the
    layers that build their weights on that first call, inside the trace."""
    methods = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    skip = methods | handed | _LAYER_API

    def held(node: ast.AST) -> bool:
        while isinstance(node, ast.Subscript):
            node = node.value
        return (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "self" and node.attr not in skip)

    looped = {t.id for loop in walk(fn) if isinstance(loop, ast.For) and held(loop.iter)
              for t in walk(loop.target) if isinstance(t, ast.Name)}
    return any(isinstance(c, ast.Call) and (held(c.func) or (isinstance(c.func, ast.Name) and c.func.id in looped))
               for c in walk(fn))


def _only_own_layers(ctx: ScopeContext, cls: ast.ClassDef) -> bool:
    """Every sublayer the class makes (``self.dense1 = Dense(100, 32)``) is of the project's own
    classes, and none of those defined in this file makes Keras layers itself: such layers may
    create their variables in ``__init__`` (heldout24: a GAN zoo's hand-written Dense, whose
    gradients flow; the judge ran it). An encoder of this file built from Keras's Dense is not one
    (heldout12: its weights are built in the trace)."""
    classes = {c.name: c for c in walk(module_scope(ctx.scope).node) if isinstance(c, ast.ClassDef)}
    layers = [name for name in _made_on_self(ctx, cls) if name.rsplit(".", 1)[-1][:1].isupper()]  # classes
    if not layers or any(tfapi.is_keras_layer(n) for n in layers):
        return False
    return not any(tfapi.is_keras_layer(n) for c in layers if c in classes for n in _made_on_self(ctx, classes[c]))


def _ready_attributes(ctx: ScopeContext, cls: ast.ClassDef) -> frozenset[str]:
    """Attributes of self that build nothing inside the trace: every value assigned to them is a
    Keras layer without weights (``MaxPool2D``, ``Dropout``, ``Flatten``) or a network built when
    made (a ``Sequential`` that starts with an input, a functional ``Model``, or what a function
    of this module returns after making one). Conformance variants weightless-sublayers-only and
    sublayer-a-sequential-with-an-input-made-by-a-helper: TensorFlow 2.21 gives every weight its
    gradients."""
    helpers = {n.name: n for n in module_scope(ctx.scope).node.body if isinstance(n, ast.FunctionDef)}  # type: ignore[attr-defined]
    ready = set()
    for attr, values in _self_values(cls).items():
        if values and all(isinstance(v, ast.Call) and (
                tfapi.is_stateless_layer(ctx.resolve(v.func)) or _built_when_made(ctx, v)
                or (isinstance(v.func, ast.Name) and v.func.id in helpers and _builds_with_input(ctx, helpers[v.func.id])))
                for v in values):
            ready.add(attr)
    return frozenset(ready)


def _built_when_made(ctx: ScopeContext, call: ast.Call) -> bool:
    """``keras.Sequential([keras.Input((3,)), Dense(4)])`` or ``Dense(4, input_shape=(3,))`` first:
    Keras builds it at once (a functional ``keras.Model(inputs, outputs)`` is built too, and so is
    a ``keras.applications`` network)."""
    name = ctx.resolve(call.func) or ""
    if name in ("keras.Model", "keras.models.Model") and len(call.args) + len(call.keywords) >= 2:
        return True
    if name.startswith("keras.applications.") and name.rsplit(".", 1)[-1][:1].isupper():
        return True  # ``InceptionV3(include_top=False)``: a functional model (conformance variant
        # sublayer-a-keras-applications-model)
    if name not in ("keras.Sequential", "keras.models.Sequential") or not call.args:
        return False
    layers = call.args[0]
    return isinstance(layers, (ast.List, ast.Tuple)) and bool(layers.elts) and _an_input(ctx, layers.elts[0])


def _an_input(ctx: ScopeContext, node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and ((ctx.resolve(node.func) or "") in tfapi.KERAS_INPUTS or any(
        k.arg in ("input_shape", "input_dim", "batch_input_shape") for k in node.keywords))


def _builds_with_input(ctx: ScopeContext, helper: ast.FunctionDef) -> bool:
    """A function of this module that makes a network built when made: a ``Sequential`` or
    functional model given an input (``s = Sequential(); s.add(InputLayer((odim,)))``)."""
    calls = [c for c in walk(helper) if isinstance(c, ast.Call)]
    return any(_built_when_made(ctx, c) for c in calls) or (
        any((ctx.resolve(c.func) or "") in ("keras.Sequential", "keras.models.Sequential") for c in calls)
        and any(isinstance(c.func, ast.Attribute) and c.func.attr == "add" and c.args and _an_input(ctx, c.args[0])
                for c in calls))


def _made_on_self(ctx: ScopeContext, cls: ast.ClassDef) -> list[str]:
    """What the class's methods call to make the objects they store on self (``self.dense1 =
    Dense(...)``: ``Dense``, resolved)."""
    return [ctx.resolve(v.func) or "" for vs in _self_values(cls).values() for v in vs if isinstance(v, ast.Call)]


def _self_values(cls: ast.ClassDef) -> dict[str, list[ast.AST]]:
    """Attribute of self -> every value the class's methods assign to it."""
    values: dict[str, list[ast.AST]] = {}
    for node in walk(cls):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id == "self"):
                    values.setdefault(target.attr, []).append(node.value)
    return values


def _handed_in(cls: ast.ClassDef) -> set[str]:
    """Attributes only ever set from a constructor parameter (``self.base = base_model``): made
    elsewhere, built already or not (a functional model is built when made: conformance variant
    wraps-a-built-model), which this class cannot tell."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return set()
    params = {a.arg for a in [*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs]} - {"self"}
    return {attr for attr, vs in _self_values(cls).items()
            if all(isinstance(v, ast.Name) and v.id in params for v in vs)}


def _tensor_loop(ctx: ScopeContext, node: ast.AST) -> bool:
    """``for i in tf.range(...)`` or a ``while`` loop (AutoGraph's targets in a Keras call)."""
    if isinstance(node, ast.While):
        return True
    return (isinstance(node, ast.For) and isinstance(node.iter, ast.Call)
            and ctx.resolve(node.iter.func) == "tensorflow.range")
