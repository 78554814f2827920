"""advice/keras.py: which trials are asked for, which options survive, when the advice stands."""

from __future__ import annotations

from tfadvisor.advice import keras as advice
from tfadvisor.model import Verdict
from tfadvisor.model_keras import KerasTrial


def _trial(ms: float, equivalent: bool | None = True, error: str | None = None, **options: object) -> KerasTrial:
    return KerasTrial(name=str(options), options=dict(options), step_s=ms / 1e3, equivalent=equivalent, error=error)


def _setup(**changes: object) -> advice.Setup:
    base = dict(run_eagerly=False, jit_compile=False, steps_per_execution=1, steps_per_epoch=500,
                batch_callbacks=False)
    return advice.Setup(**{**base, **changes})  # type: ignore[arg-type]


def test_candidates_build_on_graph_mode_and_skip_what_cannot_pay() -> None:
    names = [c.options for c in advice.candidates(_setup(run_eagerly=True), graph_step_s=0.002)]
    assert names == [{"run_eagerly": False, "jit_compile": True}, {"run_eagerly": False, "steps_per_execution": 32},
                     {"run_eagerly": False, "steps_per_execution": 128}]
    assert [c.options for c in advice.candidates(_setup(), graph_step_s=0.2)] == [{"jit_compile": True}]
    assert advice.steps_per_execution(_setup(batch_callbacks=True), 0.001) == []
    assert advice.steps_per_execution(_setup(steps_per_execution=8), 0.001) == []
    assert advice.steps_per_execution(_setup(steps_per_epoch=64), 0.001) == [32]  # two executions an epoch
    assert advice.steps_per_execution(_setup(steps_per_epoch=5), 0.001) == []


def test_combination_only_of_options_that_pay_alone() -> None:
    graph = _trial(10)
    jit, spe32, spe128 = _trial(7, jit_compile=True), _trial(6, steps_per_execution=32), _trial(5, steps_per_execution=128)
    together = advice.combination(graph, [jit, spe32, spe128])
    assert together is not None and together.options == {"jit_compile": True, "steps_per_execution": 128}
    assert advice.combination(graph, [_trial(9.5, jit_compile=True), spe32]) is None
    assert advice.combination(graph, [_trial(8, jit_compile=True), spe32]) is None  # XLA must earn XLA_GAIN
    assert advice.combination(graph, [_trial(5, equivalent=False, jit_compile=True), spe32]) is None


def test_choose_drops_options_that_do_not_earn_their_keep() -> None:
    base = _trial(10)
    spe = _trial(5, steps_per_execution=32)
    both = _trial(4.8, jit_compile=True, steps_per_execution=32)  # XLA adds 4%: not worth a compile
    assert advice.choose(base, [spe, _trial(9, jit_compile=True), both]) is spe
    clearly = _trial(3, jit_compile=True, steps_per_execution=32)
    assert advice.choose(base, [spe, _trial(9, jit_compile=True), clearly]) is clearly
    assert advice.choose(base, [_trial(9.5, steps_per_execution=32)]) is base  # under OPTION_GAIN
    modest_xla = _trial(4.2, jit_compile=True, steps_per_execution=32)  # 1.19x over spe alone: not XLA_GAIN
    assert advice.choose(base, [spe, modest_xla]) is spe
    assert advice.choose(base, [_trial(2, equivalent=False, jit_compile=True)]) is base
    assert advice.choose(base, [_trial(2, error="XlaRuntimeError", jit_compile=True)]) is base


def test_equivalence_allows_what_other_random_draws_change() -> None:
    assert advice.equivalent(0.001, 0.01, None)
    assert not advice.equivalent(0.001, 0.2, None)
    assert advice.equivalent(0.001, 0.2, noise=(0.0, 0.1))
    assert not advice.equivalent(0.05, 0.0, noise=(0.005, 0.0))


def test_decide_needs_a_clear_win_on_the_program_data_net_of_one_time_costs() -> None:
    base, fast = _trial(10), _trial(5)
    d = advice.decide(base, fast, fit_s=20.0, options={"steps_per_execution": 32})
    assert d.verdict is Verdict.RECONFIGURE and d.speedup == 2.0 and d.saved_s == 10.0
    assert advice.decide(base, _trial(9.5), fit_s=20.0, options={"steps_per_execution": 32}).verdict is Verdict.KEEP
    slow_compile = advice.decide(base, fast, fit_s=20.0, extra_first_s=12.0, options={"jit_compile": True})
    assert slow_compile.verdict is Verdict.KEEP and "compile" in slow_compile.why
    assert advice.decide(base, base, fit_s=20.0).verdict is Verdict.KEEP
    assert advice.decide(base, fast, fit_s=20.0, pipeline=["prefetch"]).pipeline == ["prefetch"]


def test_cache_is_priced_over_the_program_epochs() -> None:
    assert advice.cache_step_s(with_cache=1.0, without=5.0, epochs=4) == 2.0
    assert advice.cache_step_s(with_cache=1.0, without=5.0, epochs=1) == 5.0


def test_findings_point_at_the_compile_call_and_the_pipeline() -> None:
    from tfadvisor.model_keras import CallSite, KerasTraining, PipelineEdit, PipelineStage

    compile_site = CallSite("train.py", 30, 4, 32, 5, "compile")
    map_site = CallSite("train.py", 20, 12, 20, 40, "map")
    t = KerasTraining(id="train.py::<compile>@30", model="m", model_class="Sequential", compile_site=compile_site,
                      fit_s=10.0, verdict=Verdict.RECONFIGURE, options={"steps_per_execution": 32}, speedup=2.0,
                      saved_s=5.0, input_share=0.4, pipeline=[PipelineStage("map", map_site, False, False)],
                      pipeline_edits=[PipelineEdit("parallel_map", map_site)])
    tf606, tf607 = advice.findings(t)
    assert (tf606.rule, tf606.line, tf606.function) == ("TF606", 30, t.id)
    assert "steps_per_execution=32" in tf606.message and "5.00 s of 10.00 s" in tf606.message
    assert (tf607.rule, tf607.line) == ("TF607", 20) and "40%" in tf607.message
    assert tf606.fix is not None and tf606.fix.safe
    kept = KerasTraining(id="x", model="m", model_class="Sequential", compile_site=compile_site, input_share=0.5,
                         pipeline=[PipelineStage("map", map_site, True, False)])
    (note,) = advice.findings(kept)
    assert note.rule == "TF607" and note.severity.value == "info"
    assert advice.findings(KerasTraining(id="y", model="m", model_class="Sequential", compile_site=None)) == []


def test_xla_compiles_counted_per_function_and_batch_shape() -> None:
    assert advice.xla_compiles(validates=False, evaluates=False, predicts=False, partial_batches=False) == 1
    assert advice.xla_compiles(validates=True, evaluates=True, predicts=True, partial_batches=True) == 6


def test_pipeline_candidates_measure_each_combination_with_prefetch() -> None:
    assert advice.pipeline_candidates(["parallel_map", "prefetch", "cache"]) == [
        ("prefetch",), ("prefetch", "parallel_map"), ("prefetch", "cache"), ("prefetch", "parallel_map", "cache")]
    assert advice.pipeline_candidates(["parallel_map"]) == [("parallel_map",)]
    assert advice.pipeline_candidates([]) == []


def test_a_larger_steps_per_execution_wins_a_tie() -> None:
    base = _trial(10)
    spe32, spe128 = _trial(5.0, steps_per_execution=32), _trial(5.2, steps_per_execution=128)
    assert advice.choose(base, [spe32, spe128]) is spe128
    assert advice.choose(base, [spe32, _trial(6, steps_per_execution=128)]) is spe32


def test_xla_advice_only_when_it_beats_the_rest_with_its_compiles() -> None:
    base = _trial(10)
    without = advice.decide(base, _trial(5), fit_s=20.0, options={"steps_per_execution": 128})
    with_xla = advice.decide(base, _trial(3), fit_s=20.0, extra_first_s=4.0,
                             options={"steps_per_execution": 128, "jit_compile": True})
    assert advice.prefer(without, with_xla) is without  # 10 s against 10 s: not XLA_GAIN
    cheap = advice.decide(base, _trial(3), fit_s=20.0, extra_first_s=0.5,
                          options={"steps_per_execution": 128, "jit_compile": True})
    assert advice.prefer(without, cheap) is cheap  # 6.5 s against 10 s
    assert advice.prefer(without, None) is without
    nothing = advice.decide(base, base, fit_s=20.0)
    assert advice.prefer(nothing, cheap) is cheap
