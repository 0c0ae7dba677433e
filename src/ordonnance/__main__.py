"""Command line: ``python -m ordonnance demo``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ordonnance.army import army_key, describe

_DEMO_ARMIES = (
    ("LBSHF", "LBSHF", "LBSHF", "LBSHF"),
    ("F", "F", "F", "F"),
    ("SH", "SH", "LS", "S"),
    ("FH", "FH", "FH", "L"),
    ("LB", "LB", "S", "H"),
    ("L", "B", "S", "H"),
)


def demo() -> None:
    """Evaluate a few armies and print them strongest first."""
    print("Ordonnance army evaluator: a larger key is a stronger army.\n")
    ranked = sorted(_DEMO_ARMIES, key=army_key, reverse=True)
    for place, army in enumerate(ranked, start=1):
        key = army_key(army)
        print(f"{place}. {' '.join(f'{c:<5}' for c in army)}  key {key:>8}  {describe(key)}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="ordonnance", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="evaluate and print a few armies")
    args = parser.parse_args(argv)
    if args.command == "demo":
        demo()
    return 0


if __name__ == "__main__":
    sys.exit(main())
