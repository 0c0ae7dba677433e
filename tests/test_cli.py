"""The command line, driven as a person would."""

from __future__ import annotations

import subprocess
import sys

import pytest

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


def test_bad_arguments_give_usage_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["demo", "--players", "5"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 5" in err and "Traceback" not in err
