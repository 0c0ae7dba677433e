"""Seconds numba takes to compile each kernel entry point of the library, cold (an empty cache,
a fresh process; CPU seconds of the largest of its signatures, its non-inlined callees
included): the estimates that :mod:`ordonnance.core.compiling` quotes. Written by
``python benchmarks/compile_times.py --kernels --write-estimates``; do not edit by hand.
"""

MEASURED = "2026-12-06, commit 284f765, the shared 2-core development machine, load 2.0 1.7 1.5 (CPU seconds); simulate_orders and drawers 2026-12-07, load about 1"
"""Where and when the figures were measured."""

SECONDS: dict[str, float] = {
    "ordonnance._army_kernel.key4": 0.4,
    "ordonnance._army_kernel.keys_from_words": 0.7,
    "ordonnance._batch_kernel.legal_masks": 7.7,
    "ordonnance._batch_kernel.observe": 2.5,
    "ordonnance._batch_kernel.observers": 0.4,
    "ordonnance._batch_kernel.reset": 22.6,
    "ordonnance._batch_kernel.step": 32.2,
    "ordonnance._completion_kernel.best_completion": 1.7,
    "ordonnance._env_kernel.start": 26.2,
    "ordonnance._env_kernel.step": 25.2,
    "ordonnance._ismcts.add_child": 0.4,
    "ordonnance._ismcts.iterate_halving": 48.8,
    "ordonnance._montecarlo._rollouts": 22.4,
    "ordonnance._openspiel_kernel.observe": 2.5,
    "ordonnance._openspiel_kernel.prepared": 8.6,
    "ordonnance._openspiel_kernel.result": 2.8,
    "ordonnance._openspiel_kernel.start": 10.9,
    "ordonnance._openspiel_kernel.step": 20.2,
    "ordonnance._sampling._shuffle_unseen": 0.7,
    "ordonnance._simulator_kernel._shuffle": 0.5,
    "ordonnance._simulator_kernel.drawers": 20.8,
    "ordonnance._simulator_kernel.prepare": 0.6,
    "ordonnance._simulator_kernel.simulate": 23.0,
    "ordonnance._simulator_kernel.simulate_orders": 24.9,
    "ordonnance._simulator_kernel.simulate_random": 5.7,
    "ordonnance.black_prince._kernel.encode": 0.3,
    "ordonnance.black_prince._kernel.new_state": 1.0,
    "ordonnance.black_prince._kernel.rollouts": 18.1,
    "ordonnance.black_prince._kernel.simulate": 17.7,
    "ordonnance.core.jit.mix_bot_seeds": 0.6,
    "ordonnance.core.jit.stream": 0.4,
    "ordonnance.odds._exact": 1.7,
    "ordonnance.odds._sample": 1.2,
    "ordonnance.shinobi._kernel.refresh": 1.0,
    "ordonnance.shinobi._kernel.simulate": 18.4,
    "ordonnance.shinobi._montecarlo.rollouts": 21.8,
}
"""Cold compile seconds by dispatcher (``module.qualname`` of its Python function)."""
