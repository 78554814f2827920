"""What the analysis knows about the TensorFlow, Keras and NumPy APIs, by canonical dotted name.

Canonical names come from ``imports.ImportMap.resolve``: ``tf.keras.layers.Dense`` and
``keras.layers.Dense`` both become ``keras.layers.Dense``; ``tf.compat.v2.matmul`` becomes
``tensorflow.matmul``. Everything here is a pure function of such a name.
"""

from __future__ import annotations

import ast

# TensorFlow warns when 5 calls in a row of one tf.function traced it ("5 out of the last 5 calls to
# <function> triggered tf.function retracing"): fewer traces than that go unnoticed, and are cheap.
RETRACES_WARNED = 5

TF = "tensorflow"

# tensorflow.* names that are not tensor computation.
_TF_NOT_OPS = (
    "tensorflow.function", "tensorflow.config", "tensorflow.data", "tensorflow.io.gfile",
    "tensorflow.saved_model", "tensorflow.train.Checkpoint", "tensorflow.train.CheckpointManager",
    "tensorflow.distribute", "tensorflow.test", "tensorflow.TensorSpec", "tensorflow.summary.create",
    "tensorflow.get_logger", "tensorflow.autograph", "tensorflow.random.set_seed",
    "tensorflow.keras", "tensorflow.debugging.set_log_device_placement", "tensorflow.print",
    "tensorflow.device", "tensorflow.name_scope", "tensorflow.GradientTape", "tensorflow.Module",
    "tensorflow.experimental.numpy.experimental_enable_numpy_behavior", "tensorflow.Variable",
    "tensorflow.lite", "tensorflow.sysconfig", "tensorflow.version", "tensorflow.compat.v1.disable",
)

# Calls that put no computation in a graph (a Const or an Identity node): a tf.function that makes
# only these traces an empty graph (TF502's conformance, tests/conformance/runner.py's plumbing)
COMPUTES_NOTHING = frozenset({"tensorflow.constant", "tensorflow.convert_to_tensor", "tensorflow.identity"})

_KERAS_OPS = ("keras.ops.", "keras.activations.", "keras.backend.", "keras.losses.",
              "keras.metrics.", "keras.random.")
_KERAS_BUILDERS = ("keras.layers.", "keras.Model", "keras.Sequential", "keras.models.",
                   "keras.optimizers.", "keras.Input", "keras.applications.", "keras.initializers.",
                   "keras.regularizers.", "keras.callbacks.", "keras.losses.", "keras.metrics.")
_DATA_BUILDERS = ("tensorflow.data.",)
# Dataset methods that give a dataset again (a pipeline is a chain of them).
DATASET_METHODS = frozenset({
    "batch", "padded_batch", "map", "filter", "shuffle", "prefetch", "take", "skip", "repeat", "cache",
    "unbatch", "rebatch", "shard", "flat_map", "interleave", "apply", "with_options", "concatenate",
    "zip", "enumerate", "window", "ragged_batch", "bucket_by_sequence_length", "take_while",
    "map_with_legacy_function", "prefetch_to_device", "shuffle_and_repeat",
})

TRACE_TIME_CONSTANTS = (
    "numpy.random.", "random.", "time.time", "time.perf_counter", "time.monotonic",
    "time.time_ns", "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.date.today",
    "datetime.now", "uuid.", "os.urandom", "secrets.",
)

IO_CALLS = (
    "open", "print", "input", "logging.", "os.", "shutil.", "pathlib.", "json.dump", "json.load",
    "pickle.", "csv.", "numpy.save", "numpy.load", "numpy.savez", "numpy.savetxt", "numpy.loadtxt",
    "tensorflow.io.gfile.", "tensorflow.saved_model.save", "tensorflow.saved_model.load",
    "tensorflow.summary.", "requests.", "urllib.", "subprocess.", "sys.stdout", "sys.stderr",
    "matplotlib.", "pandas.read_", "h5py.", "tqdm.", "absl.logging.",
)

VARIABLE_CONSTRUCTORS = ("tensorflow.Variable", "keras.Variable", "tensorflow.compat.v1.get_variable")

MUTATING_METHODS = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem",
     "add", "discard", "sort", "reverse", "__setitem__", "write", "writelines"}
)
# Methods whose names alone say "this is TensorFlow state work": assigning or applying into variables.
TENSOR_METHODS = frozenset(
    {"assign", "assign_add", "assign_sub", "apply_gradients", "gradient", "numpy", "scatter_update",
     "minimize", "update_state", "result", "reset_state", "watch", "jacobian", "batch_jacobian"}
)
EAGER_ONLY_METHODS = frozenset({"numpy", "item", "tolist"})
# Functions that read a tensor's value back into Python (Keras 2's backend calls ``.numpy()``;
# Keras 3's ``tf.keras.backend`` in TF 2.21 raises AttributeError on a symbolic tensor: ran).
EAGER_ONLY_FUNCTIONS = frozenset({"keras.backend.get_value", "keras.backend.batch_get_value",
                                  "keras.backend.eval"})
# Methods of a Keras layer or model that copy its variables into NumPy arrays (``get_weights``
# raises NotImplementedError on symbolic variables in TF 2.21: ran); ``.weights`` is the graph-safe list.
EAGER_ONLY_MODEL_METHODS = frozenset({"get_weights"})
# Methods of Python's own str, dict, list and set: a call of one of these on an object the analysis
# cannot type is still Python, not TensorFlow work it could not see.
PYTHON_METHODS = frozenset({
    "items", "keys", "values", "get", "join", "split", "rsplit", "strip", "lstrip", "rstrip", "lower",
    "upper", "replace", "startswith", "endswith", "format", "encode", "decode", "copy", "index",
    "count", "append", "extend", "pop", "setdefault", "update", "add", "discard", "remove", "sort",
    "splitlines", "title", "zfill", "isdigit", "isalpha",
})
# Methods that compute gradients (with ``tf.GradientTape``): the heart of a training step.
# ``apply_gradients`` alone is not among them: applying gradients computed by a tf.function is a
# few ops per variable.
TRAINING_METHODS = frozenset({"gradient", "minimize", "jacobian", "batch_jacobian"})

PRIMITIVE_ANNOTATIONS = frozenset({"int", "float", "bool", "str", "bytes", "complex"})
TENSOR_ANNOTATION_SUFFIXES = ("Tensor", "Variable", "RaggedTensor", "SparseTensor", "TensorLike", "KerasTensor")
# NumPy arrays are Python values to TensorFlow's tracing (not tensors until converted).
ARRAY_ANNOTATION_SUFFIXES = ("ndarray", "ArrayLike", "NDArray")

# Parameter names that usually carry tensors or Python values: used only as a labelled guess.
TENSOR_NAME_HINTS = frozenset(
    {"x", "y", "inputs", "input", "images", "image", "labels", "label", "logits", "features",
     "targets", "target", "y_true", "y_pred", "predictions", "batch", "x_batch", "y_batch",
     "tensor", "t", "a", "b", "data", "state", "states", "hidden", "h", "c", "query", "key", "value",
     "mask", "weights", "grads", "gradients", "embeddings", "tokens", "seq", "sequence", "z", "noise",
     "real", "fake", "encoder_output", "enc_output", "dec_input", "src", "tgt"}
)
PRIMITIVE_NAME_HINTS = frozenset(
    {"step", "epoch", "i", "j", "k", "n", "idx", "index", "iteration", "num_steps", "training",
     "verbose", "name", "path", "filename", "batch_size", "epochs", "seed", "debug", "mode", "lr",
     "learning_rate", "units", "dim", "size", "depth", "num_layers", "rate", "dropout", "axis"}
)

# ``tfe.defun``: TensorFlow 1 eager mode's tf.function (traced into a graph function); tf_geometric's
# ``tf_utils.function`` is ``tf.function`` itself under TensorFlow 2 (``function = tf.function`` in
# tf_geometric/utils/tf_utils.py; heldout43: a GCN's ``train_step`` wrapped so, told to decorate)
TF_FUNCTIONS = frozenset({"tensorflow.function", "tensorflow.compat.v1.function", "tensorflow.contrib.eager.defun",
                          "tf_geometric.utils.tf_utils.function"})


def is_tf_function(name: str | None) -> bool:
    return name in TF_FUNCTIONS


def is_tensor_op(name: str | None) -> bool:
    """A call that computes on tensors (tf.matmul, tf.nn.relu, keras.ops.sum, tf.reduce_mean ...)."""
    if not name:
        return False
    if name.startswith("tensorflow."):
        return not name.startswith(_TF_NOT_OPS)
    return name.startswith(_KERAS_OPS)


def creates_variable(name: str | None) -> bool:
    """A variable, or a TF1 optimizer (it makes slot variables on its first apply)."""
    return makes_variable(name) or is_tf1_optimizer(name)


def makes_variable(name: str | None) -> bool:
    """``tf.Variable(...)``, ``keras.Variable(...)``: a variable itself (not an optimizer's slots)."""
    return bool(name and name.startswith(VARIABLE_CONSTRUCTORS))


def is_tf1_optimizer(name: str | None) -> bool:
    """``tf.compat.v1.train.AdamOptimizer``: made per call of graph code, TF 2.21 raises on the next trace."""
    return bool(name and name.startswith("tensorflow.compat.v1.train.") and name.endswith("Optimizer"))


def is_keras_builder(name: str | None) -> bool:
    """Constructors of Keras layers, models, optimizers: definition, not computation."""
    return bool(name and name.startswith(_KERAS_BUILDERS) and _looks_like_class(name))


# Keras layers that own no weights: making one inside graph code creates no variable.
STATELESS_LAYERS = frozenset({
    "Concatenate", "Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Dot", "Flatten",
    "Reshape", "Permute", "RepeatVector", "Lambda", "Dropout", "SpatialDropout1D", "SpatialDropout2D",
    "SpatialDropout3D", "GaussianNoise", "GaussianDropout", "AlphaDropout", "Activation", "ReLU",
    "LeakyReLU", "Softmax", "Attention", "ELU", "ThresholdedReLU", "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D",
    "Cropping1D", "Cropping2D", "Cropping3D", "UpSampling1D", "UpSampling2D", "UpSampling3D",
    "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "AveragePooling1D", "AveragePooling2D",
    "AveragePooling3D", "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
    "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalMaxPooling3D", "GlobalAveragePooling1D",
    "GlobalAveragePooling2D", "GlobalAveragePooling3D", "GlobalMaxPool1D", "GlobalMaxPool2D",
    "GlobalAvgPool1D", "GlobalAvgPool2D", "Masking", "Identity", "Rescaling", "Resizing", "CenterCrop",
    "Cropping", "Layer",
})


_KERAS_NOT_LAYERS = ("keras.optimizers.", "keras.initializers.", "keras.regularizers.", "keras.callbacks.",
                     "keras.losses.", "keras.metrics.")


def is_keras_layer(name: str | None) -> bool:
    """Constructors of Keras layers and models: what a program calls to run a network (a loss or
    metric object is called too, but it scores, it is not a model)."""
    return bool(name and is_keras_builder(name) and not name.startswith(_KERAS_NOT_LAYERS))


def is_stateless_layer(name: str | None) -> bool:
    """A Keras layer without weights of its own, or a loss, initializer, regularizer or callback
    object: making one per call creates no variable (``keras.layers.RNN`` owns none: its cell does,
    and is flagged where it is made; TensorFlow 2.21 runs ``keras.initializers.VarianceScaling(...)``
    made inside a tf.function on every call: tests/conformance/variants/tf401.py)."""
    if not name:
        return False
    last = name.rsplit(".", 1)[-1]
    if name.startswith("keras.layers."):
        return last in STATELESS_LAYERS or last == "RNN"
    return name.startswith(("keras.losses.", "keras.initializers.", "keras.regularizers.", "keras.callbacks."))


def is_dataset_builder(name: str | None) -> bool:
    return bool(name and name.startswith(_DATA_BUILDERS))


def _looks_like_class(name: str) -> bool:
    return name.rsplit(".", 1)[-1][:1].isupper()


def is_io(name: str | None) -> bool:
    return bool(name and (name in ("open", "print", "input") or name.startswith(IO_CALLS)))


def is_trace_time_constant(name: str | None) -> bool:
    return bool(name and name.startswith(TRACE_TIME_CONSTANTS) and name not in ("random.Random",))


def is_numpy_call(name: str | None) -> bool:
    return bool(name and name.startswith("numpy.") and not name.startswith("numpy.random."))


def annotation_kind(annotation: str | None) -> str | None:
    """'tensor', 'primitive', 'object' (a NumPy array) or None from an annotation's resolved (or
    written) name."""
    if not annotation:
        return None
    last = annotation.rsplit(".", 1)[-1]
    if last in PRIMITIVE_ANNOTATIONS:
        return "primitive"
    if last.endswith(ARRAY_ANNOTATION_SUFFIXES) or annotation.startswith("numpy."):
        return "object"
    if last.endswith(TENSOR_ANNOTATION_SUFFIXES):
        return "tensor"
    return None

# What makes a symbolic Keras input: a functional model's layers are called on what these return.
KERAS_INPUTS = frozenset({"keras.Input", "keras.layers.Input", "keras.layers.InputLayer"})


def asks_run_eagerly(call: ast.Call) -> bool:
    """``run_eagerly=True`` written as a literal among a call's keywords (Keras's ``compile``)."""
    return any(k.arg == "run_eagerly" and isinstance(k.value, ast.Constant) and k.value.value is True
               for k in call.keywords)
