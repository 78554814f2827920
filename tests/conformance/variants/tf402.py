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
    V("version-fallback-that-raises-if-both-fail", """
        import tensorflow as tf

        def batch_gather(params, indices):
            try:
                return tf.gather(params, indices, batch_dims=1)
            except Exception as first:
                try:
                    return tf.compat.v1.batch_gather(params, indices)
                except Exception as second:
                    raise ValueError(f"{first}; {second}")

        @tf.function
        def pick(seq, ids):
            return batch_gather(seq, ids)

        def main():
            return pick(tf.reshape(tf.range(12.0), [2, 3, 2]), tf.constant([[0], [2]]))
        """, tf="same", real=True,
      note="a fallback to another API for the same computation, raising if that fails too: in a graph "
           "the first API's run-time error surfaces instead of the ValueError, and with data both accept "
           "the result is the same (heldout33: a BERT utility's batch_gather, judged leave-eager)"),
    V("fallback-to-a-default-value", """
        import tensorflow as tf

        def batch_gather(params, indices):
            try:
                return tf.gather(params, indices, batch_dims=1)
            except Exception:
                try:
                    return tf.zeros_like(params[:, :1])
                except Exception as second:
                    raise ValueError(str(second))

        @tf.function
        def pick(seq, ids):
            return batch_gather(seq, ids)

        def main():
            return pick(tf.reshape(tf.range(12.0), [2, 3, 2]), tf.constant([[0], [7]]))
        """, tf="raises", real=True,
      note="control: the inner fallback returns a default, not the same computation; an index out of "
           "range raises at run time in the graph, eagerly the default comes back"),
]
