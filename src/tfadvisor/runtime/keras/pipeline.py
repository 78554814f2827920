"""The ``tf.data`` pipeline fed to ``fit``: what it is, and the same pipeline with other options.

The observer recorded every ``Dataset`` method the project's code called (receiver, arguments,
place). From the dataset given to ``fit`` back to its source that is the pipeline as written; here
it is described (``describe``: which maps run in parallel, which draw random numbers) and rebuilt
with the edits ``fix`` would make (``rebuild``): ``num_parallel_calls=AUTOTUNE`` on sequential
maps, ``prefetch(AUTOTUNE)`` at the end, ``cache()`` after the last map of a deterministic prefix.
The rebuilt pipeline calls the same methods with the same arguments on the same source, so the
measurement is of the user's own pipeline with only those options changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tfadvisor.model_keras import PipelineStage
from tfadvisor.runtime.keras.observe import KerasObserver, StageRecord

# Op types that make a map function's output differ from call to call (or unknowable: Python).
_RANDOM_OPS = ("Random", "Multinomial", "TruncatedNormal", "PyFunc", "NumpyFunction", "Shuffle")
# Stages a cache may sit after: deterministic, and finite as long as the source is.
_CACHEABLE = {"map", "filter", "batch", "padded_batch", "ragged_batch", "unbatch", "take", "skip", "enumerate"}


@dataclass
class Pipeline:
    """The project's calls from the source to the dataset given to ``fit``."""

    source: Any
    records: list[StageRecord]
    datasets: list[Any]  # the result of each record
    stages: list[PipelineStage]

    @property
    def parallel_possible(self) -> bool:
        return any(s.method == "map" and not s.parallel for s in self.stages)

    @property
    def prefetch_possible(self) -> bool:
        return bool(self.stages) and self.stages[-1].method != "prefetch"

    def cache_point(self) -> int | None:
        """The index of the stage after which ``cache()`` keeps the same elements: the last map of a
        prefix that is deterministic (no random op, no shuffle) and finite; None when there is none
        or the pipeline already caches."""
        if any(s.method == "cache" for s in self.stages) or _cardinality(self.source) < 0:
            return None
        point = None
        for index, stage in enumerate(self.stages):
            if stage.method not in _CACHEABLE or stage.random:
                break
            if stage.method == "map":
                point = index
        return point

    def cache_bytes(self, point: int) -> int | None:
        """Memory the cache would hold: elements at ``point`` times an element's size (sampled)."""
        dataset = self.datasets[point]
        count = _cardinality(dataset)
        if count < 0:
            return None
        try:
            import tensorflow as tf

            sizes = [sum(t.numpy().nbytes for t in tf.nest.flatten(e)) for e in dataset.take(8)]
        except Exception:
            return None
        return int(count * (sum(sizes) / len(sizes))) if sizes else 0


def describe(observer: KerasObserver, dataset: Any) -> Pipeline | None:
    """The pipeline behind ``dataset`` as the project built it; None for data that is not a
    ``tf.data.Dataset`` built by the project's code."""
    records: list[StageRecord] = []
    datasets: list[Any] = []
    current = dataset
    while len(records) < 1000:
        record = observer.stage_of(current)
        if record is None:
            break
        records.append(record)
        datasets.append(current)
        current = record.receiver
    if not records:
        return None
    records.reverse()
    datasets.reverse()
    stages = [PipelineStage(method=r.method, site=r.site,
                            parallel=_parallel(r) if r.method == "map" else None,
                            random=_random(d) if r.method in ("map", "filter") else None)
              for r, d in zip(records, datasets, strict=True)]
    return Pipeline(current, records, datasets, stages)


def rebuild(pipeline: Pipeline, edits: tuple[str, ...]) -> Any:
    """The same calls on the same source, with ``edits`` (``parallel_map``, ``prefetch``, ``cache``)."""
    import tensorflow as tf

    point = pipeline.cache_point() if "cache" in edits else None
    dataset = pipeline.source
    for index, record in enumerate(pipeline.records):
        args, kwargs = record.args, dict(record.kwargs)
        if record.method == "map" and "parallel_map" in edits and not _parallel(record):
            if len(args) >= 2:
                args = (args[0], tf.data.AUTOTUNE, *args[2:])
            else:
                kwargs["num_parallel_calls"] = tf.data.AUTOTUNE
        dataset = getattr(dataset, record.method)(*args, **kwargs)
        if index == point:
            dataset = dataset.cache()
            for _ in dataset:  # one full pass fills the cache (a partial pass is thrown away)
                pass
    if "prefetch" in edits and pipeline.prefetch_possible:
        dataset = dataset.prefetch(tf.data.AUTOTUNE)
    return dataset


def _parallel(record: StageRecord) -> bool:
    value = record.args[1] if len(record.args) >= 2 else record.kwargs.get("num_parallel_calls")
    return value is not None


def _random(dataset: Any) -> bool | None:
    """Whether the stage's function draws random numbers or runs Python (its graph and the
    functions it calls); None when the graph cannot be read."""
    try:
        graph = dataset._map_func.function.graph if hasattr(dataset, "_map_func") else dataset._predicate.function.graph
        definition = graph.as_graph_def()
    except Exception:
        return None
    ops = {node.op for node in definition.node}
    for function in definition.library.function:
        ops.update(node.op for node in function.node_def)
    return any(marker in op for op in ops for marker in _RANDOM_OPS)


def _cardinality(dataset: Any) -> int:
    try:
        return int(dataset.cardinality().numpy())
    except Exception:
        return -2
