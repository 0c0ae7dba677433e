"""Make the lab page's figures (docs/_static/lab/*.png): one real figure of each kind, and a report.

    python benchmarks/lab_figures.py [--out docs/_static/lab]

Each figure comes from a seeded study of Greedy bots, so running this again draws the same
figures (a few minutes on one core).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import ordonnance as od
from ordonnance import black_prince as bp
from ordonnance import lab, shinobi
from ordonnance.lab import plots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "docs" / "_static" / "lab")
    out = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()

    def save(name: str, figure: object) -> None:
        figure.savefig(out / name, dpi=90)  # type: ignore[attr-defined]
        print(f"{name}: {time.perf_counter() - started:.0f} s")

    compared = lab.compare(od.Rules(), od.Rules(scoring="points"), games=20_000, seed=1, players=[od.bots.Greedy(seed=0), od.bots.Greedy(seed=1)],
                           trace_games=0, skill_games=0, progress=False)  # fmt: skip
    save("win_rates.png", plots.win_rate_bars(compared))
    seats = lab.metrics(shinobi.Rules(players=4), games=20_000, seed=1, players=[shinobi.bots.Greedy(seed=s) for s in range(4)],
                        trace_games=0, skill_games=0, progress=False)  # fmt: skip
    save("length.png", plots.length_histogram(seats, measure="decisions"))
    armies = lab.matchups(bp.Rules(), games=20_000, seed=1, progress=False)
    save("matchups.png", plots.matchup_heat_map(armies))
    lab.report(armies, out / "report_matchups.html", title="Black Prince: the army table")
    print(f"report_matchups.html: {time.perf_counter() - started:.0f} s")
    clans = ["Oda", "Takeda", "Mori", "Go-Hojo", "Uesugi"]
    save("card_values.png", plots.card_value_forest(lab.card_values(shinobi.Rules(players=4), kinds=clans, games=20_000, seed=1,
                                                                    progress=False)))  # fmt: skip
    tuned = lab.tune(od.Rules(), targets={"first-player advantage": (0.03, 0.07)}, budget=40, games=1_000,
                     confirm_games=5_000, keep=2, seed=1, progress=False)  # fmt: skip
    save("tuner.png", plots.tuner_progress(tuned))


if __name__ == "__main__":
    main()
