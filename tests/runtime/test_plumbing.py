"""Parent-side plumbing without TensorFlow: MODULE:NAME parsing, call lists, message framing,
how a dead child is described, and the by-value payload keeping shared state shared."""

from __future__ import annotations

import io
import pickle
import signal

import pytest

from tfadvisor.runtime.profile.protocol import FrameReader, read_message, write_message
from tfadvisor.runtime.profile.specs import NameRef, ResolveError, build_job, load_job, normalise_calls, parse_ref
from tfadvisor.runtime.profile.supervisor import describe_exit


@pytest.mark.parametrize("text", ["nocolon", "mod:", ":f", "mod:1bad", "mod:a..b"])
def test_malformed_refs_are_resolve_errors(text):
    with pytest.raises(ResolveError):
        parse_ref(text)


def test_refs_accept_dotted_modules_paths_and_qualnames():
    assert parse_ref("pkg.mod:Trainer.step") == NameRef("pkg.mod", "Trainer.step")
    assert parse_ref("dir/train.py:step") == NameRef("dir/train.py", "step")


def test_calls_are_normalised_and_checked():
    assert normalise_calls([([1], {"a": 2}), ((3,), {})]) == [((1,), {"a": 2}), ((3,), {})]
    with pytest.raises(ValueError, match="call 2 is not an"):
        normalise_calls([((1,), {}), (1, 2)])
    with pytest.raises(ValueError, match="empty"):
        normalise_calls([])


def test_frames_survive_arbitrary_chunking():
    stream = io.BytesIO()
    for message in [("ready", "2.21"), ("mode-result", "eager", {"x": list(range(1000))}), ("done",)]:
        write_message(stream, message)
    data = stream.getvalue()
    reader = FrameReader()
    got = []
    for i in range(0, len(data), 7):
        got += reader.feed(data[i : i + 7])
    assert got[0] == ("ready", "2.21") and got[-1] == ("done",) and len(got) == 3
    stream.seek(0)
    assert read_message(stream) == ("ready", "2.21")


def test_dead_children_are_described():
    assert "SIGSEGV" in describe_exit(-signal.SIGSEGV)
    assert "status 3" in describe_exit(3)
    assert "stopped answering" in describe_exit(None)


def test_by_value_payload_gives_fresh_shared_state_on_every_load():
    pytest.importorskip("cloudpickle")
    box = []

    def fn(x):
        box.append(x)
        return x

    spec = build_job(fn, [((1,), {})], observe=lambda: {"n": len(box)})
    assert spec.fn == "fn" and spec.payload is not None
    first = load_job(spec, fresh=True)
    first.fn(1)
    assert first.observe() == {"n": 1}  # the function and its hook share the list
    second = load_job(spec, fresh=True)
    assert second.observe() == {"n": 0}  # a new mode starts from the state at pickling time
    assert pickle.loads(pickle.dumps(spec)).user_modules == spec.user_modules


def test_source_of_notebook_functions_travels_for_autograph():
    import linecache

    name = "<ipython-input-7-abc>"
    text = "def cell_fn(x):\n    return x\n"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    namespace: dict = {}
    exec(compile(text, name, "exec"), namespace)
    spec = build_job(namespace["cell_fn"], [((1,), {})])
    assert spec.sources == {name: text.splitlines(True)}
    del linecache.cache[name]
    load_job(spec, fresh=True)
    assert linecache.getlines(name) == text.splitlines(True)
