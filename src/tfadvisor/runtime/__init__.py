"""Runtime: observe, replay and measure functions (the only layer that imports TensorFlow).

- ``profile/``: `tfadvisor profile` and ``tfadvisor.profile``: one function over given calls, each
  mode in a fresh child process (``supervisor`` starts it, ``child`` and ``modes`` run in it);
- ``run/``: `tfadvisor run` and ``tfadvisor.run``: the user's program runs once in this process,
  observed (``session``, ``hook``, ``observe``), then the sampled calls are replayed in place
  (``replay``, ``replay_state``), projected onto the run (``projection``) and reported
  (``analysis``); ``notebook`` does the same for a notebook cell;
- here, what both use: ``timing`` (interleaved rounds), ``equivalence`` (comparing results with
  eager's own noise), ``rng`` (seeding every mode alike), ``signature`` (argument signatures and
  why a call retraced), ``reach`` (the state a function can reach).

TensorFlow is imported lazily, never at import time of this package. `profile` imports it only in
the child processes; `run` and the notebook magic import it in the process that runs the user's
program, once that program has.
"""
