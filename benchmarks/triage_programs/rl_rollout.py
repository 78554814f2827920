"""A REINFORCE agent on a toy bandit-like environment: rollouts in Python, updates in graph."""

import numpy as np
import tensorflow as tf

N_ACTIONS = 4
GAMMA = 0.99
epsilon = 0.2


class Policy(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(32, activation="tanh")
        self.logits = tf.keras.layers.Dense(N_ACTIONS)
        self.steps = 0

    def call(self, obs):
        return self.logits(self.hidden(obs))

    @tf.function
    def act(self, obs):
        self.steps += 1
        logits = self(obs)
        if tf.random.uniform([]) < epsilon:
            return tf.random.uniform([tf.shape(obs)[0]], 0, N_ACTIONS, dtype=tf.int64)
        return tf.random.categorical(logits, 1)[:, 0]


class Env:
    def __init__(self):
        self.means = np.random.normal(size=N_ACTIONS)

    def reset(self):
        return np.zeros((1, 4), dtype="float32")

    def step(self, action):
        reward = np.random.normal(self.means[int(action)])
        return np.random.normal(size=(1, 4)).astype("float32"), reward, np.random.rand() < 0.05


policy = Policy()
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def discounted_returns(rewards):
    n = tf.shape(rewards)[0]
    returns = tf.TensorArray(tf.float32, size=n)
    running = 0
    for i in tf.range(n - 1, -1, -1):
        running = rewards[i] + GAMMA * running
        returns = returns.write(i, running)
    out = returns.stack()
    return (out - tf.reduce_mean(out)) / (tf.math.reduce_std(out) + 1e-8)


@tf.function
def update(observations, actions, rewards):
    returns = discounted_returns(rewards)
    with tf.GradientTape() as tape:
        logits = policy(observations)
        logp = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=actions, logits=logits)
        loss = tf.reduce_mean(logp * returns)
    grads = tape.gradient(loss, policy.trainable_variables)
    optimizer.apply_gradients(zip(grads, policy.trainable_variables))
    return loss


def rollout(env, max_steps=200):
    obs_list, actions, rewards = [], [], []
    obs = env.reset()
    for _ in range(max_steps):
        action = policy.act(tf.constant(obs))
        next_obs, reward, done = env.step(action.numpy()[0])
        obs_list.append(obs[0])
        actions.append(int(action.numpy()[0]))
        rewards.append(reward)
        obs = next_obs
        if done:
            break
    return (tf.constant(np.array(obs_list)), tf.constant(actions, dtype=tf.int64),
            tf.constant(rewards, dtype=tf.float32))


def train(episodes=20):
    global epsilon
    env = Env()
    for episode in range(episodes):
        loss = update(*rollout(env))
        epsilon = max(0.01, epsilon * 0.95)
        if episode % 5 == 0:
            print(episode, float(loss), policy.steps)


if __name__ == "__main__":
    train()
