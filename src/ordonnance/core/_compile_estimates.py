"""Seconds numba takes to compile each kernel entry point of the library, cold (an empty cache,
a fresh process; CPU seconds of the largest of its signatures, its non-inlined callees
included): the estimates that :mod:`ordonnance.core.compiling` quotes. Written by
``python benchmarks/compile_times.py --kernels --write-estimates``; do not edit by hand.
"""

MEASURED = "provisional: 2026-12-06, d706742, the shared 2-core development machine under load (wall seconds)"
"""Where and when the figures were measured."""

SECONDS: dict[str, float] = {
    "ordonnance._army_kernel.keys_from_words": 0.9,
    "ordonnance._batch_kernel.legal_masks": 12.4,
    "ordonnance._batch_kernel.observe": 6.8,
    "ordonnance._batch_kernel.observers": 0.6,
    "ordonnance._batch_kernel.reset": 65.4,
    "ordonnance._batch_kernel.step": 278.3,
    "ordonnance._completion_kernel.best_completion": 2.3,
    "ordonnance._env_kernel.start": 111.0,
    "ordonnance._env_kernel.step": 174.9,
    "ordonnance._ismcts.add_child": 1.3,
    "ordonnance._ismcts.iterate_halving": 551.5,
    "ordonnance._montecarlo._rollouts": 69.2,
    "ordonnance._montecarlo.determinize": 4.5,
    "ordonnance._openspiel_kernel.observe": 5.2,
    "ordonnance._openspiel_kernel.prepared": 17.3,
    "ordonnance._openspiel_kernel.result": 5.2,
    "ordonnance._openspiel_kernel.start": 25.0,
    "ordonnance._openspiel_kernel.step": 94.8,
    "ordonnance._sampling._shuffle_unseen": 3.3,
    "ordonnance._simulator_kernel._beaten_by": 25.1,
    "ordonnance._simulator_kernel._shuffle": 1.3,
    "ordonnance._simulator_kernel.copy_game": 1.1,
    "ordonnance._simulator_kernel.outcome": 2.6,
    "ordonnance._simulator_kernel.play_out": 28.9,
    "ordonnance._simulator_kernel.prepare": 0.7,
    "ordonnance._simulator_kernel.simulate_random": 9.3,
    "ordonnance.black_prince._kernel.apply": 8.1,
    "ordonnance.black_prince._kernel.copy_into": 5.8,
    "ordonnance.black_prince._kernel.encode": 0.3,
    "ordonnance.black_prince._kernel.new_state": 1.3,
    "ordonnance.black_prince._kernel.play_out": 22.5,
    "ordonnance.black_prince._kernel.rollouts": 56.5,
    "ordonnance.black_prince._kernel.shuffled": 1.6,
    "ordonnance.black_prince._kernel.simulate": 43.4,
    "ordonnance.black_prince._kernel.winner": 0.7,
    "ordonnance.core.jit.mix_bot_seeds": 0.5,
    "ordonnance.core.jit.stream": 0.4,
    "ordonnance.odds._sample": 1.1,
    "ordonnance.shinobi._kernel._random_play_out": 4.9,
    "ordonnance.shinobi._kernel._shuffle": 0.4,
    "ordonnance.shinobi._kernel.play_out": 27.6,
    "ordonnance.shinobi._kernel.refresh": 1.0,
    "ordonnance.shinobi._kernel.score": 0.5,
    "ordonnance.shinobi._kernel.simulate": 34.9,
    "ordonnance.shinobi._kernel.winners": 0.5,
    "ordonnance.shinobi._montecarlo.determinize": 3.3,
    "ordonnance.shinobi._montecarlo.rollouts": 38.4,
}
"""Cold compile seconds by dispatcher (``module.qualname`` of its Python function)."""
