"""Seconds numba takes to compile each kernel entry point of the library, cold (an empty cache,
a fresh process; CPU seconds of the largest of its signatures, its non-inlined callees
included): the estimates that :mod:`ordonnance.core.compiling` quotes. Written by
``python benchmarks/compile_times.py --kernels --write-estimates``; do not edit by hand.
"""

MEASURED = "provisional: 2026-12-06, commit d706742, the shared 2-core development machine, busy (CPU seconds)"
"""Where and when the figures were measured."""

SECONDS: dict[str, float] = {
    "ordonnance._army_kernel.keys_from_words": 0.9,
    "ordonnance._batch_kernel.legal_masks": 8.7,
    "ordonnance._batch_kernel.observe": 2.8,
    "ordonnance._batch_kernel.observers": 0.5,
    "ordonnance._batch_kernel.reset": 31.4,
    "ordonnance._batch_kernel.step": 84.2,
    "ordonnance._completion_kernel.best_completion": 2.0,
    "ordonnance._env_kernel.start": 33.5,
    "ordonnance._env_kernel.step": 46.7,
    "ordonnance._ismcts.add_child": 0.4,
    "ordonnance._ismcts.iterate_halving": 115.7,
    "ordonnance._montecarlo._rollouts": 25.1,
    "ordonnance._openspiel_kernel.observe": 2.8,
    "ordonnance._openspiel_kernel.prepared": 9.6,
    "ordonnance._openspiel_kernel.result": 2.8,
    "ordonnance._openspiel_kernel.start": 11.5,
    "ordonnance._openspiel_kernel.step": 17.1,
    "ordonnance._sampling._shuffle_unseen": 0.7,
    "ordonnance._simulator_kernel._shuffle": 0.6,
    "ordonnance._simulator_kernel.prepare": 0.6,
    "ordonnance._simulator_kernel.simulate_random": 5.9,
    "ordonnance.black_prince._kernel.encode": 0.4,
    "ordonnance.black_prince._kernel.new_state": 1.2,
    "ordonnance.black_prince._kernel.rollouts": 17.2,
    "ordonnance.black_prince._kernel.simulate": 14.9,
    "ordonnance.core.jit.mix_bot_seeds": 0.5,
    "ordonnance.core.jit.stream": 0.4,
    "ordonnance.odds._sample": 1.2,
    "ordonnance.shinobi._kernel.refresh": 1.0,
    "ordonnance.shinobi._kernel.simulate": 33.2,
    "ordonnance.shinobi._montecarlo.rollouts": 39.1,
}
"""Cold compile seconds by dispatcher (``module.qualname`` of its Python function)."""
