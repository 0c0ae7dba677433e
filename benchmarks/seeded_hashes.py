"""Fingerprints of seeded results, to prove that a refactor changes no seeded outcome.

Each line printed is ``<case> <sha256>``: the hash of what one seeded run
produced, for the three games (Ordonnance, Shinobi, Black Prince) over a
spread of rule sets:

* ``<game>/simulate/<rules>/<bots>``: every NumPy array of the result of
  ``simulate(rules, games=N, seed=S, players=...)`` (winner, scores, seeds,
  bot_seeds, owners, markers, actions, ... as the game's result has them),
  with the default random bots, Greedy bots, ``record=True``, a Greedy
  subclass (which the kernel does not take, so the Python loop plays it) and a
  MonteCarlo bot with a small fixed budget (the Python loop too);
* ``<game>/bots/<rules>/<bot>``: whole games played through the Python
  ``Game`` with each kind of bot (Random, Greedy, MonteCarlo and, for
  Ordonnance, ISMCTS on a fixed iteration budget, never a clock): the seat and
  ``repr`` of every action, and each game's final result (its ``repr``);
* ``ordonnance/vector_env/...``: ``ordonnance.rl.VectorEnv(64, ...)`` reset with
  a seed and stepped 200 times with actions drawn from its action masks by a
  seeded NumPy generator: observations, action masks, rewards, terminations,
  truncations and the ``infos`` entries of :data:`INFO_KEYS` (winner, scores,
  illegal action);
* ``<game>/pettingzoo/...`` and ``ordonnance/single_agent_env/...``: seeded
  random playthroughs of the AEC / Gymnasium environments (observations,
  masks, rewards, terminations, truncations, the actions drawn).

Only values are hashed, never texts meant for people (``summary()``, reprs of
results): each array is hashed as its field name, shape and values, integers
and booleans widened to int64 and floats to float64, so a change of storage
type alone does not change a hash, but any changed number does. Fields are
taken in name order, found with ``attrs.fields`` (``vars`` for a class that is
not an attrs class); fields that are None are left out.

To compare two commits, run the script at each (with the package of that
commit importable, e.g. an editable install or ``PYTHONPATH=<checkout>/src``)
and diff the outputs::

    git archive <old> src | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src python benchmarks/seeded_hashes.py > before.txt
    python benchmarks/seeded_hashes.py > after.txt
    diff before.txt after.txt && echo "same seeded results"

(keep this script itself the same in both runs: it is the yardstick.) The
first run after an edit compiles the numba kernels; once the caches are warm
the whole script takes about a minute on two cores. ``--fields`` adds a line
per array (``<case>:<field> <sha256>``) to find what differs, ``--only TEXT``
runs the cases whose name contains TEXT, and ``--times`` prints each case's
seconds on stderr. The module the package was imported from and the total
time go to stderr, so stdout is only the hashes.

Bot arguments are written with today's names (``rollouts``, ``work``,
``iterations``); a rename is expected to keep the old name working.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import numpy as np

import ordonnance as od
from ordonnance import black_prince as bp
from ordonnance import shinobi

# ------------------------------------------------------------------ hashing


def _canonical(array: Any) -> np.ndarray:
    """The array's values in a storage-independent form: int64 or float64, little-endian, C order."""
    a = np.asarray(array)
    if a.dtype.kind in "biu":
        a = a.astype("<i8")
    elif a.dtype.kind == "f":
        a = a.astype("<f8")
    else:
        raise TypeError(f"cannot hash an array of dtype {a.dtype}")
    return np.ascontiguousarray(a)


def _update(h: Any, name: str, array: Any) -> None:
    a = _canonical(array)
    h.update(f"{name}|{a.dtype.kind}|{a.shape}|".encode())
    h.update(a.tobytes())


def _array_fields(obj: Any) -> list[tuple[str, np.ndarray]]:
    """Every NumPy array field of ``obj``, by field name; None fields left out."""
    if attrs.has(type(obj)):
        names = [f.name for f in attrs.fields(type(obj))]
    else:
        names = list(vars(obj))
    out = []
    for name in sorted(names):
        value = getattr(obj, name)
        if isinstance(value, np.ndarray):
            out.append((name.lstrip("_"), value))
    return out


class Case:
    """One case's running hash, with an optional per-field breakdown."""

    def __init__(self) -> None:
        self.total = hashlib.sha256()
        self.parts: dict[str, Any] = {}

    def array(self, name: str, array: Any) -> None:
        _update(self.total, name, array)
        part = self.parts.setdefault(name, hashlib.sha256())
        _update(part, name, array)

    def text(self, name: str, text: str) -> None:
        data = f"{name}|{len(text)}|{text}".encode()
        self.total.update(data)
        self.parts.setdefault(name, hashlib.sha256()).update(data)


# ------------------------------------------------------------------ the games


class _PyGreedy(od.bots.Greedy):
    """Greedy, but not *the* Greedy class: ``simulate`` plays it through the Python loop."""


class _PyShinobiGreedy(shinobi.bots.Greedy):
    """Shinobi's Greedy, played through the Python loop."""


class _PyBlackPrinceGreedy(bp.bots.Greedy):
    """Black Prince's Greedy, played through the Python loop."""


@attrs.frozen
class GameSpec:
    """How to run one game's cases."""

    name: str
    module: Any
    rules: tuple[tuple[str, Any], ...]  # (label, Rules)
    bots: dict[str, Callable[[int], Any]]  # kind -> seed -> bot
    py_greedy: Callable[[int], Any]
    outcome: Callable[[Any], tuple[Any, ...]]
    sim_games: int  # games of a kernel simulate() case
    py_games: int  # games of a Python-loop Greedy case
    mc_games: int  # games of a MonteCarlo simulate() case
    bot_games: dict[str, int]  # games per bot kind through Game


def _ordonnance_rules() -> tuple[tuple[str, Any], ...]:
    R = od.Rules
    return (
        ("p2", R(players=2)),
        ("p3", R(players=3)),
        ("p4", R(players=4)),
        ("p2-points", R(players=2, scoring="points")),
        ("p3-points", R(players=3, scoring="points")),
        # (two players never tie, so tie_break shows only with three or four)
        ("p3-lowest_marker_sum", R(players=3, tie_break="lowest_marker_sum")),
        ("p4-points-lowest_marker_sum", R(players=4, scoring="points", tie_break="lowest_marker_sum")),
        ("p2-private", R(players=2, claim_proof="private")),
        ("p4-private", R(players=4, claim_proof="private")),
        ("p2-auto_claim", R(players=2, auto_claim=True)),
        ("p3-auto_claim-private", R(players=3, auto_claim=True, claim_proof="private")),
        ("p2-deck2", R(players=2, deck=od.standard_deck(2))),
    )


def _shinobi_rules() -> tuple[tuple[str, Any], ...]:
    R = shinobi.Rules
    return (
        ("p3", R(players=3)),
        ("p4", R(players=4)),
        ("p5", R(players=5)),
        ("p3-samurai8", R(players=3, samurai=8)),
        ("p4-samurai-mixed-ninjas0", R(players=4, samurai=(6, 8, 10, 12, 14), ninjas=0)),
        ("p4-attack-optional", R(players=4, attack="optional")),
        ("p5-ninjas1-attack-optional", R(players=5, ninjas=1, attack="optional")),
    )


def _black_prince_rules() -> tuple[tuple[str, Any], ...]:
    R = bp.Rules
    table: dict[Any, set[Any]] = {t: set() for t in bp.TroopType}  # nobody fights better than anybody
    return (
        ("default", R()),
        ("french-english", R(armies=("French", "English"))),
        ("burgundian-scottish", R(armies=("Burgundian", "Scottish"))),
        ("scottish-french", R(armies=("Scottish", "French"))),
        ("english-burgundian", R(armies=("English", "Burgundian"))),
        ("coin", R(first="coin")),
        ("max_turns30", R(armies=("Scottish", "English"), max_turns=30)),
        ("no-advantages", R(advantages=table)),
        ("decks-scottish-mirror", R(armies=("Scottish", "Scottish"), decks=(bp.deck("Scottish"), bp.deck("Scottish")))),
    )


def _game_specs() -> tuple[GameSpec, ...]:
    return (
        GameSpec(
            name="ordonnance",
            module=od,
            rules=_ordonnance_rules(),
            bots={
                "random": lambda s: od.bots.Random(seed=s),
                "greedy": lambda s: od.bots.Greedy(seed=s),
                "montecarlo": lambda s: od.bots.MonteCarlo(seed=s, rollouts=24),
                "montecarlo-random-rollouts": lambda s: od.bots.MonteCarlo(seed=s, rollouts=24, rollout_policy="random"),
                "ismcts": lambda s: od.bots.ISMCTS(seed=s, iterations=120),
                "ismcts-greedy-ucb-modelled": lambda s: od.bots.ISMCTS(
                    seed=s, iterations=120, rollout_policy="greedy", root="ucb", opponents="modelled", claims="searched"
                ),
            },
            py_greedy=lambda s: _PyGreedy(seed=s),
            outcome=lambda g: (g.winner, tuple(g.scores)),
            sim_games=2000,
            py_games=20,
            mc_games=2,
            bot_games={"random": 8, "greedy": 8},
        ),
        GameSpec(
            name="shinobi",
            module=shinobi,
            rules=_shinobi_rules(),
            bots={
                "random": lambda s: shinobi.bots.Random(seed=s),
                "greedy": lambda s: shinobi.bots.Greedy(seed=s),
                "montecarlo": lambda s: shinobi.bots.MonteCarlo(seed=s, rollouts=16, work=4000),
            },
            py_greedy=lambda s: _PyShinobiGreedy(seed=s),
            outcome=lambda g: (tuple(g.winners), tuple(g.scores), tuple(g.totals)),
            sim_games=2000,
            py_games=10,
            mc_games=1,
            bot_games={"random": 6, "greedy": 6},
        ),
        GameSpec(
            name="black_prince",
            module=bp,
            rules=_black_prince_rules(),
            bots={
                "random": lambda s: bp.bots.Random(seed=s),
                "greedy": lambda s: bp.bots.Greedy(seed=s),
                "montecarlo": lambda s: bp.bots.MonteCarlo(seed=s, rollouts=16, work=800),
            },
            py_greedy=lambda s: _PyBlackPrinceGreedy(seed=s),
            outcome=lambda g: (g.winner, tuple(g.routed), g.turn),
            sim_games=2000,
            py_games=10,
            mc_games=1,
            bot_games={"random": 6, "greedy": 6},
        ),
    )


SIM_SEED = 20240917
#: The entries of an environment's ``infos`` that are hashed (results, not diagnostics).
INFO_KEYS = ("illegal_action", "winner", "_winner", "scores", "_scores")
GAME_SEED = 4242

# ------------------------------------------------------------------ the cases


def _simulate_cases(spec: GameSpec) -> Iterator[tuple[str, Callable[[Case], None]]]:
    simulate = spec.module.simulate

    def sim(rules: Any, games: int, players: Callable[[], list[Any]] | None, record: bool) -> Callable[[Case], None]:
        def run(case: Case) -> None:
            # Fresh bots for each case, so that a case hashes the same when run alone (--only).
            result = simulate(rules, games=games, seed=SIM_SEED, players=None if players is None else players(), record=record)
            for name, array in _array_fields(result):
                case.array(name, array)

        return run

    bot = spec.bots
    for label, rules in spec.rules:
        n = rules.players
        base = f"{spec.name}/simulate/{label}"

        def greedy(n: int = n) -> list[Any]:
            return [bot["greedy"](k) for k in range(n)]

        def mixed(n: int = n) -> list[Any]:
            return [bot["greedy"](k) if k % 2 else bot["random"](k) for k in range(n)]

        def python_greedy(n: int = n) -> list[Any]:
            return [spec.py_greedy(k) for k in range(n)]

        def montecarlo(n: int = n) -> list[Any]:
            return [bot["montecarlo"](0)] + [bot["greedy"](k) for k in range(1, n)]

        yield f"{base}/random", sim(rules, spec.sim_games, None, False)
        yield f"{base}/random-record", sim(rules, spec.sim_games // 4, None, True)
        yield f"{base}/greedy", sim(rules, spec.sim_games // 4, greedy, False)
        yield f"{base}/greedy-record", sim(rules, spec.sim_games // 8, greedy, True)
        yield f"{base}/random-greedy-mixed-record", sim(rules, spec.sim_games // 8, mixed, True)
        yield f"{base}/python-greedy-record", sim(rules, spec.py_games, python_greedy, True)
        yield f"{base}/montecarlo-vs-greedy", sim(rules, spec.mc_games, montecarlo, False)


def _play(spec: GameSpec, rules: Any, make: Callable[[int], Any], kind: str, games: int) -> Callable[[Case], None]:
    """Games through the Python Game: seat 0 plays ``kind``; the other seats the same kind
    for Random and Greedy, Greedy for the searching bots (to keep the cost down)."""
    cheap = kind in ("random", "greedy")

    def run(case: Case) -> None:
        for g in range(games):
            game = spec.module.Game.new(rules, seed=GAME_SEED + g)
            n = rules.players
            players = [make(100 * g + seat) if seat == 0 or cheap else spec.bots["greedy"](100 * g + seat) for seat in range(n)]
            steps = []
            while not game.is_over:
                seat = game.current_player
                action = players[seat].choose(game.view(seat))
                steps.append(f"{seat}:{action!r}")
                game.apply(action)
            case.text(f"game{g}.actions", "\n".join(steps))
            case.text(f"game{g}.outcome", repr(spec.outcome(game)))

    return run


def _bot_cases(spec: GameSpec) -> Iterator[tuple[str, Callable[[Case], None]]]:
    for index, (label, rules) in enumerate(spec.rules):
        for kind, make in spec.bots.items():
            if kind in ("random", "greedy"):
                yield f"{spec.name}/bots/{label}/{kind}", _play(spec, rules, make, kind, spec.bot_games[kind])
            elif index < 3 or kind in ("montecarlo", "ismcts"):
                # One game each; the variants of the searching bots on the first three rule sets only.
                yield f"{spec.name}/bots/{label}/{kind}", _play(spec, rules, make, kind, 1)


def _pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _vector_env_case(rules: Any, opponent: Any, seat: Any, observation: Any, seed: int) -> Callable[[Case], None]:
    def run(case: Case) -> None:
        from ordonnance.rl import VectorEnv

        envs = VectorEnv(64, rules, opponent=opponent, seat=seat, observation=observation)
        rng = np.random.default_rng(seed)

        def observe(prefix: str, obs: Any) -> None:
            if isinstance(obs, dict):
                for key in sorted(obs):
                    case.array(f"{prefix}.{key}", obs[key])
            else:
                case.array(f"{prefix}.observation", obs)

        obs, _ = envs.reset(seed=seed)
        observe("reset", obs)
        for _ in range(200):
            masks = envs.action_masks()
            case.array("action_masks", masks)
            # Uniform over the legal actions of each env (0 where there is none: an ended episode).
            actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
            obs, rewards, terminations, truncations, infos = envs.step(actions)
            observe("step", obs)
            case.array("rewards", rewards)
            case.array("terminations", terminations)
            case.array("truncations", truncations)
            for key in INFO_KEYS:  # named, so that a new key in infos changes nothing here
                if key in infos:
                    case.array(f"infos.{key}", infos[key])
        envs.close()

    return run


def _aec_case(make_env: Callable[[], Any], seed: int, episodes: int) -> Callable[[Case], None]:
    def run(case: Case) -> None:
        env = make_env()
        rng = np.random.default_rng(seed)
        for episode in range(episodes):
            env.reset(seed=seed + episode)
            for agent in env.agent_iter():
                observation, reward, terminated, truncated, _info = env.last()
                for key in sorted(observation):  # {"observation", "action_mask"}
                    case.array(f"observation.{key}", observation[key])
                case.text("agent", agent)
                case.array("reward", np.float64(reward))
                case.array("terminated_truncated", np.array([terminated, truncated]))
                if terminated or truncated:
                    action = None
                else:
                    action = _pick(rng, observation["action_mask"])
                    case.array("action", np.int64(action))
                env.step(action)
        env.close()

    return run


def _single_agent_case(rules: Any, opponent: Any, seat: Any, seed: int, episodes: int) -> Callable[[Case], None]:
    def run(case: Case) -> None:
        from ordonnance.rl import SingleAgentEnv

        env = SingleAgentEnv(opponent=opponent, seat=seat, rules=rules)
        rng = np.random.default_rng(seed)
        for episode in range(episodes):
            obs, info = env.reset(seed=seed + episode)
            while True:
                for key in sorted(obs):
                    case.array(f"observation.{key}", obs[key])
                action = _pick(rng, obs["action_mask"])
                obs, reward, terminated, truncated, info = env.step(action)
                case.array("reward", np.float64(reward))
                case.array("terminated_truncated", np.array([terminated, truncated]))
                for key in INFO_KEYS:
                    if key in info:
                        case.array(f"info.{key}", np.asarray(info[key]))
                if terminated or truncated:
                    for key in sorted(obs):
                        case.array(f"final.{key}", obs[key])
                    break
        env.close()

    return run


def _env_cases() -> Iterator[tuple[str, Callable[[Case], None]]]:
    R = od.Rules
    for label, rules, opponent, seat, observation in (
        ("p2-random-box", R(players=2), "random", 0, "box"),
        ("p2-random-dict", R(players=2), "random", 0, "dict"),
        ("p2-greedy-seat1-box", R(players=2), "greedy", 1, "box"),
        ("p3-greedy-seat_random-dict", R(players=3), "greedy", "random", "dict"),
        ("p4-self-box", R(players=4), "self", 0, "box"),
        ("p2-points-random-uint8", R(players=2, scoring="points"), "random", 0, "uint8"),
        ("p3-auto_claim-private-greedy-box", R(players=3, auto_claim=True, claim_proof="private"), "greedy", "random", "box"),
        ("p3-lowest_marker_sum-self-dict", R(players=3, tie_break="lowest_marker_sum"), "self", 0, "dict"),
    ):
        yield f"ordonnance/vector_env/{label}", _vector_env_case(rules, opponent, seat, observation, seed=11)

    from ordonnance import rl
    from ordonnance.black_prince import pettingzoo as bp_pz
    from ordonnance.shinobi import rl as shinobi_rl

    def aec(make: Callable[[Any], Any], rules: Any, episodes: int) -> Callable[[Case], None]:
        return _aec_case(lambda: make(rules), seed=5, episodes=episodes)

    for label, od_rules in (
        ("p2", R(players=2)),
        ("p3-points", R(players=3, scoring="points")),
        ("p4-private", R(players=4, claim_proof="private")),
    ):
        yield f"ordonnance/pettingzoo/{label}", aec(rl.env, od_rules, 3)
    for label, od_rules, opponent, seat in (
        ("p2-greedy", R(players=2), "greedy", 0),
        ("p3-random-seat_random", R(players=3), "random", "random"),
    ):
        yield f"ordonnance/single_agent_env/{label}", _single_agent_case(od_rules, opponent, seat, seed=9, episodes=3)
    for label, shinobi_rules in (
        ("p3", shinobi.Rules(players=3)),
        ("p4", shinobi.Rules(players=4)),
        ("p5-attack-optional", shinobi.Rules(players=5, attack="optional")),
    ):
        yield f"shinobi/pettingzoo/{label}", aec(shinobi_rl.env, shinobi_rules, 2)
    for label, bp_rules in (
        ("default", bp.Rules()),
        ("burgundian-scottish-coin", bp.Rules(armies=("Burgundian", "Scottish"), first="coin")),
    ):
        yield f"black_prince/pettingzoo/{label}", aec(bp_pz.env, bp_rules, 2)


def cases() -> Iterator[tuple[str, Callable[[Case], None]]]:
    """Every case, in the fixed order of the output."""
    specs = _game_specs()
    for spec in specs:
        yield from _simulate_cases(spec)
    for spec in specs:
        yield from _bot_cases(spec)
    yield from _env_cases()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--fields", action="store_true", help="also print a hash per field of each case")
    parser.add_argument("--only", default="", metavar="TEXT", help="run only the cases whose name contains TEXT")
    parser.add_argument("--times", action="store_true", help="print each case's seconds on stderr")
    args = parser.parse_args(argv)
    print(f"# ordonnance from {od.__file__}", file=sys.stderr)
    start = time.perf_counter()
    count = 0
    for name, run in cases():
        if args.only not in name:
            continue
        case = Case()
        began = time.perf_counter()
        run(case)
        print(f"{name} {case.total.hexdigest()}", flush=True)
        if args.fields:
            for part, h in case.parts.items():
                print(f"{name}:{part} {h.hexdigest()}")
        if args.times:
            print(f"# {time.perf_counter() - began:7.2f} s  {name}", file=sys.stderr, flush=True)
        count += 1
    print(f"# {count} cases in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
