"""The greedy agent's shortcuts (issue 22, eighth round) choose as the full computation does:
the shots weighed only from the largest bound down (``_shots_worth_weighing``) and the
combatants' values kept per record (``_plain_blow``)."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from confrontation.agents import assess, greedy
from confrontation.engine.core.questions import Choice, Shoot
from confrontation.engine.core.state import Fighter, GameState
from confrontation.rules.combat import Combatant
from confrontation.sim.game import GameConfig, play_game


def _every_shot(
    state: GameState, legal: Sequence[Choice]
) -> tuple[list[Shoot], dict[Shoot, float]]:
    """What the agent weighed before: every shot in range, each valued."""
    shots = [c for c in greedy._shots_in_range(state, legal) if isinstance(c, Shoot)]
    values = {c: assess.shot_value(state, c.fighter, c.target, unmoving=c.still) for c in shots}
    return shots, values


@pytest.mark.parametrize(("scenario", "seed"), [("standard", 0), ("standard", 4), ("the-hill", 3)])
def test_the_shots_weighed_hold_every_shot_the_agent_could_take(
    monkeypatch: pytest.MonkeyPatch, scenario: str, seed: int
) -> None:
    """At every cumulative question of whole games, the pruned shots are the full list's in
    its order with the same values, and hold every shot within 1e-9 of the best (and of the
    threshold); some parts were left unweighed (the comparison is not empty); and the game is
    the one played weighing every shot."""
    real = greedy._shots_worth_weighing
    seen: Counter[str] = Counter()

    def checked(
        state: GameState, legal: Sequence[Choice]
    ) -> tuple[list[Shoot], dict[Shoot, float]]:
        shots, values = real(state, legal)
        every, full = _every_shot(state, legal)
        assert all(values[c] == full[c] for c in shots)
        assert shots == [c for c in every if c in values]  # the legal order
        top = max(full.values(), default=0.0)
        needed = [c for c in every if full[c] >= max(top, greedy.SHOT_WORTH_TAKING) - 1e-9]
        assert all(c in values for c in needed), (needed, shots)
        seen["asked"] += 1
        seen["skipped"] += len(every) - len(shots)
        return shots, values

    config = GameConfig(scenario=scenario, seed=seed)
    monkeypatch.setattr(greedy, "_shots_worth_weighing", checked)
    pruned = play_game(config).events
    assert seen["asked"] > 0 and seen["skipped"] > 0
    monkeypatch.setattr(greedy, "_shots_worth_weighing", _every_shot)
    assert play_game(config).events == pruned


def test_a_wrong_kept_blow_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A combatant's kept values are his fresh ones; one altered by hand is found different
    when ``CHECK_KEPT`` is on."""
    from confrontation.rules.characteristics import Characteristic

    state = _a_combat()
    assert state.combat is not None and state.combat.fight is not None
    one: Combatant = state.combat.fight.board.fighters[0]
    blow = greedy._plain_blow(one)
    assert greedy._plain_blow(one) is blow
    assert blow.att == one.current(Characteristic.ATT)
    kept_one = greedy._PLAIN_BLOWS[id(one)][0]
    greedy._PLAIN_BLOWS[id(one)] = (kept_one, assess.Blow(0, 0, 0, 0, 0, 0, 0.0))
    monkeypatch.setattr(assess, "CHECK_KEPT", True)
    with pytest.raises(AssertionError):
        greedy._plain_blow(one)


def _a_combat() -> GameState:
    """The first state of a greedy game where a fight's board is set (seed 0)."""
    from confrontation.engine.core.views import redact
    from confrontation.engine.step import game_roller, question, roll, start, step
    from confrontation.sim.game import initial_state, make_players

    config = GameConfig(seed=0)
    players = make_players(config)
    state, _ = start(initial_state(config)[0])
    roller = game_roller(state)
    while state.combat is None or state.combat.fight is None:
        pending = state.pending
        assert pending is not None
        if pending.player is None:
            state, _ = roll(state, roller)
            continue
        asked = question(state)
        assert asked is not None
        choice = players[pending.player].choose(redact(state, pending.player), asked, asked.choices)
        state, _ = step(state, choice)
    return state


@given(
    st.tuples(*[st.floats(0, 120)] * 2, st.floats(0, 360), st.sampled_from(["square", "round"])),
    st.tuples(*[st.floats(0, 120)] * 2, st.floats(0, 360), st.sampled_from(["square", "round"])),
    st.sampled_from([(25.0, 25.0), (40.0, 40.0), (50.0, 50.0), (50.0, 100.0)]),
    st.floats(0, 40),
)
def test_bases_surely_apart_are_apart(
    one: tuple[float, float, float, str],
    other: tuple[float, float, float, str],
    size: tuple[float, float],
    cm: float,
) -> None:
    """``farther_than``'s shortcut: centres farther apart than the reach and the circles
    holding both bases always are bases farther apart than the reach (the exact measure)."""
    from confrontation.geometry.bases import Base
    from confrontation.geometry.measure import distance

    a = Base(one[0], one[1], one[2], one[3], size[0], size[1] if one[3] == "square" else size[0])  # type: ignore[arg-type]
    b = Base(other[0], other[1], other[2], other[3], 25.0, 25.0)  # type: ignore[arg-type]
    if assess.surely_apart(a, b, cm):
        assert distance(a, b) > cm
    near = a.moved(b.x + (size[0] / 20.0) + 1.0, b.y)
    assert not assess.surely_apart(near, b, 0.5)  # close bases are measured, not skipped


def _announce_every(self: greedy.GreedyAgent, state: GameState, legal: Sequence[Choice]) -> Choice:
    """What the agent did before: every announcement scored (every near assault's sight
    worked out), the paths asked from the best worth down."""
    from confrontation.engine.actions.scenery import AssaultScenery
    from confrontation.engine.core.deferred import Deferred, parts_of
    from confrontation.engine.core.questions import Announce, AnnouncementsDone

    every: list[Choice] = []
    for part in parts_of(legal):
        if not isinstance(part, Deferred):
            every.append(part)
        elif greedy._near(state, state.fighter(part.key[0]), state.fighter(part.key[1])):
            every += part.choices()
    worths: list[tuple[float, Choice]] = []
    wrecks: list[tuple[float, Choice]] = []
    for c in every:
        if isinstance(c, AssaultScenery):
            value = greedy.wreck_value(state, c.fighter, c.element)
            if value is not None:
                wrecks.append((value, c))
        elif isinstance(c, Announce):
            score = greedy.announce_worth(state, c)
            if score is not None:
                worths.append((score, c))
    reaches: dict[Choice, bool] = {}
    top: float | None = None
    for score, c in sorted(worths, key=lambda sc: -sc[0]):
        if top is not None and score < top - 1e-9:
            break
        assert isinstance(c, Announce)
        reaches[c] = not greedy._needs_path(c) or greedy._reaches(state, c)
        if reaches[c] and top is None:
            top = score
    options = [(score, c) for score, c in worths if reaches.get(c, False)] + wrecks
    if not options:
        return AnnouncementsDone() if AnnouncementsDone() in legal else legal[0]
    return self.best([c for _, c in options], greedy._lookup(options))


@pytest.mark.parametrize(("scenario", "seed"), [("standard", 1), ("standard", 5), ("the-hill", 2)])
def test_the_announcements_are_those_of_scoring_every_one(
    monkeypatch: pytest.MonkeyPatch, scenario: str, seed: int
) -> None:
    """Whole games: the queue of bounds (``_announce``) picks what scoring every announcement
    picked, every deferred assault's bound is at least the worth of each of its
    announcements, and some near assaults were never worked out (the shortcut is used)."""
    from confrontation.engine.core.deferred import Deferred, parts_of
    from confrontation.engine.core.questions import Announce

    counts: Counter[str] = Counter()
    real_bound = greedy._assault_bound

    def bound(state: GameState, fighter: Fighter, target: Fighter) -> float:
        counts["bounds"] += 1
        found = real_bound(state, fighter, target)
        shooter = state.profile(fighter.profile).shooter  # the assault shot: his only
        for action, shoot in [("charge", False), ("charge", shooter), ("engage", False)]:
            value = greedy.announce_worth(
                state, Announce(fighter.id, action, target.id, shoot=shoot)
            )
            assert value is None or value <= found, (action, shoot, value, found)
        return found

    real_announce = greedy.GreedyAgent._announce

    def both(self: greedy.GreedyAgent, state: GameState, legal: Sequence[Choice]) -> Choice:
        fresh = copy.deepcopy(self.roller)
        new = real_announce(self, state, legal)
        parts = [p for p in parts_of(legal) if isinstance(p, Deferred)]
        near = [p for p in parts if greedy._near(state, *map(state.fighter, p.key))]
        counts["near"] += len(near)
        counts["worked out"] += sum(1 for p in near if p._made is not None)
        after, self.roller = self.roller, fresh
        old = _announce_every(self, state, legal)
        self.roller = after
        assert new == old
        return new

    monkeypatch.setattr(greedy, "_assault_bound", bound)
    monkeypatch.setattr(greedy.GreedyAgent, "_announce", both)
    config = GameConfig(scenario=scenario, seed=seed)
    events = play_game(config).events
    assert counts["bounds"] > 0 and counts["worked out"] < counts["near"], counts
    monkeypatch.undo()
    assert play_game(config).events == events


def test_foes_left_out_of_range_are_beyond_the_long_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over a whole game, every enemy ``maybe_in_range`` leaves out is beyond the shooter's
    long range as measured (``in_range``), and some were left out."""
    real = assess.maybe_in_range
    counts: Counter[str] = Counter()

    def checked(state: GameState, shooter: Fighter, foes: Sequence[Fighter]) -> list[Fighter]:
        kept = real(state, shooter, foes)
        for e in foes:
            if e not in kept:
                counts["left out"] += 1
                assert not assess.in_range(state, shooter.id, e.id), (shooter.id, e.id)
        counts["kept"] += len(kept)
        return kept

    monkeypatch.setattr(greedy, "maybe_in_range", checked)
    play_game(GameConfig(seed=2))
    assert counts["left out"] > 0 and counts["kept"] > 0, counts


def test_objective_distances_at_once_are_the_single_ones() -> None:
    """The deployment's distances to the objectives, measured for every spot at once, are
    those measured spot by spot (equal floats), and there are objectives to measure to."""
    state = _a_combat()
    points = [(x * 7.3, y * 4.1) for x in range(17) for y in range(11)]
    for player in (0, 1):
        at_once = greedy._objective_distances(state, player, points)
        assert at_once is not None
        single = [greedy._objective_distance(state, player, x, y) for x, y in points]
        assert at_once == single
        assert len(set(at_once)) > 10
    assert greedy._objective_distances(state, 0, []) == []
