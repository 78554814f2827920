"""A small, realistic TensorFlow project: the code ``tfadvisor check`` is scored on."""
