"""Reinforcement-learning adapters: a PettingZoo AEC environment and a Gymnasium one.

Install the optional extra first: ``pip install "ordonnance[rl]"`` (PettingZoo
and Gymnasium). This module imports without them, so the encoders below work
with NumPy alone; building an environment then raises :class:`ImportError`
with the install command.

Usage::

    from ordonnance.rl import env

    game_env = env()                       # 2 players, the default Rules()
    game_env.reset(seed=42)                # the same deal as Game.new(Rules(), seed=42)
    for agent in game_env.agent_iter():
        observation, reward, terminated, truncated, info = game_env.last()
        if terminated or truncated:
            action = None
        else:
            mask = observation["action_mask"]
            action = game_env.action_space(agent).sample(mask)
        game_env.step(action)

and, for one learner against bots, a Gymnasium environment::

    from ordonnance import bots
    from ordonnance.rl import SingleAgentEnv

    single = SingleAgentEnv(opponent=bots.Greedy(seed=0), seat=0)
    observation, info = single.reset(seed=1)

**Actions.** A fixed discrete space of :data:`NUM_ACTIONS` = 161 actions
(:func:`action_index`, :func:`action_from_index`):

* ``0..154``: ``Play(card, territory)`` at ``(card.mask - 1) * 5 + territory``;
* ``155..159``: ``Claim(territory)`` at ``155 + territory``;
* ``160``: ``Pass()``.

The ``"action_mask"`` of an observation (:func:`action_mask`) marks the legal
ones with 1 (``int8``); it is all zeros when it is not that player's turn.

**Observations.** ``{"observation": float32 vector, "action_mask": int8 vector}``. The vector
(:func:`encode_view`) is built only from :meth:`Game.view <ordonnance.Game.view>`
of the observing seat, so it holds nothing that player may not see. Seats are
*relative*: index ``r`` is the seat ``r`` places after the observer (0 is the
observer). In order, with ``n`` players (:func:`observation_layout`):

==============  ============  ==========================================================
field           length        value
==============  ============  ==========================================================
hand            31            copies of each card (mask 1..31) in the observer's hand
unseen          31            copies of each card not face up to the observer
armies          5*n*4*5       per territory, seat and card slot (play order): the
                              card's symbols, one 0/1 per symbol (L B S H F)
formations      5*n*15        per territory and seat: regiments, battalions, companies,
                              one 0/1 per symbol each
completion      5*n           0 while the army is incomplete, else 1 for the first
                              complete army there, 2 for the second, ...
owners          5*(n+1)       one-hot: undecided, or the owner's relative seat
markers         5             the victory marker on each territory (0: none)
hand_sizes      n             cards in each seat's hand
scores          n             each seat's score
to_act          n             one-hot: the seat to act (all 0 once the game is over)
seat            n             one-hot: the observer's own (absolute) seat number
deck_size       1             cards left in the draw pile
is_over         1             1 once the game has ended
==============  ============  ==========================================================

That is 74 + 189 * n numbers: 452 for 2 players, 641 for 3 and 830 for 4.

**Rewards.** Zero on every step until the game ends; then +1 for the winner, -1 for every
other player, and 0 for everyone when nobody wins (a draw). Seating,
whose-turn order and repeated turns (claims do not end a turn) follow the
engine: ``agent_selection`` is always ``game.current_player``.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance import bots
from ordonnance.actions import CLAIMS, PASS, PLAYS, Action, Claim, Pass, Play
from ordonnance.army import ARMY_SIZE, army_key
from ordonnance.cards import MAX_MASK, Symbol
from ordonnance.errors import (
    IllegalActionError,
    InvalidArgumentError,
    InvalidRulesError,
    InvalidSeatError,
    OrdonnanceTypeError,
)
from ordonnance.game import Game, _check_seed
from ordonnance.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ordonnance.territory import TERRITORY_COUNT
from ordonnance.view import PlayerView


class _Unavailable:
    """Stands in for the base classes of the "rl" extra when it is not installed."""

    def __class_getitem__(cls, item: object) -> type[_Unavailable]:
        return cls


_IMPORT_ERROR: ImportError | None
try:
    import gymnasium
    from gymnasium import Env as _GymEnv
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]
except ImportError as error:  # pragma: no cover - exercised without the extra
    _IMPORT_ERROR = error
    _GymEnv = _Unavailable  # type: ignore[assignment,misc]
    AECEnv = _Unavailable
else:
    _IMPORT_ERROR = None

__all__ = [
    "NUM_ACTIONS",
    "PASS_ACTION",
    "CLAIM_ACTIONS",
    "Observation",
    "action_index",
    "action_from_index",
    "action_mask",
    "encode_view",
    "observation_layout",
    "observation_bounds",
    "env",
    "raw_env",
    "OrdonnanceEnv",
    "SingleAgentEnv",
    "VectorEnv",
    "register_envs",
]

_PLAY_ACTIONS = MAX_MASK * TERRITORY_COUNT
#: Index of the first claim action; ``Claim(t)`` is ``CLAIM_ACTIONS + t``.
CLAIM_ACTIONS = _PLAY_ACTIONS
#: Index of the pass action.
PASS_ACTION = CLAIM_ACTIONS + TERRITORY_COUNT
#: Size of the discrete action space: 155 plays, 5 claims and a pass.
NUM_ACTIONS = PASS_ACTION + 1

#: What the environments observe: ``{"observation": float32 array, "action_mask": int8 array}``.
Observation = dict[str, npt.NDArray[Any]]

_SYMBOLS = len(Symbol)
_MAX_SCORE = 3 * TERRITORY_COUNT  # points scoring: 3 per territory at most
_MARKERS = TERRITORY_COUNT


def _require_extra() -> None:
    if _IMPORT_ERROR is not None:
        raise ImportError(
            f"ordonnance.rl environments need the optional extra 'rl' "
            f"({_IMPORT_ERROR.name or 'pettingzoo/gymnasium'} is not installed): "
            f"pip install 'ordonnance[rl]'"
        ) from _IMPORT_ERROR


# ----------------------------------------------------------------------- actions


def action_index(action: Action) -> int:
    """The index of an action in the fixed discrete action space.

    >>> from ordonnance import Claim, Pass, Play, Territory
    >>> from ordonnance.rl import action_index
    >>> action_index(Play("SH", Territory.CYPRUS))
    56
    >>> action_index(Claim(Territory.TRIPOLI)), action_index(Pass())
    (159, 160)
    """
    kind = type(action)
    if kind is Play:
        assert isinstance(action, Play)
        return (action.card.mask - 1) * TERRITORY_COUNT + int(action.territory)
    if kind is Claim:
        assert isinstance(action, Claim)
        return CLAIM_ACTIONS + int(action.territory)
    if kind is Pass:
        return PASS_ACTION
    raise OrdonnanceTypeError(f"an action is a Play, Claim or Pass, not {type(action).__name__}: {action!r}")


def action_from_index(index: int | np.integer) -> Action:
    """The action at ``index`` (0..160); the inverse of :func:`action_index`.

    >>> from ordonnance.rl import NUM_ACTIONS, action_from_index, action_index
    >>> action_from_index(56)
    Play(Card.parse('SH'), Territory.CYPRUS)
    >>> all(action_index(action_from_index(i)) == i for i in range(NUM_ACTIONS))
    True
    """
    if isinstance(index, np.ndarray) and index.shape == () and index.dtype.kind in "iu":
        index = index[()]  # a 0-d integer array, as some RL libraries pass
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        raise OrdonnanceTypeError(f"an action index is an int, not {type(index).__name__}: {index!r}")
    i = int(index)
    if not 0 <= i < NUM_ACTIONS:
        raise IllegalActionError(index, f"action indices are 0..{NUM_ACTIONS - 1}")
    if i < CLAIM_ACTIONS:
        mask, territory = divmod(i, TERRITORY_COUNT)
        return PLAYS[mask + 1][territory]
    if i < PASS_ACTION:
        return CLAIMS[i - CLAIM_ACTIONS]
    return PASS


def action_mask(view: PlayerView) -> npt.NDArray[np.int8]:
    """The legal actions of ``view``'s seat as an ``int8`` 0/1 vector of :data:`NUM_ACTIONS`.

    All zeros when it is not that seat's turn or the game is over.

    >>> import ordonnance as od
    >>> from ordonnance.rl import action_mask
    >>> game = od.Game.new(od.Rules(), seed=3)
    >>> int(action_mask(game.view(0)).sum()) == len(game.legal_actions())
    True
    >>> int(action_mask(game.view(1)).sum())
    0
    """
    _check_view(view)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in view.legal_actions:
        mask[action_index(action)] = 1
    return mask


# ----------------------------------------------------------------------- observations


def observation_layout(players: int) -> tuple[tuple[str, int], ...]:
    """The fields of the observation vector for ``players`` players: (name, length), in order.

    >>> from ordonnance.rl import observation_layout
    >>> sum(length for _, length in observation_layout(2))
    452
    """
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise OrdonnanceTypeError(f"players must be an int, got {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidRulesError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players!r}")
    n = int(players)
    return (
        ("hand", MAX_MASK),
        ("unseen", MAX_MASK),
        ("armies", TERRITORY_COUNT * n * ARMY_SIZE * _SYMBOLS),
        ("formations", TERRITORY_COUNT * n * 3 * _SYMBOLS),
        ("completion", TERRITORY_COUNT * n),
        ("owners", TERRITORY_COUNT * (n + 1)),
        ("markers", TERRITORY_COUNT),
        ("hand_sizes", n),
        ("scores", n),
        ("to_act", n),
        ("seat", n),
        ("deck_size", 1),
        ("is_over", 1),
    )


def observation_bounds(rules: Rules) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """``(low, high)`` of every number :func:`encode_view` can produce under ``rules``.

    >>> import ordonnance as od
    >>> from ordonnance.rl import observation_bounds
    >>> low, high = observation_bounds(od.Rules())
    >>> low.shape, float(low.min()), float(high[0])
    ((452,), 0.0, 4.0)
    """
    if not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"rules must be a Rules, got {rules!r}")
    n = rules.players
    copies = np.zeros(MAX_MASK + 1, dtype=np.float32)
    for card in rules.cards:
        copies[card.mask] += 1
    per_card = np.maximum(copies[1:], 1.0)
    total = float(len(rules.cards))
    highs = {
        "hand": per_card,
        "unseen": per_card,
        "completion": np.full(TERRITORY_COUNT * n, n, dtype=np.float32),
        "markers": np.full(TERRITORY_COUNT, _MARKERS, dtype=np.float32),
        "hand_sizes": np.full(n, total, dtype=np.float32),
        "scores": np.full(n, _MAX_SCORE, dtype=np.float32),
        "deck_size": np.full(1, total, dtype=np.float32),
    }
    high = np.concatenate(
        [highs.get(name, np.ones(length, dtype=np.float32)) for name, length in observation_layout(n)]
    ).astype(np.float32)
    return np.zeros_like(high), high


def encode_view(view: PlayerView) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (see the module's table), as ``float32``.

    Only the view is read, so the vector holds nothing hidden from its seat.

    >>> import ordonnance as od
    >>> from ordonnance.rl import encode_view
    >>> game = od.Game.new(od.Rules(), seed=3)
    >>> vector = encode_view(game.view(0))
    >>> vector.dtype, vector.shape, int(vector[:31].sum()) == len(game.hand(0))
    (dtype('float32'), (452,), True)
    """
    _check_view(view)
    n = view.rules.players
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % n

    hand = np.zeros(MAX_MASK + 1, dtype=np.float32)
    for card in view.hand:
        hand[card.mask] += 1
    unseen = np.asarray(view.unseen, dtype=np.float32)
    armies = np.zeros((TERRITORY_COUNT, n, ARMY_SIZE, _SYMBOLS), dtype=np.float32)
    formations = np.zeros((TERRITORY_COUNT, n, 3, _SYMBOLS), dtype=np.float32)
    completion = np.zeros((TERRITORY_COUNT, n), dtype=np.float32)
    owners = np.zeros((TERRITORY_COUNT, n + 1), dtype=np.float32)
    markers = np.zeros(TERRITORY_COUNT, dtype=np.float32)
    bits = np.array([1 << s for s in range(_SYMBOLS)])
    for t in range(TERRITORY_COUNT):
        done = view.completed_at[t]
        order = sorted(d for d in done if d is not None)
        for seat in range(n):
            r = rel(seat)
            cards = view.armies[t][seat]
            for slot, card in enumerate(cards):
                armies[t, r, slot] = (card.mask & bits) != 0
            key = army_key(cards)
            for tier, shift in enumerate((16, 8, 0)):
                formations[t, r, tier] = ((key >> shift) & bits) != 0
            d = done[seat]
            if d is not None:
                completion[t, r] = order.index(d) + 1
        owner = view.owners[t]
        owners[t, 0 if owner is None else 1 + rel(owner)] = 1
        markers[t] = view.markers[t] or 0
    order_seats = [(me + r) % n for r in range(n)]
    to_act = np.zeros(n, dtype=np.float32)
    if not view.is_over:
        to_act[rel(view.current_player)] = 1
    seat_one_hot = np.zeros(n, dtype=np.float32)
    seat_one_hot[me] = 1
    return np.concatenate(
        [
            hand[1:],
            unseen[1:],
            armies.ravel(),
            formations.ravel(),
            completion.ravel(),
            owners.ravel(),
            markers,
            np.array([view.hand_sizes[s] for s in order_seats], dtype=np.float32),
            np.array([view.scores[s] for s in order_seats], dtype=np.float32),
            to_act,
            seat_one_hot,
            np.array([view.deck_size, float(view.is_over)], dtype=np.float32),
        ]
    )


def _observe(view: PlayerView) -> Observation:
    return {"observation": encode_view(view), "action_mask": action_mask(view)}


def _outcome(game: Game, seat: int) -> float:
    winner = game.winner
    if winner is None:
        return 0.0
    return 1.0 if winner == seat else -1.0


def _check_view(view: object) -> None:
    if not isinstance(view, PlayerView):
        raise OrdonnanceTypeError(f"expected a PlayerView (game.view(seat)), not {type(view).__name__}: {view!r}")


def _check_max_steps(max_steps: int | None) -> int | None:
    if max_steps is None:
        return None
    if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)):
        raise OrdonnanceTypeError(f"max_steps must be a positive int or None, got {max_steps!r}")
    if max_steps < 1:
        raise InvalidArgumentError(f"max_steps must be a positive int or None, got {max_steps!r}")
    return int(max_steps)


def _check_reset_seed(seed: object) -> int | None:
    """A reset seed: None, or a seed ``Game.new`` accepts (0..2**64-1)."""
    return None if seed is None else _check_seed(seed)


def _game_seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63))


def _render(game: Game, mode: str | None, seat: int | None) -> str | None:
    if mode is None:
        gymnasium.logger.warn(
            "render() was called without a render_mode; pass render_mode='ansi', 'human' or 'svg'"
        )
        return None
    if mode == "svg":
        from ordonnance import render

        return str(render.svg(game if seat is None else game.view(seat)))
    text = str(game)
    if mode == "human":
        print(text)
        return None
    return text


_RENDER_MODES = ["ansi", "human", "svg"]


def _check_render_mode(mode: str | None) -> str | None:
    if mode is not None and (not isinstance(mode, str) or mode not in _RENDER_MODES):
        raise InvalidArgumentError(f"render_mode must be None or one of {_RENDER_MODES}, got {mode!r}")
    return mode


# ----------------------------------------------------------------------- PettingZoo


class OrdonnanceEnv(AECEnv):  # type: ignore[misc]
    """Ordonnance as a PettingZoo AEC environment (see the module docs for spaces and rewards).

    Agents are ``"player_0"``, ``"player_1"``, ... (one per seat of ``rules``).
    ``reset(seed=s)`` deals exactly as ``Game.new(rules, seed=s)``; a later
    ``reset()`` without a seed draws the next deal from a generator seeded by
    ``s``. An illegal action raises :class:`~ordonnance.IllegalActionError`
    and changes nothing (wrap the env in PettingZoo's ``TerminateIllegalWrapper``
    to punish instead). Render modes: ``"ansi"`` (the text board), ``"human"``
    (printed) and ``"svg"`` (:func:`ordonnance.render.svg`, hands hidden).

    ``max_steps`` (None: no limit) truncates an episode after that many
    actions. Every game ends (a seat that passes is not asked again until
    someone plays or claims, so a policy that keeps passing ends the game);
    the limit only caps an episode's length.
    """

    metadata: dict[str, Any] = {
        "name": "ordonnance_v0",
        "render_modes": _RENDER_MODES,
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: Rules | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
    ) -> None:
        _require_extra()
        super().__init__()
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a Rules, got {rules!r}")
        self.rules: Rules = rules
        """The rules every episode is played under."""
        self.render_mode: str | None = _check_render_mode(render_mode)
        """The render mode chosen at construction."""
        self.max_steps: int | None = _check_max_steps(max_steps)
        """Truncate an episode after this many actions (None: never)."""
        self.possible_agents: list[str] = [f"player_{p}" for p in range(rules.players)]
        self.agents: list[str] = []
        low, high = observation_bounds(rules)
        self.observation_spaces: dict[str, spaces.Dict] = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents
        }
        self.game: Game | None = None
        """The game in progress (None before the first reset)."""
        self._rng = np.random.default_rng()
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of ``agent``: :data:`NUM_ACTIONS` discrete actions."""
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def _seat(self, agent: str) -> int:
        if not isinstance(agent, str) or agent not in self.possible_agents:
            raise InvalidSeatError(f"no agent named {agent!r}; the agents are {', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: the deal of ``Game.new(rules, seed=seed)``, or a fresh one."""
        seed = _check_reset_seed(seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = _game_seed(self._rng)
        self.game = Game.new(self.rules, seed=game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._steps = 0

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees now: its encoded view and its legal-action mask."""
        return _observe(self._game().view(self._seat(agent)))

    def step(self, action: int | np.integer | None) -> None:
        """Carry out ``action`` (an index) for ``agent_selection``; ``None`` for a finished agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        if action is None:
            raise IllegalActionError(None, f"{agent} is still playing and must choose an action")
        game.apply(action_from_index(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._steps += 1
        if game.is_over:
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = _outcome(game, seat)
                self.terminations[name] = True
        elif self.max_steps is not None and self._steps >= self.max_steps:
            for name in self.agents:
                self.truncations[name] = True
        self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``"ansi"``), printed (``"human"``) or as SVG (``"svg"``)."""
        return _render(self._game(), self.render_mode, None)

    def close(self) -> None:
        """Nothing to release."""

    def __repr__(self) -> str:
        return f"OrdonnanceEnv(rules={self.rules!r})"


#: PettingZoo's name for the unwrapped environment class.
raw_env = OrdonnanceEnv


def env(
    rules: Rules | None = None,
    render_mode: str | None = None,
    max_steps: int | None = None,
) -> Any:
    """A PettingZoo AEC environment of Ordonnance, wrapped in PettingZoo's ``OrderEnforcingWrapper``.

    ``env().unwrapped`` is the :class:`OrdonnanceEnv`; see it and the module
    docs for agents, spaces, rewards and seeding.
    """
    _require_extra()
    return OrderEnforcingWrapper(OrdonnanceEnv(rules, render_mode=render_mode, max_steps=max_steps))


# ----------------------------------------------------------------------- Gymnasium


class SingleAgentEnv(_GymEnv[dict[str, Any], np.int64]):
    """One seat of Ordonnance as a Gymnasium environment; bots play the other seats.

    ``opponent`` is one bot for every other seat, or a sequence with one bot
    per other seat in seat order (default: ``bots.Greedy(seed=0)``). The
    learner sits at ``seat``. Observations and actions are those of the
    module docs, from the learner's view; ``action_masks()`` gives the legal
    actions as booleans (for sb3-contrib's ``MaskablePPO``).

    The reward is 0 until the game ends, then +1 (the learner won), -1 (another
    seat won) or 0 (a draw). An illegal action ends the episode at once with
    reward ``illegal_reward`` and ``info["illegal_action"] = True``.
    ``reset(seed=s)`` deals as ``Game.new(rules, seed=s)`` and restarts the
    bots from copies of their state at construction, so it replays exactly;
    ``reset()`` deals from a generator seeded by the last seed.
    ``max_steps`` (None: no limit) truncates after that many learner actions
    (see :class:`OrdonnanceEnv`).
    """

    metadata: dict[str, Any] = {"render_modes": _RENDER_MODES, "render_fps": 1}

    def __init__(
        self,
        opponent: bots.Bot | Sequence[bots.Bot] | None = None,
        seat: int = 0,
        rules: Rules | None = None,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
    ) -> None:
        _require_extra()
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a Rules, got {rules!r}")
        n = rules.players
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise OrdonnanceTypeError(f"seat must be a seat number 0..{n - 1}, got {seat!r}")
        if not 0 <= seat < n:
            raise InvalidSeatError(f"seat must be a seat number 0..{n - 1}, got {seat!r}")
        seat = int(seat)
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float, np.integer, np.floating)):
            raise OrdonnanceTypeError(f"illegal_reward must be a number, got {illegal_reward!r}")
        if not math.isfinite(illegal_reward):
            raise InvalidArgumentError(f"illegal_reward must be a finite number, got {illegal_reward!r}")
        others = [p for p in range(n) if p != seat]
        if opponent is None:
            opponent = bots.Greedy(seed=0)
        if isinstance(opponent, (str, bytes)):
            raise OrdonnanceTypeError(f"an opponent is a bot or a list of bots, not a string: {opponent!r}")
        if isinstance(opponent, Sequence):
            if len(opponent) != len(others):
                raise InvalidArgumentError(
                    f"give one bot, or one per other seat ({len(others)}), got {len(opponent)}: {opponent!r}"
                )
            chosen = list(opponent)
        else:
            chosen = [opponent] * len(others)
        for bot in chosen:
            if not callable(getattr(bot, "choose", None)):
                raise OrdonnanceTypeError(f"an opponent needs a choose(view) method, got {bot!r}")
        self.rules: Rules = rules
        """The rules every episode is played under."""
        self.seat: int = seat
        """The learner's seat."""
        self.illegal_reward: float = float(illegal_reward)
        """The reward for an illegal action (which ends the episode)."""
        self.max_steps: int | None = _check_max_steps(max_steps)
        """Truncate an episode after this many learner actions (None: never)."""
        self.render_mode = _check_render_mode(render_mode)
        # One template per distinct bot object, so a bot playing several seats stays one bot.
        self._templates: dict[int, bots.Bot] = {id(b): copy.deepcopy(b) for b in chosen}
        self._seats_bot_ids = {p: id(b) for p, b in zip(others, chosen)}
        self.opponents: dict[int, bots.Bot] = {p: b for p, b in zip(others, chosen)}
        """The bot playing each other seat."""
        low, high = observation_bounds(rules)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        """The game in progress (None before the first reset)."""
        self._steps = 0
        self._done = False

    def _restart_bots(self) -> None:
        fresh = {key: copy.deepcopy(bot) for key, bot in self._templates.items()}
        self.opponents = {p: fresh[key] for p, key in self._seats_bot_ids.items()}

    def _game(self) -> Game:
        if self.game is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        return self.game

    def _let_bots_play(self) -> None:
        game = self._game()
        while not game.is_over and game.current_player != self.seat:
            p = game.current_player
            game.apply(self.opponents[p].choose(game.view(p)))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and let the bots play up to the learner's first turn."""
        seed = _check_reset_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            self._restart_bots()
            game_seed = seed
        else:
            game_seed = _game_seed(self.np_random)
        self.game = Game.new(self.rules, seed=game_seed)
        self._steps = 0
        self._done = False
        self._let_bots_play()
        return _observe(self.game.view(self.seat)), {}

    def step(self, action: int | np.integer) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an index), then the bots until the learner's turn or the end."""
        game = self._game()
        if self._done:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        chosen = action_from_index(action)
        self._steps += 1
        if chosen not in game.legal_actions():
            self._done = True
            info = {"illegal_action": True}
            return _observe(game.view(self.seat)), self.illegal_reward, True, False, info
        game.apply(chosen)
        self._let_bots_play()
        terminated = game.is_over
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._done = terminated or truncated
        reward = _outcome(game, self.seat) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return _observe(game.view(self.seat)), reward, terminated, truncated, {"illegal_action": False}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now, as booleans (sb3-contrib's convention)."""
        return action_mask(self._game().view(self.seat)).astype(bool)

    def render(self) -> str | None:
        """The table as text (``"ansi"``), printed (``"human"``) or as SVG of the learner's view."""
        return _render(self._game(), self.render_mode, self.seat)

    def __repr__(self) -> str:
        return f"SingleAgentEnv(seat={self.seat}, rules={self.rules!r})"


# The batched vector environment lives in its own module (it builds on ordonnance.batch);
# importing ordonnance.rl registers "ordonnance/Ordonnance-v0" with Gymnasium when it is installed.
from ordonnance._vector_env import VectorEnv, register_envs  # noqa: E402

if _IMPORT_ERROR is None:
    register_envs()
