"""`profile`: one function measured eagerly, as a tf.function and with XLA, each mode in a fresh
child process (``profiling`` is the entry point; ``runtime/__init__.py`` has the map)."""
