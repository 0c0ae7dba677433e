"""Ctrl-C stops a long simulate in every game: the command line with status 130 and one line,
the Python API with KeyboardInterrupt (issue 34, defect 3).

Numba code cannot be interrupted, so ``simulate`` hands its games to the kernel a fraction
of a second at a time. These tests signal a run once its games are being played (a marker,
not a fixed sleep) and ask only that it stops, well within a generous bound: the machine
running the tests may be busy.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

import ordonnance as od
from ordonnance import black_prince as bp
from ordonnance import shinobi

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name == "nt", reason="POSIX signals")

#: Seconds the interrupted process may take to stop: far more than it needs (a chunk of
#: games is about 0.2 s), so that a busy machine does not fail the test.
BOUND = 30

MODULES: dict[str, Any] = {"ordonnance": od, "shinobi": shinobi, "black-prince": bp}

# Runs of seconds to a minute or more on an idle machine, with little memory: the built-in
# bots on kernels that the other tests compile too.
COMMANDS = {
    "ordonnance": ["--games", "5000000"],
    "shinobi": ["--bots", "greedy", "--games", "500000"],
    "black-prince": ["--games", "2000000"],
}

#: Runs ``ordonnance simulate ...`` and writes a marker on stderr as the second kernel call
#: starts (the kernel is then compiled and the games are being played; a run in one kernel
#: call never writes it).
_MARKED_MAIN = """
import importlib
import sys
from ordonnance.core import registry
from ordonnance.__main__ import main

hooks = importlib.import_module(registry.package(sys.argv[1]).__name__ + ".simulation").HOOKS
run_kernel = hooks.run_kernel

calls = []

def marked(call):
    calls.append(len(call.seeds))
    if len(calls) == 2:
        print("GAMES RUNNING", file=sys.stderr, flush=True)
    run_kernel(call)

hooks.run_kernel = marked
sys.exit(main(["simulate", "--game", *sys.argv[1:]]))
"""


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as a terminal's foreground command has it (not ignored)


@pytest.mark.parametrize("game", list(COMMANDS))
def test_ctrl_c_stops_the_command_line_simulate_with_status_130_and_one_line(game: str) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", _MARKED_MAIN, game, *COMMANDS[game]],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint,
    )  # fmt: skip
    try:
        before = []
        for line in process.stderr:  # type: ignore[union-attr]
            before.append(line)
            if line.strip() == "GAMES RUNNING":
                break
        assert process.poll() is None, "".join(before)
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=BOUND)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines() == ["interrupted"]


@pytest.mark.parametrize("game", list(MODULES))
def test_ctrl_c_raises_keyboard_interrupt_from_simulate_before_the_games_are_done(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("KeyboardInterrupt is raised in the main thread only")
    module = MODULES[game]
    hooks = module.simulation.HOOKS
    # compiled, a chunk plays thousands of games; in Python (NUMBA_DISABLE_JIT=1) even the seeds of
    # 2,000,000 games take a minute on a busy machine before the first chunk is handed over
    games = 2_000_000 if os.environ.get("NUMBA_DISABLE_JIT") != "1" else 20_000
    started = threading.Event()
    ended = threading.Event()
    handed = [0]  # games handed to the kernel
    run_kernel = hooks.run_kernel

    def counted(call: Any) -> None:
        handed[0] += len(call.seeds)
        started.set()
        run_kernel(call)

    def interrupt() -> None:
        # however long the first chunk takes to come (a signal never sent would leave the whole
        # run to play), and never once the test has ended
        while not started.wait(0.05):
            if ended.is_set():
                return
        os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(hooks, "run_kernel", counted)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # even where the runner ignores Ctrl-C
    try:
        sender = threading.Thread(target=interrupt, daemon=True)
        sender.start()
        with pytest.raises(KeyboardInterrupt):
            module.simulate(games=games, seed=1)
        sender.join(BOUND)
    finally:
        ended.set()
        signal.signal(signal.SIGINT, previous)
    assert 0 < handed[0] < games  # stopped between two kernel calls, long before the end


def test_ctrl_c_stops_a_warm_up_and_its_workers_without_a_traceback(tmp_path: Any) -> None:
    """A terminal's Ctrl-C reaches the whole process group: the workers ignore it (no traceback
    from each), and the program stops them and exits with status 130."""
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # an empty cache: it compiles
    environment.pop("ORDONNANCE_NO_COMPILE_NOTICES", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "ordonnance", "warm-up", "--game", "black-prince", "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert process.stderr is not None
    seen = b""
    while b"first uses" not in seen:  # its first line: the workers are starting
        chunk = os.read(process.stderr.fileno(), 4096)
        assert chunk, "the warm-up ended before its first line"
        seen += chunk
    deadline = time.monotonic() + BOUND
    while not _children(process.pid) and time.monotonic() < deadline:  # the workers are spawned
        time.sleep(0.05)
    time.sleep(0.5)  # they are importing the library (a Ctrl-C there printed a traceback from each)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=BOUND)
    assert process.returncode == 130, (process.returncode, err[-2000:])
    assert b"Traceback" not in seen + out + err, (seen + err)[-3000:]


def _children(pid: int) -> list[str]:
    """The process ids of ``pid``'s children (Linux's /proc; none where it is missing)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as file:
            return file.read().split()
    except OSError:
        return []


def _interrupted(run: Any, started: threading.Event) -> None:
    """Run ``run()`` while a thread sends SIGINT once ``started`` is set; it must raise KeyboardInterrupt."""
    def interrupt() -> None:
        if started.wait(BOUND):
            os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # even where the runner ignores Ctrl-C
    try:
        sender = threading.Thread(target=interrupt, daemon=True)
        sender.start()
        with pytest.raises(KeyboardInterrupt):
            run()
        sender.join(BOUND)
    finally:
        signal.signal(signal.SIGINT, previous)


SEARCHES = {
    "ordonnance MonteCarlo": lambda: od.bots.MonteCarlo(seed=1, rollouts=1_000_000),
    "ordonnance ISMCTS halving": lambda: od.bots.ISMCTS(seed=1, iterations=10_000_000),
    "shinobi MonteCarlo": lambda: shinobi.bots.MonteCarlo(seed=1, rollouts=1_000_000),
    "black-prince MonteCarlo": lambda: bp.bots.MonteCarlo(seed=1, rollouts=1_000_000),
}


@pytest.mark.parametrize("name", SEARCHES)
def test_ctrl_c_stops_a_search_of_any_budget(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A search's rounds run in slices (``core.clock.untimed``); Ctrl-C is seen between them."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("KeyboardInterrupt is raised in the main thread only")
    from ordonnance.core import clock

    bot = SEARCHES[name]()
    game = MODULES[name.split()[0]].Game.new(seed=2)
    view = game.view(game.current_player)
    bot.warm_up(view)  # compiled before the clock of the test starts
    started, handed, planned = threading.Event(), [0], [0]
    untimed = clock.untimed

    def counted(play: Any, most: int) -> int:
        def play_counted(first: int, count: int) -> int:
            started.set()
            handed[0] += count
            return int(play(first, count))

        planned[0] += most
        return untimed(play_counted, most)

    monkeypatch.setattr(clock, "untimed", counted)
    _interrupted(lambda: bot.choose(view), started)
    assert 0 < handed[0] < planned[0]  # stopped between two slices, long before the end


def test_ctrl_c_stops_an_untimed_ucb_search_and_the_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("KeyboardInterrupt is raised in the main thread only")
    from ordonnance import _ismcts, odds

    game = od.Game.new(seed=3)
    view = game.view(game.current_player)
    bot = od.bots.ISMCTS(seed=1, iterations=10_000_000, root="ucb")
    bot.warm_up(view)
    started, steps = threading.Event(), [0]
    iterate = _ismcts.iterate

    def counted(*args: Any) -> int:
        started.set()
        steps[0] += 1
        return int(iterate(*args))

    monkeypatch.setattr(_ismcts, "iterate", counted)
    _interrupted(lambda: bot.choose(view), started)
    assert 0 < steps[0] < 10_000_000 // _ismcts.UNTIMED_BATCH

    for _ in range(8):
        game.apply(game.legal_actions()[0])
    od.territory_odds(game, 1, samples=100, max_exact=0)  # compiled first (territory 0 is decided)
    started, drawn = threading.Event(), [0]
    sample = odds._sample

    def counted_samples(*args: Any) -> Any:
        started.set()
        drawn[0] += args[8]
        return sample(*args)

    monkeypatch.setattr(odds, "_sample", counted_samples)
    _interrupted(lambda: od.territory_odds(game, 1, samples=odds.MAX_SAMPLES, max_exact=0), started)
    assert 0 < drawn[0] < odds.MAX_SAMPLES
