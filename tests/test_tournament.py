"""Tournaments: the accounting, the seeding, and the same result on every executor.

Without the JIT (``NUMBA_DISABLE_JIT=1``) the kernels run as plain Python, so
the sizes shrink; every property is still checked.
"""

from __future__ import annotations

import concurrent.futures as cf
import fcntl
import math
import os
import pickle
import pty
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import numpy as np
import pytest

import ordonnance as od
from ordonnance.tournament import TournamentResult, tournament

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
GAMES = 2_000 if JIT else 200
ROOT = Path(__file__).resolve().parents[1]

# Without the JIT the simulator's SplitMix64 runs on NumPy scalars, whose intended
# uint64 wraparound NumPy reports as an overflow.
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")


class Cycling:
    """A stateful Python bot (not a kernel twin): it cycles through the legal actions.

    Its choices depend on every decision it made before, so the result shows
    whether chunks really start from fresh copies on every executor.
    """

    def __init__(self, start: int = 0) -> None:
        self.calls = start

    def choose(self, view: od.PlayerView) -> od.Action:
        self.calls += 1
        actions = view.legal_actions
        return actions[(self.calls * 7) % len(actions)]


def lineup() -> dict[str, od.bots.Bot]:
    return {"greedy": od.bots.Greedy(seed=1), "random": od.bots.Random(seed=2), "cycling": Cycling()}


def kernel_lineup() -> list[od.bots.Bot]:
    return [od.bots.Greedy(seed=1), od.bots.Random(seed=2), od.bots.Random(seed=3)]


# --------------------------------------------------------------------- accounting


def test_every_seating_plays_the_same_number_of_games() -> None:
    result = tournament(kernel_lineup(), games=GAMES, seed=1, executor="serial")
    assert result.names == ("Greedy", "Random-1", "Random-2")
    assert result.seatings == ((0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1))
    assert result.games_per_seating == -(-GAMES // 6) and result.games == 6 * result.games_per_seating >= GAMES
    assert sum(result.wins) + result.draws == result.games
    assert result.played == (2 * result.games // 3,) * 3
    for b in range(3):
        assert sum(result.seat_wins[b]) == result.wins[b]
        assert result.seat_played[b] == (result.games // 6 * 2,) * 2
        for c in range(3):
            together = 0 if b == c else 2 * result.games_per_seating
            assert result.pairwise_games[b][c] == result.pairwise_games[c][b] == together
            if b != c:
                assert result.pairwise_wins[b][c] + result.pairwise_wins[c][b] <= result.pairwise_games[b][c]
                score, other = result.pairwise_score(b, c), result.pairwise_score(c, b)
                assert score is not None and other is not None and score + other == pytest.approx(1.0)
    assert result.pairwise_score(0, 0) is None


def test_the_better_bot_comes_first() -> None:
    result = tournament(kernel_lineup(), games=GAMES, seed=2, executor="serial")
    assert result.standings[0] == "Greedy"
    assert result.win_rate[0] > 0.8 and result.win_rate_ci[0][0] > 0.5
    elo = result.elo
    assert elo[0] > elo[1] + 200 and elo[0] > elo[2] + 200
    assert abs(elo[1] - elo[2]) < 150  # two Random bots
    assert sum(elo) / 3 == pytest.approx(1500.0)
    assert result.pairwise_score("Greedy", "Random-1") > 0.8  # type: ignore[operator]


def test_the_tournament_is_duplicate_and_equals_one_simulate_per_seating() -> None:
    """Every seating plays the deals of ``simulate(..., seed=seed)``, in chunks or not."""
    bots: list[od.bots.Bot] = [od.bots.Greedy(seed=1), od.bots.Random(seed=2)]
    result = tournament(bots, games=GAMES, seed=9, executor="serial", chunk_size=97)
    per = result.games_per_seating
    with np.errstate(over="ignore"):
        ab = od.simulate(od.Rules(), games=per, seed=9, players=bots)
        ba = od.simulate(od.Rules(), games=per, seed=9, players=bots[::-1])
    assert np.array_equal(ab.seeds, ba.seeds)  # the same deals in both seatings
    assert result.seat_wins[0] == (int(np.sum(ab.winner == 0)), int(np.sum(ba.winner == 1)))
    assert result.seat_wins[1] == (int(np.sum(ba.winner == 0)), int(np.sum(ab.winner == 1)))
    assert result.chunks == 2 * -(-per // 97)


@pytest.mark.parametrize("game", ["ordonnance", "shinobi", "black-prince"])
def test_seat_figures_and_game_length_are_those_of_one_simulate_per_seating(game: str) -> None:
    """The seats' summary (win rates whoever sat there, first-player advantage, mean decisions
    and rounds) counts the games of ``simulate`` seating by seating, for every game, kernel
    bots and Python bots alike."""
    module = od.games.module(game)
    rules = module.Rules() if game != "shinobi" else module.Rules(players=3)
    n = rules.players

    def bots() -> list[object]:
        return [module.bots.Greedy(seed=1), module.bots.Random(seed=2), Cycling()]

    per = 30 if JIT else 6
    result = tournament(bots(), games=per * math.perm(3, n), rules=rules, seed=4, executor="serial", chunk_size=per)
    assert result.games_per_seating == per
    wins, decisions, rounds = [0] * n, 0, 0
    with np.errstate(over="ignore"):
        for seating in result.seatings:
            fresh = bots()  # every chunk starts from fresh copies of the bots
            res = module.simulate(rules, games=per, seed=4, players=[fresh[b] for b in seating])
            wins = [w + int(np.sum(res.winner == seat)) for seat, w in enumerate(wins)]
            decisions += int(res.decisions.sum())
            rounds += int(res.rounds.sum())
    summary = result.seat_summary
    assert (result.decisions, result.rounds) == (decisions, rounds) and summary.games == result.games
    assert summary.win_rate == tuple(w / result.games for w in wins) == result.seat_win_rate
    assert summary.draw_rate == result.draw_rate == pytest.approx(1 - sum(wins) / result.games)
    assert summary.first_player_advantage == pytest.approx(wins[0] / result.games - 1 / n)
    assert summary.mean_decisions == pytest.approx(decisions / result.games) and summary.mean_rounds > 1
    text = str(result)
    assert summary.advantage_line().strip() in text and summary.length_line().strip() in text


def test_three_player_tournaments_seat_every_ordered_triple() -> None:
    bots = kernel_lineup() + [od.bots.Greedy(seed=4)]
    rules = od.Rules(players=3, auto_claim=True)
    result = tournament(bots, games=24 * (40 if JIT else 4), rules=rules, seed=3, executor="serial")
    assert len(result.seatings) == 4 * 3 * 2 and result.players == 3
    assert sum(result.wins) + result.draws == result.games
    assert all(p == result.games * 3 // 4 for p in result.played)
    assert sum(result.seat_win_rate) + result.draw_rate == pytest.approx(1.0)
    text = str(result)
    assert "4 bots, 3 players a game, 24 seatings" in text and "Greedy-3" in text


def test_more_games_are_rounded_up_to_whole_seatings() -> None:
    result = tournament(kernel_lineup(), games=7, seed=1, executor="serial")
    assert result.games_per_seating == 2 and result.games == 12


def test_the_table_is_readable() -> None:
    text = str(tournament(lineup(), games=30, seed=4, executor="serial"))
    lines = text.splitlines()
    assert lines[0] == "tournament: 3 bots, 2 players a game, 6 seatings x 5 deals = 30 games (seed 4)"
    assert lines[1].split() == ["rank", "bot", "games", "wins", "win", "rate", "95%", "CI", "Elo"]
    assert lines[2].split()[:2] == ["1", "greedy"]
    assert "pairwise score" in text and "wins by seat: seat 0" in text


# --------------------------------------------------------------------- seeds and executors


def test_the_same_seed_gives_the_same_result_and_another_seed_another() -> None:
    a = tournament(lineup(), games=60, seed=5, executor="serial")
    assert a == tournament(lineup(), games=60, seed=5, executor="serial")
    assert a != tournament(lineup(), games=60, seed=6, executor="serial")


def test_kernel_bots_give_the_same_result_whatever_the_chunk_size() -> None:
    a = tournament(kernel_lineup(), games=GAMES, seed=8, executor="serial")
    b = tournament(kernel_lineup(), games=GAMES, seed=8, executor="serial", chunk_size=33)
    assert a == b and a.chunks != b.chunks


def test_stateful_bots_start_each_chunk_fresh_and_are_not_changed() -> None:
    bots = lineup()
    first = tournament(bots, games=60, seed=5, executor="serial", chunk_size=4)
    assert bots["cycling"].calls == 0  # type: ignore[attr-defined]  # the caller's object is untouched
    with cf.ThreadPoolExecutor(max_workers=3) as pool:
        assert tournament(bots, games=60, seed=5, executor=pool, chunk_size=4) == first


def test_serial_threads_processes_and_a_dask_cluster_give_identical_results() -> None:
    distributed = pytest.importorskip("distributed")
    games, size = (60, 4) if JIT else (24, 2)
    serial = tournament(lineup(), games=games, seed=12, executor="serial", chunk_size=size)
    assert serial.chunks > 2
    with cf.ThreadPoolExecutor(max_workers=2) as pool:
        assert tournament(lineup(), games=games, seed=12, executor=pool, chunk_size=size) == serial
    assert tournament(lineup(), games=games, seed=12, workers=2, chunk_size=size) == serial  # local processes
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        assert tournament(lineup(), games=games, seed=12, executor=pool, chunk_size=size) == serial
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        on_dask = tournament(lineup(), games=games, seed=12, executor=client.get_executor(pure=False), chunk_size=size)
    assert on_dask == serial
    assert str(on_dask) == str(serial)


class Broken:
    """A bot that fails on its first decision."""

    def choose(self, view: od.PlayerView) -> od.Action:
        raise RuntimeError("this bot is broken")


def test_an_error_in_a_chunk_reaches_the_caller_naming_the_bot_seat_and_game() -> None:
    expected = r"bot 'Broken' \(seat 0\) failed in game 0 \(deal seed \d+\): RuntimeError: this bot is broken"
    with pytest.raises(od.BotError, match=expected) as info:
        tournament([Broken(), od.bots.Random(seed=1)], games=8, seed=1, executor="serial", chunk_size=2)
    assert (info.value.name, info.value.seat, info.value.game) == ("Broken", 0, 0)
    game = od.Game.new(od.Rules(), seed=info.value.deal_seed)  # the seed replays the deal
    assert game.plays == 0
    expected = expected.replace("game 0", r"game \d+").replace("seat 0", r"seat \d")  # any chunk may fail first
    with cf.ThreadPoolExecutor(max_workers=2) as pool, pytest.raises(od.BotError, match=expected):
        tournament([Broken(), od.bots.Random(seed=1)], games=8, seed=1, executor=pool, chunk_size=2)


def test_results_pickle_and_compare_by_value() -> None:
    result = tournament(kernel_lineup(), games=60, seed=1, executor="serial")
    again = pickle.loads(pickle.dumps(result))
    assert again == result and isinstance(again, TournamentResult) and again.elo == result.elo


def test_the_public_paths_are_the_shared_layers_tournament_and_ladder() -> None:
    """ordonnance.tournament and ordonnance.ladder re-export core's names; chunks pickle by their home."""
    import importlib

    from ordonnance.core import ladder as core_ladder, tournament as core_tournament

    for face, home in (("ordonnance.tournament", core_tournament), ("ordonnance.ladder", core_ladder)):
        module = importlib.import_module(face)
        assert module.__all__ and all(getattr(module, name) is getattr(home, name) for name in module.__all__)
    assert od.tournament is core_tournament.tournament and od.ladder is core_ladder.ladder
    chunk = next(core_tournament._chunks(od.Rules(), [(0, 1)], kernel_lineup(), ["a", "b", "c"], 4, 1, None, None))
    assert type(chunk).__module__ == "ordonnance.core.tournament" and pickle.loads(pickle.dumps(chunk)) == chunk


# --------------------------------------------------------------------- arguments


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"bots": [od.bots.Random(seed=1)]}, od.InvalidRulesError, "at least 2 bots"),
        ({"bots": "greedy"}, od.OrdonnanceTypeError, "list of bots"),
        ({"bots": {"": od.bots.Random(seed=1), "b": od.bots.Random(seed=2)}}, od.OrdonnanceTypeError, "names"),
        ({"bots": [od.bots.Random(seed=1), object()]}, od.OrdonnanceTypeError, "no choose"),
        ({"games": 0}, od.InvalidRulesError, "games must be a positive int"),
        ({"games": True}, od.InvalidRulesError, "games"),
        ({"seed": -1}, od.InvalidRulesError, "seed"),
        ({"chunk_size": 0}, od.InvalidRulesError, "chunk_size"),
        ({"workers": 0}, od.InvalidRulesError, "workers"),
        ({"executor": "gpu"}, od.OrdonnanceTypeError, "executor"),
        ({"progress": "yes"}, od.OrdonnanceTypeError, "progress"),
        ({"rules": "standard"}, od.OrdonnanceTypeError, "rules"),
        ({"rules": od.Rules(players=3)}, od.InvalidRulesError, "at least 3 bots"),
    ],
)
def test_bad_arguments_are_refused_with_the_reason(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments: dict[str, object] = {"bots": [od.bots.Random(seed=1), od.bots.Random(seed=2)], "games": 10}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        tournament(**arguments)  # type: ignore[arg-type]


def test_a_bot_that_cannot_be_pickled_is_refused_before_anything_runs() -> None:
    bot = od.bots.Random(seed=1)
    bot.hook = lambda: None  # type: ignore[attr-defined]
    with pytest.raises(od.OrdonnanceTypeError, match="'Random' cannot be pickled"):  # sent to workers ("serial" plays it)
        tournament({"Random": bot, "other": od.bots.Random(seed=2)}, games=10, executor="process", workers=2)


def test_bots_are_found_by_name_or_number() -> None:
    result = tournament({"a": od.bots.Greedy(seed=1), "b": od.bots.Random(seed=1)}, games=10, executor="serial")
    assert result.index("b") == result.index(1) == 1
    with pytest.raises(od.InvalidRulesError, match="no bot named 'c'"):
        result.index("c")
    with pytest.raises(od.InvalidRulesError, match="0..1"):
        result.index(2)


# --------------------------------------------------------------------- the progress bar

_PROGRESS_SCRIPT = """
import importlib
import sys
import numpy as np
import ordonnance as od
t = importlib.import_module("ordonnance.core.tournament")  # the module that plays it (od.tournament is the function)
np.seterr(over="ignore")
t.PROGRESS_DELAY = 0.0  # stands in for a long run: the bar may show at once
result = t.tournament([od.bots.Greedy(seed=1), od.bots.Random(seed=2)], games=int(sys.argv[1]), seed=1,
                      executor="serial", chunk_size=int(sys.argv[2]))
print("games", result.games)
"""


def _progress_args() -> list[str]:
    return [sys.executable, "-c", _PROGRESS_SCRIPT, str(GAMES), str(GAMES // 8)]


def test_the_progress_bar_shows_in_a_terminal() -> None:
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen(_progress_args(), stdout=subprocess.PIPE, stderr=terminal, cwd=ROOT)
    os.close(terminal)
    seen: list[bytes] = []

    def read() -> None:
        while True:
            try:
                data = os.read(controller, 4096)
            except OSError:  # the terminal closed
                return
            if not data:
                return
            seen.append(data)

    reader = threading.Thread(target=read)
    reader.start()
    out, _ = process.communicate(timeout=300)
    reader.join(timeout=30)
    os.close(controller)
    err = b"".join(seen).decode()
    assert process.returncode == 0, err
    assert out.decode().strip() == f"games {-(-GAMES // 2) * 2}"
    assert "tournament: 100%|" in err and "game/s" in err


def test_the_progress_bar_stays_silent_in_a_pipe() -> None:
    result = subprocess.run(_progress_args(), capture_output=True, text=True, cwd=ROOT, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.startswith("games ")


def test_the_progress_bar_can_be_forced_on_or_off(capsys: pytest.CaptureFixture[str]) -> None:
    bots = kernel_lineup()
    tournament(bots, games=60, seed=1, executor="serial", progress=False)
    assert capsys.readouterr().err == ""
    tournament(bots, games=60, seed=1, executor="serial", progress=True)
    err = capsys.readouterr().err
    assert "tournament: 100%" in err and "60/60" in err
    tournament(bots, games=60, seed=1, executor="serial")  # default: not a terminal here
    assert capsys.readouterr().err == ""


def test_a_terminal_without_a_size_still_gets_a_bar() -> None:
    controller, terminal = pty.openpty()  # a bare pseudo-terminal reports 0 x 0
    code = "import ordonnance.core.tournament as t; print(t._terminal_fallback())"
    result = subprocess.run(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=terminal, cwd=ROOT, check=False
    )
    os.close(terminal)
    os.close(controller)
    assert result.stdout.decode().strip() == "(80, 24)"


# --------------------------------------------------------------------- hostile bots and limits


class Slow:
    """A bot that thinks too long on its third decision of every game it plays."""

    def __init__(self) -> None:
        self.decisions = 0

    def choose(self, view: od.PlayerView) -> od.Action:
        self.decisions += 1
        if view.plays in (4, 5):
            import time

            time.sleep(0.05)
        return view.legal_actions[0]


class Cheat:
    """A bot that plays a card it does not hold."""

    def choose(self, view: od.PlayerView) -> od.Action:
        return od.Play("LBSHF", 0) if od.Card.parse("LBSHF") not in view.hand else od.Play("L", 0)


def test_a_bot_over_the_time_limit_loses_that_game_and_the_result_says_so() -> None:
    bots = {"slow": Slow(), "greedy": od.bots.Greedy(seed=1)}
    result = tournament(bots, games=8, seed=3, executor="serial", time_limit=0.02)
    slow, greedy = result.index("slow"), result.index("greedy")
    assert result.forfeits == (8, 0) and result.time_limit == 0.02
    assert result.wins[slow] == 0 and result.wins[greedy] == 8
    assert result.pairwise_score("greedy", "slow") == 1.0
    assert "games lost on time (over 0.02 s for a decision): slow 8" in str(result)
    relaxed = tournament(bots, games=8, seed=3, executor="serial", time_limit=10)
    assert relaxed.forfeits == (0, 0)


def test_python_seatings_play_the_games_simulate_plays() -> None:
    """The tournament's own Python path (which times and names bots) is simulate()'s twin."""
    bots: list[od.bots.Bot] = [Cycling(), od.bots.Greedy(seed=4)]
    result = tournament(bots, games=24, seed=9, executor="serial", chunk_size=12)
    with np.errstate(over="ignore"):
        ab = od.simulate(od.Rules(), games=12, seed=9, players=[Cycling(), bots[1]])
        ba = od.simulate(od.Rules(), games=12, seed=9, players=[bots[1], Cycling()])
    assert result.seat_wins[0] == (int(np.sum(ab.winner == 0)), int(np.sum(ba.winner == 1)))
    assert result.seat_wins[1] == (int(np.sum(ba.winner == 0)), int(np.sum(ab.winner == 1)))
    assert result.forfeits == (0, 0)


def test_an_illegal_move_in_a_process_pool_names_the_bot_instead_of_breaking_the_pool() -> None:
    with pytest.raises(od.BotError, match=r"bot 'Cheat' \(seat \d\) failed in game 0 .*which is not legal"):
        tournament([Cheat(), od.bots.Random(seed=1)], games=4, seed=1, workers=2, chunk_size=2)


def test_work_is_made_lazily_so_a_huge_tournament_fails_fast() -> None:
    # 10**9 games of a Python seating are 62 million chunks: made as needed, the
    # first chunk's error arrives at once.
    with pytest.raises(od.BotError, match="this bot is broken"):
        tournament([Broken(), od.bots.Random(seed=1)], games=10**9, executor="serial")
    with pytest.raises(od.InvalidRulesError, match="at most 1,000,000,000,000, got 1000000000000000"):
        tournament([Broken(), od.bots.Random(seed=1)], games=10**15, executor="serial")


_SIGTERM_SCRIPT = """
import time
import ordonnance as od

class Sleepy:
    def choose(self, view):
        time.sleep(0.01)
        return view.legal_actions[0]

if __name__ == "__main__":
    od.tournament([Sleepy(), Sleepy()], games=100_000, workers=2, chunk_size=1_000, progress=False)
"""


def _children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.update(int(child) for child in text)
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_sigterm_stops_the_workers_and_the_resource_tracker(tmp_path: Path) -> None:
    import signal
    import time

    script = tmp_path / "run.py"
    script.write_text(_SIGTERM_SCRIPT)
    process = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        children: set[int] = set()
        while time.monotonic() < deadline and len(children) < 3:  # two workers and the resource tracker
            time.sleep(0.2)
            children = _children(process.pid)
        assert len(children) >= 3, f"the pool did not start: children {children}"
        time.sleep(1.0)  # the workers are playing
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == -signal.SIGTERM
    assert b"Traceback" not in stderr
    # Gone when the parent is: not even a zombie left to an init that may not reap it.
    assert not [child for child in children if Path(f"/proc/{child}").exists()]
