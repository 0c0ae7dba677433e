"""The Monte-Carlo bot skeleton every game shares (ordonnance.core.rollouts), game by game."""

from __future__ import annotations

import re
from typing import Any

import pytest

import ordonnance as od
from ordonnance import black_prince, shinobi
from ordonnance.core.rollouts import RolloutBot, check_rollout_options
from ordonnance.errors import InvalidRulesError, OrdonnanceError, OrdonnanceTypeError

# (the bot class, the namespace its repr is written in, untimed defaults (rollouts, work), timed ones)
GAMES = {
    "ordonnance": (od.bots.MonteCarlo, {"bots": od.bots}, (None, None), (None, None)),
    "shinobi": (shinobi.bots.MonteCarlo, {"shinobi": shinobi}, (1_600, 450_000), (1_000_000, 10**10)),
    "black_prince": (black_prince.MonteCarlo, {"black_prince": black_prince}, (256, 4_000), (1_000_000, 10**9)),
}


@pytest.mark.parametrize("game", GAMES)
def test_every_games_montecarlo_is_a_rollout_bot_with_its_budgets_left_out(game: str) -> None:
    make, _, untimed, timed = GAMES[game]
    assert issubclass(make, RolloutBot)
    bot = make(seed=1)
    assert (bot.rollouts, bot.work) == untimed
    clocked = make(seed=1, time_limit=0.5)
    assert (clocked.rollouts, clocked.work) == timed
    given = make(seed=1, rollouts=7, work=9, time_limit=0.5)
    assert (given.rollouts, given.work) == (7, 9)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "options",
    [{}, {"rollouts": 12}, {"work": 34, "time_limit": 0.25}, {"rollout_policy": "random", "margin_weight": 0.0},
     {"time_limit": 2.0, "rollouts": 5}],
)  # fmt: skip
def test_the_repr_lists_the_options_that_differ_and_builds_the_same_bot(game: str, options: dict[str, Any]) -> None:
    make, namespace, _, _ = GAMES[game]
    bot = make(seed=5, **options)
    text = repr(bot)
    for name, value in options.items():
        assert f"{name}={value!r}" in text
    again = eval(text, namespace)  # noqa: S307 (our own repr)
    assert type(again) is make and repr(again) == text
    assert (again.rollouts, again.work, again.time_limit, again.rollout_policy, again.margin_weight) == (
        bot.rollouts, bot.work, bot.time_limit, bot.rollout_policy, bot.margin_weight)  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "options", [{"rollouts": 0}, {"work": -1}, {"rollouts": True}, {"work": 10**13}, {"rollout_policy": "odds"},
                {"margin_weight": 1.5}, {"margin_weight": "0.1"}]
)  # fmt: skip
def test_bad_options_are_refused_with_the_value_shown(game: str, options: dict[str, Any]) -> None:
    make = GAMES[game][0]
    (name, value), = options.items()
    with pytest.raises(OrdonnanceError, match=f"^{name} must .*got {re.escape(repr(value))}$"):
        make(seed=1, **options)


def test_the_rollout_options_check_names_every_policy_and_the_games_margin_error() -> None:
    check_rollout_options("planner", 0.5, ("greedy", "random", "planner"))
    with pytest.raises(InvalidRulesError, match="must be 'greedy', 'random' or 'planner', got 'odds'"):
        check_rollout_options("odds", 0.5, ("greedy", "random", "planner"))
    with pytest.raises(OrdonnanceTypeError, match="margin_weight must be a number in 0..1, got -0.5"):
        check_rollout_options("greedy", -0.5, margin_error=OrdonnanceTypeError)
