"""Where a command's games play: ``--workers N``, ``--serial`` and ``--dask ADDRESS``, written once
for ``ordonnance tournament``, ``ordonnance ladder`` and ``ordonnance lab``.

:func:`executor_of` turns the parsed options into what ``executor=`` takes
(:mod:`ordonnance.core.executing`): ``"serial"``, ``"process"`` (``--workers`` local
processes), or the executor of a Dask client (``--dask tcp://host:8786``, or ``--dask local``
for a local cluster of ``--workers`` processes), closed when the block ends.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="demo")
>>> add_executor_arguments(parser)
>>> with executor_of(parser.parse_args(["--serial"]), "process") as executor:
...     executor
'serial'
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
from collections.abc import Iterator
from typing import Any, Literal

from ordonnance.core import cli as core
from ordonnance.core.executing import MAX_WORKERS, ExecutorLike
from ordonnance.core.checks import shown

__all__ = ["ExecutorFailure", "add_executor_arguments", "check_executor_arguments", "check_dask_address", "executor_of"]


class ExecutorFailure(Exception):
    """A one-line error for the user (Dask missing, a bad or unreachable scheduler address)."""


def add_executor_arguments(parser: argparse.ArgumentParser, default: str = "one per CPU") -> None:
    """``--workers N``, ``--serial`` and ``--dask ADDRESS``; ``default`` says where games play without them."""
    parser.add_argument(
        "--workers", type=core.at_most(MAX_WORKERS), default=None,
        help=f"local worker processes (default: {default})",
    )  # fmt: skip
    parser.add_argument("--serial", action="store_true", help="run in this process only")
    parser.add_argument(
        "--dask", metavar="ADDRESS", default=None,
        help="run on a Dask cluster: a scheduler address such as tcp://host:8786, or 'local' for a "
        "local cluster of --workers processes (needs the distributed extra)",
    )  # fmt: skip


def check_executor_arguments(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Refuse ``--serial`` with ``--workers`` or ``--dask`` (a usage error)."""
    if args.serial and (args.workers is not None or args.dask is not None):
        parser.error("--serial cannot be combined with --workers or --dask")


def check_dask_address(address: str) -> None:
    """Refuse an address Dask cannot parse before a client is half built (whose clean-up
    would print tracebacks)."""
    comm: Any = importlib.import_module("distributed.comm")  # typed as Any: Dask is an optional extra
    backends = importlib.import_module("distributed.comm.registry").backends
    try:
        scheme, _location = comm.parse_address(address)
        if scheme not in backends:
            raise ValueError(f"unknown scheme {shown(scheme)} (known: {', '.join(sorted(backends))})")
        if scheme in ("tcp", "tls", "ws", "wss"):
            _host, port = comm.get_address_host_port(address)
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not in 1..65535")
    except ValueError as error:
        raise ExecutorFailure(
            f"--dask {shown(address)} is not a scheduler address such as tcp://host:8786 or 'local': {error}"
        ) from None


@contextlib.contextmanager
def executor_of(args: argparse.Namespace, default: Literal["serial", "process"]) -> Iterator[ExecutorLike]:
    """The executor the options ask for (``default`` when they name none; ``--workers`` alone
    asks for local processes); a Dask client and its local cluster are closed on the way out.
    :class:`ExecutorFailure` when Dask is missing or the scheduler cannot be reached."""
    if args.dask is None:
        yield "serial" if args.serial else "process" if args.workers is not None else default
        return
    try:
        distributed: Any = importlib.import_module("distributed")  # typed as Any: Dask is an optional extra
    except ImportError:
        raise ExecutorFailure("--dask needs Dask: pip install 'ordonnance[distributed]'") from None
    cluster: Any = None
    try:
        if args.dask == "local":
            workers = args.workers or os.cpu_count() or 1
            cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = distributed.Client(cluster)
        else:
            check_dask_address(args.dask)
            client = distributed.Client(args.dask)  # waits distributed.comm.timeouts.connect (30 s)
    except (OSError, TimeoutError, ValueError) as error:
        if cluster is not None:
            cluster.close()
        raise ExecutorFailure(f"cannot reach the Dask scheduler {args.dask!r}: {error}") from None
    try:
        yield client.get_executor()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
