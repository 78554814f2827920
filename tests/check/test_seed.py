"""The seed's three examples, and the verdicts the seed's answers give."""

from __future__ import annotations

from tfadvisor.check import check_source
from tfadvisor.model import Verdict


def rules_at(code: str) -> set[tuple[str, int]]:
    return {(f.rule, f.line) for f in check_source(code, "seed.py").findings if not f.rule.startswith("TF5")}


def verdict(code: str, qualname: str):
    return next(f for f in check_source(code, "seed.py").functions if f.qualname == qualname)


VARIABLE_PER_CALL = """\
import tensorflow as tf

@tf.function
def f(x):
    v = tf.Variable(1)
    return tf.add(x, v)

f(tf.constant(2))
"""

GUARDED = """\
import tensorflow as tf

class C(object):
    def __init__(self):
        self.v = None
    @tf.function
    def f(self, x):
        if self.v is None:
            self.v = tf.Variable(1)
        return tf.add(x, self.v)

c = C()
print(c.f(tf.constant(2)))
"""

HIDDEN = """\
import tensorflow as tf

class C(object):
    def change_state(self):
        self.a += 1

    @tf.function
    def f(self):
        self.a = tf.constant(0)
        if tf.constant(True):
            self.change_state() # Mutation of self.a is hidden
        tf.print(self.a)

x = C()
x.f()
"""

PLAIN_SIGHT = """\
import tensorflow as tf

class C(object):
    @tf.function
    def f(self):
        self.a = tf.constant(0)
        if tf.constant(True):
            self.a += 1 # Mutation of self.a is in plain sight
        tf.print(self.a)

x = C()
x.f()
"""

ONE_BRANCH = """\
import tensorflow as tf

@tf.function
def f(a, b):
    if tf.greater(a, b):
        return tf.constant(1)

x = f(tf.constant(3), tf.constant(2))
"""

TWO_BRANCHES = """\
import tensorflow as tf

@tf.function
def f(a, b):
    if tf.greater(a, b):
        return tf.constant(1)
    else:
        return tf.constant(0)
"""


def test_variable_created_inside_tf_function_is_tf401() -> None:
    assert ("TF401", 5) in rules_at(VARIABLE_PER_CALL)
    assert verdict(VARIABLE_PER_CALL, "f").verdict is Verdict.FIX_FIRST


def test_guarded_variable_is_not_tf401() -> None:
    assert not any(rule == "TF401" for rule, _ in rules_at(GUARDED))
    fn = verdict(GUARDED, "C.f")
    assert fn.facts.creates_variables == "guarded"
    # It works as a tf.function; with one op, the advice may be that it gains little (TF602).
    assert fn.verdict in (Verdict.KEEP, Verdict.UNDECORATE) and "TF401" not in fn.reasons


def test_hidden_mutation_is_tf203_and_plain_sight_is_not() -> None:
    assert ("TF203", 11) in rules_at(HIDDEN)
    assert verdict(HIDDEN, "C.f").verdict is Verdict.FIX_FIRST
    assert verdict(HIDDEN, "C.f").facts.python_side_effects
    assert rules_at(PLAIN_SIGHT) == set()
    plain = verdict(PLAIN_SIGHT, "C.f")
    assert plain.verdict is not Verdict.FIX_FIRST and "TF203" not in plain.reasons


def test_return_in_one_branch_is_tf301_and_two_branches_are_not() -> None:
    assert ("TF301", 5) in rules_at(ONE_BRANCH)
    assert not any(rule == "TF301" for rule, _ in rules_at(TWO_BRANCHES))


ANSWERS = """\
import tensorflow as tf

def dense_block(x, w, b):
    for _ in range(8):
        x = tf.nn.relu(tf.matmul(x, w) + b)
        x = x * 0.5 + tf.tanh(x)
    return tf.reduce_mean(x)

def build_encoder(units):
    return tf.keras.Sequential([
        tf.keras.layers.Dense(units, activation="relu"),
        tf.keras.layers.Dense(units),
    ])

def log_metrics(step, loss):
    print(f"step {step}: loss {loss:.4f}")

w = tf.random.normal([16, 16])
b = tf.zeros([16])
for step in range(100):
    loss = dense_block(tf.random.normal([4, 16]), w, b)
    log_metrics(step, float(loss))
"""


def test_many_small_ops_is_decorate() -> None:
    fn = verdict(ANSWERS, "dense_block")
    assert fn.verdict is Verdict.DECORATE
    assert fn.facts.tensor_computation and set(fn.facts.tensor_params) == {"x", "w", "b"}
    assert fn.confidence == "certain"


def test_layer_builder_is_leave_eager_builder() -> None:
    fn = verdict(ANSWERS, "build_encoder")
    assert fn.verdict is Verdict.LEAVE_EAGER and fn.facts.role == "builder"
    assert "TF504" in fn.reasons


def test_logging_helper_that_prints_is_leave_eager() -> None:
    fn = verdict(ANSWERS, "log_metrics")
    assert fn.verdict is Verdict.LEAVE_EAGER
    assert fn.facts.role == "io" and fn.facts.python_side_effects
