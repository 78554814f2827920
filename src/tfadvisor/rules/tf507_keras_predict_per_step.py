"""TF507 keras-predict-per-step (advice: fires from the verdict the advice module gives)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class KerasPredictPerStep(Rule):
    code = "TF507"
    name = "keras-predict-per-step"
    severity = Severity.INFO
    scope = "advice"
    said_on_status_quo = True  # the function stays eager as written (judged so); the note says how to speed it up
    summary = "calls Model.predict once per environment step: it stays eager as written; to speed it up, call the model directly, then decorate the step"
    why = """\
`Model.predict` is made for data sets: each call builds a data adapter, runs callbacks and a
predict loop around its own tf.function. On one state or one small batch per environment step
that loop costs far more than the model (TF 2.21, a two-layer MLP on one sample: 65 ms a call,
against 0.36 ms for `model(x, training=False)` in a tf.function), and `predict` cannot run inside
a tf.function at all. Call the model directly, return tensors, do the NumPy work (argmax,
sampling) with TensorFlow ops or in the caller, and decorate the step. Said where a simulator's
loop (`env.step`) calls the function: `predict` over a test set, or in a forecasting or generation
helper, is predict's own job. Not said where Keras drives the training too (`train_on_batch`).
"""
    bad = (
        """\
import numpy as np
import tensorflow as tf

class Agent:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2)])

    def act(self, state):  # TF507
        q = self.model.predict(state[None], verbose=0)
        return int(np.argmax(q[0]))

def play(agent, env):
    state, done = env.reset(), False
    while not done:
        state, reward, done = env.step(agent.act(state))

agent = Agent()
for episode in range(100):
    play(agent, make_env())
""",
        """\
import numpy as np
import tensorflow as tf

target_model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2)])

def targets(next_states, rewards):  # TF507
    return rewards + 0.99 * np.max(target_model.predict(next_states, verbose=0), axis=1)

def run_episode(env, memory):
    state, done = env.reset(), False
    while not done:
        state, reward, done = env.step(np.random.randint(2))
        memory.append((state, reward))
        if len(memory) >= 32:
            batch = memory[-32:]
            targets(np.array([s for s, _ in batch]), np.array([r for _, r in batch]))

for episode in range(100):
    run_episode(make_env(), [])
""",
    )
    good = (
        """\
import tensorflow as tf

class Agent:
    def __init__(self):
        self.model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2)])

    @tf.function
    def q_values(self, states):
        return self.model(states, training=False)

def play(agent, env):
    state, done = env.reset(), False
    while not done:
        action = int(tf.argmax(agent.q_values(state[None])[0]))
        state, reward, done = env.step(action)
""",
        """\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2)])

def forecast(history, steps):
    out = []
    for _ in range(steps):
        out.append(float(model.predict(history[None, -4:], verbose=0)[0, 0]))
        history = np.append(history, out[-1])
    return out

for series in range(10):
    print(forecast(np.random.rand(20), 30))
""",
    )
