"""The command line, driven as a person would."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ordonnance as od
from ordonnance.__main__ import main


def test_demo_runs_as_a_module() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ordonnance", "demo"], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "player 0 = Greedy, player 1 = Random" in result.stdout
    assert "1. player 0 plays" in result.stdout
    assert "game over: player" in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize("players", [2, 3, 4])
def test_demo_is_reproducible_for_every_player_count(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3", "--players", str(players)]) == 0
    first = capsys.readouterr().out
    main(["demo", "--seed", "3", "--players", str(players)])
    assert capsys.readouterr().out == first
    assert f"Ordonnance, {players} players, seed 3" in first and "game over" in first


def test_bad_arguments_give_one_line_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["demo", "--players", "5"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 5" in err and "Traceback" not in err
    assert err.count("\n") == 1 and "(see 'ordonnance demo --help')" in err


# --------------------------------------------------------------------- the commands, as a person runs them

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
COMMANDS = ["play", "demo", "simulate", "tournament", "ladder", "odds", "bench"]


def run(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m ordonnance ARGS`` with ``stdin`` typed in, as a person would."""
    return subprocess.run(
        [sys.executable, "-m", "ordonnance", *args],
        input=stdin, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip


def assert_clean(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr, result.stderr


def test_the_top_level_help_lists_every_command() -> None:
    result = run("--help")
    assert result.returncode == 0 and result.stderr == ""
    for command in COMMANDS:
        assert f"\n    {command}" in result.stdout
    bare = run()
    assert bare.returncode == 2 and "ordonnance: error:" in bare.stderr and "required: COMMAND" in bare.stderr
    assert_clean(bare)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_a_clear_help(command: str) -> None:
    result = run(command, "--help")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith(f"usage: ordonnance {command}")
    assert "options:" in result.stdout and "-h, --help" in result.stdout
    if command not in ("demo", "bench"):
        assert "Examples:" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--bot", "chess"], "unknown bot 'chess'"),
        (["play", "--bot", "random:5"], "the random bot takes no budget, got 'random:5'"),
        (["play", "--seat", "2"], "--seat must be 0..1"),
        (["play", "--players", "5"], "invalid choice: 5"),
        (["play", "--seed", "-1"], "a seed is in 0..2**64-1"),
        (["simulate", "--games", "0"], "must be at least 1"),
        (["simulate", "--games", "many"], "not a whole number: 'many'"),
        (["simulate", "--bots", "greedy,wizard"], "unknown bot 'wizard'"),
        (["simulate", "--bots", "greedy,random,random"], "must name 1 bot or 2"),
        (["simulate", "--scoring", "points", "--auto-claim"], "auto_claim=True is impossible"),
        (["simulate", "--tie-break", "coin"], "invalid choice: 'coin'"),
        (["tournament", "--bots", "greedy"], "at least 2 bots"),
        (["tournament", "--players", "3", "--bots", "greedy,random"], "at least 3 bots"),
        (["tournament", "--serial", "--workers", "2"], "--serial cannot be combined"),
        (["tournament", "--bots", "greedy:4,random"], "the greedy bot takes no budget, got 'greedy:4'"),
        (["tournament", "--bots", "montecarlo:0,random"], "the budget of 'montecarlo:0' (rollouts) must be at least 1"),
        (["ladder", "--bots", "random,greedy", "--anchor", "x"], "--anchor 'x' is not one of the bots: random, greedy"),
        (["ladder", "--bots", "montecarlo:lots,random"], "not a whole number: 'lots'"),
        (["ladder", "--bots", "ismcts:0,random"], "the budget of 'ismcts:0' (iterations) must be at least 1"),
        (["odds"], "required: FILE"),
        (["bench", "--fast"], "unrecognized arguments: --fast"),
        (["fly"], "invalid choice: 'fly'"),
    ],
)
def test_bad_arguments_give_one_line_and_status_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert err.startswith("ordonnance") and "error:" in err and message in err and err.count("\n") == 1
    assert out == "" and "Traceback" not in err


def test_bad_arguments_from_the_shell_give_one_line_and_status_2() -> None:
    for args in (["simulate", "--games", "-5"], ["tournament", "--bots", "greedy,wizard"]):
        result = run(*args)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.startswith(f"ordonnance {args[0]}: error:") and result.stderr.count("\n") == 1
        assert_clean(result)


# The hostile battery of issue 12: each invocation is a user mistake that must give
# one line on standard error, no traceback and a non-zero status.
HOSTILE = [
    (["demo", "--seed", "-1"], "a seed is in 0..2**64-1, got -1"),
    (["demo", "--seed", "18446744073709551616"], "a seed is in 0..2**64-1"),
    (["demo", "--seed", "1e3"], "not a whole number"),
    (["play", "--seed", "18446744073709551616"], "a seed is in 0..2**64-1"),
    (["play", "--seat", "--3"], "expected one argument"),
    (["play", "--seat", "\u00b2"], "not a whole number"),
    (["simulate", "--games", "1000000000000"], "must be at most 100,000,000"),
    (["simulate", "--games", "10**20"], "not a whole number: '10**20'"),
    (["simulate", "--games", "9" * 5000], "not a whole number"),
    (["simulate", "--games", "+-5"], "not a whole number"),
    (["simulate", "--games", "\u0661\u0662"], "not a whole number"),  # Arabic-Indic digits
    (["simulate", "--rollouts", "10000000000"], "must be at most 1,000,000"),
    (["tournament", "--games", "10000000000000"], "must be at most 1,000,000,000,000"),
    (["tournament", "--workers", "100000"], "must be at most 1,024"),
    (["tournament", "--chunk-size", "1000000000"], "must be at most 100,000,000"),
    (["tournament", "--time-limit", "nan"], "must be a positive number of seconds"),
    (["tournament", "--time-limit", "-1"], "must be a positive number of seconds"),
    (["odds", "x.json", "--samples", "18446744073709551616"], "must be at most 100,000,000"),
    (["odds", "x.json", "--player", "9" * 100], "not a whole number"),
]


@pytest.mark.parametrize(("args", "message"), HOSTILE, ids=[" ".join(a)[:40] for a, _ in HOSTILE])
def test_hostile_arguments_give_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert message in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_hostile_invocations_from_the_shell_give_one_line(tmp_path: Path) -> None:
    """The issue's cases that went past argparse, through real processes."""
    pytest.importorskip("distributed")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    huge = tmp_path / "huge.json"
    huge.write_text(" " * 2_000_000)
    cases = [
        (["tournament", "--dask", "not-an-address", "--games", "10"], "missing port number"),
        (["tournament", "--dask", "foo://x", "--games", "10"], "unknown scheme 'foo'"),
        (["tournament", "--dask", "tcp://127.0.0.1:99999", "--games", "10"], "port 99999 is not in 1..65535"),
        (["odds", str(deep)], "nested deeper than a save can be"),
        (["odds", str(huge)], "more than a save can be"),
    ]
    for args, message in cases:
        result = run(*args)
        assert result.returncode == 1, (args, result.stderr)
        assert message in result.stderr and result.stderr.count("\n") == 1, (args, result.stderr)
        assert_clean(result)


def test_the_largest_seed_plays_without_overflowing_the_bots_seeds() -> None:
    result = run("demo", "--seed", "18446744073709551615", "--players", "3")
    assert result.returncode == 0 and result.stderr == "" and "game over" in result.stdout
    moves = "+-5\n--3\n\u00b2\n" + "9" * 5000 + "\n1e9\nquit\n"
    result = run("play", "--seed", "18446744073709551615", stdin=moves)
    assert result.returncode == 0, result.stderr
    assert_clean(result)
    assert result.stdout.count("not understood") == 4 and "there is no move 999999999999" in result.stdout


# --------------------------------------------------------------------- play


def test_a_whole_game_of_play_to_the_end() -> None:
    result = run("play", "--seed", "5", "--bot", "random", stdin="1\n" * 200)
    assert result.returncode == 0 and result.stderr == ""
    out = result.stdout
    assert out.startswith("Ordonnance, 2 players, seed 5: you are player 0, against Random (player 1).")
    assert "your hand: " in out and "your moves:" in out and "  play " in out
    assert "you play " in out and "Random (p1) plays " in out and "is decided:" in out
    last = out.strip().splitlines()[-1]
    assert last in ("game over: you win!", "game over: Random (p1) wins", "game over: nobody wins")
    assert run("play", "--seed", "5", "--bot", "random", stdin="1\n" * 200).stdout == out  # seeded: the same game


def test_play_survives_bad_input_at_every_prompt() -> None:
    mistakes = "garbage\n999\n0\n\n-1\nXQ tripoli\nclaim atlantis\nhelp\nboard\n"
    result = run("play", "--seed", "11", "--bot", "greedy", stdin=(mistakes + "1\n") * 120)
    assert result.returncode == 0 and result.stderr == ""
    out = result.stdout
    assert "game over:" in out
    turns = out.count("\nyou play ") + out.count("\nyou claim ") + out.count("\nyou pass")
    assert turns >= 10
    assert out.count("your move (") == 10 * turns  # every mistake was answered with a new prompt
    assert out.count("not understood: 'garbage'") == turns
    assert out.count("not understood: 'XQ tripoli'") == turns
    assert out.count("there is no move 999: choose a number from 1 to") == turns
    assert out.count("there is no move 0:") == turns and out.count("there is no move -1:") == turns
    assert out.count("no territory called 'atlantis'") == turns
    assert out.count("\ntype a move number from 1 to") == turns  # the empty line
    assert out.count("Army strength: count") == turns  # help
    assert_clean(result)


def test_play_explains_moves_typed_as_text() -> None:
    # seed 7 deals player 0: LSHF LS LBSF BSF B LBS
    result = run("play", "--seed", "7", stdin="SH cyprus\nLS edessa\n")
    out = result.stdout
    assert "you have no SH in your hand" in out
    assert "you play LS to Edessa" in out
    assert result.returncode == 0 and out.rstrip().endswith("bye")


@pytest.mark.parametrize("stdin", ["", "1\n3\n"], ids=["at-once", "mid-game"])
def test_end_of_input_leaves_the_game_cleanly(stdin: str) -> None:
    result = run("play", "--seed", "3", stdin=stdin)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.rstrip().endswith("bye")


def test_quit_leaves_and_saves_the_game_for_odds(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    result = run("play", "--seed", "4", "--save", str(saved), stdin="1\n2\n3\nquit\n")
    assert result.returncode == 0 and f"game saved to {saved}" in result.stdout
    game = od.Game.from_json(saved.read_text())
    assert game.plays == 6 and not game.is_over
    odds = run("odds", str(saved))
    assert odds.returncode == 0 and odds.stderr == ""
    lines = odds.stdout.splitlines()
    assert "odds of each territory if the missing cards fall at random (public information):" in lines
    for territory in od.Territory:
        assert any(line.startswith(f"  {territory.label}: player 0 ") for line in lines)


def test_ctrl_c_leaves_the_game_without_a_traceback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "ordonnance", "play", "--seed", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    seen = b""
    while b"quit)> " not in seen:  # wait for the first prompt
        data = os.read(process.stdout.fileno(), 4096)
        assert data, "the game ended before its first prompt"
        seen += data
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"interrupted" in seen + out and b"Traceback" not in err


@pytest.mark.parametrize("players", [3, 4])
def test_play_with_more_players_from_another_seat(players: int) -> None:
    result = run("play", "--seed", "1", "--players", str(players), "--seat", "1", "--bot", "random", stdin="1\n" * 300)
    assert result.returncode == 0 and result.stderr == ""
    assert f"you are player 1, against Random (player 0), Random (player 2)" in result.stdout
    assert "game over:" in result.stdout


def test_play_against_the_ismcts_bot() -> None:
    bot = "ismcts" if JIT else "ismcts:2"  # without the JIT: about a second a decision
    result = run("play", "--seed", "6", "--bot", bot, stdin="1\n2\nquit\n")
    assert result.returncode == 0, result.stderr
    title = "ISMCTS" if JIT else "ISMCTS (2 iterations)"
    assert f"against {title} (player 1)" in result.stdout and f"{title} (p1) plays" in result.stdout


def test_play_against_the_monte_carlo_bot() -> None:
    has_monte_carlo = hasattr(od.bots, "MonteCarlo") or importlib.util.find_spec("ordonnance._montecarlo") is not None
    result = run("play", "--seed", "6", "--bot", "montecarlo", stdin="1\n2\nquit\n")
    if not has_monte_carlo:
        assert result.returncode == 2 and "montecarlo bot is not available" in result.stderr
        return
    assert result.returncode == 0, result.stderr
    assert "against MonteCarlo (player 1)" in result.stdout and "MonteCarlo (p1) plays" in result.stdout


def test_the_installed_script_runs_the_same_command_line() -> None:
    script = Path(sys.executable).parent / "ordonnance"
    if not script.exists():
        pytest.skip("the ordonnance script is not installed next to this Python")
    result = subprocess.run(
        [str(script), "play", "--seed", "5"], input="quit\n", capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0 and "seed 5: you are player 0" in result.stdout


# --------------------------------------------------------------------- odds


def _midgame(tmp_path: Path) -> Path:
    game = od.Game.new(od.Rules(), seed=7)
    bots: list[od.bots.Bot] = [od.bots.Greedy(seed=1), od.bots.Random(seed=2)]
    for _ in range(24):
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    path = tmp_path / "midgame.json"
    path.write_text(game.to_json())
    return path


def test_odds_of_a_saved_game(tmp_path: Path) -> None:
    path = _midgame(tmp_path)
    result = run("odds", str(path), "--samples", "2000")
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["player", "0"]  # the table comes first
    odds = [line for line in lines if line.startswith("  ") and ": player 0 " in line]
    assert [line.split(":")[0].strip() for line in odds] == [t.label for t in od.Territory]
    for line in odds:
        assert "%" in line and ("exact" in line or "2,000 samples" in line)
    viewer = run("odds", str(path), "--player", "1", "--samples", "2000")
    assert viewer.returncode == 0 and "(what player 1 can see)" in viewer.stdout
    piped = run("odds", "-", "--samples", "2000", stdin=path.read_text())
    assert piped.returncode == 0 and piped.stdout == result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{not json", "is not a valid saved game: invalid game JSON: not JSON"),
        ('{"format": "ordonnance.game", "version": 99}', "is not a valid saved game"),
        ("[1, 2, 3]", "is not a valid saved game"),
        (b"\xff\xfe\x00binary", "is not a text file"),
    ],
    ids=["missing", "not-json", "bad-game", "not-an-object", "binary"],
)
def test_a_bad_file_gives_one_line_and_status_1(tmp_path: Path, content: str | bytes | None, message: str) -> None:
    path = tmp_path / "game.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    result = run("odds", str(path))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("ordonnance odds: error: ")
    assert message in result.stderr


def test_odds_refuses_a_seat_the_game_does_not_have(tmp_path: Path) -> None:
    result = run("odds", str(_midgame(tmp_path)), "--player", "2")
    assert result.returncode == 2 and "--player must be 0..1" in result.stderr


# --------------------------------------------------------------------- simulate, tournament, bench


def test_simulate_prints_the_summary() -> None:
    games = "2000" if JIT else "200"
    result = run(
        "simulate", "--games", games, "--bots", "greedy,random", "--tie-break", "lowest-marker-sum", "--seed", "3"
    )
    assert result.returncode == 0 and result.stderr == ""
    out = result.stdout
    assert f"simulate: {int(games):,} games, 2 players, seed 3: player 0 = Greedy, player 1 = Random" in out
    assert "tie_break=lowest_marker_sum" in out
    assert f"{int(games):,} games\n  player 0 wins" in out and "first-player advantage" in out
    assert "games/s" in out.splitlines()[-1]


def test_simulate_with_every_rules_flag_and_four_players() -> None:
    result = run(
        "simulate", "--games", "100", "--players", "4", "--bots", "greedy", "--auto-claim", "--claim-proof", "private"
    )
    assert result.returncode == 0, result.stderr
    assert "player 3 = Greedy" in result.stdout and "claim_proof=private, auto_claim=True" in result.stdout
    assert "player 3 wins" in result.stdout


def _table(out: str) -> list[str]:
    """The tournament's table, without the timing line."""
    return [line for line in out.splitlines() if "games/s" not in line]


def test_tournament_tables_are_the_same_on_every_executor() -> None:
    games = "400" if JIT else "80"
    common = ["tournament", "--bots", "greedy,random,random", "--games", games, "--seed", "4", "--chunk-size", "20"]
    serial = run(*common, "--serial")
    assert serial.returncode == 0 and serial.stderr == ""
    out = serial.stdout
    assert "tournament: 3 bots, 2 players a game, 6 seatings x" in out
    assert "\n   1  greedy " in out and "random-1" in out and "random-2" in out
    assert "pairwise score" in out and "wins by seat:" in out
    pooled = run(*common, "--workers", "2")
    assert pooled.returncode == 0 and pooled.stderr == ""  # no progress bar in a pipe
    assert _table(pooled.stdout) == _table(out)
    if importlib.util.find_spec("distributed") is not None:
        on_dask = run(*common, "--dask", "local", "--workers", "2")
        assert on_dask.returncode == 0, on_dask.stderr
        assert _table(on_dask.stdout) == _table(out)


def test_ctrl_c_stops_a_tournament_and_its_workers_without_a_traceback() -> None:
    # A terminal sends Ctrl-C to the whole process group: the command and its workers.
    process = subprocess.Popen(
        [sys.executable, "-m", "ordonnance", "tournament", "--games", "100000000", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert process.stdout is not None
    assert process.stdout.readline().startswith(b"rules: ")  # the tournament is starting
    time.sleep(1.0)  # let the workers start (Ctrl-C at any moment must be clean anyway)
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:  # never leave it running, whatever failed
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130
    assert err.decode().strip() == "interrupted"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the workers from Linux /proc")
def test_timeout_stops_a_tournament_and_its_workers() -> None:
    # timeout(1) sends SIGTERM to the command only: it must take its workers with it.
    process = subprocess.Popen(
        [sys.executable, "-m", "ordonnance", "tournament", "--games", "100000000", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert process.stdout is not None
    try:
        assert process.stdout.readline().startswith(b"rules: ")
        children: set[int] = set()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(children) < 3:  # two workers and the resource tracker
            time.sleep(0.2)
            children = {int(c) for task in Path(f"/proc/{process.pid}/task").iterdir()
                        for c in (task / "children").read_text().split()}  # fmt: skip
        assert len(children) >= 3, children
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == -signal.SIGTERM and b"Traceback" not in err
    assert not [child for child in children if Path(f"/proc/{child}").exists()]


def test_tournament_progress_can_be_forced_in_a_pipe() -> None:
    result = run("tournament", "--games", "100", "--serial", "--progress")
    assert result.returncode == 0 and "tournament: 100%" in result.stderr


def test_tournament_with_the_monte_carlo_bot() -> None:
    if not (hasattr(od.bots, "MonteCarlo") or importlib.util.find_spec("ordonnance._montecarlo") is not None):
        pytest.skip("no MonteCarlo bot in this version")
    result = run("tournament", "--bots", "greedy,montecarlo", "--games", "2", "--rollouts", "8", "--serial")
    assert result.returncode == 0, result.stderr
    assert "montecarlo" in result.stdout and "2 seatings x 1 deals = 2 games" in result.stdout


def test_ladder_rates_bots_from_random_with_budgets_as_named() -> None:
    # Without the JIT a searching bot takes about a second a decision, whatever its budget.
    games, bots = ("200", "random,greedy,montecarlo:8,ismcts:16") if JIT else ("12", "random,greedy")
    result = run("ladder", "--bots", bots, "--games", games, "--seed", "3", "--serial")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    out = result.stdout
    assert "Bradley-Terry Elo, random = 0, 95% intervals" in out and "pairwise score" in out
    rows = {line.split()[1]: line.split() for line in out.splitlines() if line[:4].strip().isdigit()}
    assert set(rows) == set(bots.split(","))
    assert rows["random"][2:4] == ["0", "anchor"]
    anchored = run("ladder", "--bots", "random,greedy", "--games", games, "--seed", "3", "--serial", "--anchor", "greedy")
    assert anchored.returncode == 0 and "greedy = 0" in anchored.stdout
    same = run("ladder", "--bots", bots, "--games", games, "--seed", "3", "--workers", "2")
    assert _table(same.stdout) == _table(out)


def test_tournament_on_an_unreachable_dask_scheduler_is_one_line() -> None:
    pytest.importorskip("distributed")
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}
    result = subprocess.run(
        [sys.executable, "-m", "ordonnance", "tournament", "--dask", "tcp://127.0.0.1:9", "--games", "10"],
        capture_output=True, text=True, timeout=120, check=False, env=env,
    )  # fmt: skip
    assert result.returncode == 1 and "cannot reach the Dask scheduler 'tcp://127.0.0.1:9'" in result.stderr
    assert_clean(result)


def test_bench_prints_a_table_of_headline_figures() -> None:
    result = run("bench", "--quick")
    assert result.returncode == 0 and result.stderr == ""
    out = result.stdout
    for figure in ("army_keys, 20,000 armies", "memory pass", "best_completion_key, empty army vs 56 cards",
                   "simulate, 2p Random vs Random", "Game API: legal_actions + apply"):  # fmt: skip
        assert figure in out
    for unit in ("armies/s", "us/call", "games/s", "decisions/s"):
        assert unit in out
