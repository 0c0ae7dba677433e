"""One PettingZoo ``ParallelEnv`` over any game's turn-based AEC environment (the optional "rl" extra).

Every game is turn-based: one seat acts at a time. :class:`TurnBasedParallelEnv` steps
the AEC environment with the action of the seat to act and ignores the others' (they
may send anything, or nothing), so a parallel training loop runs every game unchanged.
It reads only the AEC API (``reset``, ``observe``, ``step``, ``agent_selection``,
``rewards``, ``terminations``, ``truncations``, ``infos``, ``state``), so it serves
:class:`~ordonnance.core.aec.GameAEC` and Ordonnance's own AEC environment alike. This
module imports without PettingZoo; building an environment without the extra raises
:class:`ImportError` with the install command.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.core.extras import Unavailable
from ordonnance.core.aec import require_rl
from ordonnance.core.checks import shown
from ordonnance.errors import IllegalActionError, InvalidSeatError, OrdonnanceTypeError

__all__ = ["TurnBasedParallelEnv"]


try:
    from pettingzoo import ParallelEnv  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - exercised without the extra
    ParallelEnv = Unavailable


class TurnBasedParallelEnv(ParallelEnv):  # type: ignore[misc]
    """A turn-based AEC environment as a PettingZoo ``ParallelEnv``.

    ``reset(seed, options)`` returns every agent's observation and info (the AEC
    environment's, so the same deal and the same ``infos[agent]["action_mask"]``).
    ``step(actions)`` plays ``actions[agent]`` for the one agent to act
    (``infos[agent]["action_mask"]`` is all zeros for the others, whose actions are
    ignored) and returns every live agent's observation, reward, termination,
    truncation and info. The game ends for every agent at once; then :attr:`agents` is
    empty until the next reset. An action missing for the agent to act, or illegal,
    raises :class:`~ordonnance.errors.IllegalActionError` and changes nothing; a key
    that names no agent raises :class:`~ordonnance.errors.InvalidSeatError`.
    :meth:`state` and :attr:`state_space` are the AEC environment's global state.
    """

    def __init__(self, aec_env: Any) -> None:
        require_rl(type(self).__name__)
        self.aec_env: Any = aec_env
        """The AEC environment stepped (unwrapped)."""
        self.metadata: dict[str, Any] = {**aec_env.metadata, "is_parallelizable": True}
        self.possible_agents: list[str] = list(aec_env.possible_agents)
        self.agents: list[str] = []
        self.render_mode: str | None = aec_env.render_mode
        """The AEC environment's render mode."""
        self.observation_spaces: dict[str, Any] = {a: aec_env.observation_space(a) for a in self.possible_agents}
        self.action_spaces: dict[str, Any] = {a: aec_env.action_space(a) for a in self.possible_agents}
        self.state_space: Any = aec_env.state_space
        """The space of :meth:`state`."""

    @property
    def game(self) -> Any:
        """The game in progress (None before the first reset)."""
        return self.aec_env.game

    def _agent(self, agent: object) -> str:
        if not isinstance(agent, str) or agent not in self.possible_agents:
            raise InvalidSeatError(f"no agent named {shown(agent)}; the agents are {', '.join(self.possible_agents)}")
        return str(agent)

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> Any:
        """The action space of ``agent`` (the same object on every call)."""
        return self.action_spaces[self._agent(agent)]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Deal a new game (as the AEC environment's ``reset``): every agent's observation and info."""
        self.aec_env.reset(seed=seed, options=options)
        self.agents = list(self.aec_env.agents)
        return self._observations(), self._infos()

    def _observations(self) -> dict[str, Any]:
        return {agent: self.aec_env.observe(agent) for agent in self.agents}

    def _infos(self) -> dict[str, dict[str, Any]]:
        return {agent: dict(self.aec_env.infos[agent]) for agent in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[
        dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]
    ]:  # fmt: skip
        """Play the action of the agent to act (the others' are ignored); what every live agent gets."""
        if not isinstance(actions, Mapping):
            raise OrdonnanceTypeError(f"actions must be a dict from agent names to actions, got {shown(actions)}")
        if not self.agents:
            raise RuntimeError("no agent is live: call reset()")
        for agent in actions:
            self._agent(agent)
        acting = self.aec_env.agent_selection
        if acting not in actions:
            raise IllegalActionError(None, f"{acting} is to act, and actions holds no action for it")
        self.aec_env.step(actions[acting])
        live = self.agents
        rewards = {agent: float(self.aec_env.rewards[agent]) for agent in live}
        terminations = {agent: bool(self.aec_env.terminations[agent]) for agent in live}
        truncations = {agent: bool(self.aec_env.truncations[agent]) for agent in live}
        observations, infos = self._observations(), self._infos()
        self.agents = [agent for agent in live if not (terminations[agent] or truncations[agent])]
        return observations, rewards, terminations, truncations, infos

    def state(self) -> npt.NDArray[np.float32]:
        """The AEC environment's global state (every seat's observation vector)."""
        return self.aec_env.state()  # type: ignore[no-any-return]

    def render(self) -> str | None:
        """The AEC environment's rendering."""
        return self.aec_env.render()  # type: ignore[no-any-return]

    def close(self) -> None:
        """Close the AEC environment."""
        self.aec_env.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.aec_env!r})"
