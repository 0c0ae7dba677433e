"""One PettingZoo AEC environment over any game's Python engine (the optional "rl" extra).

A game's environment is a subclass of :class:`GameAEC` that names its rules and game
types and supplies four hooks: the observation encoder, the legal-action mask, the
decoding of an action index in a view, and each seat's final reward. Everything else
(agents, spaces, the ``"dict"`` and ``"box"`` observation forms, the action masks in
``infos``, the global :meth:`~GameAEC.state`, seeding, the AEC bookkeeping, truncation,
rendering) is written here once. This module imports without PettingZoo; building an environment without the
extra raises :class:`ImportError` with the install command.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ordonnance.core import checks
from ordonnance.core.extras import Unavailable, require_extra
from ordonnance.core.seeds import check_seed
from ordonnance.errors import IllegalActionError, InvalidArgumentError, InvalidSeatError, OrdonnanceTypeError

__all__ = [
    "GameAEC", "Observation", "OBSERVATION_FORMS", "RENDER_MODES", "check_action_index", "check_max_steps",
    "check_observation", "check_options", "check_render_mode", "layout_offsets", "layout_table", "wrapped",
]  # fmt: skip


_IMPORT_ERROR: ImportError | None
try:
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
except ImportError as error:  # pragma: no cover - exercised without the extra
    _IMPORT_ERROR = error
    AECEnv = Unavailable
else:
    _IMPORT_ERROR = None

#: What the environments observe: ``{"observation": float32 array, "action_mask": int8 array}``.
Observation = dict[str, npt.NDArray[Any]]
#: The render modes every game's environment offers.
RENDER_MODES = ["ansi", "human", "svg"]
#: The observation forms: ``"dict"`` (vector and mask) or ``"box"`` (the vector alone).
OBSERVATION_FORMS = ("dict", "box")


def require_rl(what: str) -> None:
    """Raise the install hint when the "rl" extra is missing."""
    require_extra("rl", _IMPORT_ERROR, what, "pettingzoo/gymnasium")


def check_max_steps(max_steps: object) -> int | None:
    """A truncation length: None, or a positive int (a NumPy one too), as a plain int."""
    if max_steps is not None and not checks.is_integer(max_steps):
        raise OrdonnanceTypeError(f"max_steps must be a positive int or None, got {checks.shown(max_steps)}")
    return checks.optional_integer(max_steps, "max_steps", low=1)


def check_render_mode(mode: object) -> str | None:
    """A render mode: None or one of :data:`RENDER_MODES` (a NumPy string too), as a plain str."""
    if mode is None:
        return None
    if not isinstance(mode, str) or mode not in RENDER_MODES:
        raise InvalidArgumentError(f"render_mode must be None or one of {RENDER_MODES}, got {checks.shown(mode)}")
    return checks.choice(mode, "render_mode", RENDER_MODES)


def check_observation(observation: object) -> str:
    """An observation form: one of :data:`OBSERVATION_FORMS` (a NumPy string too), as a plain str."""
    if not isinstance(observation, str):
        raise OrdonnanceTypeError(f"observation must be one of {list(OBSERVATION_FORMS)}, got {checks.shown(observation)}")
    return checks.choice(observation, "observation", OBSERVATION_FORMS)


def layout_offsets(layout: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int, int], ...]:
    """``(name, offset, length)`` of each field of an observation layout of ``(name, length)`` pairs.

    >>> layout_offsets((("hand", 6), ("clan", 5), ("deck_size", 1)))
    (('hand', 0, 6), ('clan', 6, 5), ('deck_size', 11, 1))
    """
    rows, offset = [], 0
    for name, length in layout:
        rows.append((name, offset, length))
        offset += length
    return tuple(rows)


def layout_table(layout: tuple[tuple[str, int], ...]) -> str:
    """An observation layout as a reStructuredText table of fields, offsets and lengths (the docs' tables).

    >>> print(layout_table((("hand", 6), ("deck_size", 1))))
    ================  ======  ======
    field             offset  length
    ================  ======  ======
    hand              0       6
    deck_size         6       1
    ================  ======  ======
    """
    rule = "=" * 16 + "  " + "=" * 6 + "  " + "=" * 6
    rows = [f"{name:<16}  {offset:<6}  {length}" for name, offset, length in layout_offsets(layout)]
    return "\n".join([rule, f"{'field':<16}  {'offset':<6}  length", rule, *rows, rule])


def check_options(options: object) -> None:
    """Refuse a reset's ``options`` unless it is None or a dict (no option is defined, so none is read)."""
    if options is not None and not isinstance(options, dict):
        raise OrdonnanceTypeError(f"options must be None or a dict, got {checks.shown(options)}")


def check_action_index(index: object, size: int) -> int:
    """``index`` (a Python or NumPy int, not a bool) as a plain int in ``0..size-1``; else
    :class:`~ordonnance.errors.IllegalActionError` showing it (cut short when huge)."""
    if checks.is_integer(index) and 0 <= int(index) < size:
        return int(index)
    text = checks.shown(index)
    try:
        shown_whole = repr(index) == text
    except Exception:  # noqa: BLE001 - a repr that fails (a 5,000-digit int) is shown cut
        shown_whole = False
    raise IllegalActionError(index if shown_whole else text, f"an action index is an int in 0..{size - 1}")


class GameAEC(AECEnv):  # type: ignore[misc]
    """A game as a PettingZoo AEC environment; subclasses fill in the class attributes and hooks.

    Agents are ``"player_0"``, ``"player_1"``...; ``agent_selection`` is always the
    game's current player. ``reset(seed=s)`` deals exactly as ``Game.new(rules,
    seed=s)``; a later ``reset()`` without a seed draws the next deal from a
    generator seeded by ``s``. An illegal action raises
    :class:`~ordonnance.errors.IllegalActionError` and changes nothing. Render
    modes: ``"ansi"`` (the text board), ``"human"`` (printed) and ``"svg"``.

    ``observation`` is ``"dict"`` (the default: ``{"observation": float32 vector,
    "action_mask": int8 vector}``) or ``"box"`` (the float32 vector alone, for
    SuperSuit's wrappers and vector envs). In both forms ``infos[agent]["action_mask"]``
    holds the agent's legal actions (all zeros for an agent not to act).
    :meth:`state` is the global state for centralised critics: every seat's
    observation vector, seat 0's first (:attr:`state_space`); unlike
    :meth:`observe` it shows every hidden card.
    """

    #: The game's ``Rules`` and ``Game`` classes, and the package whose ``render`` module draws it.
    rules_type: ClassVar[type[Any]]
    game_type: ClassVar[Any]
    package: ClassVar[str]
    #: The size of the discrete action space, and a bound of every observed number.
    num_actions: ClassVar[int]
    observation_high: ClassVar[float]

    def observation_size(self) -> int:
        """The length of the observation vector under ``self.rules``."""
        raise NotImplementedError

    def observation_bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``(low, high)`` of each number of the observation vector: 0 and :attr:`observation_high`
        unless the game knows closer bounds."""
        size = self.observation_size()
        return np.zeros(size, np.float32), np.full(size, self.observation_high, np.float32)

    def encode(self, view: Any) -> npt.NDArray[np.float32]:
        """The observation vector of one seat's view."""
        raise NotImplementedError

    def mask(self, view: Any) -> npt.NDArray[np.int8]:
        """1 for each legal action index of ``view``."""
        raise NotImplementedError

    def decode(self, index: int | np.integer, view: Any) -> Any:
        """The action of index ``index`` in ``view`` (the acting seat's)."""
        raise NotImplementedError

    def outcome(self, game: Any, seat: int) -> float:
        """``seat``'s reward at the end of ``game``."""
        raise NotImplementedError

    def __init__(
        self, rules: Any = None, render_mode: str | None = None, max_steps: int | None = None, observation: str = "dict"
    ) -> None:
        require_rl(f"the {type(self).__name__} environment")
        from gymnasium import spaces

        super().__init__()
        rules = self.rules_type() if rules is None else rules
        if not isinstance(rules, self.rules_type):
            raise OrdonnanceTypeError(f"rules must be a {self.package.rsplit('.', 1)[-1]} Rules, got {checks.shown(rules)}")
        self.rules: Any = rules
        """The rules every episode is played under."""
        self.render_mode: str | None = check_render_mode(render_mode)
        """The render mode chosen at construction."""
        self.max_steps: int | None = check_max_steps(max_steps)
        """Truncate an episode after this many actions (None: never)."""
        self.observation: str = check_observation(observation)
        """The observation form: ``"dict"`` or ``"box"``."""
        self.possible_agents: list[str] = [f"player_{p}" for p in range(rules.players)]
        self.agents: list[str] = []
        low, high = self.observation_bounds()
        vector = spaces.Box(low, high, dtype=np.float32)
        space = vector if self.observation == "box" else spaces.Dict({
            "observation": vector,
            "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
        })  # fmt: skip
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.state_space: Any = spaces.Box(np.tile(low, rules.players), np.tile(high, rules.players), dtype=np.float32)
        """The space of :meth:`state`: every seat's observation vector, in seat order."""
        self.action_spaces = {agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents}
        self.game: Any = None
        """The game in progress (None before the first reset)."""
        self._rng = np.random.default_rng()
        self._steps = 0
        self._acting_view: tuple[Any, Any] | None = None  # (game, view of the seat to act), from its mask to its step

    def _seat(self, agent: object) -> int:
        if not isinstance(agent, str) or agent not in self.possible_agents:
            raise InvalidSeatError(f"no agent named {checks.shown(agent)}; the agents are {', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent``."""
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> Any:
        """The action space of ``agent``."""
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def _game(self) -> Any:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: the deal of ``Game.new(rules, seed=seed)``, or a fresh one.

        ``options`` (None or a dict) is PettingZoo's; no option is defined, so none is read."""
        check_options(options)
        if seed is not None:
            game_seed = check_seed(seed)
            self._rng = np.random.default_rng(game_seed)
        else:
            game_seed = int(self._rng.integers(0, 2**63))
        self.game = self.game_type.new(self.rules, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._steps = 0
        self._mask_infos()

    def _mask_infos(self) -> None:
        """``infos[agent]["action_mask"]``: the legal actions of the seat to act, zeros for the others."""
        game = self._game()
        self._acting_view = (game, game.view(game.current_player))
        acting = self.mask(self._acting_view[1])
        for seat, agent in enumerate(self.possible_agents):
            if agent in self.infos:
                same = seat == game.current_player and not game.is_over
                self.infos[agent]["action_mask"] = acting.copy() if same else np.zeros(self.num_actions, np.int8)

    def _view(self, seat: int) -> Any:
        game = self._game()
        if seat == game.current_player and self._acting_view is not None and self._acting_view[0] is game:
            return self._acting_view[1]
        return game.view(seat)

    def observe(self, agent: str) -> Observation | npt.NDArray[np.float32]:
        """What ``agent`` sees now: its encoded view, with its legal-action mask in the ``"dict"`` form."""
        seat = self._seat(agent)
        view = self._view(seat)
        if self.observation == "box":
            return self.encode(view)
        return {"observation": self.encode(view), "action_mask": self.mask(view)}

    def state(self) -> npt.NDArray[np.float32]:
        """The global state: every seat's observation vector, seat 0's first (for centralised
        critics; unlike :meth:`observe`, it shows every seat's hidden cards)."""
        game = self._game()
        return np.concatenate([self.encode(game.view(seat)) for seat in range(self.rules.players)])

    def step(self, action: int | np.integer | None) -> None:
        """Carry out ``action`` (an index) for ``agent_selection``; ``None`` for a finished agent.

        Anything else than an index of the action space (or None for a finished agent) raises
        :class:`~ordonnance.errors.IllegalActionError`, as an illegal action does; nothing changes."""
        game = self._game()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(None, f"{agent} has finished: its only action is None")
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(None, f"{agent} is still playing and must choose an action")
        index = check_action_index(action, self.num_actions)
        game.apply(self.decode(index, self._view(game.current_player)))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._steps += 1
        if game.is_over:
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = self.outcome(game, seat)
                self.terminations[name] = True
        elif self.max_steps is not None and self._steps >= self.max_steps:
            for name in self.agents:
                self.truncations[name] = True
        self.agent_selection = self.possible_agents[game.current_player]
        self._mask_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``"ansi"``), printed (``"human"``) or as SVG (``"svg"``); hands hidden."""
        if self.render_mode is None:
            return None
        render = importlib.import_module(self.package + ".render")
        if self.render_mode == "svg":
            return str(render.svg(self._game()))
        text = str(render.board(self._game()))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rules={self.rules!r})"


def wrapped(environment: Any) -> Any:
    """``environment`` in PettingZoo's ``OrderEnforcingWrapper``, as PettingZoo's ``env()`` functions return it."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]

    return OrderEnforcingWrapper(environment)
