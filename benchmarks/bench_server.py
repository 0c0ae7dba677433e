"""Load benchmarks of the play server: one server process (``ordonnance serve`` on SQLite), this
script as the clients in a separate process, over WebSockets on localhost.

* ``throughput``: many tables of people's seats played by clients that move the moment their
  turn comes (a uniform legal action); durably stored moves a second (acknowledged moves, checked
  against the SQLite file's rows after the run) and the p50/p99 time from a move's send until
  every seat of its table has the new state. A table that ends is replaced by a new one.
* ``human``: tables at a human pace (each table a move a second, the seat to act waiting for
  it), two connections a table, while MonteCarlo bots with a time limit think in the server's
  worker processes at tables of their own (a new one when one ends); the p50/p99 move-to-update time of the people's moves,
  and the share of a core each party used in the measured window (the server, its bots' workers,
  this process's clients) beside the load average, and the p99 of the clients' own event loop's
  lateness, to tell whose the waits are.
* ``restart``: tables with a few moves each, the server killed with SIGKILL and started again on
  the same file; seconds from the start until it serves again (``/api/health`` answers, then a
  table's WebSocket sends its state).

Run (each figure a median of ``--runs`` runs)::

    python benchmarks/bench_server.py throughput --runs 3
    python benchmarks/bench_server.py human --runs 3
    python benchmarks/bench_server.py restart --runs 3

Needs the ``web`` extra.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from ordonnance.core import jsonio


#: The clients' WebSocket compression: "deflate" (what browsers offer) or None (set by --no-compression).
COMPRESSION: list[str | None] = ["deflate"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``ordonnance serve`` in its own process."""

    def __init__(self, db: Path, bot_workers: int) -> None:
        self.db, self.bot_workers = db, bot_workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    def start(self) -> float:
        """Start it; seconds until ``/api/health`` answers."""
        command = [sys.executable, "-m", "ordonnance", "serve", "--port", str(self.port), "--db", str(self.db),
                   "--bot-workers", str(self.bot_workers), "--log-level", "warning",
                   # every client is on 127.0.0.1: the limits per address are lifted
                   "--connections-per-address", "0", "--requests-per-second", "0"]  # fmt: skip
        began = time.perf_counter()
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=1) as reply:
                    if json.loads(reply.read()) == {"ok": True}:
                        return time.perf_counter() - began
            except OSError:
                time.sleep(0.01)

    def cpu(self) -> float:
        """CPU seconds the server's process (its threads, not its bots' workers) has used."""
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def workers_cpu(self) -> float:
        """CPU seconds the server's child processes (the bots' workers) have used."""
        assert self.process is not None
        used = 0.0
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rpartition(")")[2].split()
            except OSError:  # the process ended meanwhile
                continue
            if int(fields[1]) == self.process.pid:
                used += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return used

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def request(url: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else jsonio.dumps(body).encode()
    asked = urllib.request.Request(url + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(asked, timeout=60) as reply:
        return json.loads(reply.read())


async def new_table(url: str, game: str, seats: list[Any], rules: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    """A table created and its people's seats taken: its id and their tokens."""
    body: dict[str, Any] = {"game": game, "seats": [{"kind": s} if isinstance(s, str) else s for s in seats]}
    if rules is not None:
        body["rules"] = rules
    table = await asyncio.to_thread(request, url, "POST", "/api/tables", body)
    tokens = []
    for seat, kind in enumerate(seats):
        if kind == "human":
            joined = await asyncio.to_thread(request, url, "POST", f"/api/tables/{table['id']}/seats/{seat}", {"name": f"P{seat}"})
            tokens.append(joined["token"])
    return table["id"], tokens


class Latencies:
    """Move-to-update times: a move's send until every seat of its table has the state after it."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.window: tuple[float, float] = (0.0, float("inf"))
        self.errors = 0
        self.client_lags: list[float] = []
        """How late the clients' own event loop woke from 5 ms sleeps in the window: the part of the
        latencies that is the measuring process's, not the server's."""

    def add(self, sent: float, done: float) -> None:
        if self.window[0] <= sent and done <= self.window[1]:
            self.times.append(done - sent)

    def quantile(self, q: float) -> float:
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def play_table(url: str, table: str, tokens: list[str], latencies: Latencies, rng: random.Random,
                     pace: Callable[[], Awaitable[None]] | None) -> int:  # fmt: skip
    """Play a table of people's seats to its end, each seat on its own connection; the moves made."""
    ws_url = url.replace("http", "ws", 1) + f"/ws/tables/{table}?token="
    sockets: list[ClientConnection] = [await connect(ws_url + token, max_size=2**22, compression=COMPRESSION[0])
                                       for token in tokens]  # fmt: skip
    sent: dict[int, float] = {}
    arrived: dict[int, int] = {}
    moves = 0

    async def seat_loop(socket: ClientConnection) -> None:
        nonlocal moves
        async for text in socket:
            message = json.loads(text)
            if message["type"] == "error":
                latencies.errors += 1
                continue
            ply = message["ply"]
            if ply in sent:
                arrived[ply] = arrived.get(ply, 0) + 1
                if arrived[ply] == len(sockets):
                    latencies.add(sent.pop(ply), time.perf_counter())
                    moves += 1
            if message["status"] == "finished":
                return
            if message["legal_actions"] and ply + 1 not in sent:
                if pace is not None:
                    await pace()
                action = rng.choice(message["legal_actions"])
                sent[ply + 1] = time.perf_counter()
                await socket.send(jsonio.dumps({"type": "move", "ply": ply, "action": action}))

    try:
        await asyncio.gather(*(seat_loop(socket) for socket in sockets))
    finally:
        for socket in sockets:
            await socket.close()
    return moves


def stored_moves(db: Path, tables: list[str]) -> int:
    with sqlite3.connect(db) as connection:
        total = 0
        for start in range(0, len(tables), 500):
            chunk = tables[start:start + 500]
            marks = ", ".join("?" * len(chunk))
            total += connection.execute(f"SELECT COUNT(*) FROM actions WHERE table_id IN ({marks})", chunk).fetchone()[0]
        return int(total)


async def run_tables(url: str, game: str, slots: int, seconds: float, warm_up: float, rng: random.Random,
                     pace: Callable[[], Awaitable[None]] | None, players: int = 2,
                     cpu: Callable[[], tuple[float, ...]] = tuple) -> tuple[Latencies, tuple[float, ...], list[str]]:  # fmt: skip
    """``slots`` tables played at once for ``warm_up + seconds``, each replaced when it ends; the
    latencies in the measured window, the CPU seconds used in it (``cpu()``'s figures at its end less
    those at its start) and every table played."""
    latencies = Latencies()
    played: list[str] = []
    gate = asyncio.Semaphore(16)

    async def created() -> tuple[str, list[str]]:
        async with gate:
            table, tokens = await new_table(url, game, ["human"] * players)
        played.append(table)
        return table, tokens

    first = await asyncio.gather(*(created() for _ in range(slots)))  # every table made before the clock starts
    start = time.perf_counter()
    latencies.window = (start + warm_up, start + warm_up + seconds)

    async def slot(index: int) -> None:
        await asyncio.sleep(rng.random() * min(warm_up, 1.0))  # tables start spread out
        table, tokens = first[index]
        while True:
            await play_table(url, table, tokens, latencies, random.Random(rng.getrandbits(64)), pace)
            if time.perf_counter() > latencies.window[1]:
                return
            table, tokens = await created()  # a table that ends is replaced

    async def watch_lag() -> None:
        while True:
            began = time.perf_counter()
            await asyncio.sleep(0.005)
            woke = time.perf_counter()
            if latencies.window[0] <= began and woke <= latencies.window[1]:
                latencies.client_lags.append(woke - began - 0.005)

    tasks = [asyncio.create_task(slot(i)) for i in range(slots)]
    tasks.append(asyncio.create_task(watch_lag()))
    await asyncio.sleep(warm_up)
    # The clients' own garbage collector is off in the measured window: its pauses (this process
    # holds 1,000 connections too) would be counted as the server's.
    gc.collect()
    gc.freeze()
    gc.disable()
    before = cpu()
    try:
        await asyncio.sleep(seconds)
    finally:
        gc.enable()
        gc.unfreeze()
    used = tuple(end - begin for begin, end in zip(before, cpu()))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return latencies, used, played


def throughput(args: argparse.Namespace, folder: Path) -> dict[str, float]:
    server = Server(folder / "throughput.db", args.bot_workers)
    server.start()
    try:
        latencies, cpu, played = asyncio.run(run_tables(server.url, args.game, args.tables, args.seconds, args.warm_up,
                                                        random.Random(args.seed), None, cpu=lambda: (server.cpu(),)))  # fmt: skip
    finally:
        server.stop()
    moves = len(latencies.times)
    stored = stored_moves(server.db, played)
    assert stored >= moves, (stored, moves)  # every acknowledged move is in the file
    return {"moves_per_s": moves / args.seconds, "p50_ms": 1000 * latencies.quantile(0.5),
            "p99_ms": 1000 * latencies.quantile(0.99), "server_cpu_ms_per_move": 1000 * cpu[0] / max(moves, 1),
            "errors": latencies.errors}  # fmt: skip


def human(args: argparse.Namespace, folder: Path) -> dict[str, float]:
    server = Server(folder / "human.db", args.bot_workers)
    server.start()
    rng = random.Random(args.seed)

    async def a_second() -> None:
        await asyncio.sleep(rng.uniform(0.9, 1.1))

    async def bot_table() -> None:
        """A MonteCarlo bot thinking at a table of its own, against a Random bot; a new table once it ends."""
        while True:
            table, _ = await new_table(server.url, args.game, [{"kind": "montecarlo", "time_limit": args.bot_time}, "random"])
            while (await asyncio.to_thread(request, server.url, "GET", f"/api/tables/{table}"))["status"] != "finished":
                await asyncio.sleep(1.0)

    async def main() -> tuple[Latencies, tuple[float, ...]]:
        bots = [asyncio.create_task(bot_table()) for _ in range(args.bots)]
        # every process's CPU in the measured window, to tell whose the waits are: the server's, its
        # bots' workers', this process's (the 1,000 clients), or the machine's other work (the rest)
        def cpus() -> tuple[float, float, float]:
            return server.cpu(), server.workers_cpu(), time.process_time()

        latencies, used, _ = await run_tables(server.url, args.game, args.tables, args.seconds, args.warm_up, rng, a_second,
                                              cpu=cpus)  # fmt: skip
        for bot in bots:
            bot.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
        return latencies, used

    try:
        latencies, used = asyncio.run(main())
    finally:
        server.stop()
    server_cpu, workers_cpu, clients_cpu = used
    return {"moves": len(latencies.times), "p50_ms": 1000 * latencies.quantile(0.5),
            "p99_ms": 1000 * latencies.quantile(0.99), "server_cpu_share": server_cpu / args.seconds,
            "workers_cpu_share": workers_cpu / args.seconds, "clients_cpu_share": clients_cpu / args.seconds,
            "clients_lag_p99_ms": 1000 * statistics.quantiles(latencies.client_lags, n=100)[-1],
            "load_average": os.getloadavg()[0], "errors": latencies.errors}  # fmt: skip


def restart(args: argparse.Namespace, folder: Path) -> dict[str, float]:
    server = Server(folder / "restart.db", args.bot_workers)
    server.start()
    rng = random.Random(args.seed)

    async def fill() -> list[tuple[str, list[str]]]:
        made: list[tuple[str, list[str]]] = []
        gate = asyncio.Semaphore(32)

        async def one() -> None:
            async with gate:
                table, tokens = await new_table(server.url, args.game, ["human", "human"])
                ws_url = server.url.replace("http", "ws", 1) + f"/ws/tables/{table}?token="
                sockets = [await connect(ws_url + token) for token in tokens]
                states = [json.loads(await s.recv()) for s in sockets]
                while states[0]["ply"] < args.moves:  # a few moves, each acknowledged (its state received) before the next
                    mover = states[0]["current_player"]
                    await sockets[mover].send(jsonio.dumps({"type": "move", "ply": states[mover]["ply"],
                                                            "action": rng.choice(states[mover]["legal_actions"])}))  # fmt: skip
                    states = [json.loads(await s.recv()) for s in sockets]
                    assert all(st["type"] == "state" for st in states), states
                for s in sockets:
                    await s.close()
                made.append((table, tokens))

        await asyncio.gather(*(one() for _ in range(args.tables)))
        return made

    made = asyncio.run(fill())
    server.kill()
    try:
        health = server.start()
        began = time.perf_counter() - health

        async def first_state() -> dict[str, Any]:
            table, tokens = made[-1]
            async with connect(server.url.replace("http", "ws", 1) + f"/ws/tables/{table}?token={tokens[0]}") as s:
                return dict(json.loads(await s.recv()))

        state = asyncio.run(first_state())
        served = time.perf_counter() - began
        assert state["ply"] == args.moves, state["ply"]
    finally:
        server.stop()
    return {"tables": len(made), "health_s": health, "table_state_s": served}


SCENARIOS = {"throughput": throughput, "human": human, "restart": restart}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=list(SCENARIOS))
    parser.add_argument("--runs", type=int, default=3, help="runs; the figures are their medians")
    parser.add_argument("--game", default="black-prince")
    parser.add_argument("--tables", type=int, default=None, help="tables at once (throughput 64, human 500, restart 500)")
    parser.add_argument("--seconds", type=float, default=20.0, help="the measured window")
    parser.add_argument("--warm-up", type=float, default=5.0, help="seconds before the window")
    parser.add_argument("--bots", type=int, default=8, help="human: MonteCarlo bots thinking meanwhile")
    parser.add_argument("--bot-time", type=float, default=1.0, help="human: their time limit a decision")
    parser.add_argument("--bot-workers", type=int, default=2)
    parser.add_argument("--moves", type=int, default=4, help="restart: moves played at each table before the kill")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-compression", action="store_true", help="clients that do not offer permessage-deflate")
    args = parser.parse_args()
    COMPRESSION[0] = None if args.no_compression else "deflate"
    if args.tables is None:
        args.tables = {"throughput": 64, "human": 500, "restart": 500}[args.scenario]
    runs = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            figures = SCENARIOS[args.scenario](args, Path(folder))
        print(f"run {run + 1}: " + ", ".join(f"{k} {v:.4g}" for k, v in figures.items()), flush=True)
        runs.append(figures)
    medians = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    print(f"{args.scenario} (median of {args.runs}, {os.cpu_count()} cores): " + ", ".join(f"{k} {v:.4g}" for k, v in medians.items()))


if __name__ == "__main__":
    main()
