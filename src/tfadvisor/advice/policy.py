"""The measured policy: how what eager and graph did over a function's calls becomes a verdict.

Written once, here. ``tfadvisor run`` (``runtime/run/projection.py``), ``tfadvisor profile``
(``advice/measured.judge``) and the accuracy benchmark's labels (``benchmarks/ground_truth.py``)
all hand their observations to ``decide`` as an ``Evidence`` and get a ``Decision`` back, so the
benchmark scores the tool against the rule the tool follows. The steps, in order, and why each
threshold is what it is: docs/decisions/0012-measured-policy.md.

1. ``no_tensor_work``: no tensor among the arguments or results -> never a tf.function (a function
   that needs its graph is kept).
2. ``safety``: raising, or results/state/prints that differ beyond eager's own noise (random draws).
   Decorated today -> ``fix-first``: the graph's behaviour is the program's behaviour, so the
   decorator stays and the findings say what differs (removing it would change results).
   Eager today -> ``fix-first`` only where the graph ran and would pay once fixed (payoff before
   hazards); else ``leave-eager``.
3. ``unmeasured``: without both totals, the code stays as it is.
4. ``speed``: totals over the observed calls, tracing included ("net of tracing"; a function
   that does not pay its tracing back within its calls has a total above eager's), priced like
   with like by the caller (first calls against first calls, or both warm). The share of the run
   never vetoes; it only orders tables.
   - eager today: ``decorate`` when the tf.function (or an option that beats it by
     ``OPTION_GAIN``) is ``DECORATE_SPEEDUP`` times faster than eager; else ``leave-eager``, and
     when a warm graph call is that much faster but the run was too short to repay the tracing,
     the decision says after how many calls decorating would pay (``pays_back_after``): the
     verdict is for the workload, which a longer run of the same program makes;
   - decorated today: ``reconfigure`` when an option (``reduce_retracing``/``input_signature``
     against retracing, ``jit_compile``) is equivalent, beats the tf.function as written by
     ``OPTION_GAIN`` and is not clearly slower than eager; ``undecorate`` only when eager beats
     the function as written and every option by ``UNDECORATE_SLOWDOWN`` *and* a warm graph call
     is not faster than a warm eager one (else the graph pays back in a longer run: ``keep``),
     and never when the function needs its graph (``needs_graph``: exported, concrete functions
     used, input_signature or jit_compile set, a distributed step, variables made by its first
     trace); else ``keep``.

Every decision carries the saving of *its* advice against the code as it is (``saving_s``), so an
advised verdict (decorate, reconfigure, undecorate) never shows a negative saving.
"""

from __future__ import annotations

from dataclasses import dataclass

from tfadvisor.model import Verdict

DECORATE_SPEEDUP = 1.2  # eager total / graph total over the observed calls, tracing included
UNDECORATE_SLOWDOWN = 1.1  # eager must beat the tf.function (and every option) by this to undecorate
OPTION_GAIN = 1.3  # an option must beat the tf.function without it by this factor to be advised
MIN_CALLS_FIX_FIRST = 10  # a broken function called this often is worth fixing (else: leave it eager)
RETRACING_TRACES = 3  # options against retracing are considered from this many traces on
# A function the run called this often runs in a loop, whose calls grow with the workload (epochs,
# steps): it is decorated when a run WORKLOAD_FACTOR times longer would repay its tracing.
LOOP_CALLS = 50
WORKLOAD_FACTOR = 10

RETRACE_OPTIONS = ("reduce_retracing", "input_signature")
XLA_OPTION = "jit_compile"
OPTIONS = RETRACE_OPTIONS + (XLA_OPTION,)


@dataclass(frozen=True)
class Option:
    """The function as a tf.function with one option set, measured over the same calls."""

    name: str  # one of OPTIONS
    total_s: float
    equivalent: bool | None  # same results as eager (None: not checked, e.g. a projection)
    traces: int | None = None


@dataclass(frozen=True)
class Evidence:
    """What was observed about one function, in the units the policy reads."""

    decorated: bool
    calls: int
    tensor_work: bool = True
    broken: str | None = None  # why it breaks under tf.function (raised, or differs beyond noise)
    eager_total_s: float | None = None  # all the calls, eagerly (first-call warm-up included)
    graph_total_s: float | None = None  # as written if decorated, else with a plain @tf.function
    traces: int = 1
    options: tuple[Option, ...] = ()
    # Why it must stay a tf.function whatever it costs (decorated functions only): never undecorated.
    needs_graph: tuple[str, ...] = ()
    # Warm per-call times (steady state, no tracing) and the cost of one trace over a warm call,
    # in the totals' unit: what a workload longer than the observed run pays per call. None where
    # the caller cannot tell (then only the totals decide).
    eager_call_s: float | None = None
    graph_call_s: float | None = None
    trace_s: float | None = None
    # Traces per call where the function retraces (new signatures keep coming): None for
    # ``traces / calls``. ``run`` counts it over all the calls it saw, covered ones included.
    trace_rate: float | None = None


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    step: str  # the step that decided (module docstring)
    why: str
    option: str | None = None  # the option the advice sets (decorate or reconfigure), if any
    speedup: float | None = None  # eager total / total of what the advice leaves in place
    saving_s: float | None = None  # the advice's saving against the code as it is
    # The run was too short: graph mode pays back (decorate: by DECORATE_SPEEDUP) after this many calls.
    pays_back_after: float | None = None


def decide(e: Evidence) -> Decision:
    """The verdict for one function (module docstring: the steps)."""
    return no_tensor_work(e) or safety(e) or unmeasured(e) or (decorated_speed(e) if e.decorated else eager_speed(e))


def no_tensor_work(e: Evidence) -> Decision | None:
    if e.tensor_work:
        return None
    why = "no tensor in its arguments or results"
    if e.decorated and e.needs_graph:
        return Decision(Verdict.KEEP, "no_tensor_work", f"{why}, but it needs its graph: {e.needs_graph[0]}")
    if e.decorated:
        return Decision(Verdict.UNDECORATE, "no_tensor_work", why, saving_s=_minus(e.graph_total_s, e.eager_total_s))
    return Decision(Verdict.LEAVE_EAGER, "no_tensor_work", why)


def safety(e: Evidence) -> Decision | None:
    """A tf.function that breaks is wrong today: fix it (or, rarely run, drop the decorator). An
    eager function that would break is advised ``fix-first`` only where a graph would pay once
    fixed: role and payoff come before hazards (a 2-op helper that breaks under tf.function
    should simply stay eager), so its graph must have run (its results differed) and been
    ``DECORATE_SPEEDUP`` times faster; where the graph raised, the payoff was not measured and
    the code stays as it is."""
    if e.broken is None:
        return None
    if e.decorated:
        # The program runs it as a graph: what it computes is the graph's result, and removing
        # the decorator would change it. Fix the code (the findings say what differs) instead.
        return Decision(Verdict.FIX_FIRST, "safety",
                        f"breaks or differs under tf.function ({e.broken}); the decorator stays: the "
                        f"program's results are the graph's, fix the code")
    eager, graph = e.eager_total_s, e.graph_total_s
    if graph is None or eager is None or graph <= 0:
        return Decision(Verdict.LEAVE_EAGER, "safety",
                        f"breaks under tf.function ({e.broken}); whether a fixed graph would pay was not measured")
    speedup = eager / graph
    if e.calls >= MIN_CALLS_FIX_FIRST and speedup >= DECORATE_SPEEDUP:
        return Decision(Verdict.FIX_FIRST, "safety",
                        f"breaks under tf.function ({e.broken}); {speedup:.2f}x faster over {e.calls} calls once fixed",
                        speedup=speedup, saving_s=eager - graph)
    return Decision(Verdict.LEAVE_EAGER, "safety",
                    f"breaks under tf.function ({e.broken}), and would gain only {speedup:.2f}x over {e.calls} calls")


def unmeasured(e: Evidence) -> Decision | None:
    if e.eager_total_s is not None and e.graph_total_s is not None and e.graph_total_s > 0:
        return None
    return Decision(Verdict.KEEP if e.decorated else Verdict.LEAVE_EAGER, "unmeasured",
                    "eager and graph totals were not both measured")


def usable_options(e: Evidence) -> list[Option]:
    """Options that may be advised: not known to change results; against retracing only where the
    function retraced (and the option traced less); XLA only for a function already decorated
    (for an eager function the question is graph mode at all, and XLA's compile and kernels are a
    second change best made on its own)."""
    out = []
    for o in e.options:
        if o.equivalent is False or o.total_s <= 0 or o.name == XLA_OPTION and not e.decorated:
            continue
        if o.name in RETRACE_OPTIONS and (e.traces < RETRACING_TRACES or (o.traces is not None and o.traces >= e.traces)):
            continue
        out.append(o)
    return out


def best_option(e: Evidence) -> Option | None:
    """The fastest usable option that beats the plain tf.function by OPTION_GAIN."""
    assert e.graph_total_s is not None
    winners = [o for o in usable_options(e) if o.total_s * OPTION_GAIN <= e.graph_total_s]
    return min(winners, key=lambda o: o.total_s, default=None)


def eager_speed(e: Evidence) -> Decision:
    eager, graph = e.eager_total_s, e.graph_total_s
    assert eager is not None and graph is not None
    option = best_option(e)
    total = option.total_s if option else graph
    speedup = eager / total
    what = f" with {option.name}" if option else ""
    if speedup >= DECORATE_SPEEDUP:
        return Decision(Verdict.DECORATE, "speed", f"{speedup:.2f}x faster{what} over {e.calls} calls, tracing included",
                        option=option.name if option else None, speedup=speedup, saving_s=eager - total)
    after = decorate_pays_after(e, option)
    if after is not None and e.calls >= LOOP_CALLS and after <= WORKLOAD_FACTOR * e.calls:
        warm = e.eager_call_s / e.graph_call_s  # type: ignore[operator]
        return Decision(Verdict.DECORATE, "speed",
                        f"{warm:.1f}x faster per warm call{what}, in a loop ({e.calls} calls): pays back after "
                        f"{after:.0f} calls, within a run {WORKLOAD_FACTOR}x this one",
                        option=option.name if option else None, speedup=speedup, saving_s=eager - total,
                        pays_back_after=after)
    if after is not None:
        return Decision(Verdict.LEAVE_EAGER, "speed",
                        f"decorate if it runs more than {after:.0f} calls: a warm call is "
                        f"{e.eager_call_s / e.graph_call_s:.1f}x faster as a graph, but this run made only {e.calls} "  # type: ignore[operator]
                        f"and tracing costs more than they save", speedup=speedup, saving_s=eager - total,
                        pays_back_after=after)
    return Decision(Verdict.LEAVE_EAGER, "speed",
                    f"only {speedup:.2f}x{what} over {e.calls} calls ({e.traces} trace{'s' if e.traces != 1 else ''}); "
                    f"decorating needs {DECORATE_SPEEDUP}x", speedup=speedup, saving_s=eager - total)


def decorate_pays_after(e: Evidence, option: Option | None = None) -> float | None:
    """Calls after which decorating meets ``DECORATE_SPEEDUP``, tracing included (``N e >= 1.2 (N g +
    traces x trace)``), when a warm graph call is fast enough for that to happen at all; None
    otherwise. With an option its traces are the option's."""
    traces = option.traces if option is not None and option.traces else e.traces
    return _pays_after(e, traces, DECORATE_SPEEDUP)


def _not_clearly_slower(e: Evidence) -> bool:
    """A warm graph call within ``UNDECORATE_SLOWDOWN`` of a warm eager one: removing the decorator
    would rest on noise (the same program run twice gave keep and undecorate)."""
    if e.eager_call_s is None or e.graph_call_s is None or e.trace_s is None or not e.calls:
        return False
    return e.graph_call_s + _retrace_rate(e, e.traces) * e.trace_s < UNDECORATE_SLOWDOWN * e.eager_call_s


def _retrace_rate(e: Evidence, traces: int) -> float:
    """Traces per call in a longer run: a function that retraced (``RETRACING_TRACES`` or more)
    keeps retracing at the rate it did; otherwise its traces are paid once."""
    if traces < RETRACING_TRACES:
        return 0.0
    return e.trace_rate if e.trace_rate is not None and traces == e.traces else traces / e.calls


def graph_pays_after(e: Evidence) -> float | None:
    """Calls after which the tf.function as written has repaid its traces against eager (both warm);
    None when a warm graph call is not faster."""
    return _pays_after(e, e.traces, 1.0)


def _pays_after(e: Evidence, traces: int, factor: float) -> float | None:
    """``N`` with ``N e = factor (N g + traces(N) trace)``. A function that retraced (``RETRACING_TRACES``
    or more) keeps retracing at the rate it did (a new Python value per call retraces in any run),
    so its traces grow with N; otherwise they are the ones seen, paid once."""
    e_call, g_call, trace = e.eager_call_s, e.graph_call_s, e.trace_s
    if e_call is None or g_call is None or trace is None or not e.calls:
        return None
    rate = _retrace_rate(e, traces)
    gain = e_call - factor * (g_call + rate * trace)
    if gain <= 0:
        return None
    return factor * (1 if rate else traces) * trace / gain


def decorated_speed(e: Evidence) -> Decision:
    eager, graph = e.eager_total_s, e.graph_total_s
    assert eager is not None and graph is not None
    option = best_option(e)
    best = min(graph, option.total_s) if option else graph
    if eager * UNDECORATE_SLOWDOWN <= best:
        what = " and every option tried" if e.options else ""
        if e.needs_graph:
            return Decision(Verdict.KEEP, "speed", f"needs its graph ({e.needs_graph[0]}); eager would be "
                            f"{graph / eager:.2f}x faster over {e.calls} calls", speedup=eager / graph,
                            saving_s=eager - graph)
        after = graph_pays_after(e)
        if after is not None or _not_clearly_slower(e):
            return Decision(Verdict.KEEP, "speed",
                            (f"a warm call is {e.eager_call_s / e.graph_call_s:.1f}x faster as a graph: it pays back "  # type: ignore[operator]
                             f"after {after:.0f} calls (this run made {e.calls})") if after is not None else
                            f"a warm call is about as fast as a graph ({e.eager_call_s / e.graph_call_s:.2f}x): "  # type: ignore[operator]
                            f"undecorating needs eager {UNDECORATE_SLOWDOWN}x faster per call", speedup=eager / graph,
                            saving_s=eager - graph, pays_back_after=after)
        return Decision(Verdict.UNDECORATE, "speed",
                        f"eager is {graph / eager:.2f}x faster than the tf.function as written{what} over {e.calls} calls",
                        speedup=eager / graph, saving_s=graph - eager)
    if option is not None:
        return Decision(Verdict.RECONFIGURE, "speed",
                        f"{option.name} makes it {graph / option.total_s:.2f}x faster than as written, same results",
                        option=option.name, speedup=eager / option.total_s, saving_s=graph - option.total_s)
    return Decision(Verdict.KEEP, "speed", f"{eager / graph:.2f}x against eager over {e.calls} calls",
                    speedup=eager / graph, saving_s=eager - graph)


def unmeasured_verdict(static: Verdict | None, decorated: bool) -> Verdict:
    """What a measured report says about a function it could not measure: the static verdict, but
    never ``decorate`` on no measurement (the hazards behind a static ``fix-first`` are facts of
    the code, measured or not)."""
    if static is None:
        return Verdict.KEEP if decorated else Verdict.LEAVE_EAGER
    if static is Verdict.DECORATE and not decorated:
        return Verdict.LEAVE_EAGER
    return static


def _minus(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a - b
