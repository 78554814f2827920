"""How replay spends its time: on the functions whose advice can change the most of the run.

Why: replay costs calls of the program's own functions, and a driver that runs a whole epoch per
call, or a dozen helpers at 0.1% of the run each, can take minutes to measure for advice worth
milliseconds (a 12 s program took 86 s under ``run``, 54 s of it replaying). So:

- the budget, unless given, is a fraction of the program's own run (``AUTO_FACTOR``): ``run``
  then costs about twice the program at most, whatever the program;
- each function may use the share of what remains that its share of the run at stake earns it
  (its time not already inside a graph the report advises), at least ``MIN_LIMIT_S``;
- a function one of whose calls costs more than its limit allows for the calls a replay makes
  (``REPLAY_CALLS``) is not replayed, and the report says why.

Pure arithmetic (no TensorFlow), so the rule is tested on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

AUTO_FACTOR = 0.75  # replay budget / the program's wall time, when --budget is not given
MIN_AUTO_S = 3.0  # however short the program: enough to replay its hot function once
MIN_LIMIT_S = 1.0  # the least a replayed function gets
REPLAY_CALLS = 12  # calls a replay makes at the least: 2 x 2 eager, 3 graph, then timing rounds


@dataclass(frozen=True)
class Budget:
    seconds: float
    basis: str  # how it was set, for the report: "0.75 x the program's 8.1 s", "--budget 30"

    @property
    def observation_only(self) -> bool:
        return self.seconds <= 0


def choose(given_s: float | None, program_wall_s: float) -> Budget:
    """``--budget`` when given (0: observation only), else ``AUTO_FACTOR`` x the program's wall time."""
    if given_s is not None:
        return Budget(given_s, "observation only (--budget 0)" if given_s <= 0 else f"--budget {given_s:g} s")
    seconds = max(MIN_AUTO_S, AUTO_FACTOR * program_wall_s)
    return Budget(seconds, f"{AUTO_FACTOR:g} x the program's {program_wall_s:.1f} s run")


def limit_for(stake_s: float, stakes_left_s: float, remaining_s: float) -> float:
    """Seconds one function may replay for: its share of the stakes still to measure, of what
    remains of the budget; at least ``MIN_LIMIT_S`` (when that much remains)."""
    share = stake_s / stakes_left_s if stakes_left_s > 0 else 1.0
    return min(remaining_s, max(MIN_LIMIT_S, remaining_s * share))


def too_costly(call_s: float, limit_s: float) -> str | None:
    """Why a function whose calls take ``call_s`` cannot be replayed within ``limit_s``, or None."""
    needed = REPLAY_CALLS * call_s
    if needed <= limit_s:
        return None
    return (f"one call takes {call_s:.2g} s: measuring it needs about {REPLAY_CALLS} calls ({needed:.0f} s), "
            f"more than its share of the replay budget ({limit_s:.1f} s)")
