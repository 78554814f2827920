"""Replay's budget (runtime/run/budget.py): a share of the program's run, spent by share at stake."""

from __future__ import annotations

from tfadvisor.runtime.run import budget
from tfadvisor.runtime.run.replay import printed_difference


def test_the_default_budget_is_a_share_of_the_program_and_given_budgets_stand():
    auto = budget.choose(None, 20.0)
    assert auto.seconds == budget.AUTO_FACTOR * 20.0 and "20.0 s" in auto.basis
    assert budget.choose(None, 0.5).seconds == budget.MIN_AUTO_S  # a short program still gets its hot function
    assert budget.choose(30, 20.0).seconds == 30 and budget.choose(30, 20.0).basis == "--budget 30 s"
    assert budget.choose(0, 20.0).observation_only


def test_functions_share_the_budget_by_their_share_of_the_run():
    assert budget.limit_for(stake_s=6.0, stakes_left_s=8.0, remaining_s=10.0) == 7.5
    assert budget.limit_for(stake_s=0.01, stakes_left_s=8.0, remaining_s=10.0) == budget.MIN_LIMIT_S
    assert budget.limit_for(stake_s=0.01, stakes_left_s=8.0, remaining_s=0.4) == 0.4


def test_a_function_too_slow_to_replay_in_its_share_is_left_with_the_reason():
    assert budget.too_costly(0.01, 2.0) is None
    why = budget.too_costly(3.5, 10.0)
    assert why is not None and "one call takes 3.5 s" in why and "10.0 s" in why


def test_prints_that_announce_a_trace_are_not_a_difference():
    eager = "tracing encode for (8, 16)\ntracing encode for (8, 16)\n"
    assert printed_difference(eager, "tracing encode for (8, 16)\n") is None
    assert printed_difference("loss 1\nloss 2\n", "loss 1\n") == (
        "printed output: 2 lines in two calls eagerly, 1 under tf.function (print runs only while tracing)")
