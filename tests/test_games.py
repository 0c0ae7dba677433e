"""The registry of games the shared tools use."""

from __future__ import annotations

import importlib
import pickle

import numpy as np

import pytest

import ordonnance as od
from ordonnance import games, shinobi

tournament_module = importlib.import_module("ordonnance.core.tournament")  # the module, not the function od.tournament


@pytest.mark.parametrize("name", games.GAMES)
def test_every_game_module_offers_the_protocol(name: str) -> None:
    game = games.module(name)
    rules = game.Rules()
    assert games.name_of(rules) == name
    players = [game.bots.Random(seed=seat) for seat in range(rules.players)]
    assert all(games.kernel_bot(bot) for bot in players)
    res = game.simulate(rules, games=5, seed=1, players=players)
    assert res.winner.shape == (5,) and res.scores.shape == (5, rules.players)
    assert set(res.winner.tolist()) <= set(range(-1, rules.players))
    if name != "ordonnance":
        for function in ("add_play_arguments", "add_simulate_arguments", "run_play", "run_simulate"):
            assert callable(getattr(games.cli(name), function, None)), function


def test_other_bots_are_not_kernel_bots() -> None:
    class Mine:
        def choose(self, view: od.PlayerView) -> od.Action:
            return view.legal_actions[0]

    assert not games.kernel_bot(Mine())
    assert not games.kernel_bot(od.bots.MonteCarlo(seed=1))
    assert not games.kernel_bot(od.bots.Random)  # the class is no bot


def test_ordonnance_has_no_game_cli_module() -> None:
    with pytest.raises(od.InvalidArgumentError, match="ordonnance.cli"):
        games.cli("ordonnance")


@pytest.mark.parametrize("bad", ["chess", None, 3, "Shinobi"])
def test_unknown_games_are_refused(bad: object) -> None:
    with pytest.raises(od.InvalidArgumentError, match=repr(bad).replace("(", r"\(")) as info:
        games.module(bad)  # type: ignore[arg-type]
    assert pickle.loads(pickle.dumps(info.value)).args == info.value.args


@pytest.mark.parametrize("bad", [None, "rules", od.Rules])
def test_only_rules_of_a_game_name_a_game(bad: object) -> None:
    with pytest.raises(od.OrdonnanceTypeError, match="rules must be the Rules of one of the games"):
        games.name_of(bad)


# ------------------------------------------------- one tournament for every game

OTHER_GAMES = [name for name in games.GAMES if name != "ordonnance"]


def _chunk(name: str, players: list[object], games_count: int = 12, seed: int = 5) -> object:
    rules = games.module(name).Rules()
    return tournament_module._Chunk(rules, 0, 0, games_count, seed, pickle.dumps(players), tuple(f"bot{i}" for i in range(len(players))), None)


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_the_tournaments_python_path_is_each_games_simulate_twin(name: str) -> None:
    """A seating of built-in bots played through the game's Python engine (the path that
    times and names bots) gives exactly the games of the game's numba simulate."""
    game = games.module(name)
    rules = game.Rules()
    players = [game.bots.Greedy(seed=7) if seat % 2 else game.bots.Random(seed=3) for seat in range(rules.players)]
    chunk = _chunk(name, players)
    winner, scores, forfeits = tournament_module._play_python(chunk, players)[:3]
    with np.errstate(over="ignore"):
        res = game.simulate(rules, games=12, seed=5, players=players)
    assert winner.tolist() == res.winner.tolist()
    assert scores.tolist() == res.scores.tolist()
    assert forfeits.tolist() == [0] * rules.players


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_tournaments_of_every_game(name: str) -> None:
    game = games.module(name)
    rules = game.Rules()
    bots = {f"random{i}": game.bots.Random(seed=i) for i in range(rules.players)}
    bots["greedy"] = game.bots.Greedy(seed=9)
    result = od.tournament(bots, games=40, rules=rules, seed=2, executor="serial")
    assert result.rules == rules and result.players == rules.players
    assert sum(result.wins) + result.draws == result.games
    assert result == od.tournament(bots, games=40, rules=rules, seed=2, executor="serial", chunk_size=7)
    assert "greedy" in str(result)


class _PythonGreedy(shinobi.bots.Greedy):
    """Shinobi's Greedy, but not a kernel bot: its seatings take the tournament's Python path."""


def test_a_shinobi_tournament_on_threads_or_processes_is_the_serial_one() -> None:
    """Chunks of kernel seatings and of Python-path seatings played on a thread pool passed
    as ``executor`` and on two spawned processes give exactly the serial result."""
    from concurrent.futures import ThreadPoolExecutor

    rules = shinobi.Rules()
    bots = {"random0": shinobi.bots.Random(seed=0), "random1": shinobi.bots.Random(seed=1),
            "greedy": shinobi.bots.Greedy(seed=9), "python": _PythonGreedy(seed=3)}  # fmt: skip
    assert not games.kernel_bot(bots["python"])
    serial = od.tournament(bots, games=48, rules=rules, seed=2, executor="serial", chunk_size=5)
    assert serial.games == 48 and sum(serial.wins) + serial.draws == 48
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert od.tournament(bots, games=48, rules=rules, seed=2, executor=pool, chunk_size=5) == serial
    assert od.tournament(bots, games=48, rules=rules, seed=2, executor="process", workers=2, chunk_size=5) == serial
    assert serial != od.tournament(bots, games=48, rules=rules, seed=3, executor="serial", chunk_size=5)  # the seed matters


class _Failing:
    """A bot of any game that fails on its first decision."""

    seed = 0

    def choose(self, view: object) -> object:
        raise RuntimeError("out of ideas")


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_a_failing_bot_of_any_game_is_named(name: str) -> None:
    game = games.module(name)
    rules = game.Rules()
    bots = {"failing": _Failing(), **{f"random{i}": game.bots.Random(seed=i) for i in range(rules.players - 1)}}
    with pytest.raises(od.BotError, match="bot 'failing' .* out of ideas"):
        od.tournament(bots, games=5, rules=rules, seed=1, executor="serial")


def test_rules_of_no_game_are_refused_by_tournaments() -> None:
    with pytest.raises(od.OrdonnanceTypeError, match="rules must be the Rules of one of the games"):
        od.tournament([od.bots.Random(seed=1), od.bots.Random(seed=2)], games=4, rules="shinobi", executor="serial")  # type: ignore[arg-type]


# ------------------------------------------- the command line, for every game


@pytest.mark.parametrize("name", OTHER_GAMES)
@pytest.mark.parametrize("spelling", ["separate", "joined"])
def test_simulate_any_game_from_the_command_line(name: str, spelling: str, capsys: pytest.CaptureFixture[str]) -> None:
    from ordonnance import cli

    game = ["--game", name] if spelling == "separate" else [f"--game={name}"]
    assert cli.main(["simulate", "--games", "60", "--seed", "4", *game]) == 0
    out = capsys.readouterr().out
    assert "60 games" in out and "wins" in out


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_play_any_game_from_the_command_line(name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from ordonnance import cli

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "--game", name, "--seed", "3"]) == 0
    assert "bye" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["simulate", "--game", "chess"], "invalid choice: 'chess'"),
        (["play", "--game", "shinobi", "--bogus"], "ordonnance play --game shinobi: error: unrecognized arguments: --bogus"),
        (["simulate", "--game", "black-prince", "--games", "many"], "many"),
    ],
)
def test_command_line_mistakes_for_any_game_take_one_line(argv: list[str], shown: str, capsys: pytest.CaptureFixture[str]) -> None:
    from ordonnance import cli

    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert shown in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_ordonnance_is_the_default_game_and_can_be_named(capsys: pytest.CaptureFixture[str]) -> None:
    from ordonnance import cli

    assert cli.main(["simulate", "--games", "50", "--game", "ordonnance"]) == 0
    named = capsys.readouterr().out
    assert cli.main(["simulate", "--games", "50"]) == 0
    assert capsys.readouterr().out.splitlines()[:3] == named.splitlines()[:3]


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_simulate_of_any_game_never_changes_the_bots_it_is_given(name: str) -> None:
    """On the Python path (a user bot at one seat) built-in bots play each game as a seeded copy."""
    game = games.module(name)
    rules = game.Rules()

    class Wrapped:
        seed = None

        def __init__(self) -> None:
            self.inner = game.bots.Random(seed=5)

        def choose(self, view: object) -> object:
            return self.inner.choose(view)

    builtins = [game.bots.Greedy(seed=seat) for seat in range(1, rules.players)]
    before = [bot._state for bot in builtins]
    first = game.simulate(rules, games=3, seed=2, players=[Wrapped(), *builtins])
    assert [bot._state for bot in builtins] == before
    again = game.simulate(rules, games=3, seed=2, players=[Wrapped(), *builtins])
    assert first.winner.tolist() == again.winner.tolist() and first.scores.tolist() == again.scores.tolist()


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_a_failing_bot_in_any_games_simulate_is_named(name: str) -> None:
    game = games.module(name)
    rules = game.Rules()
    players = [_Failing(), *[game.bots.Random(seed=seat) for seat in range(1, rules.players)]]
    with pytest.raises(od.BotError, match=r"\(seat 0\) failed in game 0 .*out of ideas"):
        game.simulate(rules, games=2, seed=1, players=players)
