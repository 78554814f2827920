"""Runtime: observe, replay and measure functions (the only layer that imports TensorFlow).

TensorFlow is imported lazily, never at import time of this package. `profile` imports it only in
the child processes ``supervisor`` starts; `run` (``session``, ``run_replay``) and the notebook magic
(``notebook_run``) import it in the process that runs the user's program, once that program has.
"""
