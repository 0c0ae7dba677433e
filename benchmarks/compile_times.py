"""Compile times: of every numba kernel of the library, and of the first uses a user meets.

Every figure comes from a fresh Python process whose numba cache is empty
(``NUMBA_CACHE_DIR`` set to a new temporary directory): *cold*, what the first
run after installing pays. A second fresh process then does the same with the
cache that the first one filled: *warm*, what every later run pays.

Two tables:

* **First uses** (named below, :data:`SCENARIOS`): ``import ordonnance``, the
  first ``army_keys``, ``simulate`` of each game, a search bot's first move, a
  Gymnasium environment's first steps, ...: the wall time of the whole thing
  in its process, imports included, its CPU time (which other processes on a
  busy machine disturb far less), and the kernels it compiled.
* **Kernel entry points**: every numba dispatcher of the package, found by
  importing each module of ``ordonnance`` that mentions numba (so the list
  does not go stale), each compiled alone in its process for the signatures it
  was given in one process that ran every first use (and compiled, without
  running them, the few kernels that need an optional extra to be reached:
  :data:`REACH`). The columns: its signatures, cold seconds (wall and CPU),
  warm seconds, the share of the cold time spent in LLVM (numba's
  ``llvm_lock`` timer; the rest is numba's own bytecode analysis, inlining,
  typing and lowering), and the other dispatchers that compiled inside it: its
  non-inlined callees, compiled first, then linked into it and optimised again
  by LLVM. Dispatchers marked ``inline="always"`` are compiled into each
  caller only and are counted, not listed; one that no first use reached is
  listed as such.

Usage::

    python benchmarks/compile_times.py                      # both tables
    python benchmarks/compile_times.py --scenarios          # first uses only
    python benchmarks/compile_times.py --kernels -k shinobi # entries whose name contains "shinobi"
    python benchmarks/compile_times.py --json times.json --csv times.csv
    python benchmarks/compile_times.py --kernels --write-estimates  # refresh the library's table

``--write-estimates`` writes ``src/ordonnance/core/_compile_estimates.py``, the
cold time of each entry point that the library's compile notice quotes
(:mod:`ordonnance.core.compiling`). ``--jobs N`` runs N measurements at a time
(each is still one process; on a busy machine keep 1). The package measured is
the one Python imports: ``PYTHONPATH=<checkout>/src`` measures another checkout.
The whole run takes a long while: each entry point is compiled cold once, as
many in all as the library has (a quarter of an hour to an hour on two cores).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import importlib
import importlib.util
import json
import os
import pickle
import pkgutil
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

HERE = os.path.abspath(__file__)
ESTIMATES_MODULE = ("core", "_compile_estimates.py")  # under the package measured

# --- what is measured ------------------------------------------------------------

SCENARIOS: dict[str, Callable[[], object]] = {}
"""The first uses a user meets, by name; each runs in a fresh process."""


def scenario(name: str) -> Callable[[Callable[[], object]], Callable[[], object]]:
    def register(function: Callable[[], object]) -> Callable[[], object]:
        SCENARIOS[name] = function
        return function

    return register


@scenario("import ordonnance")
def _import() -> None:
    import ordonnance  # noqa: F401


@scenario("army_keys, first call")
def _army_keys() -> None:
    import numpy as np

    import ordonnance as od

    od.army_keys(np.array([[12, 12, 5, 4]], dtype=np.uint8))


@scenario("best_completion_key, first call")
def _completion() -> None:
    import ordonnance as od

    od.best_completion_key(["SH", "S"], ["S", "H", "LB", "F", "S"])


@scenario("territory_odds, first call")
def _odds() -> None:
    import ordonnance as od

    game = od.Game.new(od.Rules(), seed=1)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    od.territory_odds(game, od.Territory.CYPRUS)  # sampled: many cards still to come
    while len(game.legal_actions()) > 1 and game.territory_owner(od.Territory.CYPRUS) is None:
        game.apply(game.legal_actions()[0])
        odds = od.territory_odds(game, od.Territory.CYPRUS)
        if odds.exact:  # few enough left to count every outcome
            break


@scenario("view.sample_game, first call")
def _sample() -> None:
    import ordonnance as od

    game = od.Game.new(od.Rules(), seed=1)
    game.view(0).sample_game(seed=2)


@scenario("simulate: Ordonnance, 100 random games")
def _simulate() -> None:
    import ordonnance as od

    od.simulate(od.Rules(), games=100, seed=1)


@scenario("lab.card_values: Ordonnance, one card added, 100 games (lab extra)")
def _card_values() -> None:
    import ordonnance as od
    from ordonnance import lab

    lab.card_values(od.Rules(), kinds=["LS"], changes=["add"], games=100, progress=False)


@scenario("simulate: Ordonnance, 100 games of Greedy bots")
def _simulate_greedy() -> None:
    import ordonnance as od

    od.simulate(od.Rules(), games=100, seed=1, players=[od.bots.Greedy(seed=0), od.bots.Greedy(seed=1)])


@scenario("simulate: Shinobi, 100 random games")
def _simulate_shinobi() -> None:
    from ordonnance import shinobi

    shinobi.simulate(shinobi.Rules(players=4), games=100, seed=1)


@scenario("simulate: Black Prince, 100 random games")
def _simulate_black_prince() -> None:
    from ordonnance import black_prince

    black_prince.simulate(black_prince.Rules(), games=100, seed=1)


def _first_move(module: Any, bot: type) -> None:
    """A search bot's first decision at the start of a game, a twentieth of a second of search."""
    try:
        searcher = bot(seed=0, time_limit=0.05)
    except TypeError:  # a checkout from before the bots' time_limit=: time_budget=, or a fixed budget
        try:
            searcher = bot(seed=0, time_budget=0.05)
        except TypeError:
            searcher = bot(seed=0)
    game = module.Game.new(module.Rules(), seed=1)
    searcher.choose(game.view(game.current_player))


@scenario("MonteCarlo bot, first move: Ordonnance")
def _montecarlo() -> None:
    import ordonnance as od

    _first_move(od, od.bots.MonteCarlo)


@scenario("ISMCTS bot, first move: Ordonnance")
def _ismcts() -> None:
    import ordonnance as od

    _first_move(od, od.bots.ISMCTS)


@scenario("MonteCarlo bot, first move: Shinobi")
def _montecarlo_shinobi() -> None:
    from ordonnance import shinobi

    _first_move(shinobi, shinobi.bots.MonteCarlo)


@scenario("MonteCarlo bot, first move: Black Prince")
def _montecarlo_black_prince() -> None:
    from ordonnance import black_prince

    _first_move(black_prince, black_prince.bots.MonteCarlo)


@scenario("Gymnasium env: make, reset, 3 steps")
def _gymnasium() -> None:
    import gymnasium

    import ordonnance.rl  # noqa: F401  (registers the environment)

    env = gymnasium.make("ordonnance/Ordonnance-v0")
    _, info = env.reset(seed=0)
    for _ in range(3):
        _, _, over, _, info = env.step(int(info["action_mask"].nonzero()[0][0]))
        if over:
            break


@scenario("VectorEnv(64): reset, 3 steps")
def _vector_env() -> None:
    import numpy as np

    from ordonnance import rl

    venv = rl.VectorEnv(64, seed=0)
    venv.reset(seed=0)
    for _ in range(3):
        venv.step(np.argmax(venv.action_masks(), axis=1))


def _openspiel_signatures() -> Iterator[tuple[Any, tuple[Any, ...]]]:
    """The OpenSpiel adapter's kernels, for the argument types the adapter passes (OpenSpiel
    itself, the optional extra, is needed to play; not to compile)."""
    import numpy as np

    from ordonnance import _openspiel_kernel as ok
    from ordonnance import _simulator_kernel as k
    from ordonnance import openspiel as ops

    setup = ops._setup(ops._key_of({"seed": 1}))
    work, board = setup.work, ok.new_board(setup.deck)
    yield ok.start, (work, board, setup.cards, np.uint64(1))
    yield ok.step, (work, board, -1)
    yield ok.prepared, (work, board)
    yield ok.observe, (work, board, 0, np.zeros(8, np.float32))
    yield ok.result, (work, board, np.zeros(k.SEATS, np.int64))


REACH: dict[str, Callable[[], Iterator[tuple[Any, tuple[Any, ...]]]]] = {
    "OpenSpiel adapter's kernels": _openspiel_signatures,
}
"""Kernels that no first use reaches without an optional extra: (dispatcher, example
arguments) whose types it is compiled for (never run), when the signatures are gathered."""


# --- the child processes -----------------------------------------------------------


class _Compiles:
    """A numba ``numba:compile`` listener: the dispatchers compiled (each with its depth of
    nesting and seconds) while it is registered."""

    def __init__(self) -> None:
        from numba.core import event

        class Listener(event.Listener):
            def on_start(inner, e: Any) -> None:
                self.started.append((len(self.stack), time.perf_counter()))
                self.stack.append(_name(e.data["dispatcher"]))

            def on_end(inner, e: Any) -> None:
                depth, start = self.started.pop()
                self.done.append((self.stack.pop(), depth, time.perf_counter() - start))

        self.stack: list[str] = []
        self.started: list[tuple[int, float]] = []
        self.done: list[tuple[str, int, float]] = []
        self.listener = Listener()
        event.register("numba:compile", self.listener)  # type: ignore[no-untyped-call]


def _name(dispatcher: Any) -> str:
    return f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"


def _kernel_modules() -> list[str]:
    """The modules of the package that mention numba (the others compile nothing)."""
    import ordonnance

    names = ["ordonnance"]
    for info in pkgutil.walk_packages(ordonnance.__path__, "ordonnance."):
        spec = importlib.util.find_spec(info.name)
        origin = spec.origin if spec is not None else None
        if origin and origin.endswith(".py"):
            with open(origin, encoding="utf-8") as file:
                if "numba" in file.read():
                    names.append(info.name)
    return names


def _dispatchers() -> tuple[dict[str, Any], list[str]]:
    """Every numba dispatcher defined in the package, by name; and the modules that failed to import."""
    from numba.core.dispatcher import Dispatcher

    found: dict[str, Any] = {}
    failed = []
    for module_name in _kernel_modules():
        try:
            module = importlib.import_module(module_name)
        except Exception as error:  # an optional extra missing: its kernels are not measured
            failed.append(f"{module_name}: {error!r}")
            continue
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == module_name:
                found[_name(value)] = value  # module-level: its qualname is the attribute's name
    return found, failed


def _child_gather(out: str) -> None:
    """Run every first use and reach every kernel in this process; write each dispatcher's
    signatures (pickled numba types) to ``out``."""
    import numba

    compiles = _Compiles()
    problems = []
    for name, function in SCENARIOS.items():
        try:
            function()
        except Exception as error:
            problems.append(f"first use {name!r}: {error!r}")
    for name, reach in REACH.items():
        try:
            for dispatcher, example in reach():
                dispatcher.compile(tuple(numba.typeof(value) for value in example))  # type: ignore[no-untyped-call]
        except Exception as error:
            problems.append(f"{name}: {error!r}")
    dispatchers, failed = _dispatchers()
    from_python = {kernel for kernel, depth, _ in compiles.done if depth == 0}  # the others compiled inside them
    signatures: dict[str, list[Any]] = {}
    inlined = []
    for name, dispatcher in sorted(dispatchers.items()):
        if not dispatcher.signatures and dispatcher.targetoptions.get("inline") == "always":
            inlined.append(name)  # compiled into each caller, never on its own
            continue
        if name not in from_python and not sum(dispatcher._cache_hits.values()):
            continue  # not an entry point: compiled only inside other kernels (or never)
        kept = []
        for signature in dispatcher.signatures:
            try:
                pickle.dumps(signature)
            except Exception as error:
                problems.append(f"{name}{signature}: not picklable ({error!r})")
            else:
                kept.append(signature)
        signatures[name] = kept
    with open(out, "wb") as file:
        pickle.dump({"signatures": signatures, "inlined": inlined, "others": sorted(set(dispatchers) - set(signatures) - set(inlined)),
                     "problems": problems + failed}, file)  # fmt: skip


def _child_scenario(name: str, out: str) -> None:
    compiles = _Compiles()
    start, cpu = time.perf_counter(), time.process_time()
    SCENARIOS[name]()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    top = [(kernel, round(s, 3)) for kernel, depth, s in compiles.done if depth == 0]
    with open(out, "w") as file:
        json.dump({"seconds": seconds, "cpu": cpu, "compiled": top, "compiles": len(compiles.done)}, file)


def _child_kernel(name: str, signatures_file: str, out: str) -> None:
    start = time.perf_counter()
    module_name, _, attribute = name.rpartition(".")
    dispatcher = getattr(importlib.import_module(module_name), attribute)
    imported = time.perf_counter() - start
    with open(signatures_file, "rb") as file:
        signatures = pickle.load(file)
    compiles = _Compiles()
    each, each_cpu, llvm = [], [], 0.0
    for signature in signatures:
        begin, begin_cpu = time.perf_counter(), time.process_time()
        dispatcher.compile(signature)
        each.append(time.perf_counter() - begin)
        each_cpu.append(time.process_time() - begin_cpu)
        overload = dispatcher.overloads[tuple(signature)]
        llvm += overload.metadata.get("timers", {}).get("llvm_lock", 0.0) if overload.metadata else 0.0
    callees = sorted({kernel for kernel, depth, _ in compiles.done if depth > 0})
    with open(out, "w") as file:
        json.dump({"import": imported, "each": each, "each_cpu": each_cpu, "llvm": llvm, "callees": callees}, file)


# --- the parent --------------------------------------------------------------------


def _run_child(arguments: list[str], cache: str) -> dict[str, Any]:
    """Run this script as a child with ``NUMBA_CACHE_DIR=cache``; its result, or the error."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
        out = handle.name
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, ORDONNANCE_NO_COMPILE_NOTICES="1")
    env.pop("NUMBA_DISABLE_JIT", None)
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, HERE, "--child", *arguments, out], capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            return {"error": (done.stderr.strip().splitlines() or ["exit code %d" % done.returncode])[-1], "wall": wall}
        with open(out) as file:
            result: dict[str, Any] = json.load(file)
        result["wall"] = wall
        return result
    finally:
        os.unlink(out)


def _cold_and_warm(arguments: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    cache = tempfile.mkdtemp(prefix="ordonnance-compile-")
    try:
        cold = _run_child(arguments, cache)
        warm = _run_child(arguments, cache) if "error" not in cold else {}
        return cold, warm
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def measure_scenarios(names: list[str], jobs: int) -> list[dict[str, Any]]:
    def one(name: str) -> dict[str, Any]:
        cold, warm = _cold_and_warm(["scenario", name])
        row = {"kind": "first use", "name": name, "cold": cold.get("seconds"), "cold_cpu": cold.get("cpu"), "warm": warm.get("seconds"),
               "compiled": cold.get("compiled", []), "compiles": cold.get("compiles"),
               "error": cold.get("error") or warm.get("error")}  # fmt: skip
        _progress(f"{name}: cold {_s(row['cold'])} s, warm {_s(row['warm'])} s" + _error(row))
        return row

    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(one, names))


def gather_signatures(cache: str | None) -> dict[str, Any]:
    """From one process that runs every first use: the entry points' signatures
    (``signatures``), the dispatchers inlined into their callers (``inlined``), the others
    (``others``: compiled inside entry points only, or never) and what went wrong
    (``problems``)."""
    with tempfile.NamedTemporaryFile(suffix=".pickle", delete=False) as handle:
        out = handle.name
    env = dict(os.environ, ORDONNANCE_NO_COMPILE_NOTICES="1")
    env.pop("NUMBA_DISABLE_JIT", None)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    try:
        done = subprocess.run([sys.executable, HERE, "--child", "gather", out], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise SystemExit(f"gathering the signatures failed:\n{done.stderr}")
        with open(out, "rb") as file:
            gathered = pickle.load(file)
    finally:
        os.unlink(out)
    return gathered  # type: ignore[no-any-return]


def measure_kernels(signatures: dict[str, list[Any]], jobs: int) -> list[dict[str, Any]]:
    def one(name: str) -> dict[str, Any]:
        with tempfile.NamedTemporaryFile(suffix=".pickle", delete=False) as handle:
            pickle.dump(signatures[name], handle)
        try:
            cold, warm = _cold_and_warm(["kernel", name, handle.name])
        finally:
            os.unlink(handle.name)
        row = {"kind": "kernel", "name": name, "signatures": len(signatures[name]),
               "cold": sum(cold["each"]) if "each" in cold else None,
               "cold_cpu": sum(cold["each_cpu"]) if "each_cpu" in cold else None,
               "warm": sum(warm["each"]) if "each" in warm else None,
               "largest": max(cold["each_cpu"]) if "each_cpu" in cold else None,
               "llvm": cold.get("llvm"), "callees": cold.get("callees", []),
               "import": warm.get("import"), "error": cold.get("error") or warm.get("error")}  # fmt: skip
        _progress(f"{name}: cold {_s(row['cold'])} s, warm {_s(row['warm'])} s" + _error(row))
        return row

    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(one, sorted(signatures)))


def _s(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.2f}"


def _error(row: dict[str, Any]) -> str:
    return f" ({row['error']})" if row.get("error") else ""


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _short(name: str) -> str:
    return name.removeprefix("ordonnance.")


def print_tables(rows: list[dict[str, Any]]) -> None:
    uses = [row for row in rows if row["kind"] == "first use"]
    if uses:
        width = max(len("first use (fresh process)"), *(len(row["name"]) for row in uses))
        print(f"{'first use (fresh process)':<{width}}  {'cold s':>7}  {'cpu s':>7}  {'warm s':>7}  compiled (cold): the slowest")
        for row in uses:
            slowest = sorted(row["compiled"], key=lambda pair: -pair[1])[:3]
            text = ", ".join(f"{_short(kernel)} {seconds:.1f}" for kernel, seconds in slowest)
            print(f"{row['name']:<{width}}  {_s(row['cold']):>7}  {_s(row.get('cold_cpu')):>7}  {_s(row['warm']):>7}  {text}{_error(row)}")
        print()
    kernels = [row for row in rows if row["kind"] == "kernel"]
    if kernels:
        width = max(len("all, each in its own process"), *(len(_short(row["name"])) for row in kernels))
        print(f"{'kernel entry point':<{width}}  sigs  {'cold s':>7}  {'cpu s':>7}  {'warm s':>7}  {'llvm':>5}  compiled inside")
        for row in sorted(kernels, key=lambda row: -(row.get("cold") or 0)):
            llvm = f"{row['llvm'] / row['cold']:.0%}" if row.get("cold") and row.get("llvm") is not None else "-"
            ours = [_short(name) for name in row.get("callees", []) if name.startswith("ordonnance.")]
            others = len(row.get("callees", [])) - len(ours)
            inside = ", ".join(ours + ([f"{others} of numba's own"] if others else []))
            print(f"{_short(row['name']):<{width}}  {row['signatures']:>4}  {_s(row.get('cold')):>7}  {_s(row.get('cold_cpu')):>7}  "
                  f"{_s(row.get('warm')):>7}  {llvm:>5}  {inside}{_error(row)}")  # fmt: skip
        total = sum(row.get("cold") or 0 for row in kernels)
        print(f"{'all, each in its own process':<{width}}        {total:>7.1f}")
    callees_only = [row for row in rows if row["kind"] == "inside"]
    if callees_only:
        print("\nnot entry points, compiled inside the entry points above (how many compile each anew):")
        for row in sorted(callees_only, key=lambda row: (-row["entries"], row["name"])):
            print(f"  {_short(row['name'])}: {row['entries'] or 'none measured (not reached)'}")
    inlined = [row for row in rows if row["kind"] == "inlined"]
    if inlined:
        print(f"\n{len(inlined)} more dispatchers are inline='always', compiled into each of their callers only")


def write_csv(rows: list[dict[str, Any]], path: str) -> None:
    fields = ["kind", "name", "signatures", "cold", "cold_cpu", "warm", "largest", "llvm", "callees", "compiled", "error"]
    with open(path, "w", newline="") as file:
        writer = csv.DictWriter(file, fields, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "callees": " ".join(row.get("callees", [])),
                             "compiled": " ".join(f"{k}={s}" for k, s in row.get("compiled", []))})  # fmt: skip


def write_estimates(rows: list[dict[str, Any]], note: str) -> str:
    """Write the cold CPU seconds of the largest signature of each entry point measured into
    the package's table of estimates (the entries not measured this time keep theirs): the
    wall time of a compile on an idle machine, which a busy one stretches."""
    import ordonnance

    path = os.path.join(os.path.dirname(ordonnance.__file__), *ESTIMATES_MODULE)
    seconds: dict[str, float] = {}
    try:
        from ordonnance.core import _compile_estimates

        seconds.update(_compile_estimates.SECONDS)
    except ImportError:
        pass
    seconds.update({row["name"]: round(row["largest"], 1) for row in rows if row["kind"] == "kernel" and row.get("largest")})
    lines = [
        '"""Seconds numba takes to compile each kernel entry point of the library, cold (an empty cache,',
        "a fresh process; CPU seconds of the largest of its signatures, its non-inlined callees",
        "included): the estimates that :mod:`ordonnance.core.compiling` quotes. Written by",
        "``python benchmarks/compile_times.py --kernels --write-estimates``; do not edit by hand.",
        '"""',
        "",
        f"MEASURED = {json.dumps(note)}",
        '"""Where and when the figures were measured."""',
        "",
        "SECONDS: dict[str, float] = {",
        *(f"    {json.dumps(name)}: {value!r}," for name, value in sorted(seconds.items())),
        "}",
        '"""Cold compile seconds by dispatcher (``module.qualname`` of its Python function)."""',
        "",
    ]
    with open(path + ".new", "w") as file:
        file.write("\n".join(lines))
    os.replace(path + ".new", path)  # whole: other processes may be importing it
    return path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        kind, *rest = argv[1:]
        children: dict[str, Callable[..., None]] = {"gather": _child_gather, "scenario": _child_scenario, "kernel": _child_kernel}
        children[kind](*rest)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenarios", action="store_true", help="measure the first uses (default: both tables)")
    parser.add_argument("--kernels", action="store_true", help="measure the kernel entry points (default: both tables)")
    parser.add_argument("-k", dest="only", default="", help="only the rows whose name contains this text")
    parser.add_argument("--jobs", type=int, default=1, help="measurements run at a time (default 1)")
    parser.add_argument("--gather-cache", help="NUMBA_CACHE_DIR of the process that gathers signatures (default: numba's)")
    parser.add_argument("--json", help="write the rows to this JSON file")
    parser.add_argument("--csv", help="write the rows to this CSV file")
    parser.add_argument("--write-estimates", action="store_true", help="refresh the package's table of estimates")
    parser.add_argument("--note", default="", help="with --write-estimates: where and when (default: this machine, today)")
    args = parser.parse_args(argv)
    both = not (args.scenarios or args.kernels)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    if args.scenarios or both:
        rows += measure_scenarios([name for name in SCENARIOS if args.only in name], args.jobs)
    if args.kernels or both:
        gathered = gather_signatures(args.gather_cache)
        for problem in gathered["problems"]:
            _progress(f"gathering: {problem}")
        chosen = {name: sigs for name, sigs in gathered["signatures"].items() if args.only in name}
        rows += measure_kernels(chosen, args.jobs)
        inside = [callee for row in rows if row["kind"] == "kernel" for callee in row.get("callees", [])]
        rows += [{"kind": "inside", "name": name, "entries": inside.count(name)} for name in gathered["others"] if args.only in name]
        rows += [{"kind": "inlined", "name": name} for name in gathered["inlined"] if args.only in name]
    print_tables(rows)
    print(f"\n{platform.node()}, {os.cpu_count()} cores, load {_load()}, python {platform.python_version()}, "
          f"{time.perf_counter() - started:.0f} s in all")  # fmt: skip
    if args.json:
        with open(args.json, "w") as file:
            json.dump(rows, file, indent=1)
    if args.csv:
        write_csv(rows, args.csv)
    if args.write_estimates:
        note = args.note or f"{datetime.date.today()}, {os.cpu_count()} cores, load {_load()}"
        print("wrote", write_estimates(rows, note))
    return 0


def _load() -> str:
    try:
        return " ".join(f"{value:.1f}" for value in os.getloadavg())
    except OSError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
