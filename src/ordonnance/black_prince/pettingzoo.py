"""Black Prince as PettingZoo AEC and parallel environments with action masks (the optional "rl" extra).

This module imports without PettingZoo (the encoders need NumPy only);
building an environment without the extra raises :class:`ImportError` with
the install command ``pip install 'ordonnance[rl]'``.

Usage::

    from ordonnance.black_prince.pettingzoo import env

    game_env = env()                      # Rules(): English against French
    game_env.reset(seed=42)               # the deal of Game.new(Rules(), seed=42)
    for agent in game_env.agent_iter():
        observation, reward, terminated, truncated, info = game_env.last()
        mask = observation["action_mask"]
        action = None if terminated or truncated else game_env.action_space(agent).sample(mask)
        game_env.step(action)

:func:`parallel_env` is the same game as a PettingZoo ``ParallelEnv``
(:class:`~ordonnance.core.parallel.TurnBasedParallelEnv`: the agent to act plays,
the other's action is ignored).
:class:`SingleAgentEnv` is one seat of it as a Gymnasium environment, and
:class:`VectorEnv` thousands of games as one Gymnasium vector environment stepped
in numba (:class:`ordonnance.black_prince.batch.Batch`), with the same actions and
observations.

**Actions.** :data:`NUM_ACTIONS` = 117 discrete actions, by hand slot and column:

=========  ========================================================
index      action
=========  ========================================================
0..35      ``Place(hand[slot], column)`` at ``slot * 6 + column``
36..71     ``PlaceBehind(hand[slot], column)`` at ``36 + slot * 6 + column``
72..83     ``Move(column, step)`` at ``72 + column * 2 + (step + 1) // 2``
84         ``PlayBattle()``
85         ``EndTurn()``
86..97     ``MountedMove(column, step)`` at ``86 + column * 2 + (step + 1) // 2``
98..115    ``Fight(column, target)`` at ``98 + column * 3 + target - column + 1``
116        ``EndBattle()``
=========  ========================================================

Equal cards in two hand slots are the same action: both slots are marked
legal.

**Observations.** ``{"observation": float32 vector, "action_mask": int8 vector}``
(``observation="dict"``, the default), or the vector alone (``observation="box"``;
the mask is then ``infos[agent]["action_mask"]``, there in both forms). The vector
(:func:`encode_view`, :data:`OBSERVATION_SIZE` numbers) is built from the
observer's view only and puts the observer's rows at the bottom. In order
(:func:`observation_layout`):

==================  ======  ========================================================
field               length  value
==================  ======  ========================================================
enemy_back          60      6 cells of 10: occupied, strength / 3, type one-hot (8)
enemy_front         60      the same, for the enemy's front row
own_front           60      the same, for the observer's front row
own_back            60      the same, for the observer's back row
hand                66      6 slots of 11: present, Battle, strength / 3, type one-hot
own_discards        9       the observer's discard pile: count / 10 of each type, Battle
enemy_discards      9       the same, for the enemy's pile
attacked            6       the battle's flags by column: attacked
moved               6       moved
contact             6       in contact
fought              1       1 once a fight took place this battle
phase               4       one-hot: place, choose, battle, over
deciding            1       1 when the observer is to decide
own_counts          3       the observer's hand / 6, deck / 25, routs / 6
enemy_counts        3       the same, for the enemy
turn                1       turn / max turns
==================  ======  ========================================================

:meth:`BlackPrinceEnv.state` is the global state: both seats' vectors, seat 0's
first, so both hands (for centralised critics only). **Rewards**: 0 until the
end, then +1 / -1, 0 for a draw.
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.black_prince.actions import (
    END_BATTLE,
    END_TURN,
    PLAY_BATTLE,
    Action,
    EndBattle,
    EndTurn,
    Fight,
    MountedMove,
    Move,
    Place,
    PlaceBehind,
    PlayBattle,
)
from ordonnance.black_prince.batch import Batch
from ordonnance.black_prince.cards import TroopType
from ordonnance.black_prince.game import Game
from ordonnance.black_prince.rules import Rules
from ordonnance.black_prince.view import PlayerView
from ordonnance.errors import IllegalActionError, InvalidRulesError, OrdonnanceTypeError
from ordonnance.core import checks
from ordonnance.core.aec import RENDER_MODES, GameAEC, check_action_index, wrapped
from ordonnance.core.checks import shown
from ordonnance.core.gym import GameSingleAgentEnv, register_game_envs
from ordonnance.core.parallel import TurnBasedParallelEnv
from ordonnance.core.vector import GameVectorEnv

__all__ = [
    "NUM_ACTIONS", "OBSERVATION_SIZE", "action_index", "action_from_index", "action_mask", "encode_view",
    "BlackPrinceEnv", "env", "raw_env", "observation_layout", "parallel_env", "SingleAgentEnv", "VectorEnv",
]  # fmt: skip

_PLACE, _BEHIND, _MOVE, _BATTLE, _END_TURN, _RIDE, _FIGHT, _END_BATTLE = 0, 36, 72, 84, 85, 86, 98, 116
#: Size of the discrete action space.
NUM_ACTIONS = 117
_TYPES = len(TroopType)
_CELL = 2 + _TYPES  # occupied, strength, type one-hot
_SLOT = 3 + _TYPES  # present, battle, strength, type one-hot
#: Length of the observation vector.
OBSERVATION_SIZE = 24 * _CELL + 6 * _SLOT + 2 * (_TYPES + 1) + 3 * 6 + 1 + 4 + 1 + 6 + 1
_PHASES = ("place", "choose", "battle", "over")


def observation_layout(players: int = 2) -> tuple[tuple[str, int], ...]:
    """The fields of :func:`encode_view`'s vector: (name, length), in order (``players`` is always 2).

    >>> from ordonnance.black_prince.pettingzoo import OBSERVATION_SIZE, observation_layout
    >>> observation_layout()[:2]
    (('enemy_back', 60), ('enemy_front', 60))
    >>> sum(length for _, length in observation_layout()) == OBSERVATION_SIZE
    True
    """
    checks.integer(players, "players", low=2, high=2, error=InvalidRulesError)
    row = 6 * _CELL
    return (
        ("enemy_back", row), ("enemy_front", row), ("own_front", row), ("own_back", row),
        ("hand", 6 * _SLOT), ("own_discards", _TYPES + 1), ("enemy_discards", _TYPES + 1),
        ("attacked", 6), ("moved", 6), ("contact", 6), ("fought", 1), ("phase", len(_PHASES)),
        ("deciding", 1), ("own_counts", 3), ("enemy_counts", 3), ("turn", 1),
    )  # fmt: skip


def action_index(action: Action, view: PlayerView) -> int:
    """The index of ``action`` (for a Place or PlaceBehind: the first hand slot holding its card)."""
    _check_view(view)
    if isinstance(action, (Place, PlaceBehind)):
        if action.card not in view.hand:
            raise IllegalActionError(action, f"{action.card} is not in seat {view.seat}'s hand")
        base = _PLACE if type(action) is Place else _BEHIND
        return base + view.hand.index(action.card) * 6 + action.column
    if isinstance(action, (Move, MountedMove)):
        return (_MOVE if type(action) is Move else _RIDE) + action.column * 2 + (action.step + 1) // 2
    if isinstance(action, Fight):
        return _FIGHT + action.column * 3 + action.target - action.column + 1
    if isinstance(action, (PlayBattle, EndTurn, EndBattle)):
        return {PlayBattle: _BATTLE, EndTurn: _END_TURN, EndBattle: _END_BATTLE}[type(action)]
    raise OrdonnanceTypeError(f"not a Black Prince action: {shown(action)}")


def _check_view(view: object) -> None:
    if not isinstance(view, PlayerView):
        raise OrdonnanceTypeError(f"a Black Prince PlayerView (game.view(seat)) is needed, got {shown(view)}")


def action_from_index(index: int | np.integer, view: PlayerView) -> Action:
    """The action at ``index`` in ``view`` (checked only for shape: legality is the game's to judge)."""
    i = check_action_index(index, NUM_ACTIONS)
    _check_view(view)
    if i < _MOVE:
        slot, column = divmod(i % 36, 6)
        if slot >= len(view.hand):
            raise IllegalActionError(index, f"hand slot {slot} is empty")
        return (Place if i < _BEHIND else PlaceBehind)(view.hand[slot], column)
    if i < _BATTLE or _RIDE <= i < _FIGHT:
        column, step = divmod(i - (_MOVE if i < _BATTLE else _RIDE), 2)
        return (Move if i < _BATTLE else MountedMove)(column, 2 * step - 1)
    if i == _BATTLE:
        return PLAY_BATTLE
    if i == _END_TURN:
        return END_TURN
    if i == _END_BATTLE:
        return END_BATTLE
    column, offset = divmod(i - _FIGHT, 3)
    target = column + offset - 1
    if not 0 <= target < 6:
        raise IllegalActionError(index, f"column {column} has no neighbour {target}")
    return Fight(column, target)


def action_mask(view: PlayerView) -> npt.NDArray[np.int8]:
    """1 for each legal action index of ``view`` (all 0 when it is not this seat's decision)."""
    _check_view(view)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    for action in view.legal_actions:
        if isinstance(action, (Place, PlaceBehind)):
            base = _PLACE if type(action) is Place else _BEHIND
            for slot, card in enumerate(view.hand):
                if card == action.card:
                    mask[base + slot * 6 + action.column] = 1
        else:
            mask[action_index(action, view)] = 1
    return mask


def encode_view(view: PlayerView) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (see the module docs for the layout)."""
    _check_view(view)
    out = np.zeros(OBSERVATION_SIZE, np.float32)
    me = view.seat
    rows = (0, 1, 2, 3) if me == 0 else (3, 2, 1, 0)
    i = 0
    for r in rows:
        for c in range(6):
            card = view.battlefield.cells[r][c]
            if card is not None and card.type is not None:
                out[i], out[i + 1], out[i + 2 + card.type] = 1, card.strength / 3, 1
            i += _CELL
    for slot in range(6):
        if slot < len(view.hand):
            card = view.hand[slot]
            out[i] = 1
            if card.type is None:
                out[i + 1] = 1
            else:
                out[i + 2], out[i + 3 + card.type] = card.strength / 3, 1
        i += _SLOT
    for seat in (me, 1 - me):
        for card in view.discards[seat]:
            out[i + (_TYPES if card.type is None else card.type)] += 0.1
        i += _TYPES + 1
    for flags in (view.attacked, view.moved, view.contact):
        out[i : i + 6] = flags
        i += 6
    out[i] = view.fought
    out[i + 1 + _PHASES.index(view.phase)] = 1
    out[i + 5] = view.current_player == me and view.phase != "over"
    i += 6
    for seat in (me, 1 - me):
        out[i], out[i + 1], out[i + 2] = view.hand_sizes[seat] / 6, view.deck_sizes[seat] / 25, view.routed[seat] / 6
        i += 3
    out[i] = view.turn / view.rules.max_turns
    return out


class BlackPrinceEnv(GameAEC):
    """Black Prince as a PettingZoo AEC environment (see the module docs for spaces and rewards).

    Agents ``"player_0"`` and ``"player_1"``; ``agent_selection`` is always
    the game's current player (a battle is a run of the attacker's decisions).
    ``reset(seed=s)`` deals as ``Game.new(rules, seed=s)``. An illegal action
    raises :class:`~ordonnance.errors.IllegalActionError` and changes nothing.
    """

    metadata: dict[str, Any] = {"name": "black_prince_v0", "render_modes": RENDER_MODES,
                                "is_parallelizable": False, "render_fps": 1}  # fmt: skip
    rules_type = Rules
    game_type = Game
    package = "ordonnance.black_prince"
    num_actions = NUM_ACTIONS
    observation_high = 10.0

    def observation_size(self) -> int:
        """:data:`OBSERVATION_SIZE`."""
        return OBSERVATION_SIZE

    def encode(self, view: PlayerView) -> npt.NDArray[np.float32]:
        """:func:`encode_view`."""
        return encode_view(view)

    def mask(self, view: PlayerView) -> npt.NDArray[np.int8]:
        """:func:`action_mask`."""
        return action_mask(view)

    def decode(self, index: int | np.integer, view: PlayerView) -> Action:
        """:func:`action_from_index`."""
        return action_from_index(index, view)

    def outcome(self, game: Game, seat: int) -> float:
        """1 for a win, -1 for a loss, 0 for a draw."""
        return 0.0 if game.winner is None else 1.0 if game.winner == seat else -1.0


#: PettingZoo's name for the unwrapped environment class.
raw_env = BlackPrinceEnv


def env(
    rules: Rules | None = None, render_mode: str | None = None, max_steps: int | None = None, observation: str = "dict"
) -> Any:
    """A PettingZoo AEC environment of Black Prince in PettingZoo's ``OrderEnforcingWrapper``.

    ``observation`` is ``"dict"`` (vector and mask) or ``"box"`` (the vector alone; the
    mask in ``infos[agent]["action_mask"]``)."""
    return wrapped(BlackPrinceEnv(rules, render_mode=render_mode, max_steps=max_steps, observation=observation))


def parallel_env(
    rules: Rules | None = None, render_mode: str | None = None, max_steps: int | None = None, observation: str = "dict"
) -> TurnBasedParallelEnv:
    """Black Prince as a PettingZoo ``ParallelEnv``: the agent to act plays, the other's action is ignored.

    The arguments are :func:`env`'s; see :class:`~ordonnance.core.parallel.TurnBasedParallelEnv`."""
    return TurnBasedParallelEnv(BlackPrinceEnv(rules, render_mode=render_mode, max_steps=max_steps, observation=observation))


class SingleAgentEnv(GameSingleAgentEnv):
    """One seat of Black Prince as a Gymnasium environment; opponents play the other seats.

    Registered with Gymnasium as ``"ordonnance/BlackPrince-v0"`` when this module is imported, so
    ``gymnasium.make("ordonnance.black_prince.pettingzoo:ordonnance/BlackPrince-v0")`` works from any program. The default
    opponent is :class:`ordonnance.black_prince.bots.Greedy`; the arguments, observations, masks, rewards and
    seeding are :class:`~ordonnance.core.gym.GameSingleAgentEnv`'s: ``opponent`` is
    ``"random"``, ``"greedy"``, a bot, a policy ``f(observation, action_mask) -> index``
    (called, never copied, so self-play sees the current policy) or one of those per
    other seat; ``seat`` an int or ``"random"``; ``observation`` ``"dict"`` or ``"box"``
    (the vector of :func:`encode_view`, laid out as :func:`observation_layout` says).

    Usage::

        from ordonnance.black_prince.pettingzoo import SingleAgentEnv

        env = SingleAgentEnv(opponent="random", observation="box")
        vector, info = env.reset(seed=1)   # the same episode for every seed=1
        vector, reward, terminated, truncated, info = env.step(int(env.action_masks().argmax()))
    """

    aec_type = BlackPrinceEnv
    bots_module = "ordonnance.black_prince.bots"


class VectorEnv(GameVectorEnv):
    """``num_envs`` games of Black Prince as one Gymnasium vector environment, stepped together in
    numba (:class:`ordonnance.black_prince.batch.Batch`).

    ``gymnasium.make_vec("ordonnance/BlackPrince-v0", num_envs=..., vectorization_mode="vector_entry_point")``
    builds one. The arguments, spaces, rewards (+1 for a win, -1 for a loss, 0 for a draw), autoreset
    and seeding are :class:`~ordonnance.core.vector.GameVectorEnv`'s: ``opponent`` is
    ``"random"``, ``"greedy"`` (the kernel twins of :class:`~ordonnance.black_prince.bots.Random`
    and :class:`~ordonnance.black_prince.bots.Greedy`) or ``"self"``; ``seat`` 0, 1 or ``"random"``;
    ``observation`` is ``"box"`` (:func:`encode_view`'s vector, bounded as the single env's) or
    ``"dict"``. Each env observes only the learner's decisions: the other seat's turns and the
    steps nobody decides happen inside a step.

    Usage::

        import numpy as np
        from ordonnance.black_prince.pettingzoo import VectorEnv

        envs = VectorEnv(4096, opponent="random")      # the default Rules(): English against French
        obs, infos = envs.reset(seed=1)
        masks = envs.action_masks()
        actions = np.argmax(np.where(masks, np.random.random(masks.shape), -1.0), axis=1)
        obs, rewards, terminations, truncations, infos = envs.step(actions)
    """

    batch_type = Batch
    rules_type = Rules
    batch: Batch
    rules: Rules
    num_actions = NUM_ACTIONS


    def observation_bounds(self, rules: Rules) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Those of the single env's vector: 0 and ``BlackPrinceEnv.observation_high`` for every number."""
        return (np.zeros(OBSERVATION_SIZE, np.float32),
                np.full(OBSERVATION_SIZE, BlackPrinceEnv.observation_high, np.float32))  # fmt: skip

    def game(self, index: int) -> Game:
        """Env ``index``'s game as a :class:`~ordonnance.black_prince.Game` in its current position."""
        return self.batch.game(index)


with contextlib.suppress(ImportError):  # without the "rl" extra there is nothing to register
    register_game_envs()
