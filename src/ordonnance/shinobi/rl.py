"""A PettingZoo AEC environment of Shinobi, with action masks.

Install the optional extra first: ``pip install "ordonnance[rl]"``. This module
imports without it (the encoders below need NumPy alone); building the
environment then raises :class:`ImportError` with the install command.

Usage::

    from ordonnance.shinobi.rl import env

    game_env = env()                       # 4 players, the default shinobi Rules()
    game_env.reset(seed=42)                # the deal of Game.new(Rules(), seed=42)
    for agent in game_env.agent_iter():
        observation, reward, terminated, truncated, info = game_env.last()
        action = None if terminated or truncated else \\
            game_env.action_space(agent).sample(observation["action_mask"])
        game_env.step(action)

**Actions.** The fixed discrete space of :data:`~ordonnance.shinobi.ACTION_COUNT`
= 306 action codes (:attr:`Deploy.code <ordonnance.shinobi.Deploy.code>` and
:func:`~ordonnance.shinobi.from_code`), the same for 3, 4 and 5 players. The
``"action_mask"`` marks the legal ones with 1 (``int8``); all zeros when it is
not that agent's turn.

**Observations.** ``{"observation": float32 vector, "action_mask": int8 vector}``,
built only from the observing seat's :class:`~ordonnance.shinobi.PlayerView`
(:func:`encode_view`), so it holds nothing that seat may not see. Seats are
relative: row ``r`` is the seat ``r`` places after the observer. In order: the
hand (cards per code, 6), the own clan (one-hot, 5), the armies (``n x 5``
sizes), their changes this turn (``n x 5``, 0/1), the discard pile (6), the
deck size, the hand sizes (``n``), the current player (relative, one-hot ``n``),
the order (one-hot, 3) and the final-round turns left (0 before it).

**Rewards.** Zero until the end; then the winners share +1 and the others -1.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.errors import IllegalActionError, InvalidSeatError, OrdonnanceTypeError
from ordonnance.core.seeds import check_seed as _check_seed
from ordonnance.shinobi.actions import ACTION_COUNT, from_code
from ordonnance.shinobi.cards import CLANS, CODES
from ordonnance.shinobi.game import Game
from ordonnance.shinobi.rules import MAX_DECK, Rules
from ordonnance.shinobi.view import PlayerView


class _Unavailable:
    """Stands in for the base classes of the "rl" extra when it is not installed."""


_IMPORT_ERROR: ImportError | None
try:
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]
except ImportError as error:  # pragma: no cover - exercised without the extra
    _IMPORT_ERROR = error
    AECEnv = _Unavailable
else:
    _IMPORT_ERROR = None

__all__ = ["encode_view", "action_mask", "observation_size", "ShinobiEnv", "raw_env", "env"]

Observation = dict[str, npt.NDArray[Any]]


def observation_size(players: int) -> int:
    """The length of :func:`encode_view`'s vector for ``players`` seats."""
    return CODES + CLANS + 2 * players * CLANS + CODES + 1 + players + players + 3 + 1


def encode_view(view: PlayerView) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (see the module docs for the layout)."""
    if not isinstance(view, PlayerView):
        raise OrdonnanceTypeError(f"expected a shinobi PlayerView, not {view!r}")
    n, me = view.players, view.seat
    seats = [(me + r) % n for r in range(n)]
    hand = [0] * CODES
    for card in view.hand:
        hand[card.code] += 1
    clan = [0] * CLANS
    clan[view.clan] = 1
    current = [0] * n
    current[(view.current_player - me) % n] = 1
    order = [0] * 3
    order[view.order - 1] = 1
    parts: list[float] = [*hand, *clan]
    parts += [size for q in seats for size in view.provinces[q]]
    parts += [float(changed) for q in seats for changed in view.changed[q]]
    parts += [*view.discard, view.deck_size, *(view.hand_sizes[q] for q in seats), *current, *order]
    parts.append(view.extra_turns_left or 0)
    return np.array(parts, np.float32)


def action_mask(view: PlayerView) -> npt.NDArray[np.int8]:
    """1 for each legal action code of ``view`` (all 0 when it is not that seat's turn)."""
    mask = np.zeros(ACTION_COUNT, np.int8)
    for action in view.legal_actions:
        mask[action.code] = 1
    return mask


def _require_extra() -> None:
    if _IMPORT_ERROR is not None:
        raise ImportError(
            f"ordonnance.shinobi.rl needs the optional extra 'rl' ({_IMPORT_ERROR.name} is not installed): "
            f"pip install 'ordonnance[rl]'"
        ) from _IMPORT_ERROR


class ShinobiEnv(AECEnv):  # type: ignore[misc]
    """Shinobi as a PettingZoo AEC environment (see the module docs for spaces and rewards).

    Agents are ``"player_0"``... ``reset(seed=s)`` deals exactly as
    ``Game.new(rules, seed=s)``; a later ``reset()`` without a seed draws the
    next deal from a generator seeded by ``s``. An illegal action raises
    :class:`~ordonnance.errors.IllegalActionError` and changes nothing. Render
    mode ``"ansi"`` returns the text board, ``"svg"`` the SVG picture.
    """

    metadata: dict[str, Any] = {"name": "shinobi_v0", "render_modes": ["ansi", "svg"], "is_parallelizable": False}

    def __init__(self, rules: Rules | None = None, render_mode: str | None = None) -> None:
        _require_extra()
        super().__init__()
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a shinobi Rules, got {rules!r}")
        if render_mode not in (None, "ansi", "svg"):
            raise OrdonnanceTypeError(f"render_mode must be None, 'ansi' or 'svg', got {render_mode!r}")
        self.rules = rules
        """The rules every episode is played under."""
        self.render_mode = render_mode
        """The render mode chosen at construction."""
        self.possible_agents = [f"player_{p}" for p in range(rules.players)]
        self.agents: list[str] = []
        size = observation_size(rules.players)
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0, MAX_DECK, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }  # fmt: skip
        self.action_spaces = {agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents}
        self.game: Game | None = None
        """The game in progress (None before the first reset)."""
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent``."""
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> Any:
        """The action space of ``agent``: the 306 action codes."""
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise InvalidSeatError(f"no agent named {agent!r}; the agents are {', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: the deal of ``Game.new(rules, seed=seed)``, or a fresh one."""
        if seed is not None:
            seed = _check_seed(seed)
            self._rng = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = int(self._rng.integers(0, 2**63))
        self.game = Game.new(self.rules, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees now: its encoded view and its legal-action mask."""
        view = self._game().view(self._seat(agent))
        return {"observation": encode_view(view), "action_mask": action_mask(view)}

    def step(self, action: int | np.integer | None) -> None:
        """Carry out ``action`` (a code) for ``agent_selection``; ``None`` for a finished agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        if action is None:
            raise IllegalActionError(None, f"{agent} is still playing and must choose an action")
        game.apply(from_code(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if game.is_over:
            winners = game.winners
            for seat, name in enumerate(self.possible_agents):
                won = seat in winners
                self.rewards[name] = 1 / len(winners) if won else -1 / (self.rules.players - len(winners))
                self.terminations[name] = True
        self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (``"ansi"``) or SVG (``"svg"``), hands hidden; None without a mode."""
        from ordonnance.shinobi.render import board, svg

        if self.render_mode == "svg":
            return str(svg(self._game()))
        return board(self._game()) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""


#: PettingZoo's name for the unwrapped environment class.
raw_env = ShinobiEnv


def env(rules: Rules | None = None, render_mode: str | None = None) -> Any:
    """A PettingZoo AEC environment of Shinobi in PettingZoo's ``OrderEnforcingWrapper``."""
    _require_extra()
    return OrderEnforcingWrapper(ShinobiEnv(rules, render_mode=render_mode))
