"""One Gymnasium single-agent environment over any game's PettingZoo AEC env (the optional "rl" extra).

:class:`GameSingleAgentEnv` seats a learner at one seat of a :class:`~ordonnance.core.aec.GameAEC`
and lets opponents play every other seat: a bot of the game (``choose(view)``), the name of
one of its built-in bots (``"random"``, ``"greedy"``), or a policy ``f(observation,
action_mask) -> action index``. Each game's module gives it a thin typed subclass
(``shinobi.rl.SingleAgentEnv``, ``black_prince.pettingzoo.SingleAgentEnv``) and a
Gymnasium id (:data:`GAME_ENV_IDS`). This module imports without Gymnasium; building an
environment without the extra raises :class:`ImportError` with the install command.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from ordonnance.core.extras import Unavailable
from ordonnance.core import checks
from ordonnance.core.aec import (
    GameAEC, check_action_index, check_max_steps, check_options, check_render_mode, require_rl,
)  # fmt: skip
from ordonnance.core.bots import has_choose, seeded_copies
from ordonnance.core.rng import bounded
from ordonnance.core.seeds import bot_seeds, check_seed, own_seed
from ordonnance.errors import BotError, InvalidArgumentError, OrdonnanceTypeError

__all__ = ["GameSingleAgentEnv", "Opponent", "GAME_ENV_IDS", "GAME_VECTOR_ENTRY_POINTS", "register_game_envs"]


_IMPORT_ERROR: ImportError | None
try:
    import gymnasium
    from gymnasium import Env as _GymEnv
except ImportError as error:  # pragma: no cover - exercised without the extra
    _IMPORT_ERROR = error
    _GymEnv = Unavailable  # type: ignore[assignment,misc]
else:
    _IMPORT_ERROR = None

#: An opponent: a bot's name (``"random"``, ``"greedy"``), a bot with ``choose(view)``, or a
#: policy ``f(observation, action_mask) -> action index``.
Opponent = str | Any | Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], int | np.integer]

#: The Gymnasium id of each game's single-agent env (beside ``ordonnance/Ordonnance-v0``) and its entry point.
GAME_ENV_IDS: dict[str, str] = {
    "ordonnance/Shinobi-v0": "ordonnance.shinobi.rl:SingleAgentEnv",
    "ordonnance/BlackPrince-v0": "ordonnance.black_prince.pettingzoo:SingleAgentEnv",
}

#: The batched vector env of each id of :data:`GAME_ENV_IDS` that has one (``gymnasium.make_vec(id,
#: num_envs=..., vectorization_mode="vector_entry_point")`` builds it).
GAME_VECTOR_ENTRY_POINTS: dict[str, str] = {
    "ordonnance/Shinobi-v0": "ordonnance.shinobi.rl:VectorEnv",
    "ordonnance/BlackPrince-v0": "ordonnance.black_prince.pettingzoo:VectorEnv",
}

_NAMED_BOTS = {"random": "Random", "greedy": "Greedy"}


def register_game_envs() -> None:
    """Register the ids of :data:`GAME_ENV_IDS` with Gymnasium (each once; later calls do nothing)."""
    require_rl("the Gymnasium ids")
    for env_id, entry_point in GAME_ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point, vector_entry_point=GAME_VECTOR_ENTRY_POINTS.get(env_id))


class GameSingleAgentEnv(_GymEnv[Any, np.int64]):
    """One seat of a game as a Gymnasium environment; opponents play the other seats.

    ``opponent`` plays every other seat, or is a sequence with one per other seat
    in seat order (default ``"greedy"``). An opponent is:

    * ``"random"`` or ``"greedy"``: the game's ``bots.Random`` or ``bots.Greedy``;
    * a bot (``choose(view)``), asked with its seat's view. A built-in seeded bot
      plays a fresh copy seeded for each episode from the deal's seed, its seat and
      its own seed (as ``simulate`` seeds it), so no two seats share a stream and the
      bot object never changes; any other bot is used as it is, never copied;
    * a policy ``f(observation, action_mask) -> action index``, called with its seat's
      observation vector (float32) and legal actions (bool): called, never copied,
      so self-play against a network still in training sees its current weights.

    An opponent that raises or chooses an illegal action raises
    :class:`~ordonnance.errors.BotError`. :meth:`set_opponent` changes the opponents
    from the next episode on. The learner sits at ``seat``, an int or ``"random"``
    (drawn for each episode from its deal's seed).

    ``observation`` is ``"dict"`` (``{"observation": float32 vector, "action_mask":
    int8 vector}``) or ``"box"`` (the vector alone); the vector is the game's PettingZoo
    encoding (its ``observation_layout()``). In both forms ``info["action_mask"]``
    (int8) and :meth:`action_masks` (bool, what sb3-contrib's ``MaskablePPO`` calls;
    through ``gymnasium.make``'s wrappers reach it with
    ``env.get_wrapper_attr("action_masks")`` or ``env.unwrapped.action_masks()``)
    give the legal actions.

    The reward is 0 until the game ends, then the learner's reward of the game's
    PettingZoo env. An illegal action (an index the mask refuses) ends the episode
    at once with reward ``illegal_reward`` and ``info["illegal_action"] = True``,
    leaving the game unchanged; an index outside the action space raises
    :class:`~ordonnance.errors.IllegalActionError`. ``reset(seed=s)`` deals as
    ``Game.new(rules, seed=s)`` and seeds the opponents from it, so it replays
    exactly; ``reset()`` deals from a generator seeded by the last seed.
    ``max_steps`` (None: no limit) truncates after that many learner actions.
    """

    #: The game's PettingZoo AEC environment class, and the module of its bots.
    aec_type: ClassVar[type[GameAEC]]
    bots_module: ClassVar[str]
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human", "svg"], "render_fps": 1}

    def __init__(
        self,
        opponent: Opponent | Sequence[Opponent] | None = None,
        seat: int | str = 0,
        rules: Any = None,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        observation: str = "dict",
    ) -> None:
        require_rl(f"the {type(self).__name__} environment")
        render_mode = check_render_mode(render_mode)
        aec_render = "ansi" if render_mode == "human" else render_mode
        self.aec: GameAEC = self.aec_type(rules, render_mode=aec_render, observation=observation)
        """The game's PettingZoo environment the episodes are played in."""
        self.rules: Any = self.aec.rules
        """The rules every episode is played under."""
        self.render_mode: str | None = render_mode
        n = self.rules.players
        seat = checks.seat(seat, n, random=True)
        self.seat_choice: int | str = seat
        """The ``seat`` argument: a seat number, or ``"random"``."""
        self.seat: int = 0 if isinstance(seat, str) else seat
        """The learner's seat in the current episode."""
        self.illegal_reward: float = float(checks.real(illegal_reward, "illegal_reward"))
        """The reward for an illegal action (which ends the episode)."""
        self.max_steps: int | None = check_max_steps(max_steps)
        """Truncate an episode after this many learner actions (None: never)."""
        self.observation: str = self.aec.observation
        """The observation form: ``"dict"`` or ``"box"``."""
        self.observation_space = self.aec.observation_spaces[self.aec.possible_agents[0]]
        self.action_space = self.aec.action_spaces[self.aec.possible_agents[0]]
        self._chosen: list[object] = []
        self.set_opponent("greedy" if opponent is None else opponent)
        self.opponents: dict[int, object] = {}
        """The opponent playing each other seat in the current episode."""
        self._playing: dict[int, object] = {}
        self._game_seed = 0
        self._started = False
        self._done = False
        self._steps = 0
        self._learner: tuple[Any, npt.NDArray[np.int8]] | None = None  # the learner's view and mask, until it acts

    def set_opponent(self, opponent: Opponent | Sequence[Opponent]) -> None:
        """Play the other seats with ``opponent`` (one, or one per other seat; see the
        class docs) from the next :meth:`reset` on. Nothing is copied."""
        others = self.rules.players - 1
        if isinstance(opponent, Sequence) and not isinstance(opponent, (str, bytes)):
            if len(opponent) != others:
                raise InvalidArgumentError(
                    f"give one opponent, or one per other seat ({others}), got {len(opponent)}: {checks.shown(opponent)}"
                )
            self._chosen = [self._check_opponent(o) for o in opponent]
        else:
            self._chosen = [self._check_opponent(opponent)] * others

    def _check_opponent(self, opponent: object) -> object:
        if isinstance(opponent, str):
            name = checks.choice(opponent, "an opponent named by a string", list(_NAMED_BOTS))
            return getattr(importlib.import_module(self.bots_module), _NAMED_BOTS[name])(seed=0)
        if isinstance(opponent, bytes):
            raise OrdonnanceTypeError(f"an opponent is a bot, a policy or 'random'/'greedy', not bytes: {checks.shown(opponent)}")
        if has_choose(opponent) or (callable(opponent) and not isinstance(opponent, (np.generic, np.ndarray))):
            return opponent
        raise OrdonnanceTypeError(
            f"an opponent needs a choose(view) method, or is a callable f(observation, action_mask), got {checks.shown(opponent)}"
        )

    @property
    def game(self) -> Any:
        """A copy of the game in progress (None before the first reset): changing it changes nothing here."""
        return self.aec.game.clone() if self._started else None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Deal a new game (``Game.new(rules, seed=seed)``) and let the opponents play up to the learner's turn."""
        if seed is not None:
            seed = check_seed(seed)
        check_options(options)
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**63))
        n = self.rules.players
        others = [p for p in range(n) if p != self.seat]
        if self.seat_choice == "random":
            # the stream of "seat n" of the deal's bot seeds, which no seat plays with
            self.seat = bounded(int(bot_seeds(np.array([game_seed], np.uint64), [0] * (n + 1))[0, n]), n)
            others = [p for p in range(n) if p != self.seat]
        self.opponents = dict(zip(others, self._chosen))
        seeds = bot_seeds(np.array([game_seed], np.uint64), [own_seed(self.opponents.get(p)) for p in range(n)])[0]
        copies = seeded_copies(list(self.opponents.values()), [int(seeds[p]) for p in self.opponents])
        self._playing = dict(zip(self.opponents, copies))
        self._game_seed = game_seed
        self._learner = None
        self.aec.reset(seed=game_seed)
        self._started, self._done, self._steps = True, False, 0
        self._let_others_play()
        return self._observe()

    def _let_others_play(self) -> None:
        """The opponents act until the learner's turn or the end of the game."""
        game = self.aec.game
        while not game.is_over and game.current_player != self.seat:
            p = game.current_player
            opponent = self._playing[p]
            view = game.view(p)
            mask = self.aec.mask(view)
            try:
                if has_choose(opponent):
                    chosen = opponent.choose(view)  # type: ignore[attr-defined]
                    legal = chosen in view.legal_actions
                    action = chosen
                else:
                    index = check_action_index(opponent(self.aec.encode(view), mask.astype(bool)), self.aec.num_actions)  # type: ignore[operator]
                    legal = bool(mask[index])
                    action = self.aec.decode(index, view) if legal else index
            except Exception as error:  # an opponent may raise anything: name it, its seat and the deal
                raise BotError(repr(opponent), p, 0, self._game_seed, f"{type(error).__name__}: {error}") from error
            if not legal:
                raise BotError(repr(opponent), p, 0, self._game_seed, f"it chose {action!r}, which is not legal")
            game.apply(action)

    def _observe(self, **info: Any) -> tuple[Any, dict[str, Any]]:
        game = self.aec.game
        view = game.view(self.seat)
        mask = self.aec.mask(view) if not game.is_over else np.zeros(self.aec.num_actions, np.int8)
        self._learner = (view, mask)
        info["action_mask"] = mask.copy()
        vector = self.aec.encode(view)
        if self.observation == "box":
            return vector, info
        return {"observation": vector, "action_mask": mask.copy()}, info

    def step(self, action: int | np.integer) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an index), then the opponents until the learner's turn or the end."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if self._done:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        index = check_action_index(action, self.aec.num_actions)
        game = self.aec.game
        view, mask = self._learner_view()
        self._steps += 1
        if not mask[index]:
            self._done = True
            observation, info = self._observe(illegal_action=True)
            return observation, self.illegal_reward, True, False, info
        game.apply(self.aec.decode(index, view))
        self._learner = None
        self._let_others_play()
        if self.render_mode == "human":
            self.render()
        if game.is_over:
            self._done = True
            observation, info = self._observe(illegal_action=False)
            return observation, float(self.aec.outcome(game, self.seat)), True, False, info
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        self._done = truncated
        observation, info = self._observe(illegal_action=False)
        return observation, 0.0, False, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now, as booleans (sb3-contrib's convention)."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before action_masks()")
        return self._learner_view()[1].astype(np.bool_)

    def _learner_view(self) -> tuple[Any, npt.NDArray[np.int8]]:
        """The learner's view and mask now (kept from the last observation until the game changes)."""
        if self._learner is None:
            self._observe()
        assert self._learner is not None
        return self._learner

    def render(self) -> str | None:
        """The table as text (``"ansi"``), printed (``"human"``) or as SVG (``"svg"``); hands hidden."""
        if not self._started:
            raise gymnasium.error.ResetNeeded("call reset() before render()")
        text = self.aec.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat_choice!r}, rules={self.rules!r})"
