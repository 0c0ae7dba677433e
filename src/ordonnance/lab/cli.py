"""``ordonnance lab ...``: the lab's studies on the command line, for every game.

* ``ordonnance lab metrics [--game G] [rules options] [--games N] [--seed S] [--bots B,...]
  [-o FILE]``: :func:`ordonnance.lab.metrics`, the tidy table printed (and written to
  ``FILE``: ``.csv`` or ``.parquet``);
* ``ordonnance lab compare [--game G] [rules options] --variant FIELD=VALUE[,FIELD=VALUE...]
  ...``: :func:`ordonnance.lab.compare` of the rules the options describe (the base) and
  the same rules with the variant's fields changed;
* ``ordonnance lab cards [--game G] [rules options] [--kinds K,...] [--changes add,remove]
  [--swap KIND=OTHER] ...``: :func:`ordonnance.lab.card_values`;
* ``ordonnance lab matchups [--game black-prince|shinobi] [--counts N ...] ...``:
  :func:`ordonnance.lab.matchups`;
* ``ordonnance lab report STUDY [the study's options] -o report.html``: the study (any of the
  above) run and written as one self-contained HTML report (:func:`ordonnance.lab.report`).

* ``ordonnance lab tune [--game G] [rules options] --target 'METRIC[LABEL=VALUE,...]=LOW..HIGH'
  [--budget N] [--confirm-games N] [--keep N] [--penalty P] ...``: :func:`ordonnance.lab.tune`
  over the default space around the rules the options describe (every option with a short
  list of values, every card count by one copy).

A target names a metric of :func:`ordonnance.lab.metrics`, its labels in brackets and its
band (either end may be left open):

>>> parse_target("win rate[seat=0]=0.45..0.55")
Target(metric='win rate', low=0.45, high=0.55, labels=(('seat', 0),), scale=None)
>>> parse_target("first-player advantage=..0.01").high
0.01

A variant names the rules' fields as ``Rules.to_dict()`` does (``scoring``, ``auto_claim``,
``players``, ``samurai``, ``armies``...), hyphens allowed for underscores
(``tie-break=lowest-marker-sum``); each value is read as JSON when it is JSON (``3``,
``true``, ``[8, 8, 8, 8, 8]``, ``["Scottish", "French"]``) and as text otherwise
(``points``). Several changes go in one ``--variant``, separated by commas outside
brackets, or in several ``--variant`` options.

>>> parse_changes(["scoring=points,auto-claim=true", "samurai=[8, 8, 8]"])
{'scoring': 'points', 'auto_claim': True, 'samurai': [8, 8, 8]}
"""

from __future__ import annotations

import argparse
import importlib
import json
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import attrs

from ordonnance.core import cli as core
from ordonnance.core import executor_cli
from ordonnance.core import registry
from ordonnance.errors import OrdonnanceError, shown

__all__ = [
    "add_lab", "parse_changes", "parse_swaps", "variant_of", "command_line", "run_metrics", "run_compare", "run_cards",
    "run_matchups", "run_tune", "parse_target", "EXAMPLES",
]  # fmt: skip

#: The examples ``ordonnance lab --help`` shows.
EXAMPLES = (
    "ordonnance lab metrics --games 100000 --bots greedy,greedy -o metrics.csv",
    "ordonnance lab metrics --game shinobi --players 4 --games 50000",
    "ordonnance lab compare --variant auto_claim=true --games 1000000 --skill-games 0",
    "ordonnance lab compare --game shinobi --variant players=5 --games 100000",
    "ordonnance lab compare --game black-prince --variant 'armies=[\"Scottish\", \"French\"]'",
    "ordonnance lab cards --kinds L,LS,LBSHF --games 20000",
    "ordonnance lab matchups --game black-prince --games 100000",
    "ordonnance lab tune --target 'first-player advantage=-0.01..0.01' --budget 50 --games 2000",
    "ordonnance lab report compare --variant scoring=points --games 100000 -o report.html",
)


def _split(text: str) -> list[str]:
    """``text`` cut at the commas outside brackets and quotes."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "[{":
            depth += 1
        elif not quoted and char in "]}":
            depth -= 1
        elif not quoted and depth == 0 and char == ",":
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def parse_changes(texts: Sequence[str]) -> dict[str, Any]:
    """The fields ``--variant`` options change: ``FIELD=VALUE`` items (see the module documentation);
    :class:`argparse.ArgumentTypeError` for an item without ``=``."""
    changes: dict[str, Any] = {}
    for text in texts:
        for item in _split(text):
            name, equals, value = item.partition("=")
            if not equals or not name.strip():
                raise argparse.ArgumentTypeError(f"a variant is FIELD=VALUE, got {shown(item)}")
            changes[name.strip().replace("-", "_")] = _value(value)
    return changes


def parse_swaps(texts: Sequence[str]) -> list[tuple[str, str]]:
    """The ``(kind, other)`` pairs ``--swap KIND=OTHER`` options name;
    :class:`argparse.ArgumentTypeError` for an item without ``=``.

    >>> parse_swaps(["0:Battle=0:Knights 3"])
    [('0:Battle', '0:Knights 3')]
    """
    pairs = []
    for text in texts:
        kind, equals, other = text.partition("=")
        if not equals or not kind.strip() or not other.strip():
            raise argparse.ArgumentTypeError(f"a swap is KIND=OTHER, got {shown(text)}")
        pairs.append((kind.strip(), other.strip()))
    return pairs


def _bound(text: str, item: str) -> float | None:
    if not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a target's bounds are numbers, got {shown(item)}") from None


def parse_target(text: str) -> Any:
    """The :class:`~ordonnance.lab.Target` ``--target METRIC[LABEL=VALUE,...]=LOW..HIGH`` names
    (see the module documentation); :class:`argparse.ArgumentTypeError` for a malformed one."""
    from ordonnance.lab.tuner import target

    head, equals, band = text.rpartition("=")
    low, dots, high = band.partition("..")
    if not equals or not dots or not head.strip():
        raise argparse.ArgumentTypeError(f"a target is METRIC[LABEL=VALUE,...]=LOW..HIGH, got {shown(text)}")
    metric, bracket, rest = head.partition("[")
    labels: dict[str, Any] = {}
    if bracket:
        if not rest.endswith("]"):
            raise argparse.ArgumentTypeError(f"a target's labels end with ']', got {shown(text)}")
        for item in _split(rest[:-1]):
            name, eq, value = item.partition("=")
            if not eq or not name.strip():
                raise argparse.ArgumentTypeError(f"a target's label is LABEL=VALUE, got {shown(item)}")
            labels[name.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    try:
        return target(metric.strip(), _bound(low, text), _bound(high, text), **labels)
    except OrdonnanceError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def variant_of(base: Any, changes: dict[str, Any]) -> Any:
    """``base`` with the fields of ``changes`` changed (``Rules.from_dict``: the library's error
    for an unknown field or a refused value); a text value with hyphens is also tried with
    underscores (``lowest-marker-sum``)."""
    data = {**base.to_dict(), **changes}
    try:
        return type(base).from_dict(data)
    except OrdonnanceError:
        mended = {k: v.replace("-", "_") if isinstance(v, str) and k in changes else v for k, v in data.items()}
        if mended == data:
            raise
        try:
            return type(base).from_dict(mended)
        except OrdonnanceError:
            pass
        raise


def _add_common(parser: argparse.ArgumentParser, hooks: core.Hooks, study: str, games: str, bots: str, *,
                metrics: bool, report: bool) -> None:  # fmt: skip
    from ordonnance.core.simulate import MAX_GAMES

    core.add_game(parser, hooks, f"lab {study}")
    core.add_games(parser, MAX_GAMES, 10_000, f"{games} (default 10,000)")
    core.add_seed(parser, 1, "the study's seed (default 1)")
    core.add_bots(parser, hooks, f"{bots}: {core.bot_names(hooks)}")
    core.add_rollouts(parser)
    if metrics:
        _add_metrics_options(parser)
    if report:
        parser.add_argument("-o", "--output", metavar="FILE", required=True,
                            help="the report to write: one HTML file (.html), figures inside")  # fmt: skip
    else:
        parser.add_argument("-o", "--output", metavar="FILE", default=None,
                            help="also write the table to FILE: .csv, or .parquet (needs pyarrow)")  # fmt: skip
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    executor_cli.add_executor_arguments(parser, default="none: the games play in this process")
    hooks.add_rules(parser)


def _add_metrics_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--trace-games", type=core.whole, default=200, metavar="N",
                        help="games replayed for lead changes (default 200; 0: none)")  # fmt: skip
    parser.add_argument("--skill-games", type=core.whole, default=1_000, metavar="N",
                        help="games of Greedy against Random bots (default 1,000; 0: none)")  # fmt: skip
    parser.add_argument("--search-games", type=core.whole, default=0, metavar="N",
                        help="games of a MonteCarlo bot against Greedy bots (default 0: none)")  # fmt: skip
    parser.add_argument("--search-rollouts", type=core.at_most(core.MAX_BUDGET), default=8, metavar="N",
                        help="the MonteCarlo bot's rollouts a decision (default 8)")  # fmt: skip


def _bots(hooks: core.Hooks, specs: Sequence[core.BotSpec] | None, players: int, args: argparse.Namespace,
          parser: argparse.ArgumentParser, option: str = "--bots") -> list[Any] | None:  # fmt: skip
    if specs is None:
        return None
    if len(specs) == 1:
        specs = list(specs) * players
    if len(specs) != players:
        parser.error(f"{option} must name 1 bot or {players} (one per seat), got {len(specs)}")
    return [core.make_bot(hooks, spec, seat, rollouts=args.rollouts) for seat, spec in enumerate(specs)]


def _options(args: argparse.Namespace) -> dict[str, Any]:
    return dict(games=args.games, seed=args.seed, trace_games=args.trace_games, skill_games=args.skill_games,
                search_games=args.search_games, search_rollouts=args.search_rollouts,
                progress=False if args.quiet else None, **_where(args))  # fmt: skip


def _where(args: argparse.Namespace) -> dict[str, Any]:
    """Where the games play: the executor the options name (opened by the study's command) and ``--workers``."""
    return dict(executor=args.executor, workers=args.workers)


#: The options a study's recorded command leaves out: they change no number of its table.
_UNRECORDED = ("help", "output", "quiet", "workers", "serial", "dask")


def command_line(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The command that parses to ``args`` (``ordonnance lab STUDY`` and each of ``parser``'s
    options whose value is not its default; ``--output``, ``--quiet`` and where the games play,
    ``--workers``, ``--serial`` and ``--dask``, apart: they change no number)."""
    report = bool(getattr(args, "report", False))
    words = ["ordonnance", "lab", *(["report"] if report else []), args.study]
    for action in parser._actions:
        value: Any = getattr(args, action.dest, None)
        if not action.option_strings or action.dest in _UNRECORDED or value == action.default:
            continue
        option = action.option_strings[-1]
        if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
            words.append(option)
        elif isinstance(action, argparse._AppendAction):
            for item in value:
                words += [option, str(item)]
        elif isinstance(value, list) and value and isinstance(value[0], core.BotSpec):
            words += [option, ",".join(map(str, value))]
        elif isinstance(value, list):
            words += [option, *map(str, value)]
        else:
            words += [option, str(value)]
    if report:
        words += ["-o", str(args.output)]
    return " ".join(shlex.quote(word) for word in words)


def _finish(study: Any, args: argparse.Namespace, stdout: TextIO) -> int:
    """Print the study (table, then its record), write the file, and the exit status."""
    python = study.record.call
    command = command_line(args.parser, args)
    study = attrs.evolve(study, record=attrs.evolve(study.record, call=command, notes=study.record.notes + (
        f"the same study in Python: {python}",)))  # fmt: skip
    print(study.text(), file=stdout)
    print("", file=stdout)
    print("\n".join(f"# {line}" for line in study.record.text().splitlines()), file=stdout)
    if getattr(args, "report", False):
        from ordonnance.lab.reports import report

        try:
            report(study, str(args.output))
        except OSError as error:
            print(f"ordonnance lab report: error: cannot write {shown(str(args.output))}: {error.strerror or error}",
                  file=sys.stderr)  # fmt: skip
            return core.EXIT_ERROR
        print(f"# report written to {args.output}", file=stdout)
    elif args.output is not None:
        path = str(args.output)
        try:
            study.to_csv(path) if path.endswith(".csv") else study.to_parquet(path)
        except OSError as error:
            print(f"ordonnance lab {args.study}: error: cannot write {shown(path)}: {error.strerror or error}", file=sys.stderr)
            return core.EXIT_ERROR
        print(f"# table written to {path}", file=stdout)
    stopped = getattr(study, "interrupted", False) or any(note.startswith("stopped by Ctrl-C") for note in study.record.notes)
    return core.EXIT_INTERRUPTED if stopped else 0


def _check_output(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Refuse an ``--output`` the study could not write, before the study runs."""
    if args.output is None:
        return
    path = str(args.output)
    if getattr(args, "report", False):
        if not path.endswith((".html", ".htm")):
            parser.error(f"--output must end in .html, got {shown(path)}")
        try:
            importlib.import_module("matplotlib")
        except ImportError:
            parser.error("a report's figures need matplotlib: pip install 'ordonnance[lab]'")
        return
    if not path.endswith((".csv", ".parquet")):
        parser.error(f"--output must end in .csv or .parquet, got {shown(path)}")
    needed = ["pandas"] + (["pyarrow"] if path.endswith(".parquet") else [])
    for module in needed:
        try:
            importlib.import_module(module)
        except ImportError:
            parser.error(f"--output {shown(path)} needs {module}: pip install 'ordonnance[lab]'")


def run_metrics(hooks: core.Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser, stdout: TextIO) -> int:
    """``ordonnance lab metrics``."""
    from ordonnance import lab

    _check_output(args, parser)
    rules = core.rules_of(hooks, args, parser)
    players = _bots(hooks, args.bots, rules.players, args, parser)
    return _finish(lab.metrics(rules, players=players, **_options(args)), args, stdout)


def run_compare(hooks: core.Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser, stdout: TextIO) -> int:
    """``ordonnance lab compare``."""
    from ordonnance import lab

    _check_output(args, parser)
    base = core.rules_of(hooks, args, parser)
    try:
        changes = parse_changes(args.variant)
        variant = variant_of(base, changes)
    except (argparse.ArgumentTypeError, OrdonnanceError) as error:
        parser.error(f"--variant: {error}")
    players = _bots(hooks, args.bots, base.players, args, parser)
    try:
        named = None if args.variant_bots is None else [
            core.parse_bot(word, hooks) for word in args.variant_bots.split(",") if word.strip()]  # fmt: skip
    except argparse.ArgumentTypeError as error:
        parser.error(f"--variant-bots: {error}")
    variant_specs = named if named is not None else (
        args.bots if args.bots is not None and (len(args.bots) == 1 or variant.players == base.players) else None)  # fmt: skip
    if args.bots is not None and variant_specs is None:
        parser.error(f"the variant has {variant.players} players: give its bots with --variant-bots")
    variant_players = _bots(hooks, variant_specs, variant.players, args, parser, "--variant-bots")
    study = lab.compare(base, variant, players=players, variant_players=variant_players, **_options(args))
    return _finish(study, args, stdout)


def _study_or_error(parser: argparse.ArgumentParser, make: Callable[[], Any]) -> Any:
    """``make()``, a value the study refuses being a bad argument (one line, exit 2)."""
    try:
        return make()
    except OrdonnanceError as error:
        parser.error(str(error).splitlines()[0])


def run_cards(hooks: core.Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser, stdout: TextIO) -> int:
    """``ordonnance lab cards``."""
    from ordonnance import lab

    _check_output(args, parser)
    rules = core.rules_of(hooks, args, parser)
    players = _bots(hooks, args.bots, rules.players, args, parser)
    kinds = None if args.kinds is None else [kind.strip() for kind in args.kinds.split(",") if kind.strip()]
    changes = [change.strip() for change in args.changes.split(",") if change.strip()]
    try:
        swaps = parse_swaps(args.swap)
    except argparse.ArgumentTypeError as error:
        parser.error(f"--swap: {error}")
    study = _study_or_error(parser, lambda: lab.card_values(
        rules, kinds=kinds, changes=changes, swaps=swaps, games=args.games, seed=args.seed, players=players,
        progress=False if args.quiet else None, **_where(args)))  # fmt: skip
    return _finish(study, args, stdout)


def run_matchups(hooks: core.Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser, stdout: TextIO) -> int:
    """``ordonnance lab matchups``."""
    from ordonnance import lab

    _check_output(args, parser)
    rules = core.rules_of(hooks, args, parser)
    players: Any = None
    if args.bots is not None:
        if len(args.bots) != 1:
            parser.error(f"--bots must name 1 bot (every seat of every cell), got {len(args.bots)}")
        spec = args.bots[0]

        def bot_of(seed: int) -> Any:
            return core.make_bot(hooks, spec, seed, rollouts=args.rollouts)

        players = bot_of

    study = _study_or_error(parser, lambda: lab.matchups(
        rules, games=args.games, seed=args.seed, players=players, counts=args.counts,
        progress=False if args.quiet else None, **_where(args)))  # fmt: skip
    return _finish(study, args, stdout)


def run_tune(hooks: core.Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser, stdout: TextIO) -> int:
    """``ordonnance lab tune``."""
    from ordonnance import lab

    _check_output(args, parser)
    rules = core.rules_of(hooks, args, parser)
    players = _bots(hooks, args.bots, rules.players, args, parser)
    space = _space(rules, args, parser)
    try:
        importlib.import_module("optuna")
    except ImportError:
        parser.error("the tuner needs optuna: pip install 'ordonnance[lab]'")
    study = _study_or_error(parser, lambda: lab.tune(
        rules, targets=[parse_target(text) for text in args.target], space=space, budget=args.budget, games=args.games, confirm_games=args.confirm_games,
        keep=args.keep, seed=args.seed, players=players, penalty=args.penalty, progress=not args.quiet,
        **_where(args)))  # fmt: skip
    return _finish(study, args, stdout)


def add_lab(commands: Any, hooks: core.Hooks, wrap: Callable[[str], str]) -> argparse.ArgumentParser:
    """Add ``lab`` and its studies to the command parsers ``commands`` (``hooks``: the game
    the command line names); ``wrap`` fills a description's lines."""
    lab: core.Parser = commands.add_parser(
        "lab", help="balance studies: metrics, comparisons, card values, matchups, reports",
        formatter_class=core.Formatter,
        description=wrap(
            "A designer's lab (needs the lab extra for files: pip install 'ordonnance[lab]'): studies of any "
            "game's rules on the simulator (--game ordonnance, shinobi or black-prince), each a table of estimates "
            "with 95% intervals and the record that reproduces it. 'ordonnance lab STUDY --help' describes each."
        ),
        epilog="Examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES),
    )  # fmt: skip
    studies = lab.add_subparsers(dest="study", required=True, metavar="STUDY")
    specs = _studies()
    for name, (summary, description, run, games, bots, extra) in specs.items():
        _add_study(studies, hooks, wrap, name, summary, description, run, games, bots, extra, report=False)
    report: core.Parser = studies.add_parser(
        "report", help="a study written as one self-contained HTML report", formatter_class=core.Formatter,
        description=wrap(
            "Run a study (metrics, compare, cards, matchups: their options as for 'ordonnance lab STUDY') and "
            "write its report to -o FILE.html: the command that makes it again, the seed, the games, the rules "
            "and the library's version, the table, and the figures, all in one file that loads nothing else."
        ),
        epilog="Example:\n  ordonnance lab report metrics --games 100000 --bots greedy -o report.html",
    )  # fmt: skip
    reports = report.add_subparsers(dest="study", required=True, metavar="STUDY")
    for name, (summary, description, run, games, bots, extra) in specs.items():
        _add_study(reports, hooks, wrap, name, summary, description, run, games, bots, extra, report=True)
    return lab


_Spec = tuple[str, str, Callable[..., int], str, str, Callable[[argparse.ArgumentParser, bool], None] | None]


def _compare_options(parser: argparse.ArgumentParser, report: bool) -> None:
    parser.add_argument("--variant", action="append", required=True, metavar="FIELD=VALUE[,...]",
                        help="a change of the rules (repeatable), e.g. scoring=points or players=3")  # fmt: skip
    parser.add_argument("--variant-bots", default=None, metavar="BOT[,BOT...]",
                        help="the variant's bots when its player count differs (default: --bots)")  # fmt: skip


def _cards_options(parser: argparse.ArgumentParser, report: bool) -> None:
    parser.add_argument("--kinds", default=None, metavar="KIND[,KIND...]",
                        help="the card kinds (Ordonnance L, LS...; Shinobi Oda, Ninja...; Black Prince '0:Battle', "
                             "'1:Knights 3'...; default: every kind of the deck)")  # fmt: skip
    parser.add_argument("--changes", default="add,remove", metavar="CHANGE[,CHANGE]",
                        help="add and/or remove one copy of each kind (default add,remove)")  # fmt: skip
    parser.add_argument("--swap", action="append", default=[], metavar="KIND=OTHER",
                        help="also swap one copy of KIND for OTHER (repeatable)")  # fmt: skip


def _matchups_options(parser: argparse.ArgumentParser, report: bool) -> None:
    parser.add_argument("--counts", nargs="+", type=core.whole, default=[3, 4, 5], metavar="N",
                        help="Shinobi: the player counts of the seat table (default 3 4 5)")  # fmt: skip


def _tune_options(parser: argparse.ArgumentParser, report: bool) -> None:
    from ordonnance.core.simulate import MAX_GAMES
    from ordonnance.lab.tuner import MAX_BUDGET

    parser.add_argument("--target", action="append", required=True, type=_checked_target,
                        metavar="METRIC[LABEL=VALUE,...]=LOW..HIGH",
                        help="a band a metric must fall in (repeatable), e.g. 'win rate[seat=0]=0.45..0.55'")  # fmt: skip
    parser.add_argument("--budget", type=core.at_most(MAX_BUDGET), default=100, metavar="N",
                        help="trials of the search (default 100)")  # fmt: skip
    parser.add_argument("--confirm-games", type=core.at_most(MAX_GAMES), default=20_000, metavar="N",
                        help="games of each re-measurement of the best variants (default 20,000)")  # fmt: skip
    parser.add_argument("--keep", type=core.at_most(1000), default=5, metavar="N",
                        help="how many of the search's best variants to re-measure (default 5)")  # fmt: skip
    parser.add_argument("--penalty", type=_penalty, default=0.02, metavar="P",
                        help="the score each change from the rules adds during the search (default 0.02)")  # fmt: skip
    parser.add_argument("--option", action="append", default=None, metavar="FIELD[=V1,V2,...]",
                        help="a rule option searched (repeatable), with the values to try (JSON or text); "
                             "without values, its short list (a choice or a flag); default: every such option")  # fmt: skip
    parser.add_argument("--cards", nargs="*", default=None, metavar="KIND",
                        help="the card kinds whose count is searched (none with no KIND); default: every kind")  # fmt: skip
    parser.add_argument("--spread", type=core.at_most(500), default=1, metavar="N",
                        help="each card count moves by at most N copies either way (default 1)")  # fmt: skip


def parse_options(texts: Sequence[str] | None) -> dict[str, tuple[Any, ...] | None] | None:
    """The options ``--option`` names (None when none is given): each field with the values
    listed after ``=`` (JSON or text, split at commas outside brackets), or None for its
    short list; :class:`argparse.ArgumentTypeError` for an empty name or list.

    >>> parse_options(["first", "max_turns=100,200", 'armies=["French", "French"],["English", "French"]'])
    {'first': None, 'max_turns': (100, 200), 'armies': (['French', 'French'], ['English', 'French'])}
    """
    if texts is None:
        return None
    options: dict[str, tuple[Any, ...] | None] = {}
    for text in texts:
        name, equals, values = text.partition("=")
        name = name.strip().replace("-", "_")
        if not name:
            raise argparse.ArgumentTypeError(f"an option is FIELD or FIELD=V1,V2,..., got {shown(text)}")
        if not equals:
            options[name] = None
            continue
        listed = _split(values)
        if not listed:
            raise argparse.ArgumentTypeError(f"--option {name}= lists no value, got {shown(text)}")
        options[name] = tuple(_value(item) for item in listed)
    return options


def _value(text: str) -> Any:
    """A value as ``--variant`` and ``--option`` read it: JSON, else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text.strip()


def _space(rules: Any, args: argparse.Namespace, parser: argparse.ArgumentParser) -> Any:
    """The tuner's space the options ``--option``, ``--cards`` and ``--spread`` describe."""
    from ordonnance.lab.space import Space, options_of

    try:
        chosen = parse_options(args.option)
    except argparse.ArgumentTypeError as error:
        parser.error(f"argument --option: {error}")
    options: dict[str, Any] | None = None
    if chosen is not None:
        known = options_of(rules)
        options = {name: values if values is not None else known.get(name, ()) for name, values in chosen.items()}
        for name, values in chosen.items():
            if values is None and name not in known and name in attrs.fields_dict(type(rules)):
                parser.error(f"argument --option: {name} has no short list of values: give them, --option {name}=V1,V2")
    try:
        return Space.of(rules, options=options, cards=args.cards, spread=args.spread)
    except OrdonnanceError as error:
        parser.error(str(error))


def _checked_target(text: str) -> str:
    """The text of a ``--target``, checked by :func:`parse_target` (kept as text for the recorded command)."""
    parse_target(text)
    return text


def _penalty(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number >= 0, got {shown(text)}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number >= 0, got {shown(text)}")
    return value


def _studies() -> dict[str, _Spec]:
    """Each study's summary, description, runner, --games and --bots help, and its own options."""
    bots = "the bot of each seat, or one for every seat (default random)"
    return {
        "metrics": (
            "the metrics of a rule set",
            "Simulate the rules the options describe and print the tidy table: win rates by seat, games nobody "
            "won alone and the first-player advantage with 95% intervals; game length (mean and quantiles); lead "
            "changes and when the winner took the lead for good; the game's own figures; how often a Greedy bot "
            "beats Random ones (and a MonteCarlo bot Greedy ones, with --search-games).",
            run_metrics, "games a rule set plays", bots, None,
        ),
        "compare": (
            "two rule sets on the same deals and bot seeds",
            "Compare the rules the options describe (the base) with a variant (--variant FIELD=VALUE: the fields "
            "of Rules.to_dict(), values as JSON or text, several separated by commas) on common random numbers: "
            "both play the same deals and bot seeds where the rules deal alike, and each metric's difference gets "
            "a paired 95% interval and the games an unpaired comparison would need for it.",
            run_compare, "games a rule set plays", bots, _compare_options,
        ),
        "cards": (
            "each card kind's value to its holder",
            "Measure each card kind's value by controlled experiment: the change in its holder's win rate when "
            "one copy is added, removed (--changes) or swapped for another (--swap), with a 95% interval, on "
            "the rules the options describe.",
            run_cards, "games each arm plays", "the bot of each seat, or one for every seat (default greedy)",
            _cards_options,
        ),
        "matchups": (
            "Black Prince's army table, Shinobi's seat table",
            "Black Prince: every ordered pair of the four armies (mirrors included), each seat's win rate, draws "
            "and seat 0's score. Shinobi: each seat's win rate at each player count (--counts). Each cell plays "
            "from its own seed.",
            run_matchups, "games each cell plays", "one bot for every seat of every cell (default greedy)",
            _matchups_options,
        ),
        "tune": (
            "search rule variants toward targets",
            "Search variants of the rules the options describe (every option with a short list of values, every "
            "card count by one copy) whose metrics fall inside the --target bands, fewest changes first, with "
            "Optuna's TPE sampler; the best variants and the rules themselves are played again on fresh seeds "
            "(--confirm-games) and printed best first. --games is each trial's games.",
            run_tune, "games each trial plays", bots, _tune_options,
        ),
    }  # fmt: skip


def _add_study(into: Any, hooks: core.Hooks, wrap: Callable[[str], str], name: str, summary: str, description: str,
               run: Callable[..., int], games: str, bots: str,
               extra: Callable[[argparse.ArgumentParser, bool], None] | None, *, report: bool) -> None:  # fmt: skip
    parser: core.Parser = into.add_parser(name, help=summary, formatter_class=core.Formatter,
                                          description=wrap(description))  # fmt: skip
    if hooks.name != registry.names()[0]:
        parser.prog += f" --game {hooks.name}"  # its errors and usage name the game
    _add_common(parser, hooks, f"report {name}" if report else name, games, bots,
                metrics=name in ("metrics", "compare"), report=report)  # fmt: skip
    if extra is not None:
        extra(parser, report)

    def go(args: argparse.Namespace, sub: argparse.ArgumentParser) -> int:
        executor_cli.check_executor_arguments(args, sub)
        try:
            with executor_cli.executor_of(args, "serial") as args.executor:
                return run(hooks, args, sub, sys.stdout)
        except executor_cli.ExecutorFailure as failure:
            print(f"{sub.prog}: error: {failure}", file=sys.stderr)
            return core.EXIT_ERROR

    parser.set_defaults(run=go, parser=parser, report=report)
