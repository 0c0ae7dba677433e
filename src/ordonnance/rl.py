"""Reinforcement-learning environments: batched (:class:`VectorEnv`), one game (Gymnasium, PettingZoo).

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

and, for one learner against bots or policies, a Gymnasium environment, or
thousands of them stepped together in numba (:class:`VectorEnv`, the fastest)::

    from ordonnance.rl import SingleAgentEnv, VectorEnv

    single = SingleAgentEnv(opponent="greedy", seat="random", observation="box")
    observation, info = single.reset(seed=1)        # info["action_mask"]: the legal actions
    envs = VectorEnv(4096, opponent="random")
    observations, infos = envs.reset(seed=1)        # (4096, 452) float32; envs.action_masks()

**Actions.** A fixed discrete space of :data:`NUM_ACTIONS` = 161 actions
(:func:`action_index`, :func:`action_from_index`):

* ``0..154``: ``Play(card, territory)`` at ``(card.mask - 1) * 5 + territory``;
* ``155..159``: ``Claim(territory)`` at ``155 + territory``;
* ``160``: ``Pass()``.

The ``"action_mask"`` of an observation (:func:`action_mask`) marks the legal
ones with 1 (``int8``); it is all zeros when it is not that player's turn.

**Observations.** ``{"observation": float32 vector, "action_mask": int8 vector}``
(``observation="dict"``, the default of the one-game environments), or the
vector alone (``observation="box"``, the default of :class:`VectorEnv`). The vector
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

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Literal, cast

import numba
import numpy as np
import numpy.typing as npt

from ordonnance import _batch_kernel as bk
from ordonnance import _env_kernel as ek
from ordonnance import _simulator_kernel as kernel
from ordonnance import bots
from ordonnance.actions import CLAIMS, PASS, PLAYS, Action, Claim, Pass, Play
from ordonnance.army import ARMY_SIZE, army_key
from ordonnance.cards import MAX_MASK, Symbol
from ordonnance._entry import compiled_entry
from ordonnance.errors import (
    BotError,
    IllegalActionError,
    InvalidArgumentError,
    InvalidRulesError,
    InvalidSeatError,
    OrdonnanceTypeError,
)
from ordonnance.core import checks
from ordonnance.core.aec import check_options
from ordonnance.core.parallel import TurnBasedParallelEnv
from ordonnance.core.checks import shown
from ordonnance.core.seeds import check_seed as _check_seed
from ordonnance.game import Game
from ordonnance.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ordonnance.core.bots import seeded_copies, has_choose
from ordonnance.core.extras import Unavailable, require_extra
from ordonnance.core.seeds import bot_seeds, own_seed as _own_seed
from ordonnance.simulation import kernel_policy
from ordonnance.territory import TERRITORY_COUNT
from ordonnance.view import PlayerView


_IMPORT_ERROR: ImportError | None
try:
    import gymnasium
    from gymnasium import Env as _GymEnv
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]
except ImportError as error:  # pragma: no cover - exercised without the extra
    _IMPORT_ERROR = error
    _GymEnv = Unavailable  # type: ignore[assignment,misc]
    AECEnv = Unavailable
else:
    _IMPORT_ERROR = None

__all__ = [
    "NUM_ACTIONS",
    "MAX_DECISIONS",
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
    "parallel_env",
    "raw_env",
    "OrdonnanceEnv",
    "SingleAgentEnv",
    "Opponent",
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
    require_extra("rl", _IMPORT_ERROR, "ordonnance.rl environments", "pettingzoo/gymnasium")


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
    raise OrdonnanceTypeError(f"an action is a Play, Claim or Pass, not {type(action).__name__}: {shown(action)}")


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
        raise OrdonnanceTypeError(f"an action index is an int, not {type(index).__name__}: {shown(index)}")
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
        raise OrdonnanceTypeError(f"players must be an int, got {shown(players)}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidRulesError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {shown(players)}")
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
        raise OrdonnanceTypeError(f"rules must be a Rules, got {shown(rules)}")
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


def _check_view(view: object) -> None:
    if not isinstance(view, PlayerView):
        raise OrdonnanceTypeError(f"expected a PlayerView (game.view(seat)), not {type(view).__name__}: {shown(view)}")


def _check_max_steps(max_steps: int | None) -> int | None:
    if max_steps is None:
        return None
    if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)):
        raise OrdonnanceTypeError(f"max_steps must be a positive int or None, got {shown(max_steps)}")
    if max_steps < 1:
        raise InvalidArgumentError(f"max_steps must be a positive int or None, got {shown(max_steps)}")
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
        raise InvalidArgumentError(f"render_mode must be None or one of {_RENDER_MODES}, got {shown(mode)}")
    return mode


# ----------------------------------------------------------------------- one game in the kernel

#: The most actions one game takes, every seat's together, under any rules of 2-4 players.
#: A seat plays at most 4 cards into each of the 5 territories (20), there are at most 5
#: claims, and a seat that passes is not asked again until someone plays or claims, so
#: at most ``n`` passes come between two plays or claims: ``20n + 5 + n(20n + 6)``, 429
#: for 4 players (137 for 2, 263 for 3). No episode of :class:`OrdonnanceEnv` or
#: :class:`SingleAgentEnv` is longer (a fixed ``max_episode_steps`` for padding buffers).
MAX_DECISIONS = 20 * MAX_PLAYERS + 5 + MAX_PLAYERS * (20 * MAX_PLAYERS + 6)

_OBSERVATIONS = ("dict", "box")
_JIT = not getattr(numba.config, "DISABLE_JIT", False)  # NumPy scalars warn of the generators' wraps without it


def _check_observation(observation: object) -> str:
    if not isinstance(observation, str) or observation not in _OBSERVATIONS:
        raise InvalidArgumentError(f"observation must be one of {list(_OBSERVATIONS)}, got {shown(observation)}")
    return observation


def _check_action(action: object) -> int:
    """An action index from a learner: an int (or NumPy integer, or 0-d array) in 0..160."""
    if type(action) is int or isinstance(action, np.integer):
        a = int(action)
        if 0 <= a < NUM_ACTIONS:
            return a
    return action_index(action_from_index(action))  # type: ignore[arg-type]  # raises the right error


def _kernel_call(kernel_function: Callable[..., Any], *args: Any) -> Any:
    if _JIT:
        return kernel_function(*args)
    with np.errstate(over="ignore"):  # 64-bit words wrap by design; NumPy scalars warn without the JIT
        return kernel_function(*args)


class _KernelGame:
    """One game held in the simulator kernel's arrays (stepped by ``_env_kernel``), with
    the actions played so far and a :class:`Game` following it, brought up to date
    only when asked for (bots that read views, rendering, debugging)."""

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        self.rules = rules
        self.config = kernel.pack_config(kernel.config(rules, [kernel.RANDOM] * n, unseen=True))
        self.cards = kernel.deck_of(rules)
        state = kernel.new_state(1, len(rules.cards))
        self.board, self.rng = state.board, state.rng
        self.book = np.zeros(ek.BOOK, np.int64)
        self.history = np.zeros(bk.HISTORY, np.int16)
        self.scratch = np.zeros(kernel.SCRATCH, np.int64)
        self.observation = np.zeros(74 + 189 * n, np.float32)
        self.mask = np.zeros(NUM_ACTIONS, np.bool_)
        self.seed = 0
        self.kernel_seats = 0
        self._shadow: Game | None = None
        self._applied = 0
        self.arrays = ek.Arrays(self.config, self.board, self.rng, self.book, self.history, self.observation,
                                self.mask, self.scratch)  # fmt: skip
        # Through numba's dispatcher a step would type its record first (about a tenth of a
        # step): call the machine code (found by an illegal action, which changes nothing).
        self._find_entries()

    def _find_entries(self) -> None:
        self._step: Callable[..., int] = (
            compiled_entry(ek.step, self.arrays, NUM_ACTIONS, 0, -1) if _JIT else partial(_kernel_call, ek.step)
        )
        self._start: Callable[..., object] | None = None  # ek.start's machine code, found at the first deal
        self._look: Callable[..., object] | None = None  # ek.look's, found at the first look

    def __getstate__(self) -> dict[str, Any]:
        """The game without numba's machine code, which does not pickle (found again on unpickling)."""
        state = self.__dict__.copy()
        for entry in ("_step", "_start", "_look"):
            del state[entry]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._find_entries()

    @property
    def current_player(self) -> int:
        return int(self.board[0, kernel.CURRENT])

    @property
    def is_over(self) -> bool:
        return bool(self.board[0, kernel.OVER])

    @property
    def winner(self) -> int:
        return int(self.book[ek.WINNER])

    def scores(self) -> list[int]:
        return self.book[ek.SCORES : ek.SCORES + self.rules.players].tolist()  # type: ignore[no-any-return]

    def start(self, seed: int, bot_seeds: npt.NDArray[np.uint64], kernel_seats: int, greedy: int, seat: int) -> None:
        """Deal ``Game.new(rules, seed=seed)``; the kernel bots (Greedy in the ``greedy``
        bits) play the ``kernel_seats`` bits; observe from ``seat``."""
        self.seed = seed
        self.kernel_seats = kernel_seats
        self.config[2] = greedy
        self._shadow = None
        self._applied = 0
        args = (self.arrays, self.cards, np.uint64(seed), bot_seeds, kernel_seats, seat)
        with np.errstate(over="ignore"):
            if self._start is None:  # the dispatcher's call (it compiles, or loads from the disk cache)
                self._start = compiled_entry(cast(Callable[..., int], ek.start), *args)
            else:
                self._start(*args)

    def step(self, a: int, seat: int) -> int:
        """Action index ``a``, then the kernel bots; observe from ``seat`` (-1: do not).
        Returns ``ek.ILLEGAL``, ``ek.GOING_ON`` or the winner (-1: nobody)."""
        return int(self._step(self.arrays, a, self.kernel_seats, seat))

    def look(self, seat: int) -> None:
        """``observation`` and ``mask`` from ``seat``."""
        if self._look is None:  # the dispatcher's call, as for start
            self._look = _kernel_call(compiled_entry, ek.look, self.arrays, seat)
        else:
            _kernel_call(self._look, self.arrays, seat)

    def game(self) -> Game:
        """The Game of this position (kept, and brought up to date from the actions played)."""
        if self._shadow is None:
            self._shadow = Game.new(self.rules, seed=self.seed)
            self._applied = 0
        length = int(self.book[ek.LENGTH])
        for a in self.history[self._applied : length].tolist():
            self._shadow.apply(action_from_index(a))
        self._applied = length
        return self._shadow

    def refuse(self, a: int) -> IllegalActionError:
        """The engine's error for illegal action index ``a`` (the game does not change)."""
        try:
            self.game().clone().apply(action_from_index(a))
        except IllegalActionError as error:
            return error
        return IllegalActionError(action_from_index(a), "the kernel refused it")  # pragma: no cover - twin-tested


def _vector_space(rules: Rules) -> Any:
    low, high = observation_bounds(rules)
    return spaces.Box(low, high, dtype=np.float32)


def _dict_space(rules: Rules) -> Any:
    return spaces.Dict({"observation": _vector_space(rules), "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)})


def _reward(winner: int, seat: int) -> float:
    if winner < 0:
        return 0.0
    return 1.0 if winner == seat else -1.0


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

    ``observation`` is ``"dict"`` (the default, PettingZoo's form for board
    games: ``{"observation", "action_mask"}``) or ``"box"`` (the float32
    vector alone; the mask is ``infos[agent]["action_mask"]``, which is
    there in both forms). :meth:`state` is the global state: every seat's
    observation vector, seat 0's first (:attr:`state_space`).

    The game is played in the simulator's kernel and observed through its
    encoder (the numbers of :func:`encode_view`, without building views);
    :attr:`game` rebuilds it as a :class:`~ordonnance.Game`.
    ``max_steps`` (None: no limit) truncates an episode after that many
    actions. Every game ends within :data:`MAX_DECISIONS` actions; the limit
    only caps an episode's length.
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
        observation: Literal["dict", "box"] = "dict",
    ) -> None:
        _require_extra()
        super().__init__()
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a Rules, got {shown(rules)}")
        self.rules: Rules = rules
        """The rules every episode is played under."""
        self.render_mode: str | None = _check_render_mode(render_mode)
        """The render mode chosen at construction."""
        self.max_steps: int | None = _check_max_steps(max_steps)
        """Truncate an episode after this many actions (None: never)."""
        self.observation: str = _check_observation(observation)
        """The observation form: ``"dict"`` or ``"box"``."""
        self.possible_agents: list[str] = [f"player_{p}" for p in range(rules.players)]
        self.agents: list[str] = []
        self.observation_spaces: dict[str, Any] = {
            agent: _dict_space(rules) if observation == "dict" else _vector_space(rules) for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents
        }
        low, high = observation_bounds(rules)
        n = rules.players
        self.state_space: spaces.Box = spaces.Box(np.tile(low, n), np.tile(high, n), dtype=np.float32)
        """The space of :meth:`state`: every seat's observation vector, in seat order."""
        self._kernel = _KernelGame(rules)
        self._started = False
        self._rng = np.random.default_rng()
        self._steps = 0
        self._no_bots = np.zeros(n, np.uint64)

    @property
    def game(self) -> Game | None:
        """The game in progress as a :class:`~ordonnance.Game` (None before the first reset).

        A copy, rebuilt from the deal and the actions played: changing it
        does not change the environment.
        """
        return self._kernel.game().clone() if self._started else None

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of ``agent``: :data:`NUM_ACTIONS` discrete actions."""
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def _seat(self, agent: str) -> int:
        if not isinstance(agent, str) or agent not in self.possible_agents:
            raise InvalidSeatError(f"no agent named {shown(agent)}; the agents are {', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)

    def _check_started(self) -> None:
        if not self._started:
            raise RuntimeError("call reset() before using the environment")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: the deal of ``Game.new(rules, seed=seed)``, or a fresh one."""
        seed = _check_reset_seed(seed)
        check_options(options)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = _game_seed(self._rng)
        self._kernel.start(game_seed, self._no_bots, 0, 0, -1)
        self._started = True
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._kernel.current_player]
        self._steps = 0
        self._mask_infos()

    def _mask_infos(self) -> None:
        """``infos[agent]["action_mask"]``: the legal actions of the agent to act, zeros for the others."""
        current = -1 if self._kernel.is_over else self._kernel.current_player
        for seat, agent in enumerate(self.possible_agents):
            if seat == current:
                self._kernel.look(seat)
                mask = self._kernel.mask.view(np.int8).copy()
            else:
                mask = np.zeros(NUM_ACTIONS, np.int8)
            self.infos[agent]["action_mask"] = mask

    def observe(self, agent: str) -> Observation | npt.NDArray[np.float32]:
        """What ``agent`` sees now: its observation vector, with its legal-action mask in
        the ``"dict"`` form."""
        seat = self._seat(agent)
        self._check_started()
        self._kernel.look(seat)
        vector = self._kernel.observation.copy()
        if self.observation == "box":
            return vector
        return {"observation": vector, "action_mask": self._kernel.mask.view(np.int8).copy()}

    def state(self) -> npt.NDArray[np.float32]:
        """The global state: every seat's observation vector, seat 0's first (for
        centralised critics; it shows every hand)."""
        self._check_started()
        parts = []
        for seat in range(self.rules.players):
            self._kernel.look(seat)
            parts.append(self._kernel.observation.copy())
        return np.concatenate(parts)

    def step(self, action: int | np.integer | None) -> None:
        """Carry out ``action`` (an index) for ``agent_selection``; ``None`` for a finished agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._check_started()
        if action is None:
            raise IllegalActionError(None, f"{agent} is still playing and must choose an action")
        a = _check_action(action)
        outcome = self._kernel.step(a, -1)
        if outcome == ek.ILLEGAL:
            raise self._kernel.refuse(a)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._steps += 1
        if outcome != ek.GOING_ON:
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = _reward(outcome, seat)
                self.terminations[name] = True
        elif self.max_steps is not None and self._steps >= self.max_steps:
            for name in self.agents:
                self.truncations[name] = True
        self.agent_selection = self.possible_agents[self._kernel.current_player]
        self._mask_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``"ansi"``), printed (``"human"``) or as SVG (``"svg"``)."""
        self._check_started()
        return _render(self._kernel.game(), self.render_mode, None)

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
    observation: Literal["dict", "box"] = "dict",
) -> Any:
    """A PettingZoo AEC environment of Ordonnance, wrapped in PettingZoo's ``OrderEnforcingWrapper``.

    ``env().unwrapped`` is the :class:`OrdonnanceEnv`; see it and the module
    docs for agents, spaces, rewards and seeding.
    """
    _require_extra()
    return OrderEnforcingWrapper(OrdonnanceEnv(rules, render_mode=render_mode, max_steps=max_steps, observation=observation))


def parallel_env(
    rules: Rules | None = None,
    render_mode: str | None = None,
    max_steps: int | None = None,
    observation: Literal["dict", "box"] = "dict",
) -> TurnBasedParallelEnv:
    """Ordonnance as a PettingZoo ``ParallelEnv``: the agent to act plays, the others' actions are ignored.

    The arguments are :func:`env`'s; see :class:`~ordonnance.core.parallel.TurnBasedParallelEnv`."""
    _require_extra()
    return TurnBasedParallelEnv(OrdonnanceEnv(rules, render_mode=render_mode, max_steps=max_steps, observation=observation))


# ----------------------------------------------------------------------- Gymnasium

#: An opponent of :class:`SingleAgentEnv`: ``"random"`` or ``"greedy"`` (kernel bots), a
#: bot (``choose(view)``), or a policy ``f(observation, action_mask) -> action index``.
Opponent = str | bots.Bot | Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], int | np.integer]
_KERNEL_BOTS = {"random": kernel.RANDOM, "greedy": kernel.GREEDY}


def _kernel_twin(opponent: object) -> int | None:
    """The kernel policy of an opponent the kernel plays itself, else None."""
    if isinstance(opponent, str):
        return _KERNEL_BOTS[opponent]
    return kernel_policy(opponent)


def _check_opponent(opponent: object) -> object:
    if isinstance(opponent, str):
        if opponent not in _KERNEL_BOTS:
            raise InvalidArgumentError(f"an opponent named by a string is 'random' or 'greedy', got {shown(opponent)}")
        return opponent
    if isinstance(opponent, bytes):
        raise OrdonnanceTypeError(f"an opponent is a bot, a policy or 'random'/'greedy', not bytes: {shown(opponent)}")
    if has_choose(opponent) or (callable(opponent) and not isinstance(opponent, (np.generic, np.ndarray))):
        return opponent
    raise OrdonnanceTypeError(
        f"an opponent needs a choose(view) method, or is a callable f(observation, action_mask), got {shown(opponent)}"
    )


class SingleAgentEnv(_GymEnv[Any, np.int64]):
    """One seat of Ordonnance as a Gymnasium environment; opponents play the other seats.

    ``opponent`` plays every other seat, or is a sequence with one per other
    seat in seat order (default ``"greedy"``). An opponent is:

    * ``"random"`` or ``"greedy"``: the built-in bot played inside the numba
      kernel (the fast path), seeded for each episode as
      :class:`VectorEnv` seeds its bots (from the deal's seed and the seat);
    * a :class:`bots.Random <ordonnance.bots.Random>` or
      :class:`bots.Greedy <ordonnance.bots.Greedy>`: played in the kernel
      too, seeded as :func:`ordonnance.simulate` seeds it (from the deal's
      seed, the seat and the bot's own seed), so the bot object is never
      changed;
    * any other bot (``choose(view)``): asked for its actions with the view
      of its seat. It is used as it is, never copied, so a bot that learns
      stays live (built-in seeded bots such as MonteCarlo get a fresh seeded
      copy per episode, as :func:`~ordonnance.simulate` gives them);
    * a policy ``f(observation, action_mask) -> action index``: called with
      its seat's observation vector (float32) and legal actions (bool), e.g.
      a network still in training. An opponent that raises or chooses an
      illegal action raises :class:`~ordonnance.BotError`.

    :meth:`set_opponent` changes the opponents from the next episode on.
    The learner sits at ``seat``, an int or ``"random"`` (drawn for each
    episode from its deal's seed, as :class:`VectorEnv` draws it).

    ``observation`` is ``"dict"`` (the default, the form of earlier versions:
    ``{"observation": float32 vector, "action_mask": int8 vector}``) or
    ``"box"`` (the float32 vector alone, for SB3's ``MlpPolicy`` and
    wrappers that expect a Box). In both forms ``info["action_mask"]`` (int8)
    and :meth:`action_masks` (bool, what sb3-contrib's ``MaskablePPO``
    calls; through ``gymnasium.make``'s wrappers reach it with
    ``env.get_wrapper_attr("action_masks")``) give the legal actions.

    The game is played in the simulator's kernel and observed through its
    encoder (the numbers of :func:`encode_view`, without building views);
    :attr:`game` rebuilds it as a :class:`~ordonnance.Game`.

    The reward is 0 until the game ends, then +1 (the learner won), -1 (another
    seat won) or 0 (a draw); ``info`` then holds ``"winner"`` (-1: nobody)
    and ``"scores"``. An illegal action ends the episode at once with
    reward ``illegal_reward`` and ``info["illegal_action"] = True``.
    ``reset(seed=s)`` deals as ``Game.new(rules, seed=s)`` and seeds the bots
    from it, so it replays exactly; ``reset()`` deals from a generator
    seeded by the last seed. ``max_steps`` (None: no limit) truncates after
    that many learner actions; every game ends within :data:`MAX_DECISIONS`
    actions.
    """

    metadata: dict[str, Any] = {"render_modes": _RENDER_MODES, "render_fps": 1}

    def __init__(
        self,
        opponent: Opponent | Sequence[Opponent] | None = None,
        seat: int | Literal["random"] = 0,
        rules: Rules | None = None,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        observation: Literal["dict", "box"] = "dict",
    ) -> None:
        _require_extra()
        rules = Rules() if rules is None else rules
        if not isinstance(rules, Rules):
            raise OrdonnanceTypeError(f"rules must be a Rules, got {shown(rules)}")
        n = rules.players
        seat = checks.seat(seat, n, random=True)  # type: ignore[assignment]
        illegal_reward = checks.real(illegal_reward, "illegal_reward")
        self.rules: Rules = rules
        """The rules every episode is played under."""
        self.seat_choice: int | str = seat
        """The ``seat`` argument: a seat number, or ``"random"``."""
        self.seat: int = 0 if isinstance(seat, str) else seat
        """The learner's seat in the current episode."""
        self.illegal_reward: float = float(illegal_reward)
        """The reward for an illegal action (which ends the episode)."""
        self.max_steps: int | None = _check_max_steps(max_steps)
        """Truncate an episode after this many learner actions (None: never)."""
        self.observation: str = _check_observation(observation)
        """The observation form: ``"dict"`` or ``"box"``."""
        self.render_mode = _check_render_mode(render_mode)
        self._chosen: list[object] = []
        self.set_opponent("greedy" if opponent is None else opponent)
        self._apply_opponents()
        self.observation_space = _dict_space(rules) if observation == "dict" else _vector_space(rules)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._kernel = _KernelGame(rules)
        self._playing: dict[int, object] = {}
        self._started = False
        self._steps = 0
        self._done = False

    def set_opponent(self, opponent: Opponent | Sequence[Opponent]) -> None:
        """Play the other seats with ``opponent`` (one, or one per other seat; see the
        class docs) from the next :meth:`reset` on. Nothing is copied."""
        others = self.rules.players - 1
        if isinstance(opponent, Sequence) and not isinstance(opponent, (str, bytes)):
            if len(opponent) != others:
                raise InvalidArgumentError(
                    f"give one opponent, or one per other seat ({others}), got {len(opponent)}: {shown(opponent)}"
                )
            chosen = [_check_opponent(o) for o in opponent]
        else:
            chosen = [_check_opponent(opponent)] * others
        self._chosen = chosen

    def _apply_opponents(self) -> None:
        others = [p for p in range(self.rules.players) if p != self.seat]
        self.opponents: dict[int, object] = dict(zip(others, self._chosen))
        """The opponent playing each other seat in the current episode."""

    @property
    def game(self) -> Game | None:
        """The game in progress as a :class:`~ordonnance.Game` (None before the first reset).

        A copy, rebuilt from the deal and the actions played: changing it
        does not change the environment.
        """
        return self._kernel.game().clone() if self._started else None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Deal a new game and let the opponents play up to the learner's first turn."""
        seed = _check_reset_seed(seed)
        check_options(options)
        super().reset(seed=seed)
        game_seed = seed if seed is not None else _game_seed(self.np_random)
        n = self.rules.players
        with np.errstate(over="ignore"):
            if self.seat_choice == "random":
                # as Batch draws it: the seat stream "4" of the deal's bot seeds (no seat has it)
                draw = kernel.mix_bot_seed(np.uint64(game_seed), bk._SEAT_STREAM, np.uint64(0))
                self.seat = int(kernel.bounded(np.uint64(draw), n))
            self._apply_opponents()
            twins = {p: _kernel_twin(o) for p, o in self.opponents.items()}
            seeds = bot_seeds(np.array([game_seed], np.uint64), [_own_seed(self.opponents.get(p)) for p in range(n)])[0]
        kernel_seats = sum(1 << p for p, twin in twins.items() if twin is not None)
        greedy = sum(1 << p for p, twin in twins.items() if twin == kernel.GREEDY)
        python = {p: o for p, o in self.opponents.items() if twins[p] is None}
        copies = seeded_copies(list(python.values()), [int(seeds[p]) for p in python])
        self._playing = dict(zip(python, copies))
        self._kernel.start(game_seed, seeds, kernel_seats, greedy, self.seat)
        self._started = True
        self._steps = 0
        self._done = False
        self._let_others_play()
        observation, info = self._observe()
        return observation, info

    def _let_others_play(self) -> int:
        """The opponents the kernel does not play act until the learner's turn; the outcome."""
        kernel_game = self._kernel
        outcome = ek.GOING_ON if not kernel_game.is_over else kernel_game.winner
        while outcome == ek.GOING_ON and kernel_game.current_player != self.seat:
            p = kernel_game.current_player
            opponent = self._playing[p]
            try:
                if has_choose(opponent):
                    a = action_index(opponent.choose(kernel_game.game().view(p)))  # type: ignore[attr-defined]
                else:
                    kernel_game.look(p)
                    a = _check_action(opponent(kernel_game.observation.copy(), kernel_game.mask.copy()))  # type: ignore[operator]
            except Exception as error:  # an opponent may raise anything: name it, its seat and the deal
                raise BotError(repr(opponent), p, 0, kernel_game.seed, f"{type(error).__name__}: {error}") from error
            outcome = kernel_game.step(a, self.seat)
            if outcome == ek.ILLEGAL:
                reason = f"it chose {action_from_index(a)!r}, which is not legal: {kernel_game.refuse(a)}"
                raise BotError(repr(opponent), p, 0, kernel_game.seed, reason)
        return outcome

    def _observe(self, **info: Any) -> tuple[Any, dict[str, Any]]:
        mask = self._kernel.mask.view(np.int8).copy()
        info["action_mask"] = mask
        vector = self._kernel.observation.copy()
        if self.observation == "box":
            return vector, info
        return {"observation": vector, "action_mask": mask}, info

    def step(self, action: int | np.integer) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an index), then the opponents until the learner's turn or the end."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if self._done:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        a = _check_action(action)
        self._steps += 1
        outcome = self._kernel.step(a, self.seat)
        if outcome == ek.ILLEGAL:
            self._done = True
            observation, info = self._observe(illegal_action=True)
            return observation, self.illegal_reward, True, False, info
        if self._playing and outcome == ek.GOING_ON:
            outcome = self._let_others_play()
        if self.render_mode == "human":
            self.render()
        if outcome != ek.GOING_ON:
            self._done = True
            observation, info = self._observe(illegal_action=False, winner=outcome, scores=self._kernel.scores())
            return observation, _reward(outcome, self.seat), True, False, info
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        self._done = truncated
        mask = self._kernel.mask.view(np.int8).copy()  # the step of _observe, in line: it is most of the time
        vector = self._kernel.observation.copy()
        info = {"illegal_action": False, "action_mask": mask}
        if self.observation == "box":
            return vector, 0.0, False, truncated, info
        return {"observation": vector, "action_mask": mask}, 0.0, False, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now, as booleans (sb3-contrib's convention)."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before action_masks()")
        return self._kernel.mask.copy()

    def render(self) -> str | None:
        """The table as text (``"ansi"``), printed (``"human"``) or as SVG of the learner's view."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before render()")
        return _render(self._kernel.game(), self.render_mode, self.seat)

    def __repr__(self) -> str:
        return f"SingleAgentEnv(seat={self.seat_choice!r}, rules={self.rules!r})"


# The batched vector environment lives in its own module (it builds on ordonnance.batch);
# importing ordonnance.rl registers "ordonnance/Ordonnance-v0" with Gymnasium when it is installed.
from ordonnance._vector_env import VectorEnv, register_envs  # noqa: E402

if _IMPORT_ERROR is None:
    register_envs()
