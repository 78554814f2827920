"""Plots of measurements for the HTML report, drawn with matplotlib as inline SVG.

matplotlib is imported here only, and only when a report has measurements, so ``check`` never pays
for it. The object-oriented API (``Figure`` + the SVG canvas) is used instead of pyplot so that
rendering from a notebook never switches the user's backend. Text is drawn as paths, so the SVG
needs no font and looks the same offline everywhere; ids are prefixed per figure so several SVGs
can live in one HTML page.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

from tfadvisor.model import FunctionReport, Report

MAX_BARS = 25
MAX_PER_CALL = 15
MAX_CURVES = 6
COLOURS = {"eager": "#e07b39", "graph": "#3a6ea5", "xla": "#4c9a5b", "gain": "#4c9a5b", "loss": "#c0392b"}


@dataclass
class Plot:
    key: str  # stable, used for the element id
    title: str
    caption: str
    svg: str


@dataclass
class Timing:
    """What one measured function contributes to the plots (seconds)."""

    label: str
    calls: int
    eager: float | None
    graph: float | None
    xla: float | None
    trace: float
    saved: float | None
    saved_interval: tuple[float, float] | None
    break_even: float | None
    spread: dict[str, float]  # mode -> IQR of the per-call time


def _label(fn: FunctionReport, duplicates: set[str]) -> str:
    """A short label; ``$`` escaped so a name is never read as matplotlib mathtext."""
    label = fn.qualname if fn.qualname not in duplicates else f"{fn.path}:{fn.qualname}"
    label = label if len(label) <= 48 else "…" + label[-47:]
    return label.replace("$", r"\$")


def timings(report: Report) -> list[Timing]:
    """The measured functions, in report order (pure data; no matplotlib)."""
    measured = [fn for fn in report.functions if fn.measurement is not None and fn.measurement.error is None]
    names = [fn.qualname for fn in measured]
    duplicates = {n for n in names if names.count(n) > 1}
    out = []
    for fn in measured:
        m = fn.measurement
        assert m is not None
        interval = tuple(m.saved_interval_s) if m.saved_interval_s and len(m.saved_interval_s) == 2 else None
        out.append(
            Timing(
                label=_label(fn, duplicates),
                calls=m.calls,
                eager=m.eager_s,
                graph=m.graph_s,
                xla=m.xla_s,
                trace=m.trace_s or 0.0,
                saved=m.saved_s,
                saved_interval=interval,  # type: ignore[arg-type]
                break_even=m.break_even_calls,
                spread={mm.mode: mm.iqr_s for mm in m.modes if mm.iqr_s is not None},
            )
        )
    return out


def _unit(seconds: float) -> tuple[float, str]:
    v = abs(seconds)
    if v >= 1:
        return 1.0, "s"
    if v >= 1e-3:
        return 1e3, "ms"
    return 1e6, "µs"


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig


def _svg(fig: Any, key: str) -> str:
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    FigureCanvasSVG(fig)
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "tfadvisor", "svg.fonttype": "path"}):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "tfadvisor"})
    return _inline(buf.getvalue(), f"{key}-")


_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'#([A-Za-z_][\w.\-]*)(?=["\)])')


def _inline(svg: str, prefix: str) -> str:
    """Make a standalone SVG document fit inside HTML: no prolog, unique ids, no global style."""
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"<style[^>]*>.*?</style>", "", svg, flags=re.S)
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    ids = set(_ID.findall(svg))
    svg = _ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', svg)
    svg = _REF.sub(lambda m: f"#{prefix}{m.group(1)}" if m.group(1) in ids else m.group(0), svg)
    return svg.replace("<svg ", '<svg class="plot" role="img" ', 1).strip()


def _style(ax: Any) -> None:
    ax.spines[["top", "right"]].set_visible(False)
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)


def time_per_call(data: list[Timing]) -> Plot | None:
    """Grouped bars: steady-state time per call in each mode, per function (log scale)."""
    measured = [t for t in data if t.eager is not None or t.graph is not None]
    if not measured:
        return None
    # the functions that cost most per call, slowest at the top
    rows = sorted(measured, key=lambda t: t.eager or t.graph or 0.0, reverse=True)[:MAX_PER_CALL]
    rows.reverse()
    modes = [m for m in ("eager", "graph", "xla") if any(getattr(t, m) is not None for t in rows)]
    fig = _figure(7.5, 1.0 + 0.22 * len(rows) * len(modes))
    ax = fig.add_subplot()
    height = 0.8 / len(modes)
    for k, mode in enumerate(modes):
        ys, xs, errs = [], [], []
        for i, t in enumerate(rows):
            value = getattr(t, mode)
            if value is not None and value > 0:
                ys.append(i + (k - (len(modes) - 1) / 2) * height)
                xs.append(value * 1e3)
                errs.append(t.spread.get(mode, 0.0) * 1e3 / 2)
        ax.barh(ys, xs, height=height, xerr=errs, color=COLOURS[mode], label=mode,
                error_kw={"ecolor": "#555555", "elinewidth": 0.7, "capsize": 1.5})
    ax.set_yticks(range(len(rows)), labels=[t.label for t in rows])
    values = [getattr(t, m) for t in rows for m in modes if getattr(t, m)]
    log = max(values) / min(values) > 30  # log scale only when times span decades
    if log:
        ax.set_xscale("log")
    ax.set_xlabel(f"time per call (ms{', log scale' if log else ''}; whiskers: interquartile range)")
    ax.legend(loc="lower right", frameon=False)
    _style(ax)
    shown = f" The {len(rows)} slowest of {len(measured)} measured functions." if len(rows) < len(measured) else ""
    return Plot("time-per-call", "Time per call in each mode",
                "Steady-state median per call. Shorter is faster." + shown, _svg(fig, "time-per-call"))


def time_saved(data: list[Timing]) -> Plot | None:
    """Bars: total time graph mode saves (or loses) over the calls the program made."""
    rows = [t for t in data if t.saved is not None]
    if not rows:
        return None
    total = len(rows)
    rows = sorted(rows, key=lambda t: abs(t.saved or 0.0), reverse=True)[:MAX_BARS]
    rows.reverse()
    scale, unit = _unit(max(abs(t.saved or 0.0) for t in rows) or 1.0)
    fig = _figure(7.5, 1.0 + 0.38 * len(rows))
    ax = fig.add_subplot()
    values = [(t.saved or 0.0) * scale for t in rows]
    low = [max(0.0, v - t.saved_interval[0] * scale) if t.saved_interval else 0.0 for v, t in zip(values, rows, strict=False)]
    high = [max(0.0, t.saved_interval[1] * scale - v) if t.saved_interval else 0.0 for v, t in zip(values, rows, strict=False)]
    colours = [COLOURS["gain"] if v >= 0 else COLOURS["loss"] for v in values]
    ax.barh(range(len(rows)), values, color=colours, xerr=[low, high],
            error_kw={"ecolor": "#555555", "elinewidth": 0.7, "capsize": 2})
    ax.axvline(0, color="#333333", linewidth=0.8)
    ax.set_yticks(range(len(rows)), labels=[f"{t.label} ({t.calls} calls)" for t in rows])
    ax.set_xlabel(f"time saved as tf.function over the observed calls ({unit}; negative: slower)")
    _style(ax)
    return Plot("time-saved", "Time saved per function",
                "calls × (eager − graph) − trace time, with its uncertainty. Green pays off, red loses time."
                + (f" The {len(rows)} largest of {total}." if len(rows) < total else ""),
                _svg(fig, "time-saved"))


def break_even(data: list[Timing]) -> Plot | None:
    """Small multiples: cumulative time against number of calls, eager and graph (trace included)."""
    rows = [t for t in data if t.eager is not None and t.graph is not None]
    if not rows:
        return None
    total = len(rows)
    rows = sorted(rows, key=lambda t: abs(t.saved or 0.0), reverse=True)[:MAX_CURVES]
    cols = min(3, len(rows))
    nrows = (len(rows) + cols - 1) // cols
    fig = _figure(3.0 * cols + 0.5, 2.6 * nrows + 0.4)
    axes = fig.subplots(nrows, cols, squeeze=False)
    for ax in axes.flat[len(rows):]:
        ax.set_visible(False)
    for ax, t in zip(axes.flat, rows, strict=False):
        assert t.eager is not None and t.graph is not None
        span = max(t.calls, int((t.break_even or 0) * 1.5), 10)
        top = max(t.eager * span, t.trace + t.graph * span)
        scale, unit = _unit(top)
        xs = [0, span]
        ax.plot(xs, [0, t.eager * span * scale], color=COLOURS["eager"], label="eager")
        ax.plot(xs, [t.trace * scale, (t.trace + t.graph * span) * scale], color=COLOURS["graph"], label="graph")
        if t.break_even is not None and 0 < t.break_even <= span:
            ax.axvline(t.break_even, color="#777777", linestyle=":", linewidth=1)
            ax.annotate(f"break-even ≈ {t.break_even:.0f}", (t.break_even, 0), xytext=(3, 3),
                        textcoords="offset points", fontsize=7, color="#555555")
        ax.axvline(t.calls, color="#333333", linestyle="--", linewidth=0.8)
        ax.annotate(f"observed: {t.calls}", (t.calls, top * scale), xytext=(-3, -10), ha="right",
                    textcoords="offset points", fontsize=7, color="#333333")
        ax.set_title(t.label, fontsize=9)
        ax.set_xlabel("calls", fontsize=8)
        ax.set_ylabel(f"cumulative time ({unit})", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.spines[["top", "right"]].set_visible(False)
        ax.set_xlim(0, span)
        ax.set_ylim(0, None)
    axes.flat[0].legend(loc="upper left", frameon=False, fontsize=7)
    return Plot("break-even", "Break-even",
                "Cumulative time against the number of calls. Graph mode starts with its trace time and "
                "pays it back at the break-even point."
                + (f" The {len(rows)} functions with the largest effect of {total}." if len(rows) < total else ""),
                _svg(fig, "break-even"))


def plots(report: Report) -> list[Plot]:
    """Every plot the report's measurements allow (empty without measurements)."""
    data = timings(report)
    if not data:
        return []
    import matplotlib  # lazily: only reports with measurements pay for it

    with matplotlib.rc_context({"font.size": 8, "axes.titlesize": 9}):
        made = [time_per_call(data), time_saved(data), break_even(data)]
    return [p for p in made if p is not None]
