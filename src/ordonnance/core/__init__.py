"""The shared layer: what every game of the library is built on, and nothing game-specific.

Ordonnance lives at the top level of the package (as python-chess keeps standard
chess there), Shinobi in :mod:`ordonnance.shinobi` and Black Prince in
:mod:`ordonnance.black_prince`. Each game implements the protocol of
:mod:`ordonnance.core.spec` and registers itself in :mod:`ordonnance.core.registry`;
the shared tools (simulation driver, summaries, bots' seeding and clocks, the
command line, tournaments, pictures, saves' and views' JSON) are written once here
and reach a game only through that protocol.

No module of a game imports another game's modules: a game uses this package,
:mod:`ordonnance.errors` (the library's error family) and its own modules.
"""
