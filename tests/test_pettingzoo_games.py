"""Every game's PettingZoo environments from the shared layer (core.aec, core.parallel): PettingZoo's
own tests (api_test, parallel_api_test, seed_test), the parallel env, the global state, the box
observations with their layouts, and SuperSuit's wrappers (when SuperSuit is installed)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from ordonnance import black_prince as bp
from ordonnance import shinobi
from ordonnance.core.aec import layout_offsets
from ordonnance.shinobi.rules import MAX_DECK
from ordonnance.errors import IllegalActionError, InvalidArgumentError, InvalidSeatError, OrdonnanceError, OrdonnanceTypeError

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402

from ordonnance.black_prince import pettingzoo as bpz  # noqa: E402
from ordonnance.shinobi import rl as shinobi_rl  # noqa: E402

from .test_rl import EXPECTED_API_TEST_WARNINGS  # noqa: E402

#: Each game's RL module and rules (Shinobi at every player count).
GAMES: dict[str, tuple[Any, Any]] = {
    "shinobi-3": (shinobi_rl, shinobi.Rules(players=3)),
    "shinobi-4": (shinobi_rl, shinobi.Rules(players=4)),
    "shinobi-5": (shinobi_rl, shinobi.Rules(players=5)),
    "black_prince": (bpz, bp.Rules()),
}
FORMS = ("dict", "box")


def _quiet(test: Callable[[], None]) -> None:
    """Run one of PettingZoo's tests; only the warnings every Dict-observation env gets are allowed."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        test()
    assert {str(w.message) for w in caught} <= EXPECTED_API_TEST_WARNINGS


def _parallel(name: str, **kwargs: Any) -> Any:
    if name == "ordonnance":
        from ordonnance import rl

        return rl.parallel_env(**kwargs)
    module, rules = GAMES[name]
    return module.parallel_env(rules, **kwargs)


def _masked(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


# ------------------------------------------------------------------ PettingZoo's own tests


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", GAMES)
def test_the_aec_api_test_and_seed_test_pass_in_both_forms(name: str, form: str) -> None:
    module, rules = GAMES[name]
    _quiet(lambda: api_test(module.env(rules, observation=form), num_cycles=200))
    _quiet(lambda: seed_test(lambda: module.env(rules, observation=form), num_cycles=200))


@pytest.mark.parametrize("name", [*GAMES, "ordonnance"])
def test_the_parallel_api_test_passes(name: str) -> None:
    _quiet(lambda: parallel_api_test(_parallel(name), num_cycles=1000))


# ------------------------------------------------------------------ the parallel env


@pytest.mark.parametrize("name", GAMES)
def test_a_parallel_episode_plays_the_engines_game_and_ignores_the_waiting_agents(name: str) -> None:
    module, rules = GAMES[name]
    environment = module.parallel_env(rules)
    observations, infos = environment.reset(seed=7)
    mirror = type(environment.game).new(rules, seed=7)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    while environment.agents:
        acting = f"player_{mirror.current_player}"
        assert set(observations) == set(infos) == set(environment.agents)
        for agent in environment.agents:
            assert np.array_equal(observations[agent]["action_mask"], infos[agent]["action_mask"])
            assert infos[agent]["action_mask"].any() == (agent == acting)
        action = _masked(infos[acting]["action_mask"], rng)
        mirror.apply(environment.aec_env.decode(action, mirror.view(mirror.current_player)))
        actions = {agent: -1 for agent in environment.agents}  # the waiting agents' actions are never read
        actions[acting] = action
        observations, rewards, terminations, truncations, infos = environment.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
        assert environment.game == mirror
        assert all(terminations.values()) == mirror.is_over and not any(truncations.values())
    assert mirror.is_over and abs(sum(totals.values())) < 1e-9
    assert totals == {agent: environment.aec_env.outcome(mirror, seat) for seat, agent in enumerate(environment.possible_agents)}
    with pytest.raises(RuntimeError, match="reset"):
        environment.step({})


@pytest.mark.parametrize("name", [*GAMES, "ordonnance"])
def test_two_parallel_envs_of_one_seed_play_alike(name: str) -> None:
    runs = []
    for _ in range(2):
        environment = _parallel(name)
        observations, infos = environment.reset(seed=11)
        rng = np.random.default_rng(3)
        run = [observations]
        while environment.agents:
            acting = next(agent for agent in environment.agents if infos[agent]["action_mask"].any())
            observations, rewards, _, _, infos = environment.step({acting: _masked(infos[acting]["action_mask"], rng)})
            run.append((observations, rewards))
        runs.append(repr(run))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", GAMES)
def test_a_parallel_env_pickled_mid_episode_plays_on_as_the_original(name: str) -> None:
    import pickle

    environment = _parallel(name, observation="box")
    _, infos = environment.reset(seed=6)
    rng = np.random.default_rng(8)
    for _ in range(5):
        acting = environment.aec_env.agent_selection
        _, _, _, _, infos = environment.step({acting: _masked(infos[acting]["action_mask"], rng)})
    copy = pickle.loads(pickle.dumps(environment))
    assert copy.game == environment.game and copy.agents == environment.agents
    for _ in range(5):
        acting = environment.aec_env.agent_selection
        action = {acting: _masked(infos[acting]["action_mask"], rng)}
        mine, theirs = environment.step(action), copy.step(action)
        infos = mine[4]
        assert repr(mine) == repr(theirs)
    assert np.array_equal(copy.state(), environment.state())


@pytest.mark.parametrize("name", GAMES)
def test_a_parallel_step_refuses_bad_actions_and_changes_nothing(name: str) -> None:
    environment = _parallel(name, max_steps=3)
    _, infos = environment.reset(seed=2)
    acting = environment.aec_env.agent_selection
    waiting = next(agent for agent in environment.agents if agent != acting)
    before = environment.game.to_json()
    illegal = int(np.flatnonzero(infos[acting]["action_mask"] == 0)[0])
    for actions, error in (([0], OrdonnanceTypeError), ({waiting: 0}, IllegalActionError),
                           ({acting: illegal}, IllegalActionError), ({acting: 0, "nobody": 0}, InvalidSeatError),
                           ({acting: "0"}, IllegalActionError)):  # fmt: skip
        with pytest.raises(error):
            environment.step(actions)
        assert environment.game.to_json() == before
    for _ in range(3):  # truncated after max_steps, every agent at once
        acting = environment.aec_env.agent_selection
        _, _, terminations, truncations, infos = environment.step({acting: _masked(infos[acting]["action_mask"], np.random.default_rng(0))})
    assert all(truncations.values()) and not any(terminations.values()) and environment.agents == []
    for bad in ("nobody", None, 0):
        with pytest.raises(InvalidSeatError):
            environment.observation_space(bad)
    assert environment.action_space("player_1") is environment.action_space("player_1")


# ------------------------------------------------------------------ state()


@pytest.mark.parametrize("name", GAMES)
def test_the_state_is_every_seats_observation_and_shows_what_observe_hides(name: str) -> None:
    module, rules = GAMES[name]
    environment = module.raw_env(rules)
    environment.reset(seed=4)
    space, size = environment.state_space, module.observation_size(rules.players) if module is shinobi_rl else bpz.OBSERVATION_SIZE
    first = environment.state()
    assert space.shape == first.shape == (rules.players * size,) and first.dtype == space.dtype == np.float32
    rng = np.random.default_rng(5)
    changed = 0
    for _ in range(30):
        acting = environment.agent_selection
        environment.step(_masked(environment.infos[acting]["action_mask"], rng))
        state = environment.state()
        assert space.contains(state)
        blocks = state.reshape(rules.players, size)
        for seat, agent in enumerate(environment.possible_agents):
            assert np.array_equal(blocks[seat], environment.observe(agent)["observation"])
        changed += not np.array_equal(state, first)
        if environment.game.is_over:
            break
    assert changed
    # a game that seat 0 cannot tell from this one: seat 0 observes the same, the state differs
    game = environment.game
    seen = environment.observe("player_0")["observation"]
    samples = [game.view(0).sample_game(seed=s) for s in range(5)]
    differing = 0
    for sample in samples:
        environment.game = sample
        assert np.array_equal(environment.observe("player_0")["observation"], seen)
        differing += not np.array_equal(environment.state(), state)
    assert differing
    parallel = module.parallel_env(rules)
    parallel.reset(seed=4)
    assert parallel.state_space == space and np.array_equal(parallel.state(), first)


# ------------------------------------------------------------------ box observations and layouts


@pytest.mark.parametrize("name", GAMES)
def test_box_observations_are_the_dict_vector_with_the_mask_in_infos(name: str) -> None:
    module, rules = GAMES[name]
    box, plain = module.raw_env(rules, observation="box"), module.raw_env(rules)
    layout = module.observation_layout(rules.players)
    size = sum(length for _, length in layout)
    assert box.observation_space("player_0").shape == (size,) and box.observation_space("player_0").dtype == np.float32
    assert len({field for field, _ in layout}) == len(layout) and all(length > 0 for _, length in layout)
    rng = np.random.default_rng(2)
    for environment in (box, plain):
        environment.reset(seed=9)
    for _ in range(25):
        for agent in box.possible_agents:
            vector, both = box.observe(agent), plain.observe(agent)
            assert isinstance(vector, np.ndarray) and box.observation_space(agent).contains(vector)
            assert np.array_equal(vector, both["observation"])
            assert np.array_equal(box.infos[agent]["action_mask"], both["action_mask"])
            assert np.array_equal(plain.infos[agent]["action_mask"], both["action_mask"])
        action = _masked(box.infos[box.agent_selection]["action_mask"], rng)
        box.step(action)
        plain.step(action)
        if box.game.is_over:
            break


@pytest.mark.parametrize(
    "rules",
    [shinobi.Rules(players=3), shinobi.Rules(players=5, samurai=8, ninjas=1, attack="optional"),
     shinobi.Rules(players=4, samurai=[3, 4, 5, 6, 7], ninjas=0), bp.Rules(armies=("Burgundian", "Scottish"))],
    ids=["shinobi-3", "shinobi-5-small", "shinobi-4-mixed", "black_prince-burgundian"],
)  # fmt: skip
def test_every_observed_number_lies_in_the_box_along_whole_games(rules: Any) -> None:
    module = shinobi_rl if isinstance(rules, shinobi.Rules) else bpz
    environment = module.raw_env(rules, observation="box")
    space = environment.observation_space("player_0")
    assert np.all(space.high <= environment.observation_high) and np.all(space.low == 0)
    if module is shinobi_rl:  # closer bounds than the largest deck's: the rules' own deck
        assert space.high.max() == len(rules.troop_deck) < MAX_DECK
    rng = np.random.default_rng(4)
    for seed in range(3):
        environment.reset(seed=seed)
        while not environment.game.is_over:
            for agent in environment.possible_agents:
                assert space.contains(environment.observe(agent))
            environment.step(_masked(environment.infos[environment.agent_selection]["action_mask"], rng))
        assert environment.state_space.contains(environment.state())


@pytest.mark.parametrize("name", GAMES)
def test_the_layout_names_the_numbers_of_the_vector(name: str) -> None:
    module, rules = GAMES[name]
    game = (shinobi.Game if module is shinobi_rl else bp.Game).new(rules, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(12):
        game.apply(game.legal_actions()[int(rng.integers(len(game.legal_actions())))])
    fields = {field: (offset, length) for field, offset, length in layout_offsets(module.observation_layout(rules.players))}
    for seat in range(rules.players):
        view = game.view(seat)
        vector = module.encode_view(view)

        def field(name: str, vector: np.ndarray = vector) -> np.ndarray:
            offset, length = fields[name]
            return vector[offset : offset + length]

        if module is shinobi_rl:
            assert field("hand").sum() == len(view.hand) and field("clan").argmax() == view.clan
            assert field("deck_size")[0] == view.deck_size
            assert field("to_act").argmax() == (view.current_player - seat) % rules.players
        else:
            assert field("hand")[0::11].sum() == len(view.hand)
            assert field("deciding")[0] == (view.current_player == seat)
            assert field("own_counts")[0] * 6 == pytest.approx(view.hand_sizes[seat])
            assert field("phase").argmax() == ("place", "choose", "battle", "over").index(view.phase)


def test_the_layouts_refuse_bad_player_counts() -> None:
    assert layout_offsets(bpz.observation_layout())[-1][1:] == (bpz.OBSERVATION_SIZE - 1, 1)
    for bad in (2, 6, True):
        with pytest.raises(OrdonnanceError, match=repr(bad)):
            shinobi_rl.observation_layout(bad)
    for bad in (3, "2"):
        with pytest.raises(OrdonnanceError, match=repr(bad)):
            bpz.observation_layout(bad)
    for bad in ("vector", None, 1):
        with pytest.raises((InvalidArgumentError, OrdonnanceTypeError), match="observation"):
            shinobi_rl.env(observation=bad)
    assert type(bpz.raw_env(observation=np.str_("box")).observation) is str


# ------------------------------------------------------------------ SuperSuit


@pytest.mark.parametrize("name", GAMES)
def test_supersuits_wrappers_and_vector_envs_run_every_game(name: str) -> None:
    supersuit = pytest.importorskip("supersuit")
    module, rules = GAMES[name]
    wrapped = supersuit.frame_stack_v1(supersuit.dtype_v0(supersuit.normalize_obs_v0(module.env(rules, observation="box")), np.float32), 2)
    _quiet(lambda: api_test(wrapped, num_cycles=50))
    vector = supersuit.pettingzoo_env_to_vec_env_v1(module.parallel_env(rules, observation="box"))
    vector = supersuit.concat_vec_envs_v1(vector, 2, num_cpus=0, base_class="gymnasium")
    observations, infos = vector.reset(seed=1)
    assert observations.shape == (2 * rules.players, module.raw_env(rules).observation_space("player_0")["observation"].shape[0])
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        actions = np.array([_masked(info["action_mask"], rng) if info["action_mask"].any() else 0 for info in infos])
        observations, rewards, terminations, truncations, infos = vector.step(actions)
        finished += int(terminations.sum())
    assert finished > 0


def test_the_rl_page_shows_every_games_layout_as_observation_layout_gives_it() -> None:
    from pathlib import Path

    from ordonnance import rl
    from ordonnance.core.aec import layout_table

    page = (Path(__file__).parent.parent / "docs" / "rl.rst").read_text(encoding="utf-8")
    for layout in (rl.observation_layout(2), shinobi_rl.observation_layout(4), bpz.observation_layout()):
        assert layout_table(layout) in page
