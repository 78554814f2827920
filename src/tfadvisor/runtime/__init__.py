"""Runtime: observe, replay and measure functions (the only layer that imports TensorFlow).

TensorFlow is imported lazily, and only inside child processes started by ``supervisor``:
importing this package (or ``tfadvisor.runtime.profiling``) in the parent never loads it.
"""
