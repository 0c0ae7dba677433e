"""PettingZoo AEC and parallel environments of Shinobi, with action masks.

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

:func:`parallel_env` is the same game as a PettingZoo ``ParallelEnv``
(:class:`~ordonnance.core.parallel.TurnBasedParallelEnv`: the agent to act plays,
the others' actions are ignored).

**Actions.** The fixed discrete space of :data:`~ordonnance.shinobi.ACTION_COUNT`
= 306 action codes (:attr:`Deploy.code <ordonnance.shinobi.Deploy.code>` and
:func:`~ordonnance.shinobi.from_code`), the same for 3, 4 and 5 players. The
``"action_mask"`` marks the legal ones with 1 (``int8``); all zeros when it is
not that agent's turn.

**Observations.** ``{"observation": float32 vector, "action_mask": int8 vector}``
(``observation="dict"``, the default), or the vector alone (``observation="box"``;
the mask is then ``infos[agent]["action_mask"]``, there in both forms). The vector
is built only from the observing seat's :class:`~ordonnance.shinobi.PlayerView`
(:func:`encode_view`), so it holds nothing that seat may not see. Seats are
relative: row ``r`` is the seat ``r`` places after the observer. In order, with
``n`` players (:func:`observation_layout`):

==================  ==========  ==================================================
field               length      value
==================  ==========  ==================================================
hand                6           cards of each code in the observer's hand
clan                5           one-hot: the observer's own (secret) clan
armies              n*5         each seat's army size in each clan's province
changed             n*5         0/1: that army changed this turn
discard             6           cards of each code in the discard pile
deck_size           1           cards left in the deck
hand_sizes          n           cards in each seat's hand
to_act              n           one-hot: the seat to act (relative)
order               3           one-hot: the order of the turn
final_turns_left    1           turns left in the final round (0 before it)
==================  ==========  ==================================================

That is 22 + 12 * n numbers: 58 for 3 players, 70 for 4 and 82 for 5.
:meth:`ShinobiEnv.state` is the global state: every seat's vector, seat 0's
first, so every clan and hand (for centralised critics only).

**Rewards.** Zero until the end; then the winners share +1 and the others -1.
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np
import numpy.typing as npt

from ordonnance.core import checks
from ordonnance.core.aec import RENDER_MODES, GameAEC, wrapped
from ordonnance.core.gym import GameSingleAgentEnv, register_game_envs
from ordonnance.core.parallel import TurnBasedParallelEnv
from ordonnance.core.vector import GameVectorEnv
from ordonnance.errors import InvalidRulesError, OrdonnanceTypeError
from ordonnance.shinobi.actions import ACTION_COUNT, Action, from_code
from ordonnance.shinobi.batch import Batch
from ordonnance.shinobi.cards import CLANS, CODES
from ordonnance.shinobi.game import Game
from ordonnance.shinobi.rules import HAND_SIZE, MAX_DECK, MAX_PLAYERS, MIN_PLAYERS, Rules
from ordonnance.shinobi.view import PlayerView


__all__ = [
    "encode_view", "action_mask", "observation_size", "observation_layout", "ShinobiEnv", "raw_env", "env",
    "parallel_env", "SingleAgentEnv", "VectorEnv", "observation_bounds",
]  # fmt: skip


def observation_layout(players: int) -> tuple[tuple[str, int], ...]:
    """The fields of :func:`encode_view`'s vector for ``players`` seats (3..5): (name, length), in order.

    >>> from ordonnance.shinobi.rl import observation_layout
    >>> observation_layout(3)[:3]
    (('hand', 6), ('clan', 5), ('armies', 15))
    >>> sum(length for _, length in observation_layout(4))
    70
    """
    n = checks.integer(players, "players", low=MIN_PLAYERS, high=MAX_PLAYERS, error=InvalidRulesError)
    return (
        ("hand", CODES),
        ("clan", CLANS),
        ("armies", n * CLANS),
        ("changed", n * CLANS),
        ("discard", CODES),
        ("deck_size", 1),
        ("hand_sizes", n),
        ("to_act", n),
        ("order", 3),
        ("final_turns_left", 1),
    )


def observation_size(players: int) -> int:
    """The length of :func:`encode_view`'s vector for ``players`` seats (3..5)."""
    return sum(length for _, length in observation_layout(players))


def observation_bounds(rules: Rules) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Each number's bounds under ``rules``: 1 for the one-hot and 0/1 fields, :data:`HAND_SIZE`
    for a hand, the player count for the final round's turns, and the troop deck's size for
    every other count of cards (the engine keeps each card in one place).

    >>> from ordonnance import shinobi
    >>> from ordonnance.shinobi.rl import observation_bounds
    >>> low, high = observation_bounds(shinobi.Rules(players=3))
    >>> low.shape, float(high[0]), float(high[-1])
    ((58,), 4.0, 3.0)
    """
    if not isinstance(rules, Rules):
        raise OrdonnanceTypeError(f"rules must be a shinobi Rules, not {checks.shown(rules)}")
    n = rules.players
    highs = {"clan": 1.0, "changed": 1.0, "to_act": 1.0, "order": 1.0, "final_turns_left": float(n),
             "hand": float(HAND_SIZE), "hand_sizes": float(HAND_SIZE)}  # fmt: skip
    cards = float(len(rules.troop_deck))
    high = np.concatenate([np.full(length, highs.get(name, cards), np.float32) for name, length in observation_layout(n)])
    return np.zeros_like(high), high


def encode_view(view: PlayerView) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (see the module docs for the layout)."""
    if not isinstance(view, PlayerView):
        raise OrdonnanceTypeError(f"expected a shinobi PlayerView, not {checks.shown(view)}")
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
    if not isinstance(view, PlayerView):
        raise OrdonnanceTypeError(f"expected a shinobi PlayerView, not {checks.shown(view)}")
    mask = np.zeros(ACTION_COUNT, np.int8)
    for action in view.legal_actions:
        mask[action.code] = 1
    return mask


class ShinobiEnv(GameAEC):
    """Shinobi as a PettingZoo AEC environment (see the module docs for spaces and rewards).

    Agents are ``"player_0"``... ``reset(seed=s)`` deals exactly as
    ``Game.new(rules, seed=s)``; a later ``reset()`` without a seed draws the
    next deal from a generator seeded by ``s``. An illegal action raises
    :class:`~ordonnance.errors.IllegalActionError` and changes nothing. Render
    modes ``"ansi"`` (the text board), ``"human"`` (printed) and ``"svg"``.
    """

    metadata: dict[str, Any] = {"name": "shinobi_v0", "render_modes": RENDER_MODES, "is_parallelizable": False}
    rules_type = Rules
    game_type = Game
    package = "ordonnance.shinobi"
    num_actions = ACTION_COUNT
    observation_high = float(MAX_DECK)

    def observation_size(self) -> int:
        """:func:`observation_size` of the rules' player count."""
        return observation_size(self.rules.players)

    def observation_bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """:func:`observation_bounds` of the rules."""
        return observation_bounds(self.rules)

    def encode(self, view: PlayerView) -> npt.NDArray[np.float32]:
        """:func:`encode_view`."""
        return encode_view(view)

    def mask(self, view: PlayerView) -> npt.NDArray[np.int8]:
        """:func:`action_mask`."""
        return action_mask(view)

    def decode(self, index: int | np.integer, view: PlayerView) -> Action:
        """The action of code ``index`` (:func:`~ordonnance.shinobi.from_code`)."""
        return from_code(index)

    def outcome(self, game: Game, seat: int) -> float:
        """The winners share +1, the others -1."""
        winners = game.winners
        return 1 / len(winners) if seat in winners else -1 / (self.rules.players - len(winners))


#: PettingZoo's name for the unwrapped environment class.
raw_env = ShinobiEnv


def env(
    rules: Rules | None = None, render_mode: str | None = None, max_steps: int | None = None, observation: str = "dict"
) -> Any:
    """A PettingZoo AEC environment of Shinobi in PettingZoo's ``OrderEnforcingWrapper``.

    ``observation`` is ``"dict"`` (vector and mask) or ``"box"`` (the vector alone; the
    mask in ``infos[agent]["action_mask"]``)."""
    return wrapped(ShinobiEnv(rules, render_mode=render_mode, max_steps=max_steps, observation=observation))


def parallel_env(
    rules: Rules | None = None, render_mode: str | None = None, max_steps: int | None = None, observation: str = "dict"
) -> TurnBasedParallelEnv:
    """Shinobi as a PettingZoo ``ParallelEnv``: the agent to act plays, the others' actions are ignored.

    The arguments are :func:`env`'s; see :class:`~ordonnance.core.parallel.TurnBasedParallelEnv`."""
    return TurnBasedParallelEnv(ShinobiEnv(rules, render_mode=render_mode, max_steps=max_steps, observation=observation))


class SingleAgentEnv(GameSingleAgentEnv):
    """One seat of Shinobi as a Gymnasium environment; opponents play the other seats.

    Registered with Gymnasium as ``"ordonnance/Shinobi-v0"`` when this module is imported, so
    ``gymnasium.make("ordonnance.shinobi.rl:ordonnance/Shinobi-v0")`` works from any program. The default
    opponent is :class:`ordonnance.shinobi.bots.Greedy`; the arguments, observations, masks, rewards and
    seeding are :class:`~ordonnance.core.gym.GameSingleAgentEnv`'s: ``opponent`` is
    ``"random"``, ``"greedy"``, a bot, a policy ``f(observation, action_mask) -> index``
    (called, never copied, so self-play sees the current policy) or one of those per
    other seat; ``seat`` an int or ``"random"``; ``observation`` ``"dict"`` or ``"box"``
    (the vector of :func:`encode_view`, laid out as :func:`observation_layout` says).

    Usage::

        from ordonnance.shinobi.rl import SingleAgentEnv

        env = SingleAgentEnv(opponent="random", observation="box")
        vector, info = env.reset(seed=1)   # the same episode for every seed=1
        vector, reward, terminated, truncated, info = env.step(int(env.action_masks().argmax()))
    """

    aec_type = ShinobiEnv
    bots_module = "ordonnance.shinobi.bots"


class VectorEnv(GameVectorEnv):
    """``num_envs`` games of Shinobi as one Gymnasium vector environment, stepped together in numba
    (:class:`ordonnance.shinobi.batch.Batch`).

    ``gymnasium.make_vec("ordonnance/Shinobi-v0", num_envs=..., vectorization_mode="vector_entry_point")``
    builds one. The arguments, spaces, rewards (the winners share +1, the others -1), autoreset
    and seeding are :class:`~ordonnance.core.vector.GameVectorEnv`'s: ``opponent`` is
    ``"random"``, ``"greedy"`` (the kernel twins of :class:`~ordonnance.shinobi.bots.Random`
    and :class:`~ordonnance.shinobi.bots.Greedy`) or ``"self"``; ``observation`` is ``"box"``
    (:func:`encode_view`'s vector, bounded as :func:`observation_bounds` says) or ``"dict"``.

    Usage::

        import numpy as np
        from ordonnance.shinobi.rl import VectorEnv

        envs = VectorEnv(4096, opponent="random")      # 4 players, the default Rules()
        obs, infos = envs.reset(seed=1)
        masks = envs.action_masks()
        actions = np.argmax(np.where(masks, np.random.random(masks.shape), -1.0), axis=1)
        obs, rewards, terminations, truncations, infos = envs.step(actions)
    """

    batch_type = Batch
    rules_type = Rules
    batch: Batch
    rules: Rules
    num_actions = ACTION_COUNT


    def observation_bounds(self, rules: Rules) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """:func:`observation_bounds`."""
        return observation_bounds(rules)

    def game(self, index: int) -> Game:
        """Env ``index``'s game as a :class:`~ordonnance.shinobi.Game` in its current position."""
        return self.batch.game(index)


with contextlib.suppress(ImportError):  # without the "rl" extra there is nothing to register
    register_game_envs()
