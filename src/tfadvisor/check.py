"""`check`, as a library: paths in, a ``Report`` out. Never imports or runs the analysed code.

Three passes: the per-file pass (read, parse once, summarise; in worker processes on big trees,
so that both cores work and no AST outlives its file), the project pass (call graph, parameter
kinds, transitive facts) and the decision pass (hazards, verdicts, findings).
"""

from __future__ import annotations

import ast
import contextlib
import gc
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

from tfadvisor.advice import hazards
from tfadvisor.advice.hazards import silenced
from tfadvisor.advice.static import Decision, Hazard, decide, facts_of
from tfadvisor.analysis.module import summarize
from tfadvisor.analysis.project import HANDED_TO_A_TRACER, Linked, Project
from tfadvisor.analysis.summary import Hit, ModuleSummary
from tfadvisor.config import Config
from tfadvisor.model import FileStatus, Finding, FixInfo, FunctionReport, Report, Severity, SkippedLines, Verdict
from tfadvisor.paths import display_path
from tfadvisor.rules import selected
from tfadvisor.rules.base import Rule
from tfadvisor.sources import SourceError, discover, read_source
from tfadvisor.sources.notebook import PARSE_FLAGS
from tfadvisor.sources.recover import recover

PARALLEL_THRESHOLD = 48  # files; below this, starting workers costs more than it saves
Progress = Callable[[int, int], None]


def module_name(path: str) -> tuple[str, bool]:
    """Dotted module name from the package folders around ``path`` (those with ``__init__.py``)."""
    absolute = os.path.abspath(path)
    folder, filename = os.path.split(absolute)
    stem = os.path.splitext(filename)[0]
    is_package = stem == "__init__"
    parts = [] if is_package else [stem]
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        folder, name = os.path.split(folder)
        parts.append(name)
        if not name:
            break
    parts.reverse()
    return ".".join(p for p in parts if p) or stem, is_package


def _parse(text: str, filename: str, notebook: bool = False) -> ast.Module:
    """``ast.parse`` without Python's SyntaxWarnings (invalid escapes, ``1()``): not ours to show.
    Notebook cells may ``await`` at top level, as IPython runs them."""
    flags = PARSE_FLAGS if notebook else ast.PyCF_ONLY_AST
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile(text, filename, "exec", flags, dont_inherit=True)


def _parse_module(text: str, filename: str, notebook: bool = False) -> tuple[ast.Module, str, list[SkippedLines]]:
    """The tree, the text it was parsed from, and what was left out: a module that does not parse
    whole is read without its broken top-level blocks (sources/recover.py). When that keeps
    nothing, the module's own SyntaxError is raised. A blank module (whitespace Python's tokenizer
    refuses, such as a vertical tab, included) is an empty one, as ``sources/reading.py`` reads it."""
    if not text.strip():
        text = ""
    try:
        return _parse(text, filename, notebook), text, []
    except SyntaxError as error:
        recovered = None if notebook else recover(text)
        if recovered is None:
            raise
        try:
            return _parse(recovered[0], filename), *recovered
        except SyntaxError:
            raise error from None


def module_names(paths: Sequence[str]) -> dict[str, str]:
    """Names for the files that would share one (``lesson06/model.py`` and ``lesson07/model.py``,
    scripts outside any package): each gets its folders in its name (``lesson06.model``), so two
    files are never one module. Imports of the plain name go to the one beside the importer
    (``analysis/project.py``), as Python's script folder on ``sys.path`` does."""
    named: dict[str, list[str]] = {}
    for path in paths:
        name, is_package = module_name(path)
        if not is_package and "." not in name:
            named.setdefault(name, []).append(path)
    out: dict[str, str] = {}
    for name, group in named.items():
        if len(group) < 2:
            continue
        folders = [os.path.dirname(os.path.abspath(p)) for p in group]
        common = os.path.commonpath(folders)
        for path, folder in zip(group, folders, strict=True):
            parts = [part.replace(".", "_") for part in os.path.relpath(folder, common).split(os.sep) if part != "."]
            out[path] = ".".join([*parts, name])
    return out


def analyze_file(path: str, codes: tuple[str, ...], module: str | None = None) -> tuple[FileStatus, ModuleSummary | None]:
    """The per-file pass for one file. Never raises: any failure is the file's error status.
    ``module``: its name, where ``module_names`` had to tell it apart from another file's."""
    shown = display_path(path)
    try:
        source = read_source(path)
        tree, text, skipped = _parse_module(source.text, shown, source.notebook)
        name, is_package = module_name(path)
        name = module or name
        rules = [cls() for cls in _rule_classes(codes)]
        summary = summarize(tree, shown, name, is_package, text, rules)
        summary.cell_map = source.cell_map
        return FileStatus(shown, skipped_cells=source.skipped_cells, skipped_lines=skipped), summary
    except SourceError as exc:
        return FileStatus(shown, "error", str(exc)), None
    except SyntaxError as exc:
        where = f"line {exc.lineno}" if exc.lineno else "?"
        return FileStatus(shown, "error", f"syntax error at {where}: {exc.msg}"), None
    except (RecursionError, MemoryError):
        return FileStatus(shown, "error", "too deeply nested to analyse"), None
    except ValueError as exc:  # e.g. "source code string cannot contain null bytes"
        return FileStatus(shown, "error", f"cannot parse: {exc}"), None
    except Exception as exc:  # noqa: BLE001 - an analysis bug must not lose the other files
        return FileStatus(shown, "error", f"internal error while analysing ({type(exc).__name__}: {exc})"), None


def _rule_classes(codes: tuple[str, ...]) -> list[type[Rule]]:
    from tfadvisor.rules import registry

    table = registry()
    return [table[c] for c in codes if c in table]


def _analyze_chunk(args: tuple[list[str], tuple[str, ...], dict[str, str]]) -> list[tuple[FileStatus, ModuleSummary | None]]:
    paths, codes, names = args
    out = _analyze_each(paths, codes, names)  # freezes the worker's modules with its first survivors
    gc.collect()
    return out


def _analyze_each(paths: Sequence[str], codes: tuple[str, ...], names: dict[str, str],
                  progress: Progress | None = None) -> list[tuple[FileStatus, ModuleSummary | None]]:
    """The per-file pass over ``paths`` in this process, the cyclic collector run once per 16 files
    instead of many times per file (see ``_collector_paused``). What survives a collection (the
    summaries, alive until the report is built) is frozen, so that later collections do not walk it
    again: they grew with the project and took a third of a one-process check of TensorFlow's ops
    (18.5 s -> 12.9 s, same report). Unfrozen at the end; skipped if the caller had frozen objects."""
    out = []
    ours = gc.get_freeze_count() == 0
    with _collector_paused():
        try:
            for index, path in enumerate(paths, 1):
                out.append(analyze_file(path, codes, names.get(path)))
                if index % 16 == 0:
                    gc.collect()
                    if ours:
                        gc.freeze()
                if progress:
                    progress(index, len(paths))
        finally:
            if ours:
                gc.unfreeze()
    return out


def analyze_files(paths: Sequence[str], codes: tuple[str, ...], jobs: int | None = None,
                  progress: Progress | None = None) -> list[tuple[FileStatus, ModuleSummary | None]]:
    """Run the per-file pass over ``paths``, in parallel when there are many."""
    jobs = jobs or os.cpu_count() or 1
    names = module_names(paths)
    if jobs == 1 or len(paths) < PARALLEL_THRESHOLD:
        return _analyze_each(paths, codes, names, progress)
    chunks, weights = _chunk(paths, jobs)
    done: dict[int, list[tuple[FileStatus, ModuleSummary | None]]] = {}

    def pending() -> list[int]:
        return [i for i in range(len(chunks)) if i not in done]

    # A worker killed (OOM killer, a signal) breaks the whole pool. A second pool redoes what was
    # lost; if that breaks too, the rest goes one chunk per process, so that only the chunk that
    # keeps killing its worker is reported as lost.
    with _collector_paused():  # the summaries arriving from the workers: no cycles to find there
        for _ in range(2):
            if pending():  # the heaviest first: none is left to run alone at the end
                _run_chunks(chunks, sorted(pending(), key=lambda i: -weights[i]), codes, jobs, done, progress,
                            len(paths), names)
        for i in pending():
            _run_chunks(chunks, [i], codes, 1, done, progress, len(paths), names)
    for i in range(len(chunks)):
        if i not in done:
            done[i] = [(FileStatus(display_path(p), "error", WORKER_DIED), None) for p in chunks[i]]
    return [result for i in range(len(chunks)) for result in done[i]]


WORKER_DIED = "the process analysing it died (killed, or out of memory)"


def _chunk(paths: Sequence[str], jobs: int) -> tuple[list[list[str]], list[int]]:
    """Runs of consecutive paths of about the same size in bytes (at most 64 files each), and each
    run's size. Runs of as many files as each other were not as much work: TensorFlow's generated
    op files put five times the mean into one run, which, taken last, leaves one worker finishing
    alone (decision 0048; benchmarks/schedule.py replays the schedule)."""
    sizes = []
    for path in paths:
        try:
            sizes.append(os.path.getsize(path))
        except OSError:  # reported by the pass itself
            sizes.append(0)
    target = max(sum(sizes) // (jobs * 8), 1)
    chunks: list[list[str]] = []
    weights: list[int] = []
    run: list[str] = []
    weight = 0
    for path, size in zip(paths, sizes, strict=True):
        run.append(path)
        weight += size
        if weight >= target or len(run) >= 64:
            chunks.append(run)
            weights.append(weight)
            run, weight = [], 0
    if run:
        chunks.append(run)
        weights.append(weight)
    return chunks, weights


def _run_chunks(chunks: list[list[str]], pending: list[int], codes: tuple[str, ...], jobs: int,
                done: dict[int, list[tuple[FileStatus, ModuleSummary | None]]], progress: Progress | None,
                total: int, names: dict[str, str]) -> None:
    """Analyse ``pending`` chunks in a pool, filling ``done``; stops quietly if a worker dies."""
    futures: dict[Future[list[tuple[FileStatus, ModuleSummary | None]]], int] = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=_mp_context()) as pool:
        try:
            # Submitting is inside the guard: a worker can die (and break the pool) while the
            # later chunks are still being submitted.
            for i in pending:
                futures[pool.submit(_analyze_chunk, (chunks[i], codes, {p: names[p] for p in chunks[i] if p in names}))] = i
            for future in as_completed(futures):
                done[futures[future]] = future.result()
                if progress:
                    progress(sum(len(v) for v in done.values()), total)
        except BrokenProcessPool:
            for future, i in futures.items():  # keep what finished before the pool broke
                if future.done() and not future.cancelled() and future.exception() is None:
                    done[i] = future.result()


def _mp_context():
    import multiprocessing

    # fork is fastest and safe here: `check` never imports TensorFlow (no threads to break).
    method = "fork" if sys.platform.startswith("linux") and "tensorflow" not in sys.modules else "spawn"
    return multiprocessing.get_context(method)


def check_paths(paths: Iterable[str], *, config: Config | None = None, jobs: int | None = None,
                progress: Progress | None = None) -> Report:
    """Analyse ``paths`` (files or folders) and return verdicts and findings for every function."""
    config = config or Config()
    files = list(discover(paths, exclude=config.excludes()))
    rules = selected(config.select, config.ignore)
    codes = tuple(r.code for r in rules)
    results = analyze_files(files, codes, jobs=jobs, progress=progress)
    return build_report([s for _, s in results], [f for f, _ in results], rules, config)


def check_source(text: str, path: str = "<string>.py", config: Config | None = None,
                 notebook: bool = False) -> Report:
    """Analyse one source text (rule examples, notebooks in IPython, tests). A module that does not
    parse whole is read as ``check_paths`` reads it, without its broken top-level blocks; one where
    that keeps nothing raises the SyntaxError."""
    config = config or Config()
    rules = selected(config.select, config.ignore)
    tree, text, skipped = _parse_module(text, path, notebook)
    summary = summarize(tree, path, os.path.splitext(os.path.basename(path))[0], False, text,
                        [cls() for cls in rules])
    return build_report([summary], [FileStatus(path, skipped_lines=skipped)], rules, config)


def build_report(summaries: Sequence[ModuleSummary | None], files: list[FileStatus],
                 rules: Sequence[type[Rule]], config: Config) -> Report:
    """The project and decision passes over per-file summaries."""
    with _collector_paused():
        return _build_report(summaries, files, rules, config)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The project pass makes millions of small objects and frees few cycles: Python's cyclic
    collector rescanning them cost 1.7 s of 4.5 s on TensorFlow's own sources
    (benchmarks/check_speed.py). Paused for the pass, then back as it was. What the pass made is
    handed to the oldest generation on the way out (freeze, then unfreeze): otherwise the first
    collection after it scans all of it as young objects (0.3-0.5 s each time, for nothing)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()


def _build_report(summaries: Sequence[ModuleSummary | None], files: list[FileStatus],
                  rules: Sequence[type[Rule]], config: Config) -> Report:
    modules = [s for s in summaries if s is not None]
    project = Project(modules, config.function_decorators)
    by_code = {r.code: r for r in rules}
    instances = [r() for r in rules]
    for rule in instances:
        for fid, hit in rule.check_project(project):
            project.project_hits[fid].append(hit)

    found = hazards.collect(project, by_code, modules)

    decisions: dict[str, Decision] = {}
    reports: list[FunctionReport] = []
    to_decorate: set[str] = set()
    as_graphs: set[str] = set()
    for fid in project.callers_first():
        linked = project.functions[fid]
        facts = facts_of(project, linked)
        hz = [Hazard(rule, Severity(sev), spec) for rule, sev, spec in sorted(found.hazards[fid])]
        decision = decide(project, linked, facts, hz, project.tensor_work[fid], to_decorate,
                          config.min_tensor_ops, as_graphs)
        decisions[fid] = decision
        if decision.verdict is Verdict.DECORATE or (decision.verdict is Verdict.FIX_FIRST and decision.becomes_graph):
            as_graphs.add(fid)
        if decision.verdict in (Verdict.DECORATE, Verdict.FIX_FIRST) or "TF505" in decision.reasons:
            to_decorate.add(fid)  # graph code once fixed (or already, through its callers): it covers its callees
        fn = linked.fn
        reports.append(FunctionReport(
            id=fid, path=fn.path, qualname=fn.qualname, line=fn.line, end_line=fn.end_line,
            decorated=linked.decorated, facts=facts, verdict=decision.verdict,
            reasons=decision.reasons, confidence=decision.confidence, assumptions=decision.assumptions))

    findings = _findings(project, decisions, found, by_code)
    findings = _apply_suppressions(findings, modules, config)
    _locate_cells([*findings, *reports], modules)
    findings.sort(key=Finding.sort_key)
    reports.sort(key=lambda r: (r.path, r.line))
    return Report(files=files, functions=reports, findings=findings, command="check")


def _findings(project: Project, decisions: dict[str, Decision], found: hazards.Found,
              by_code: dict[str, type[Rule]]) -> list[Finding]:
    """The findings the report shows, before suppressions."""
    # Findings: graph-scope hits in graph code (tf.functions, what they call, what is traced
    # without a decorator), and as notes in eager fix-first functions; never in test code nor TF1
    # code, nor in code that only a test traces (a test's tf.function is no evidence of how the
    # code is used).
    traced = [fid for fid, root in project.graph_roots.items()
              if fid == root and not project.is_test(project.functions[fid].fn)]
    fix_first = {fid for fid, d in decisions.items() if d.verdict is Verdict.FIX_FIRST and d.becomes_graph}
    graph = project.graph_code([*traced, *fix_first])
    # Code that would be graph code only once an eager fix-first step is decorated: what would
    # break there is the reason for the verdict and is said, as a note, not as what TensorFlow does
    # to the program today (it runs eagerly; judges of held-out repositories read such claims as
    # false: docs/decisions/0018-static-advice-generalizes.md).
    sure = project.graph_code(traced)
    switched = _graph_mode_off(project, found)
    findings: list[Finding] = []
    for fid, kept in found.real_hits.items():
        linked = project.functions[fid]
        # Test code and TF1 code use (or avoid) tf.function on purpose: no findings there at all.
        quiet = project.is_test(linked.fn) or linked.fn.path in project.tf1
        eager = linked.eager_reason is not None  # tf.py_function bodies: no graph hazards
        for hit, spec in kept:
            rule_cls = by_code.get(hit.rule)
            if quiet or rule_cls is None or not _in_scope(rule_cls, linked, fid in graph and not eager):
                continue
            if rule_cls.entry_only and not (linked.decorated or fid in fix_first):
                continue  # a helper's own arguments, inside someone else's tf.function
            if hit.path is not None and (project.is_test_file(hit.path) or hit.path in project.tf1):
                continue  # found at a call site in test (or TF1) code
            note = None
            if rule_cls.scope in ("graph", "project") and fid in graph and fid not in sure:
                note = ONCE_DECORATED
            elif (hit.rule != "TF405" and rule_cls.scope != "advice" and fid in sure
                  and linked.fn.path in switched and _follows_the_switch(project, sure[fid])):
                note = SWITCHED_OFF.format(switched[linked.fn.path])
            findings.append(_finding(rule_cls, hit, linked, spec, note=note))
    for mod, hit in found.module_hits:
        if not project.is_test_file(mod.path) and mod.path not in project.tf1:
            findings.append(_finding(by_code[hit.rule], hit, None, hit.speculative, mod.path))
    if "TF100" in by_code:  # TF1 code is out of scope: said once per file
        for path, (line, col, name) in project.tf1.items():
            findings.append(_finding(by_code["TF100"], Hit("TF100", line, col, line, col + len(name.rsplit(".", 1)[-1]),
                                                           by_code["TF100"].summary + f" (uses {name})"), None, False, path))
    for fid, decision in decisions.items():  # advice rules fire from verdicts that ask for a change
        notes_only = not decision.verdict.asks_change  # info notes: from keep (TF505), or any rule said on the status quo
        fn = project.functions[fid].fn
        for code in decision.reasons:
            advice = by_code.get(code)
            if advice is None or advice.scope != "advice":
                continue
            if not notes_only or (advice.severity is Severity.INFO
                                  and (decision.verdict is Verdict.KEEP or advice.said_on_status_quo)):
                hit = Hit(code, fn.line, fn.col, fn.line, fn.col + 4 + len(fn.name),
                          _advice_message(advice, project.functions[fid]))
                findings.append(_finding(advice, hit, project.functions[fid], decision.confidence == "speculative"))
    return findings


ONCE_DECORATED = "once decorated as advised; it runs eagerly today"
SWITCHED_OFF = ("graph mode is off in this program: run_functions_eagerly(True) on line {} runs this eagerly; "
                "it applies once that switch is off")


def _graph_mode_off(project: Project, found: hazards.Found) -> dict[str, int]:
    """File -> line where it turns graph mode off for the whole process and leaves it off
    (``tf.config.run_functions_eagerly(True)``, a TF405 that stands, at module level or in a function).
    From then on its tf.functions and Keras steps run eagerly (TensorFlow 2.21:
    tests/conformance/variants/tf201.py): what a graph would do to them is a note, not a claim."""
    out: dict[str, int] = {}
    for mod, hit in found.module_hits:
        if hit.rule == "TF405" and not hit.speculative:  # speculative: Keras's per-model run_eagerly
            out.setdefault(mod.path, hit.line)
    for fid, kept in found.real_hits.items():
        for hit, spec in kept:
            if hit.rule == "TF405" and not spec and hit.callee is None:
                out.setdefault(hit.path or project.functions[fid].fn.path, hit.line)
    return out


def _follows_the_switch(project: Project, root: str) -> bool:
    """Whether the graph this code runs in obeys run_functions_eagerly: a tf.function or a Keras
    step does; what tf.data (or another tracing API) is handed is traced all the same."""
    origin = project.functions[root]
    return origin.decorated or not (origin.graph_reason or "").startswith(HANDED_TO_A_TRACER)


def _in_scope(rule: type[Rule], linked: Linked, in_graph: bool) -> bool:
    if rule.scope == "always":
        return True
    if rule.scope == "decorated":
        return linked.decorated
    if rule.scope in ("graph", "project"):
        return in_graph
    return False


def _advice_message(rule: type[Rule], linked: Linked) -> str:
    """The rule's summary, in the words for a function that is not a tf.function when it is not one."""
    return rule.summary_undecorated if rule.summary_undecorated and not linked.decorated else rule.summary


def _finding(rule: type[Rule], hit: Hit, linked: Linked | None, speculative: bool, path: str | None = None,
             note: str | None = None) -> Finding:
    """A finding; one that rests on a guess (a value assumed a tensor), or that only holds once the
    code runs as a graph (``note`` says when: decorated as advised, graph mode back on), is never
    more than info."""
    message = hit.message + (" (speculative)" if speculative and "speculative" not in hit.message else "")
    if hit.unconverted_only and linked is not None and linked.unconverted is not None:
        message += f" (it runs without AutoGraph through {linked.unconverted})"
    if note:
        message += f" ({note})"
    severity = Severity.INFO if (speculative or note) and rule.scope != "advice" else rule.severity
    return Finding(
        rule=rule.code, severity=severity, path=hit.path or path or (linked.fn.path if linked else ""),
        line=hit.line, col=hit.col, end_line=hit.end_line, end_col=hit.end_col,
        function=linked.fn.id if linked else None, message=message,
        fix=FixInfo(safe=rule.fix == "safe", description=rule.fix_description) if rule.fix != "none" else None)


def _apply_suppressions(findings: list[Finding], modules: list[ModuleSummary], config: Config) -> list[Finding]:
    from tfadvisor.rules import matches

    by_path = {m.path: m for m in modules}
    def_lines: dict[str, int] = {}
    for mod in modules:
        for fn in mod.functions:
            def_lines[fn.id] = fn.line
    out = []
    for finding in findings:
        home = by_path.get(finding.path)
        lines = (finding.line, def_lines.get(finding.function or "", -1))
        suppressed = home is not None and silenced(home.suppressed, finding.rule, lines)
        ignored = config.ignored_in(finding.path)
        if ignored and matches(finding.rule, ignored):
            continue
        finding.suppressed = suppressed
        out.append(finding)
    return out


def _locate_cells(items: Sequence[Finding | FunctionReport], modules: list[ModuleSummary]) -> None:
    """Notebooks: the cell and line in cell of each finding and each function's ``def``."""
    maps = {m.path: m.cell_map for m in modules if m.cell_map}
    for item in items:
        cell_map = maps.get(item.path)
        if cell_map and 1 <= item.line <= len(cell_map):
            cell, line = cell_map[item.line - 1]
            item.cell, item.cell_line = cell + 1, line + 1
