"""Random games for 3, 4 and 5 players and both attack variants, every invariant after every step.

ORDONNANCE_CONFORMANCE_GAMES scales the shallow run (default 300 games here);
the deep checks (JSON, clones, views and their leak test) run on a few games.
"""

from __future__ import annotations

import os

import attrs
import pytest

from ordonnance.shinobi import Game, PlayerView, Rules
from ordonnance.shinobi.conformance import ConformanceError, check_invariants, random_playthrough

VARIANTS = [Rules(players=n, attack=a) for n in (3, 4, 5) for a in ("mandatory", "optional")]  # type: ignore[arg-type]
SHALLOW_GAMES = int(os.environ.get("ORDONNANCE_CONFORMANCE_GAMES", "300"))
DEEP_GAMES_PER_VARIANT = 2


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.players}p-{r.attack}")
def test_random_games_keep_every_invariant(rules: Rules) -> None:
    for seed in range(max(1, SHALLOW_GAMES // len(VARIANTS))):
        game = random_playthrough(rules, seed=seed, deep=seed < DEEP_GAMES_PER_VARIANT)
        assert game.is_over


@pytest.mark.parametrize("rules", [Rules(players=3, samurai=2, ninjas=2), Rules(players=5, samurai=(1, 0, 30, 0, 2), ninjas=3),
                                   Rules(players=4, samurai=(20, 0, 0, 0, 0), ninjas=0)])  # fmt: skip
def test_odd_troop_decks_play_to_the_end_too(rules: Rules) -> None:
    for seed in range(3):
        random_playthrough(rules, seed=seed, deep=seed == 0)


def test_the_harness_catches_a_broken_engine() -> None:
    game = Game.new(Rules(), seed=1)
    game._provinces[2][1] += 1  # a card from nowhere
    with pytest.raises(ConformanceError, match="exactly one place"):
        check_invariants(game, deep=False)
    short = Game.new(Rules(), seed=1)
    assert short.current_player != 2
    short._discard[short._hands[2].pop()] += 1  # every card still in one place, but a hand is short
    with pytest.raises(ConformanceError, match="player 2 holds 3 cards while the deck lasts"):
        check_invariants(short, deep=False)
    late = Game.new(Rules(), seed=1)
    late._extra = 2  # a final round with cards in the deck
    with pytest.raises(ConformanceError, match="final round"):
        check_invariants(late, deep=False)


@pytest.mark.parametrize("leak", ["clans", "neutral_clans"])
def test_the_harness_catches_a_view_that_leaks(monkeypatch: pytest.MonkeyPatch, leak: str) -> None:
    """A view showing every seat's clan (or the neutral clans) before the end is correct
    in all the fields the harness compares directly; only the re-deal check can see it."""
    game = Game.new(Rules(), seed=3)
    game.apply(game.legal_actions()[0])
    check_invariants(game, deep=True)  # the honest engine passes
    honest = Game.view

    def leaky(self: Game, seat: int) -> PlayerView:
        view = honest(self, seat)
        if leak == "clans":
            return attrs.evolve(view, clans=tuple(self.clan(q) for q in range(self.players)))
        return attrs.evolve(view, neutral_clans=self.neutral_clans)

    monkeypatch.setattr(Game, "view", leaky)
    with pytest.raises(ConformanceError, match="a view changes when only hidden cards change: it leaks"):
        check_invariants(game, deep=True)


def test_a_policy_that_cheats_is_caught() -> None:
    from ordonnance.shinobi import Attack

    with pytest.raises(ConformanceError, match="illegal action"):
        random_playthrough(Rules(players=3), seed=1, policy=lambda view: Attack(0, 1, 2))
