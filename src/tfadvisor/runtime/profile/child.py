"""The child worker: ``python -m tfadvisor.runtime.profile.child``. Reads jobs, measures, streams results.

Started by ``supervisor.Worker`` with spawn semantics (a new interpreter, never a fork of a
process where TensorFlow already runs threads). It limits its own address space before importing
TensorFlow, moves stdout to stderr so the measured code cannot corrupt the message stream, and
then serves jobs until it reads ``None`` or its input closes.
"""

from __future__ import annotations

import os
import sys


def _limit_memory() -> None:
    limit = os.environ.get("TFADVISOR_MEMORY_LIMIT")
    if not limit:
        return
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (int(limit), int(limit)))
    except (ImportError, ValueError, OSError):
        pass  # not on this platform: measured without a memory limit


def main() -> int:
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    inp = sys.stdin.buffer
    _limit_memory()
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

    from tfadvisor.runtime.profile.protocol import read_message, write_message

    def send(message: tuple) -> None:
        write_message(out, message)

    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")
    tf.config.run_functions_eagerly(False)
    _warm_up(tf)
    send(("ready", tf.__version__))

    from tfadvisor.runtime.profile.modes import prepare_mode, time_modes

    while True:
        try:
            job = read_message(inp)
        except EOFError:
            return 0
        if job is None:
            return 0
        _, spec, modes, timing, want_where, early = job
        _extend_path(spec.sys_path)
        prepared = {}
        for mode in modes:
            send(("mode-start", mode))
            result, sequence = prepare_mode(spec, mode, send, want_where=want_where, early=mode in early)
            want_where = want_where and result.error is not None and result.error.phase == "load"
            send(("mode-result", mode, result))
            if sequence is not None:
                prepared[mode] = (result, sequence)
            if result.error is not None and (mode == "eager" or result.error.kind in ("load", "resolve")):
                prepared = {}
                break  # the function itself is broken: other modes would say nothing more
        if prepared and timing is not None:  # None: a first pass only (see Profiler._fresh_first_pass)
            send(("mode-start", "timing"))
            time_modes(prepared, timing)
            send(("timed", {mode: run for mode, (run, _) in prepared.items()}))
        send(("done",))


def _warm_up(tf) -> None:
    """Pay TensorFlow's once-per-process costs (eager context, the function runtime) before any
    measurement, so the first function measured is not charged for them: a real program pays
    them once for all its functions."""
    x = tf.constant([1.0, 2.0])
    tf.function(lambda v: tf.reduce_sum(v * 2.0))(x)
    _ = (x + 1.0).numpy()


def _extend_path(paths: list[str]) -> None:
    missing = [os.path.abspath(p) if p == "" else p for p in paths]
    for p in reversed(missing):
        if p not in sys.path:
            sys.path.insert(0, p)


if __name__ == "__main__":
    sys.exit(main())
