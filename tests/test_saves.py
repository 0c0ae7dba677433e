"""Saves load only if the engine could have reached them (docs/saves.rst).

A save with a history is checked by replaying it; a save of version 2 (the
position alone), and the start of a game set up in a position, by the rules of
reachability. Each rule has a mutation test: a valid version 2 save, broken in
that one way, is refused with that rule's reason. Hypothesis tests check the
other direction (the save of every position of random games loads, equal, in
both versions) and that any change to a save is refused or gives a game the
whole library can play.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import ordonnance as od
from ordonnance import Claim, Pass, Rules, Territory
from ordonnance import _sampling as sampling
from ordonnance.cards import _CARDS
from ordonnance.conformance import check_invariants
from ordonnance.serialization import _KEYS_BY_VERSION, MAX_DEPTH, MAX_TEXT_SIZE, _load

from .positions import position
from .test_json import _mid_game as _played

Data = dict[str, Any]
_KEYS_V3 = set(_KEYS_BY_VERSION[3]) - {"format", "version"}
# Examples of the hypothesis tests; ORDONNANCE_SAVE_EXAMPLES=2000 for a long hunt.
# Without the JIT the bots' searches run as plain Python, so fewer.
EXAMPLES = int(os.environ.get("ORDONNANCE_SAVE_EXAMPLES", "60" if os.environ.get("NUMBA_DISABLE_JIT") != "1" else "20"))


def _new(rules: Rules, seed: int, rng: random.Random, seeded: bool) -> od.Game:
    """A game shuffled from ``seed``, or dealt from a deck given in order (no seed)."""
    if seeded:
        return od.Game.new(rules, seed=seed)
    cards = list(rules.cards)
    rng.shuffle(cards)
    return od.Game.new(rules, deck=cards)


def _find(rules: Rules, accept: Callable[[od.Game], bool], *, seeds: int = 400, seeded: bool = True) -> od.Game:
    """The first position of random games (shuffled from a seed, or dealt from a
    deck given in order) that ``accept`` likes."""
    for seed in range(seeds):
        rng = random.Random(seed)
        game = _new(rules, seed, rng, seeded)
        while not game.is_over:
            if accept(game):
                return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no position found")


def _refused(data: Data | str | bytes, reason: str) -> None:
    text = data if isinstance(data, (str, bytes)) else json.dumps(data)
    with pytest.raises(od.InvalidGameStateError) as info:
        od.Game.from_json(text)
    assert reason in str(info.value)


def _version_2(data: Data) -> Data:
    """A save of version 3 as version 2 wrote it: the position alone."""
    for key in ("order", "start", "history"):
        del data[key]
    data["version"] = 2
    return data


def _data(game: od.Game) -> Data:
    """The save of ``game`` in version 2 (checked by the rules of reachability, not by a replay)."""
    data = _version_2(json.loads(game.to_json()))
    od.Game.from_json(json.dumps(data))  # the save before the mutation is valid
    return data


# --------------------------------------------------------------------- the text


def test_deep_nesting_is_refused_before_parsing() -> None:
    _refused("[" * 100_000 + "]" * 100_000, f"nested deeper than {MAX_DEPTH} levels")
    _refused("{" * 50_000, "nested deeper")
    data = _data(_played(Rules(), 1, 5))
    nested: Any = "L"
    for _ in range(MAX_DEPTH):
        nested = [nested]
    data["hands"][0][0] = nested
    _refused(data, "nested deeper")
    # Brackets inside strings are not nesting.
    data = _data(_played(Rules(), 1, 5))
    data["format"] = "[" * 100
    _refused(data, "format must be")


def test_huge_text_is_refused_before_parsing() -> None:
    text = _played(Rules(), 1, 5).to_json()
    _refused(text + " " * MAX_TEXT_SIZE, f"more than {MAX_TEXT_SIZE:,}")
    _refused((text + " " * MAX_TEXT_SIZE).encode(), f"more than {MAX_TEXT_SIZE:,}")
    _refused('{"plays": ' + "9" * 5000 + "}", "not JSON")


def test_repeated_keys_and_non_numbers_are_refused() -> None:
    text = _played(Rules(), 1, 5).to_json()
    _refused(text[:-1] + ',"over":true}', "repeated keys ['over']")
    _refused(text.replace('"plays":5', '"plays":NaN'), "NaN is not a number")
    _refused(text.replace('"version":3', '"version":true'), "unsupported version True")


@pytest.mark.parametrize("field", ["claim_proof", "auto_claim", "tie_break", "scoring", "deck", "players"])
def test_every_rules_field_is_required(field: str) -> None:
    game = _played(Rules(claim_proof="private", tie_break="lowest_marker_sum"), 2, 6)
    data = _data(game)
    del data["rules"][field]
    _refused(data, f"rules: missing fields [{field!r}]")


def test_the_passed_field_is_required_from_version_2_and_absent_in_version_1() -> None:
    game = _played(Rules(), 3, 6)
    data = _data(game)
    del data["passed"]
    _refused(data, "missing keys ['passed']")
    data["version"] = 1
    assert od.Game.from_json(json.dumps(data)) == game


def test_only_ascii_letters_are_cards_in_saves() -> None:
    data = _data(_played(Rules(), 3, 6))
    data["hands"][0][0] = "\u017fh"  # a long s, which str.upper() turns into S
    _refused(data, "unknown symbol letter")


# --------------------------------------------------------------------- the history


def _dealt_from_a_deck(steps: int) -> od.Game:
    cards = list(od.standard_deck())
    random.Random(5).shuffle(cards)
    game = od.Game.new(Rules(), deck=cards)
    rng = random.Random(6)
    for _ in range(steps):
        game.apply(rng.choice(game.legal_actions()))
    return game


def _games_of_every_origin() -> list[od.Game]:
    """A seeded game, one dealt from a given deck, one sampled from a view and one loaded
    from a save of version 2 (the last two set up in a position), each with actions applied."""
    seeded = _played(Rules(players=3), 11, 25)
    sampled = seeded.view(1).sample_game(3)
    loaded = od.Game.from_json(json.dumps(_data(seeded)))
    for game in (sampled, loaded):
        assert game.history == ()  # its past is not known
        rng = random.Random(2)
        for _ in range(6):
            game.apply(rng.choice(game.legal_actions()))
    return [seeded, _dealt_from_a_deck(30), sampled, loaded]


@pytest.mark.parametrize("which", ["seeded", "dealt from a deck", "sampled", "loaded from version 2"])
def test_the_history_round_trips_and_replays_from_the_root(which: str) -> None:
    game = _games_of_every_origin()[["seeded", "dealt from a deck", "sampled", "loaded from version 2"].index(which)]
    assert len(game.history) >= 6
    text = game.to_json()
    loaded = od.Game.from_json(text)
    assert loaded == game and loaded.history == game.history and loaded.to_json() == text
    assert loaded.root() == game.root() and loaded.root().history == ()
    replayed = game.root()
    for action in game.history:
        replayed.apply(action)
    assert replayed == game and replayed.history == game.history
    # Both play on alike, and the history keeps growing in the next save.
    rng_a, rng_b = random.Random(4), random.Random(4)
    for _ in range(5):
        if game.is_over:
            break
        game.apply(rng_a.choice(game.legal_actions()))
        loaded.apply(rng_b.choice(loaded.legal_actions()))
    assert loaded == game and od.Game.from_json(game.to_json()).history == game.history == loaded.history


def test_the_history_starts_at_the_deal_and_an_illegal_action_leaves_it_alone() -> None:
    game = od.Game.new(Rules(), seed=7)
    assert game.history == () and game.root() == game
    first = game.legal_actions()[2]
    game.apply(first)
    with pytest.raises(od.IllegalActionError):
        game.apply(Claim(Territory.CYPRUS))
    assert game.history == (first,)
    clone = game.clone()
    clone.apply(clone.legal_actions()[0])
    assert game.history == (first,) and len(clone.history) == 2  # clones do not share it
    data = json.loads(game.to_json())
    assert (data["seed"], data["order"], data["start"]) == (7, None, None)
    assert data["history"] == [json.loads(od.action_to_json(first))]


def test_a_set_up_game_saves_its_start_position() -> None:
    game = _played(Rules(), 3, 9).view(0).sample_game(1)
    data = json.loads(game.to_json())
    assert data["history"] == [] and data["start"] == {key: data[key] for key in data["start"]}
    game.apply(game.legal_actions()[0])
    data = json.loads(game.to_json())
    assert len(data["history"]) == 1 and data["start"]["plays"] == data["plays"] - 1


def _history_save(**changes: Any) -> Data:
    data: Data = json.loads(_played(Rules(), 8, 14).to_json())
    data.update(changes)
    return data


def test_a_history_that_does_not_reach_the_saved_position_is_refused_saying_where() -> None:
    data = _history_save()
    data["hands"][0][1], data["hands"][0][2] = data["hands"][0][2], data["hands"][0][1]
    assert data["hands"][0][1] != data["hands"][0][2]
    _refused(data, f"hands[0][1] is {data['hands'][0][1]!r}, but the history leads to {data['hands'][0][2]!r}")
    data = _history_save()
    data["history"].pop()
    _refused(data, "but the history leads to")
    data = _history_save()
    data["current_player"] = 1 - data["current_player"]
    _refused(data, f"current_player is {data['current_player']}, but the history leads to {1 - data['current_player']}")
    data = _history_save()
    assert data["passed"] == []
    data["passed"] = [1]
    _refused(data, "passed is [1], but the history leads to []")


def test_a_history_with_an_action_that_cannot_be_played_is_refused_saying_which() -> None:
    data = _history_save()
    data["history"][5] = {"type": "pass"}
    _refused(data, "history[5] (pass) cannot be played after 5 actions: illegal action Pass()")
    data = _history_save()
    data["history"][0]["card"] = "LBSHF"
    _refused(data, "history[0] (play LBSHF to")
    data = _history_save()
    data["history"][3] = {"type": "play", "card": "SH"}
    _refused(data, "history[3]: a play has the keys ['type', 'card', 'territory']: missing ['territory']")


def test_where_a_history_starts_is_checked() -> None:
    _refused(_history_save(seed=None), "rng_state must be null")
    _refused(_history_save(seed=None, rng_state=None), "the history has nothing to start from")
    data = _history_save()
    data["rng_state"] ^= 1
    _refused(data, "is not the one the shuffle of seed 8 leaves")
    data = _history_save()
    data["order"] = data["deck"]
    _refused(data, "seed and rng_state must be null when order is given")
    _refused(_history_save(seed=None, rng_state=None, order=["L"] * 56), "order: deck does not hold the rules' cards")
    _refused(_history_save(start=[]), "start must be null or an object, got []")
    _refused(_history_save(start={"deck": []}), "start: missing keys ['armies'")
    dealt = json.loads(_dealt_from_a_deck(12).to_json())
    assert dealt["seed"] is None and len(dealt["order"]) == 56
    position = {key: dealt[key] for key in ("deck", "hands", "armies", "completed_at", "owners", "markers")}
    position.update(plays=dealt["plays"], current_player=dealt["current_player"], over=False, passed=[])
    _refused({**dealt, "start": position}, "order must be null when start is given")
    _refused({**dealt, "order": dealt["order"][::-1]}, "history[0] (play ")  # another deal: the first play is not in hand


def test_the_start_of_a_set_up_game_is_checked_by_the_rules_of_reachability() -> None:
    game = _played(Rules(), 4, 2).view(0).sample_game(2)
    game.apply(game.legal_actions()[0])
    data = json.loads(game.to_json())
    data["start"]["over"] = True
    _refused(data, "start: unreachable position: over is true")
    data = json.loads(game.to_json())
    data["start"]["current_player"] = 1
    _refused(data, "start: unreachable position: player 0 can play")


_EVERY_TYPE: list[Any] = [None, True, False, 0, -1, 3, 2**70, 1.5, "", "L", "cyprus", [], [None], [[]], {}, {"type": "pass"}]


@pytest.mark.parametrize("key", sorted(_KEYS_V3))
def test_every_json_type_in_every_field_of_a_save_is_refused(key: str) -> None:
    valid = _history_save()
    for value in _EVERY_TYPE:
        if value == valid[key] and type(value) is type(valid[key]):
            continue
        changed = {**valid, key: value}
        try:
            loaded = od.Game.from_json(json.dumps(changed))
        except od.InvalidGameStateError as error:
            assert "invalid game JSON" in str(error)
            continue
        assert key in ("start", "order") and value is None and loaded.to_json() == json.dumps(valid, separators=(",", ":"))


@pytest.mark.parametrize("key", ["deck", "hands", "armies", "completed_at", "owners", "markers", "plays", "current_player", "over", "passed"])
def test_every_json_type_in_every_field_of_a_start_position_is_refused(key: str) -> None:
    game = _played(Rules(), 4, 6).view(1).sample_game(2)
    game.apply(game.legal_actions()[0])
    valid = json.loads(game.to_json())
    for value in _EVERY_TYPE:
        if value == valid["start"][key] and type(value) is type(valid["start"][key]):
            continue
        with pytest.raises(od.InvalidGameStateError, match="start"):
            od.Game.from_json(json.dumps({**valid, "start": {**valid["start"], key: value}}))


# --------------------------------------------------------------------- reachability, one rule at a time


def test_rule_resolution_a_complete_territory_goes_to_the_strongest_army() -> None:
    def complete(game: od.Game, t: int) -> bool:
        return game.is_decided(t) and None not in [game.completed_at(t, p) for p in range(2)]

    game = _find(Rules(), lambda g: any(complete(g, t) for t in Territory))
    data = _data(game)
    t = next(t for t in Territory if complete(game, t))
    data["owners"][t] = 1 - data["owners"][t]
    _refused(data, f"owners[{t}] is player {data['owners'][t]}, but player {1 - data['owners'][t]} has the winning army")


def test_rule_resolution_points_scoring_decides_nothing_early() -> None:
    game = _find(Rules(), lambda g: any(g.is_decided(t) and None in [g.completed_at(t, p) for p in range(2)]
                                        for t in Territory))  # fmt: skip
    data = _data(game)
    data["rules"]["scoring"] = "points"
    _refused(data, "is decided before every army is complete, under points scoring")


def test_rule_turns_a_player_who_can_play_is_never_skipped() -> None:
    game = _played(Rules(), 4, 2)  # seats 0 and 1 have played once; seat 0 to act
    data = _data(game)
    data["current_player"] = 1
    _refused(data, "player 0 can play, so the turn could not pass it")


def test_rule_turns_play_counts_follow_the_seat_order() -> None:
    game = _played(Rules(), 5, 4)  # two plays each
    data = _data(game)
    t, card = next((t, a[0]) for t, armies in enumerate(data["armies"]) for a in [armies[1]] if a)
    data["armies"][t][1].remove(card)
    empty = next(u for u in range(5) if u != t and len(data["armies"][u][0]) < 4)
    data["armies"][empty][0].append(card)
    _refused(data, "player 1 can still play but has played 1 cards, while player 0 played last with 3")


def test_rule_draws_hand_sizes_follow_the_draws() -> None:
    data = _data(_played(Rules(), 6, 3))
    data["hands"][0].append(data["hands"][1].pop())
    _refused(data, "player 0 holds")
    data = _data(_played(Rules(), 6, 3))
    data["hands"][0].append(data["deck"].pop(0))
    _refused(data, "cards were drawn after the deal but only 3 were played")


def test_rule_draws_the_player_to_act_has_drawn_for_this_turn() -> None:
    data = _data(_played(Rules(), 6, 3))
    data["deck"].insert(0, data["hands"][1].pop())  # the drawn card put back: as if seat 1 had not drawn
    _refused(data, "a card is drawn before each play while the pile lasts")


def test_rule_seeded_deal_the_generator_state_is_the_shuffles() -> None:
    data = _data(_played(Rules(), 7, 3))
    data["rng_state"] ^= 1
    _refused(data, "is not the one the shuffle of seed 7 leaves")
    data = _data(_played(Rules(), 7, 3))
    data["seed"] = None
    _refused(data, "rng_state is set but seed is null")


def test_rule_seeded_deal_every_card_is_where_the_deal_put_it() -> None:
    data = _data(_played(Rules(), 8, 3))
    data["deck"][0], data["deck"][-1] = data["deck"][-1], data["deck"][0]
    if data["deck"][0] == data["deck"][-1]:
        data["deck"][0], data["deck"][1] = data["deck"][1], data["deck"][0]
    _refused(data, "the pile is not what the shuffle of seed 8 leaves")
    data = _data(_played(Rules(), 8, 3))
    a, b = data["hands"][0], data["hands"][1]
    i, j = next((i, j) for i in range(len(a)) for j in range(len(b)) if a[i] != b[j])
    a[i], b[j] = b[j], a[i]
    _refused(data, "player 0's cards are not the ones the shuffle of seed 8 gave them")
    data = _data(_played(Rules(), 8, 3))
    hand = data["hands"][1]
    hand.reverse()
    assert len(set(hand)) > 1
    _refused(data, "player 1's hand is not in the order the cards were drawn")


def test_rule_seeded_deal_a_card_is_played_after_it_was_drawn() -> None:
    # Seat 0 is to act and has just drawn its last hand card: it cannot be on the table already.
    game = _find(Rules(), lambda g: g.current_player == 0 and g.plays >= 10 and g.deck_size > 0)
    data = _data(game)
    drawn = data["hands"][0][-1]
    t, j = next(
        (t, j) for t in range(5) for j, card in enumerate(data["armies"][t][0])
        if card != drawn and len(data["armies"][t][0]) < 4
    )  # fmt: skip
    data["hands"][0][-1], data["armies"][t][0][j] = data["armies"][t][0][j], drawn
    _refused(data, "cards on the table that reached them after their play")


def test_rule_seeded_deal_some_order_of_a_players_plays_fits() -> None:
    # Seat q has just played the card it drew this turn onto an army of two or more:
    # put that card first in the army, and the army's other cards would have to
    # come after q's last play. Counting cards cannot see it; the play order can.
    for seed in range(200):
        rng = random.Random(seed)
        game = od.Game.new(Rules(), seed=seed)
        while not game.is_over:
            q, drawn = game.current_player, game.hand(game.current_player)[-1]
            action = rng.choice(game.legal_actions())
            game.apply(action)
            if (
                isinstance(action, od.Play) and action.card == drawn and game.deck_size > 0
                and 2 <= len(game.army(action.territory, q)) < 4 and game.army(action.territory, q)[0] != drawn
            ):  # fmt: skip
                data = _data(game)
                army = data["armies"][action.territory][q]
                army.insert(0, army.pop())
                _refused(data, f"no order of player {q}'s plays fits")
                return
    raise AssertionError("no position found")


def test_rule_end_the_player_to_act_of_a_finished_game_acted_last() -> None:
    game = _played(Rules(), 9, 1000)
    assert game.is_over
    data = _data(game)
    data["current_player"] = 1 - data["current_player"]
    _refused(data, "the last move was not theirs")


def _complete(game: od.Game) -> bool:
    return any(game.completed_at(t, p) is not None for t in Territory for p in range(game.players))


def test_rule_completions_an_army_is_completed_by_its_own_players_play() -> None:
    game = _find(Rules(), _complete)
    data = _data(game)
    t, p = next((t, p) for t in Territory for p in range(2) if game.completed_at(t, p) is not None)
    data["completed_at"][t][p] -= 1  # the other seat's play: they take turns
    _refused(data, f"an army of player {p} completed at play {data['completed_at'][t][p]}, which was not")


def test_rule_completions_four_plays_per_army() -> None:
    game = _find(Rules(), lambda g: g.completed_at(0, 0) is not None, seeded=False)
    data = _data(game)
    data["completed_at"][0][0] = 2  # seat 0's 2nd play: too early for a 4th card
    _refused(data, "that takes 4 plays")


def test_rule_decisions_markers_follow_the_order_of_decisions() -> None:
    game = _find(Rules(), lambda g: sum(g.is_decided(t) for t in Territory) >= 2)
    data = _data(game)
    first, second = (t for t in Territory if game.is_decided(t))
    data["markers"][first], data["markers"][second] = data["markers"][second], data["markers"][first]
    _refused(data, "but cannot have been decided after the territories with lower markers")


def _unprovable(game: od.Game, t: int) -> bool:
    """The player to act completed ``t`` but cannot prove it."""
    p = game.current_player
    return not game.is_decided(t) and game.completed_at(t, p) is not None and not game.can_claim(p, t)


def test_rule_claims_an_early_owner_must_have_proven_the_claim() -> None:
    game = _find(Rules(), lambda g: any(_unprovable(g, t) for t in Territory))
    data = _data(game)
    t, p = next(t for t in Territory if _unprovable(game, t)), game.current_player
    data["owners"][t] = p
    data["markers"][t] = 1 + sum(1 for m in data["markers"] if m)
    _refused(data, f"player {p} holds {Territory(t).label} by an early claim that cannot have been proven")


def test_rule_automatic_claims_nothing_provable_is_left_undecided() -> None:
    def claimable_by_another(game: od.Game) -> bool:
        return any(game.can_claim(p, t) for t in Territory for p in range(2) if p != game.current_player) and any(
            isinstance(a, od.Play) for a in game.legal_actions()
        )

    game = _find(Rules(), claimable_by_another)
    data = _data(game)
    data["rules"]["auto_claim"] = True
    _refused(data, "auto_claim is on and player")


def test_rule_end_a_fresh_game_is_not_over() -> None:
    data = _data(od.Game.new(Rules(), seed=1))
    data["over"] = True
    _refused(data, "over is true with 5 territories undecided while player 0 can still act")


def test_rule_passes_a_pass_needs_a_claim_and_no_play() -> None:
    data = _data(od.Game.new(Rules(), seed=1))
    data["passed"] = [1]
    _refused(data, "player 1 is listed as having passed")


# --------------------------------------------------------------------- the pass rule (RULES.md safety rule)


def test_a_player_who_only_passes_ends_the_game_instead_of_looping() -> None:
    # Seat 0 can only claim Cyprus or pass; seat 1 has no card left to play.
    game = position({Territory.CYPRUS: ["F F F F", "L"]}, hands=["L L L", ""], deck="", current=0)
    assert game.legal_actions() == [Claim(Territory.CYPRUS), Pass()]
    game.apply(Pass())
    assert game.is_over and not game.is_decided(Territory.CYPRUS)
    assert _load(game.to_json(), reachable=False) == game  # a hand-made position: its history is not checked


def test_a_passer_is_asked_again_after_a_play_and_then_the_game_ends() -> None:
    game = position({Territory.CYPRUS: ["F F F F", "L"]}, hands=["L L", "B"], deck="", current=0)
    game.apply(Pass())
    assert game.current_player == 1 and game.legal_actions() == [od.Play("B", Territory.CYPRUS)]
    assert _load(game.to_json(), reachable=False) == game  # the pass is saved
    game.apply(od.Play("B", Territory.CYPRUS))
    assert game.current_player == 0 and game.legal_actions() == [Claim(Territory.CYPRUS), Pass()]
    game.apply(Pass())
    assert game.is_over and not game.is_decided(Territory.CYPRUS)


# --------------------------------------------------------------------- every reachable position loads


@st.composite
def _rules(draw: st.DrawFn) -> Rules:
    players = draw(st.integers(2, 4))
    options: dict[str, Any] = {"tie_break": draw(st.sampled_from(["latest_capture", "lowest_marker_sum"]))}
    if draw(st.booleans()) and draw(st.booleans()):
        options["scoring"] = "points"
    else:
        options["auto_claim"] = draw(st.booleans())
        options["claim_proof"] = draw(st.sampled_from(["public", "private"]))
    if draw(st.booleans()):
        size = 20 * players + draw(st.sampled_from([0, 1, 3, 12]))
        options["deck"] = draw(st.lists(st.sampled_from(sorted(_CARDS)), min_size=size, max_size=size))
    return Rules(players=players, **options)


@settings(max_examples=EXAMPLES, deadline=None)
@given(rules=_rules(), seed=st.integers(0, 2**64 - 1), seeded=st.booleans(), pass_often=st.booleans())
@example(  # a pass cleared by a later claim: the save showed the passer skipped with a claim
    rules=Rules(
        players=3,
        deck=[
            *[1, 2, 2, 2, 2, 2, 2, 3, 4, 3, 2, 5, 5, 5, 7, 7, 7, 7, 7, 10, 11, 11, 12, 10, 8, 8, 8, 8, 11, 11, 11, 11],
            *[14, 14, 14, 14, 14, 14, 15, 17, 15, 15, 15, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16, 22, 22, 22, 23, 23],
            *[24, 22, 15, 26, 26, 26, 26, 26, 30, 30, 30, 30, 30, 23],
        ],
        claim_proof="public",
        auto_claim=False,
    ),
    seed=1_178_040_501,
    seeded=True,
    pass_often=True,
)
def test_every_position_of_a_random_game_loads_equal(rules: Rules, seed: int, seeded: bool, pass_often: bool) -> None:
    rng = random.Random(seed)
    game = _new(rules, seed, rng, seeded)
    while True:
        text = game.to_json()
        loaded = od.Game.from_json(text)
        assert loaded == game and loaded.history == game.history and loaded.to_json() == text
        assert od.Game.from_json(json.dumps(_version_2(json.loads(text)))) == game  # by the rules of reachability
        if game.is_over:
            break
        actions = game.legal_actions()
        game.apply(Pass() if pass_often and Pass() in actions else rng.choice(actions))


def _skipped_with_a_claim(game: od.Game) -> bool:
    """A seat the turn went past since the last play, without a pass on record,
    has a claim to make (reachable only if it passed and a later claim cleared
    the pass: ``passed_over`` with every marker 0 counts no claim)."""
    over = sampling.passed_over(game._armies, game._completed, game._owner, [0] * 5, game._current, game._passed)
    return not game.is_over and any(game._provable_claims(q) for q in over)


def _passer_cleared_by_a_claim() -> od.Game:
    rules = Rules(players=4, auto_claim=False)
    for seed in range(1000):
        rng, game = random.Random(seed), od.Game.new(rules, seed=seed)
        while not game.is_over:
            if _skipped_with_a_claim(game):
                return game
            actions = game.legal_actions()
            game.apply(Pass() if Pass() in actions else rng.choice(actions))
    raise AssertionError("no game of the first 1000 seeds reaches the position")


def test_a_pass_cleared_by_a_later_claim_loads_and_the_latest_capture_must_be_that_claim() -> None:
    # A seat with no play passes instead of claiming; a later seat then claims,
    # which clears every pass: the save shows the first seat skipped with a claim.
    game = _passer_cleared_by_a_claim()
    assert od.Game.from_json(game.to_json()) == game
    # Make another capture the latest: no claim after the skipped seat is left to explain it.
    data = _data(game)
    markers = data["markers"]
    latest = markers.index(max(m or 0 for m in markers))
    other = markers.index(max(m or 0 for m in markers if m != markers[latest]))
    markers[latest], markers[other] = markers[other], markers[latest]
    _refused(data, "has a claim to make")


# --------------------------------------------------------------------- hostile mutations


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of every value inside a save but the format and version."""
    found: list[tuple[Any, ...]] = [path] if path else []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else []
    for key, value in items:
        if path or key not in ("format", "version"):
            found += _leaves(value, path + (key,))
    return found


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    rules=_rules(), seed=st.integers(0, 2**64 - 1), steps=st.integers(0, 150), choice=st.randoms(use_true_random=False),
    version_2=st.booleans(),
)  # fmt: skip
def test_a_mutated_save_is_refused_or_is_a_game_the_library_can_play(
    rules: Rules, seed: int, steps: int, choice: random.Random, version_2: bool
) -> None:
    """Any one change to a valid save (of version 3, history and all, or 2):
    refused with InvalidGameStateError, or a position every part of the library
    accepts (views, invariants, the bots, play to the end): never another
    error, never a game only the loader likes."""
    game = _played(rules, seed % 2**32, steps)
    data = json.loads(game.to_json())
    if version_2:
        data = _version_2(data)
    for _ in range(5):
        path = choice.choice(_leaves(data))
        value = _at(data, path)
        parent = _at(data, path[:-1])
        if isinstance(value, bool):
            parent[path[-1]] = not value
        elif isinstance(value, int):
            parent[path[-1]] = value + choice.choice([-1, 1, 7])
        elif value is None:
            parent[path[-1]] = choice.randrange(0, 5)
        elif isinstance(value, str):
            other = choice.choice([p for p in _leaves(data) if isinstance(_at(data, p), str) and p[0] != "rules"])
            _at(data, other[:-1])[other[-1]], parent[path[-1]] = value, _at(data, other)
        elif isinstance(value, list) and value:
            moved = value.pop(choice.randrange(len(value)))
            if isinstance(moved, str):
                target = choice.choice([p for p in _leaves(data) if isinstance(_at(data, p), list)])
                _at(data, target).append(moved)
    try:
        loaded = od.Game.from_json(json.dumps(data))
    except od.InvalidGameStateError:
        return
    check_invariants(loaded)
    rng = random.Random(seed)
    if not loaded.is_over:
        seat = loaded.current_player
        assert loaded.legal_actions()
        od.bots.Greedy(seed=1).choose(loaded.view(seat))
        od.bots.MonteCarlo(seed=1, rollouts=2).choose(loaded.view(seat))
    for _ in range(400):
        if loaded.is_over:
            break
        loaded.apply(rng.choice(loaded.legal_actions()))
    assert loaded.is_over


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=40,
)


@settings(max_examples=EXAMPLES * 3, deadline=None)
@given(value=_JSON, raw=st.binary(max_size=64), text=st.text(max_size=64))
def test_any_json_or_bytes_is_refused_with_invalid_game_state(value: Any, raw: bytes, text: str) -> None:
    valid = json.loads(_played(Rules(), 1, 4).to_json())
    candidates = [json.dumps(value), raw, text]
    candidates += [json.dumps({**valid, key: value}) for key in ("hands", "rules", "history", "start", "order")]
    for candidate in candidates:
        if candidate == json.dumps(valid):
            continue
        with pytest.raises(od.InvalidGameStateError):
            od.Game.from_json(candidate)
