"""Static advice on shapes heldout43's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. The first test of each pair fails at
heldout43's version I (d8a0e06); the controls pass at both.
"""

from __future__ import annotations

from pathlib import Path

from programs import check, verdicts

from tfadvisor.model import Verdict

SLICED = """\
    import tensorflow as tf

    (train_images, train_labels), _ = tf.keras.datasets.mnist.load_data()
    train_num = 48000
    train_x = tf.cast(train_images[:train_num].reshape(-1, 784) / 255.0, tf.float32)
    train_y = tf.one_hot(train_labels[:train_num], depth=10)
    W = tf.Variable(tf.random.normal([784, 10]))
    B = tf.Variable(tf.zeros([10]))
    optimizer = tf.keras.optimizers.Adam(0.001)
    epochs = 40
    batch_size = 50
    total_step = TOTAL


    def model(x, w, b):
        return tf.nn.softmax(tf.matmul(x, w) + b)


    def grad(x, y, w, b):
        with tf.GradientTape() as tape:
            loss_ = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(y, model(x, w, b)))
        return tape.gradient(loss_, [w, b])


    def accuracy(x, y, w, b):
        pred = model(x, w, b)
        correct = tf.equal(tf.argmax(pred, 1), tf.argmax(y, 1))
        return tf.reduce_mean(tf.cast(correct, tf.float32))


    for epoch in range(epochs):
        for step in range(total_step):
            BODY
            grads = grad(xs, ys, W, B)
            optimizer.apply_gradients(zip(grads, [W, B]))
        acc_train = accuracy(train_x, train_y, W, B).numpy()
        print(epoch, acc_train)
"""
SLICE = "xs = train_x[step * batch_size:(step + 1) * batch_size]\n            ys = train_y[step * batch_size:(step + 1) * batch_size]"
DRAWN = "xs = tf.gather(train_x, tf.random.uniform([batch_size], 0, train_num, tf.int32))\n            ys = train_y[:batch_size]"


def test_a_call_after_the_loop_that_slices_batches_runs_once_per_epoch(tmp_path: Path) -> None:
    """``for step in range(total_step): xs = train_x[step * bs:(step + 1) * bs]`` is the loop over
    batches, not a few repeats of a step: ``accuracy`` on the whole training set after it runs
    once per epoch, and tracing it would cost more than it saves. heldout43: three such accuracy
    functions told decorate, judged leave-eager (their ``grad`` stays decorate)."""
    found = verdicts(tmp_path, {"nb.py": SLICED.replace("TOTAL", "n_batches").replace("BODY", SLICE)
                                .replace("train_num = 48000", "train_num = 48000\n    n_batches = 960")})
    assert found["accuracy"] is Verdict.LEAVE_EAGER
    assert found["grad"] is Verdict.DECORATE


def test_a_count_of_batches_makes_the_loop_over_batches(tmp_path: Path) -> None:
    """The same with the batch drawn at random: ``total_step = int(train_num / batch_size)`` says
    the loop counts batches."""
    found = verdicts(tmp_path, {"nb.py": SLICED.replace("TOTAL", "int(train_num / batch_size)").replace("BODY", DRAWN)})
    assert found["accuracy"] is Verdict.LEAVE_EAGER
    assert found["grad"] is Verdict.DECORATE


def test_a_few_repeats_of_a_step_still_leave_the_call_after_them_hot(tmp_path: Path) -> None:
    """Control: ``for _ in range(n_critic):`` a few critic updates per generator step. A call after
    that loop runs on every outer step (the hot one), so it is judged as called many times."""
    found = verdicts(tmp_path, {"nb.py": SLICED.replace("TOTAL", "n_critic").replace("BODY", DRAWN)
                                .replace("train_num = 48000", "train_num = 48000\n    n_critic = 5")})
    assert found["accuracy"] is Verdict.DECORATE


GCN = """\
    import tensorflow as tf
    from tf_geometric.utils import tf_utils

    x = tf.random.normal([100, 16])
    adj = tf.random.uniform([100, 100])
    labels = tf.one_hot(tf.random.uniform([100], 0, 4, tf.int32), 4)
    w = tf.Variable(tf.random.normal([16, 4]))
    optimizer = tf.keras.optimizers.Adam(0.01)


    DECORATOR
    def train_step():
        with tf.GradientTape() as tape:
            logits = tf.matmul(adj, tf.matmul(x, w))
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        grads = tape.gradient(loss, [w])
        optimizer.apply_gradients(zip(grads, [w]))
        return loss


    for step in range(1000):
        train_step()
"""


def test_tf_geometrics_function_wrapper_is_a_tf_function(tmp_path: Path) -> None:
    """``tf_geometric.utils.tf_utils.function`` is ``tf.function`` under TensorFlow 2: a step it
    wraps is a tf.function already (heldout43: a GCN's ``train_step`` told decorate, judged keep)."""
    found = verdicts(tmp_path, {"gcn.py": GCN.replace("DECORATOR", "@tf_utils.function")})
    assert found["train_step"] is Verdict.KEEP


def test_the_same_step_undecorated_is_told_to_decorate(tmp_path: Path) -> None:
    """Control: without the wrapper, the step called a thousand times is a decorate."""
    found = verdicts(tmp_path, {"gcn.py": GCN.replace("DECORATOR", "")})
    assert found["train_step"] is Verdict.DECORATE


DQN = """\
    import numpy as np
    import tensorflow as tf
    from collections import deque

    env = make_env()
    model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="elu"), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    replay_memory = deque(maxlen=2000)


    def play_one_step(env, state, epsilon):
        action = np.random.randint(2) if np.random.rand() < epsilon else int(np.argmax(model(state[None])[0]))
        next_state, reward, done, info = env.step(action)
        replay_memory.append((state, action, reward, next_state, done))
        return next_state, reward, done, info


    def sample_experiences(batch_size):
        indices = np.random.randint(len(replay_memory), size=batch_size)
        batch = [replay_memory[index] for index in indices]
        return [np.array([experience[i] for experience in batch]) for i in range(5)]


    def training_step(batch_size):
        states, actions, rewards, next_states, dones = sample_experiences(batch_size)
        next_q = model.predict(next_states)
        target_q = (rewards + (1 - dones) * 0.95 * np.max(next_q, axis=1)).reshape(-1, 1)
        mask = tf.one_hot(actions, 2)
        with tf.GradientTape() as tape:
            q = tf.reduce_sum(model(states) * mask, axis=1, keepdims=True)
            loss = tf.reduce_mean(tf.square(target_q - q))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))


    for episode in range(600):
        obs = env.reset()
        for step in range(200):
            obs, reward, done, info = INNER
            if done:
                break
        if episode > 50:
            training_step(32)
"""


def test_a_step_after_a_helper_that_steps_the_environment_runs_once_per_episode(tmp_path: Path) -> None:
    """``play_one_step(env, obs, epsilon)`` steps the environment: the loop around it is an
    episode, and ``training_step`` after it is the agent's hot call, not a per-epoch one. It calls
    ``model.predict`` (TensorFlow 2.21 raises inside a tf.function): fix-first. heldout43: three
    such DQN steps told they run now and then, judged fix-first."""
    found = verdicts(tmp_path, {"dqn.py": DQN.replace("INNER", "play_one_step(env, obs, 0.1)")})
    assert found["training_step"] is Verdict.FIX_FIRST


def test_a_step_after_a_loop_over_batches_still_runs_now_and_then(tmp_path: Path) -> None:
    """Control: a loop whose helper is handed no environment (``fit_batch(obs)``) is a loop over
    batches, and the step after it runs once per pass, now and then."""
    found = verdicts(tmp_path, {"dqn.py": DQN.replace("INNER", "fit_batch(obs)")
                                .replace("def training_step", "def fit_batch(batch):\n        return batch, 0.0, False, {}\n\n\n    def training_step")})
    assert found["training_step"] is Verdict.LEAVE_EAGER


def test_a_helper_fixed_for_its_callers_graph_is_not_called_a_tf_function(tmp_path: Path) -> None:
    """The replay sampler that the DQN step calls is told to fix its ``np.random`` for the step's
    graph (TF205), with TF505 as the reason it needs no decorator: the note says its callers convert
    it, not that it is "a tf.function" (it is not one)."""
    report = check(tmp_path, {"dqn.py": DQN.replace("INNER", "play_one_step(env, obs, 0.1)")})
    notes = [f.message for f in report.findings if f.rule == "TF505" and f.function and f.function.endswith("sample_experiences")]
    assert notes and not any(n.startswith("a tf.function") for n in notes)


TEN_EPOCHS = """\
    import tensorflow as tf

    x = tf.random.normal([1000, 3])
    y = tf.reduce_sum(x, axis=1, keepdims=True)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.1)


    def train(model, inputs, outputs):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(outputs - model(inputs)))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))


    epochs = range(EPOCHS)
    for epoch in epochs:
        train(model, x, y)
"""


def test_a_loop_over_a_named_range_of_ten_is_ten_calls(tmp_path: Path) -> None:
    """``epochs = range(10); for epoch in epochs: train(...)``: ten full-batch updates in all, as
    the code says through a name (heldout43: told decorate, judged leave-eager)."""
    found = verdicts(tmp_path, {"demo.py": TEN_EPOCHS.replace("EPOCHS", "10")})
    assert found["train"] is Verdict.LEAVE_EAGER


def test_a_named_range_of_a_thousand_is_many_calls(tmp_path: Path) -> None:
    """Control: ``epochs = range(1000)`` is a thousand updates: decorate."""
    found = verdicts(tmp_path, {"demo.py": TEN_EPOCHS.replace("EPOCHS", "1000")})
    assert found["train"] is Verdict.DECORATE
