"""TF402 try-except: a try/except around TensorFlow ops in graph code sees trace-time errors only."""

from conformance.variant import V

VARIANTS = [
    V("catch-invalid-argument-of-inverse", """
        import tensorflow as tf

        @tf.function
        def safe_inverse(m):
            try:
                return tf.linalg.inv(m)
            except tf.errors.InvalidArgumentError:
                return tf.zeros_like(m)

        def main():
            return safe_inverse(tf.zeros([2, 2]))
        """, tf="raises", real=True),
    V("catch-all-around-parse", """
        import tensorflow as tf

        @tf.function
        def parse(line):
            try:
                value = tf.strings.to_number(line)
            except Exception:
                value = tf.constant(0.0)
            return value

        def main():
            return parse(tf.constant("abc"))
        """, tf="raises", real=True),
    V("try-around-eager-call-site", """
        import tensorflow as tf

        @tf.function
        def inverse(m):
            return tf.linalg.inv(m)

        def main():
            try:
                return inverse(tf.zeros([2, 2]))
            except tf.errors.InvalidArgumentError:
                return tf.zeros([2, 2])
        """, tf="same", real=True),
    V("catch-trace-time-type-error", """
        import tensorflow as tf

        @tf.function
        def to_float(x):
            try:
                return tf.cast(x, tf.float32) * 2.0
            except (TypeError, ValueError):
                return tf.zeros([2])

        def main():
            return to_float(tf.ones([2], tf.int32))
        """, tf="same", real=True),
    V("catch-out-of-range-in-iterator-loop", """
        import tensorflow as tf

        @tf.function
        def drain(it):
            total = tf.constant(0.0)
            try:
                total += it.get_next()
                total += it.get_next()
                total += it.get_next()
            except tf.errors.OutOfRangeError:
                pass
            return total

        def main():
            return drain(iter(tf.data.Dataset.from_tensor_slices([1.0, 2.0])))
        """, tf="raises", real=True),
    V("reraise-with-context", """
        import tensorflow as tf

        @tf.function
        def checked_inverse(m):
            try:
                return tf.linalg.inv(m)
            except tf.errors.InvalidArgumentError as e:
                raise ValueError("singular") from e

        def main():
            return checked_inverse(tf.eye(2))
        """, tf="same", real=True),
    V("key-error-on-python-dict", """
        import tensorflow as tf

        @tf.function
        def lookup(features):
            try:
                x = features["x"]
            except KeyError:
                x = tf.zeros([2])
            return x * 2.0

        def main():
            return lookup({"y": tf.ones([2])})
        """, tf="same", real=True),
    V("assert-caught", """
        import tensorflow as tf

        @tf.function
        def positive_or_zero(x):
            try:
                tf.debugging.assert_positive(x)
                return x
            except tf.errors.InvalidArgumentError:
                return tf.zeros_like(x)

        def main():
            return positive_or_zero(-tf.ones([2]))
        """, tf="raises", real=True),
    V("file-io-try-in-eager-loader", """
        import tensorflow as tf

        @tf.function
        def scale(x):
            return x * 2.0

        def load(path):
            try:
                with open(path) as f:
                    return float(f.read())
            except OSError:
                return 1.0

        def main():
            return scale(tf.ones([2]) * load("/nonexistent/path"))
        """, tf="same", real=True),
    V("catch-not-found-around-read-file", """
        import tensorflow as tf

        @tf.function
        def load(path):
            try:
                return tf.io.read_file(path)
            except tf.errors.NotFoundError:
                return tf.constant("")

        def main():
            return load(tf.constant("/nonexistent/tfadvisor/file"))
        """, tf="raises", real=True),
]
