"""``ordonnance lab ...``: the studies on the command line, their errors as the other commands give them."""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import ordonnance as od
from ordonnance import black_prince as bp
from ordonnance import lab, shinobi
from ordonnance.__main__ import build_parser, main
from ordonnance.lab.cli import parse_changes, variant_of

Cli = Callable[..., tuple[int, str, str]]
SMALL = ["--games", "300", "--trace-games", "5", "--skill-games", "40", "--quiet"]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    def call(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        capsys.readouterr()
        try:
            status = main(list(args))
        except SystemExit as exit:
            status = exit.code if isinstance(exit.code, int) else 1
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        err = "".join(line for line in err.splitlines(keepends=True) if not line.startswith("ordonnance: compiling "))
        return status, out, err

    return call


def _table(out: str) -> list[list[str]]:
    return [line.split() for line in out.split("\n\n")[0].splitlines()]


def test_metrics_prints_the_studys_table(cli: Cli) -> None:
    status, out, err = cli("lab", "metrics", *SMALL, "--seed", "4")
    assert status == 0 and err == ""
    study = lab.metrics(od.Rules(), games=300, seed=4, trace_games=5, skill_games=40, progress=False)
    assert out.split("\n\n")[0] == study.text()
    assert "# call: ordonnance lab metrics --games 300 --seed 4 --trace-games 5 --skill-games 40" in out


@pytest.mark.parametrize(
    ("game", "options", "rules"),
    [
        ("shinobi", ["--players", "3", "--attack", "optional"], shinobi.Rules(players=3, attack="optional")),
        ("black-prince", ["--armies", "Scottish", "French"], bp.Rules(armies=("Scottish", "French"))),
    ],
)
def test_the_recorded_command_plays_the_same_study_again(cli: Cli, game: str, options: list[str], rules: object) -> None:
    status, out, _ = cli("lab", "metrics", "--game", game, *options, *SMALL, "--bots", "greedy")
    assert status == 0
    command = next(line for line in out.splitlines() if line.startswith("# call: "))[len("# call: "):]
    again = shlex.split(command)[1:] + ["--quiet"]
    status, out_again, _ = cli(*again)
    assert status == 0 and out_again.split("\n\n")[0] == out.split("\n\n")[0]
    recorded = next(line for line in out.splitlines() if line.startswith("# rules: "))[len("# rules: "):]
    assert json.loads(recorded) == {"game": game, "rules": rules.to_dict()}  # type: ignore[attr-defined]


def test_compare_pairs_a_variant(cli: Cli) -> None:
    status, out, err = cli("lab", "compare", "--variant", "auto-claim=true", *SMALL)
    assert status == 0 and err == ""
    study = lab.compare(od.Rules(), od.Rules(auto_claim=True), games=300, seed=1, trace_games=5, skill_games=40,
                        progress=False)  # fmt: skip
    assert out.split("\n\n")[0] == study.text()
    assert "identical deals" in out and "unpaired_games" in out


def test_compare_other_player_counts_with_their_bots(cli: Cli) -> None:
    status, out, _ = cli("lab", "compare", "--game", "shinobi", "--variant", "players=5", "--bots", "greedy,greedy,random,random",
                         "--variant-bots", "greedy,random,random,random,random", *SMALL)  # fmt: skip
    assert status == 0
    assert "variant: shinobi.bots.Random(seed=4)" in out and "player counts differ" in out


def test_written_tables(cli: Cli, tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    status, out, _ = cli("lab", "metrics", *SMALL, "-o", str(tmp_path / "m.csv"))
    assert status == 0 and f"# table written to {tmp_path / 'm.csv'}" in out
    frame = pd.read_csv(tmp_path / "m.csv")
    assert len(frame) == len(_table(out)) - 1 and list(frame.columns) == _table(out)[0]
    pytest.importorskip("pyarrow")
    status, _, _ = cli("lab", "compare", "--variant", "scoring=points", *SMALL, "-o", str(tmp_path / "c.parquet"))
    assert status == 0 and "unpaired_games" in pd.read_parquet(tmp_path / "c.parquet").columns


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["compare", "--variant", "colour=red"], "--variant: unknown rules field(s): 'colour'"),
        (["compare", "--variant", "scoring"], "a variant is FIELD=VALUE, got 'scoring'"),
        (["compare", "--variant", "players=9"], "players"),
        (["compare", "--game", "shinobi", "--variant", "players=5", "--bots", "greedy,greedy,random,random"], "--variant-bots"),
        (["compare", "--variant", "players=3", "--bots", "greedy,random", "--variant-bots", "robot"], "unknown bot 'robot'"),
        (["compare", *SMALL], "--variant"),
        (["metrics", "-o", "table.txt"], "--output must end in .csv or .parquet, got 'table.txt'"),
        (["metrics", "--games", "0"], "--games"),
        (["metrics", "--bots", "greedy,random,random"], "--bots must name 1 bot or 2"),
        (["metrics", "--skill-games", "-2"], "skill_games must be 0..100000000, got -2"),
    ],
)
def test_bad_arguments_get_one_line(cli: Cli, args: list[str], message: str) -> None:
    status, out, err = cli("lab", *args)
    assert status in (1, 2) and out == ""
    assert err.startswith("ordonnance lab") and message in err and len(err.splitlines()) == 1


def test_an_unwritable_output_is_one_line(cli: Cli, tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    status, _, err = cli("lab", "metrics", *SMALL, "-o", str(tmp_path / "missing" / "m.csv"))
    assert status == 1 and err.startswith("ordonnance lab metrics: error: cannot write")


def test_ctrl_c_prints_what_was_played_and_exits_130(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    metrics_module = importlib.import_module("ordonnance.lab.measures")
    real, calls = metrics_module._read, []

    def interrupted(*args: object) -> object:
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(metrics_module, "_read", interrupted)
    status, out, _ = cli("lab", "metrics", "--games", "5000", "--quiet")
    assert status == 130 and "stopped by Ctrl-C" in out and "win rate" in out


def test_help(cli: Cli) -> None:
    status, out, _ = cli("lab", "--help")
    assert status == 0 and "metrics" in out and "compare" in out and "Examples:" in out
    status, out, _ = cli("lab", "compare", "--game", "black-prince", "--help")
    assert status == 0 and "--armies" in out and "--variant FIELD=VALUE" in out
    assert "see 'ordonnance lab compare --game NAME --help'" in " ".join(out.split())
    assert "lab" in build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]


def test_variants_by_hand() -> None:
    assert parse_changes(['armies=["Scottish", "French"]', "first=coin"]) == {"armies": ["Scottish", "French"], "first": "coin"}
    assert variant_of(od.Rules(), {"tie_break": "lowest-marker-sum"}) == od.Rules(tie_break="lowest_marker_sum")
    assert variant_of(bp.Rules(), {"armies": ["Scottish", "French"]}) == bp.Rules(armies=("Scottish", "French"))


@pytest.mark.parametrize("game", ["ordonnance", "shinobi", "black-prince"])
def test_every_option_refuses_bad_values_in_one_line(cli: Cli, game: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    import argparse

    from tests.hostile.test_command_line import BAD_VALUES

    monkeypatch.chdir(tmp_path)
    commands = next(a for a in build_parser(game)._actions if isinstance(a, argparse._SubParsersAction))
    studies = next(a for a in commands.choices["lab"]._actions if isinstance(a, argparse._SubParsersAction))
    tried = 0
    for study, parser in studies.choices.items():
        if study == "report" or (study == "matchups" and game == "ordonnance"):
            continue
        known = {option for action in parser._actions for option in action.option_strings}
        cheap = ["--games", "20", "--quiet", "--game", game]
        cheap += [word for option in ("--trace-games", "--skill-games") if option in known for word in (option, "0")]
        cheap += ["--kinds", {"ordonnance": "L", "shinobi": "Oda", "black-prince": "0:Battle"}[game]] if study == "cards" else []
        cheap += ["--counts", "3"] if study == "matchups" and game == "shinobi" else []
        cheap += ["--target", "first-player advantage=..1", "--budget", "2", "--confirm-games", "20", "--keep", "1"] \
            if study == "tune" else []
        variant = ["--variant", "max_turns=50" if game == "black-prince" else "attack=optional" if game == "shinobi" else "auto_claim=true"]
        for action in parser._actions:
            if not action.option_strings or action.nargs == 0 or action.dest in ("help", "game"):
                continue
            for value in BAD_VALUES:
                args = ["lab", study, *cheap, *(variant if study == "compare" else []), action.option_strings[-1], value]
                if action.nargs == 2:
                    args.append(value)
                status, out, err = cli(*args)
                tried += 1
                assert status in (0, 1, 2), (args, status)
                if status:
                    assert out == "" and len(err.splitlines()) == 1 and err.startswith("ordonnance lab"), (args, err)
    assert tried > 150


def _html(path: Path) -> str:
    from html.parser import HTMLParser

    text = path.read_text(encoding="utf-8")
    HTMLParser().feed(text)
    return text


def test_report_writes_the_studys_html_with_the_command_that_makes_it_again(cli: Cli, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "r.html"
    status, out, err = cli("lab", "report", "metrics", *SMALL, "--seed", "5", "-o", str(path))
    assert status == 0 and err == "" and f"# report written to {path}" in out
    study = lab.metrics(od.Rules(), games=300, seed=5, trace_games=5, skill_games=40, progress=False)
    assert out.split("\n\n")[0] == study.text()
    page = _html(path)
    command = f"ordonnance lab report metrics --games 300 --seed 5 --trace-games 5 --skill-games 40 -o {path}"
    assert command in page and "data:image/svg+xml;base64," in page and study.record.version in page
    status, _, _ = cli(*shlex.split(command)[1:], "--quiet")
    assert status == 0 and _html(path).count("<tr>") == page.count("<tr>")


@pytest.mark.parametrize(
    ("args", "metric"),
    [
        (["compare", "--variant", "scoring=points", *SMALL], "win rate"),
        (["cards", "--kinds", "L", "--games", "100", "--quiet"], "holder win rate change"),
        (["cards", "--game", "black-prince", "--kinds", "0:Battle", "--swap", "1:Battle=1:Knights 3", "--games", "50",
          "--quiet"], "holder win rate change"),
        (["matchups", "--game", "black-prince", "--games", "30", "--quiet"], "army score"),
        (["matchups", "--game", "shinobi", "--counts", "3", "4", "--games", "30", "--quiet"], "shared win rate"),
    ],
)  # fmt: skip
def test_every_study_reports(cli: Cli, tmp_path: Path, args: list[str], metric: str) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "r.html"
    status, out, err = cli("lab", "report", *args, "-o", str(path))
    assert status == 0 and err == "", err
    page = _html(path)
    assert metric in page and page.count("<img ") >= 1
    assert "ordonnance lab report " + args[0] in page


def test_cards_and_matchups_print_the_studys_table(cli: Cli) -> None:
    status, out, _ = cli("lab", "cards", "--kinds", "L,LS", "--changes", "add", "--games", "100", "--seed", "3", "--quiet")
    study = lab.card_values(od.Rules(), kinds=["L", "LS"], changes=["add"], games=100, seed=3, progress=False)
    assert status == 0 and out.split("\n\n")[0] == study.text()
    status, out, _ = cli("lab", "matchups", "--game", "shinobi", "--counts", "3", "--games", "50", "--bots", "random",
                         "--quiet")  # fmt: skip
    study = lab.matchups(shinobi.Rules(), counts=[3], games=50, seed=1, players=shinobi.bots.Random, progress=False)
    assert status == 0 and out.split("\n\n")[0] == study.text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["report", "metrics", "-o", "r.txt"], "--output must end in .html, got 'r.txt'"),
        (["report", "metrics"], "-o/--output"),
        (["report"], "STUDY"),
        (["cards", "--kinds", "ZZ"], "got 'ZZ'"),
        (["cards", "--swap", "L"], "a swap is KIND=OTHER, got 'L'"),
        (["cards", "--changes", "double"], "double"),
        (["matchups"], "not of 'ordonnance'"),
        (["matchups", "--game", "shinobi", "--counts", "7"], "7"),
        (["matchups", "--game", "black-prince", "--bots", "greedy,random"], "--bots must name 1 bot"),
    ],
)
def test_new_commands_refuse_bad_arguments_in_one_line(cli: Cli, args: list[str], message: str) -> None:
    status, out, err = cli("lab", *args)
    assert status == 2 and out == ""
    assert err.startswith("ordonnance lab") and message in err and len(err.splitlines()) == 1, err


def test_ctrl_c_during_a_report_writes_what_was_measured(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    real, calls = bp.simulate, []

    def interrupted(*args: object, **kwargs: object) -> object:
        calls.append(args)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bp, "simulate", interrupted)
    path = tmp_path / "r.html"
    status, out, _ = cli("lab", "report", "matchups", "--game", "black-prince", "--games", "20", "--quiet", "-o", str(path))
    assert status == 130 and "stopped by Ctrl-C: 2 of the 16 cells played" in out
    page = _html(path)
    assert "stopped by Ctrl-C" in page and page.count("<td>army score</td>") == 2


def test_tune_prints_the_tuners_table_and_reports_its_progress(cli: Cli, tmp_path: Path) -> None:
    pytest.importorskip("optuna")
    options = ["--budget", "3", "--games", "40", "--confirm-games", "60", "--keep", "1", "--seed", "2", "--quiet"]
    status, out, err = cli("lab", "tune", "--target", "win rate[seat=0]=0.45..0.55", *options)
    tuned = lab.tune(od.Rules(), targets=[lab.target("win rate", 0.45, 0.55, seat=0)], budget=3, games=40,
                     confirm_games=60, keep=1, seed=2, progress=False)  # fmt: skip
    assert status == 0 and err == "" and out.split("\n\n")[0] == tuned.text()
    assert "# call: ordonnance lab tune --games 40 --seed 2 --target 'win rate[seat=0]=0.45..0.55' --budget 3" in out
    if importlib.util.find_spec("matplotlib") is not None:
        status, out, _ = cli("lab", "report", "tune", "--target", "first-player advantage=..0.1", *options,
                             "-o", str(tmp_path / "t.html"))  # fmt: skip
        assert status == 0 and "Rules tuner" in _html(tmp_path / "t.html")


def test_tune_searches_the_space_its_options_name(cli: Cli) -> None:
    pytest.importorskip("optuna")
    options = ["--budget", "4", "--games", "40", "--confirm-games", "40", "--keep", "2", "--seed", "3", "--quiet"]
    space = ["--option", "max_turns=50,100", "--option", "first", "--cards", "0:Battle", "--spread", "2"]
    status, out, err = cli("lab", "tune", "--game", "black-prince", "--target", "win rate[seat=0]=0.45..0.55",
                           *options, *space)  # fmt: skip
    wanted = lab.Space.of(bp.Rules(), options={"max_turns": (50, 100), "first": ("seat0", "coin")},
                          cards=["0:Battle"], spread=2)  # fmt: skip
    tuned = lab.tune(bp.Rules(), targets=[lab.target("win rate", 0.45, 0.55, seat=0)], space=wanted, budget=4,
                     games=40, confirm_games=40, keep=2, seed=3, progress=False)  # fmt: skip
    assert status == 0 and err == "" and out.split("\n\n")[0] == tuned.text()
    assert "--option max_turns=50,100 --option first --cards 0:Battle --spread 2" in out
    status, out, err = cli("lab", "tune", "--game", "black-prince", "--target", "win rate[seat=0]=0.45..0.55",
                           *options, "--option", "max_turns=50", "--cards")  # fmt: skip
    none = lab.tune(bp.Rules(), targets=[lab.target("win rate", 0.45, 0.55, seat=0)], budget=4, games=40,
                    space=lab.Space.of(bp.Rules(), options={"max_turns": (50,)}, cards=()), confirm_games=40, keep=2,
                    seed=3, progress=False)  # fmt: skip
    assert status == 0 and out.split("\n\n")[0] == none.text()


def test_parse_options() -> None:
    from ordonnance.lab.cli import parse_options

    assert parse_options(None) is None
    assert parse_options(["attack", "ninjas=2,4"]) == {"attack": None, "ninjas": (2, 4)}
    for bad in (["=1"], ["ninjas="]):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_options(bad)


def test_parse_target() -> None:
    from ordonnance.lab.cli import parse_target

    assert parse_target("lead changes[stat=mean]=2..") == lab.target("lead changes", 2.0, None, stat="mean")
    assert parse_target("stronger bot wins[strong=Greedy,weak=Random]=0.6..0.9") == lab.target(
        "stronger bot wins", 0.6, 0.9, strong="Greedy", weak="Random")  # fmt: skip
    for bad in ("win rate", "win rate=1", "win rate[seat=0=0..1", "win rate[seat]=0..1", "=0..1", "x=b..1", "x=1..0"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_target(bad)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tune"], "--target"),
        (["tune", "--target", "x=1"], "a target is METRIC"),
        (["tune", "--target", "x=0..1", "--penalty", "-1"], "--penalty: must be a number >= 0, got '-1'"),
        (["tune", "--target", "x=0..1", "--budget", "0"], "--budget"),
        (["tune", "--target", "x=0..1", "--option", "players"], "players has no short list of values"),
        (["tune", "--target", "x=0..1", "--option", "nonsense=1"], "has no option 'nonsense'"),
        (["tune", "--target", "x=0..1", "--option", "nonsense"], "has no option 'nonsense'"),
        (["tune", "--target", "x=0..1", "--option", "ninjas="], "--option ninjas= lists no value"),
        (["tune", "--target", "x=0..1", "--cards", "Nope"], "Nope"),
    ],
)
def test_tune_refuses_bad_arguments_in_one_line(cli: Cli, args: list[str], message: str) -> None:
    status, out, err = cli("lab", *args)
    assert status == 2 and out == "" and message in err and len(err.splitlines()) == 1, err


def test_ctrl_c_stops_the_tuner_with_what_it_found(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("optuna")
    from ordonnance.lab import tuner

    real, calls = tuner._Search.evaluate, []

    def interrupted(self: object, key: object) -> float:
        calls.append(key)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, key)  # type: ignore[arg-type]

    monkeypatch.setattr(tuner._Search, "evaluate", interrupted)
    status, out, _ = cli("lab", "tune", "--target", "first-player advantage=..0.1", "--budget", "50", "--games", "30",
                         "--confirm-games", "30", "--keep", "1", "--quiet")  # fmt: skip
    assert status == 130 and "target miss" in out and len(calls) == 3
