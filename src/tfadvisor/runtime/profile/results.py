"""What a child process reports about one mode: plain data, picklable without TensorFlow."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tfadvisor.runtime.signature import Retrace
from tfadvisor.runtime.timing import Stats

Mode = Literal["eager", "graph", "xla"]
MODES: tuple[Mode, ...] = ("eager", "graph", "xla")

# raised: the function raised; memory: it exhausted memory; timeout: it exceeded the time limit;
# crashed: its process died (os._exit, segfault, abort); load: the function, calls or hooks could
# not be loaded or built in the child; resolve: a MODULE:NAME does not exist (exit status 2).
ErrorKind = Literal["raised", "memory", "timeout", "crashed", "load", "resolve", "interrupted"]


@dataclass
class ModeError:
    kind: ErrorKind
    message: str  # one line for people
    detail: str = ""  # the full exception text (TensorFlow's AutoGraph message, stderr tail...)
    exc_type: str | None = None
    call: int | None = None  # 0-based index of the failing call
    phase: str | None = None  # "load", "first pass", "timing"


@dataclass
class Where:
    """Where the measured function is defined (relative path when under the working directory)."""

    path: str
    qualname: str
    line: int
    end_line: int
    decorated: bool


@dataclass
class ModeRun:
    """One mode of one function, as measured in the child (possibly partial)."""

    mode: Mode
    call_times: list[float] = field(default_factory=list)  # first pass, per call (first includes tracing)
    traces: int | None = None
    traced_calls: list[int] = field(default_factory=list)
    retraces: list[Retrace] = field(default_factory=list)
    stats: Stats | None = None  # steady state, per call
    calls: int = 0
    outputs: list[Any] = field(default_factory=list)  # plain values, first calls only
    variables: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    error: ModeError | None = None
    phase: str = "load"
    first_pass_pid: int | None = None  # the process whose first pass ``call_times`` come from
    # the calls right after the first pass (the sequence cycled), per call, in the same process:
    # a fresh process reaches its steady state only after a few hundred calls
    early_times: list[float] = field(default_factory=list)
    # eager only: (outputs, variables, state) of a second run under another TensorFlow seed, to
    # tell random draws from real differences (modes._noise_pass)
    noise: tuple[list[Any], dict[str, Any], dict[str, Any]] | None = None

    @property
    def first_call_s(self) -> float | None:
        return self.call_times[0] if self.call_times else None
