"""TF405 eager-debug-left-on: run_functions_eagerly(True) left on."""

from conformance.variant import V

VARIANTS = [
    V("module-level-switch", """
        import tensorflow as tf

        tf.config.run_functions_eagerly(True)

        @tf.function
        def step(x):
            return tf.reduce_sum(x * x)

        def main():
            return step(tf.ones([2]))
        """, tf="eager-on", real=True),
    V("switch-in-script-with-no-tf-function", """
        import tensorflow as tf

        tf.config.run_functions_eagerly(True)

        w = tf.Variable(2.0)

        def main():
            return w * tf.ones([3]) + 1.0
        """, tf="same", real=True, note="nothing runs as a graph: the switch turns nothing eager"),
    V("switch-in-program-whose-tf-function-nobody-calls", """
        import tensorflow as tf

        tf.config.run_functions_eagerly(True)

        @tf.function
        def anchors(n):
            return tf.range(n)

        def main():
            w = tf.Variable(2.0)
            return w * tf.ones([3]) + 1.0
        """, tf="same", real=True,
      note="heldout29: a faster R-CNN's main switches eager mode on; its one tf.function is imported, never called"),
    V("switch-in-main", """
        import tensorflow as tf

        @tf.function
        def step(x):
            return x * 2.0

        def main():
            tf.config.experimental_run_functions_eagerly(True)
            return step(tf.ones([3]))
        """, tf="eager-on", real=True),
    V("switch-from-debug-argument-default-off", """
        import tensorflow as tf

        @tf.function
        def step(x):
            return x * 2.0

        def main(debug=False):
            tf.config.run_functions_eagerly(debug)
            return step(tf.ones([3]))
        """, tf="same", real=True),
    V("switch-off", """
        import tensorflow as tf

        tf.config.run_functions_eagerly(False)

        @tf.function
        def step(x):
            return x * 2.0

        def main():
            return step(tf.ones([3]))
        """, tf="same", real=True),
    V("switch-under-debug-flag", """
        import tensorflow as tf

        class FLAGS:
            debug = False

        @tf.function
        def step(x):
            return x * 2.0

        def main():
            if FLAGS.debug:
                tf.config.run_functions_eagerly(True)
            return step(tf.ones([3]))
        """, tf="same", real=True, note="issue 20: a debug switch, off unless asked for"),
    V("switch-under-env-variable", """
        import os
        import tensorflow as tf

        if os.environ.get("TFADVISOR_CONFORMANCE_EAGER") == "1":
            tf.config.run_functions_eagerly(True)

        @tf.function
        def step(x):
            return x * 2.0

        def main():
            return step(tf.ones([3]))
        """, tf="same", real=True),
    V("switch-on-then-off-around-debugging", """
        import tensorflow as tf

        @tf.function
        def step(x):
            return x * 2.0

        def main():
            tf.config.run_functions_eagerly(True)
            eager = step(tf.ones([3]))
            tf.config.run_functions_eagerly(False)
            return eager, step(tf.ones([3]))
        """, tf="same", real=True, note="turned on for one comparison, then off again"),
    V("switch-in-debug-helper-never-called", """
        import tensorflow as tf

        def enable_debugging():
            tf.config.run_functions_eagerly(True)

        @tf.function
        def step(x):
            return x * 2.0

        def main():
            return step(tf.ones([3]))
        """, tf="same", real=True),
    V("switch-in-setup-called-by-main", """
        import tensorflow as tf

        def setup():
            tf.config.run_functions_eagerly(True)

        @tf.function
        def step(x):
            return x * 2.0

        def main():
            setup()
            return step(tf.ones([3]))
        """, tf="eager-on"),
    V("switch-with-keyword", """
        import tensorflow as tf

        tf.config.run_functions_eagerly(run_eagerly=True)

        @tf.function
        def step(x):
            return x * 2.0

        def main():
            return step(tf.ones([3]))
        """, tf="eager-on"),
]
