"""The command line of every game under attack: every option of every command with bad
values, typed lines that are no move, bytes that are not UTF-8, a closed standard input, a
reader that goes away and Ctrl-C. Each gets a clear message and exit status, never a
traceback."""

from __future__ import annotations

import argparse
import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ordonnance.__main__ import build_parser, main
from ordonnance.core import registry

GAMES = registry.names()

#: Values no option of any command accepts.
BAD_VALUES = ["-1", "x", "nan", "inf", "1e999", "\u00b2", "9" * 5000, "", "18446744073709551616", "\x1b[2J", "1,,2"]

#: Options whose value is a path, which any text names (tried in an empty folder).
PATHS = {"--save"}

#: Values of this list that one option does take: a time limit of 2**64 seconds is no limit, but a number.
VALID = {("--time-limit", "18446744073709551616")}

#: Arguments that keep a command cheap when a value is accepted (the option tried comes after them).
CHEAP = {"simulate": ["--games", "2"], "tournament": ["--games", "4", "--serial"],
         "ladder": ["--games", "4", "--serial"], "odds": ["--samples", "10"]}  # fmt: skip


def options(game: str) -> dict[str, list[str]]:
    """``command -> options that take a value`` for ``game``, read from the parser itself, so that
    an option added later is attacked too."""
    parser = build_parser(game)
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {
        name: [a.option_strings[-1] for a in sub._actions if a.option_strings and a.nargs != 0 and a.dest != "help"]
        for name, sub in commands.choices.items()
        if name != "bench"  # its one option is --game
    }


def call(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``main(args)`` in this process: ``(status, stdout, stderr)``."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        status = main(args)
    except SystemExit as exit:
        status = exit.code if isinstance(exit.code, int) else 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("game", GAMES)
def test_every_option_of_every_command_refuses_bad_values_in_one_line(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    saved = tmp_path / "saved.json"
    call(["play", "--game", game, "--save", str(saved)], stdin="quit\n")
    tried, bad = 0, []
    for command, names in options(game).items():
        positional = [str(saved)] if command == "odds" else []
        if command == "odds" and game != "ordonnance":
            continue
        for option in names:
            for value in BAD_VALUES:
                if option == "--game" and value == "":
                    continue  # --game "" is the default game's own options, tried on its own
                chosen = [] if command == "odds" else ["--game", game]  # odds reads Ordonnance's saves only
                args = [command, *positional, *CHEAP.get(command, []), *chosen, option, value]
                status, out, err = call(args, stdin="quit\n")
                tried += 1
                accepted = status == 0 and (option in PATHS or (option, value) in VALID)
                clean = "Traceback" not in out + err and err.startswith("ordonnance") and err.count("\n") == 1
                if not accepted and (status not in (1, 2) or not clean):
                    bad.append(f"{' '.join(args)[:80]!r}: status {status}, stderr {err[:160]!r}")
    assert tried > 200 and not bad, f"{len(bad)} of {tried}:\n" + "\n".join(bad)


#: Lines typed at a prompt that name no move.
TYPED = ["\u00b2", "9" * 5000, "-1", "0", "+-3", "1 2 3", "\x00", "\x1b[2J", "x" * 100_000, "\ud800", " ", "\t", "help me"]


@pytest.mark.parametrize("game", GAMES)
def test_lines_that_name_no_move_are_explained_and_the_game_goes_on(game: str) -> None:
    status, out, err = call(["play", "--game", game, "--seed", "3"], stdin="\n".join(TYPED) + "\n1\nquit\n")
    assert status == 0 and "Traceback" not in out + err, err
    assert out.count("not understood") + out.count("there is no") + out.count("could be") >= len(TYPED) - 2
    assert out.rstrip().endswith("bye")


def run(args: list[str], stdin: bytes | None) -> subprocess.CompletedProcess[bytes]:
    """``python -m ordonnance ARGS`` with ``stdin`` typed in (None: a closed standard input)."""
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    given = {"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}
    return subprocess.run([sys.executable, "-m", "ordonnance", *args], capture_output=True, timeout=300,
                          check=False, env=environment, **given)  # type: ignore[call-overload]  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_bytes_that_are_not_utf8_and_then_the_end_of_input(game: str) -> None:
    result = run(["play", "--game", game, "--seed", "1"], b"\xff\n\xfe\xfd 1\n\xc3\n")
    text = result.stdout.decode() + result.stderr.decode()
    assert result.returncode == 0 and "Traceback" not in text, text[-2000:]
    assert text.count("not understood") >= 3


@pytest.mark.parametrize("game", GAMES)
def test_a_closed_standard_input_leaves_the_game(game: str) -> None:
    result = run(["play", "--game", game], None)
    assert result.returncode == 0 and b"Traceback" not in result.stdout + result.stderr


@pytest.mark.parametrize("game", GAMES)
def test_a_reader_that_goes_away_ends_the_program_quietly(game: str) -> None:
    process = subprocess.Popen([sys.executable, "-m", "ordonnance", "demo", "--game", game],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # as "| head -1" does
    err = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=300) in (0, 1) and b"Traceback" not in err, err


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a terminal's foreground command has it


@pytest.mark.parametrize("game", GAMES)
def test_ctrl_c_at_the_prompt_leaves_with_status_130(game: str) -> None:
    process = subprocess.Popen([sys.executable, "-m", "ordonnance", "play", "--game", game], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_sigint)  # fmt: skip
    assert process.stdout is not None
    seen = b""
    while b"> " not in seen:  # the prompt: it waits for the person
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, "the program ended before its prompt"
        seen += chunk
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and b"Traceback" not in seen + out + err, err
