"""The saved-games store: round trips, commits at step boundaries, interruptions that
resume to the game an uninterrupted run plays, replays that rebuild the final state."""

from __future__ import annotations

from pathlib import Path

import pytest

from confrontation.engine.core.events import ChoiceMade, DieRolled, Event, RoundStarted
from confrontation.engine.core.state import state_to_json
from confrontation.engine.record import replay
from confrontation.store import (
    FINISHED,
    INTERRUPTED,
    RUNNING,
    StoreError,
    default_url,
    open_store,
)
from confrontation.store.replays import battlefield_svg, catch_up, replay_rounds
from games_support import agents, initial, outcome, play, play_on, setup


class Crash(Exception):
    """The simulated crash of a game mid-way."""


def test_a_game_saved_event_by_event_loads_back_identical(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "games.db"))
    game_id = store.begin(setup(3))
    final, log = play(3, store.recorder(game_id))
    store.finish(game_id, outcome(final))

    again = open_store(f"sqlite:///{tmp_path / 'games.db'}")
    game = again.load(game_id)
    assert game.events == log
    assert game.status == FINISHED
    assert game.setup == setup(3)
    summary = game.summary
    assert (summary.scenario, summary.seed, summary.agents) == ("small test", 3, ("random",) * 2)
    assert summary.armies == ("Lions", "Wolves")
    assert summary.outcome == outcome(final)
    assert summary.events == len(log)
    assert state_to_json(replay(game.events)) == state_to_json(final)


def test_list_shows_the_newest_first_and_filters_by_status(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "games.db"))
    first = store.begin(setup(1))
    final, log = play(1)
    second = store.save(setup(1), outcome(final), log)  # the seed its record was played with
    assert [g.id for g in store.list()] == [second, first]
    assert [g.id for g in store.list(status=RUNNING)] == [first]
    assert [g.id for g in store.list(status=FINISHED)] == [second]
    assert [g.id for g in store.list(limit=1)] == [second]
    assert store.count() == 2
    assert store.load(second).events == log


def _whole_steps(events: list[Event]) -> list[Event]:
    """The events before the last input: the whole steps of a record cut anywhere."""
    last = max(i for i, e in enumerate(events) if isinstance(e, ChoiceMade | DieRolled))
    return events[:last]


def test_a_crash_leaves_the_steps_up_to_the_last_round_boundary(tmp_path: Path) -> None:
    """Nothing flushed, nothing finished (a kill -9): a new connection sees whole steps up to
    the first input after the last round began, and that record replays."""
    path = str(tmp_path / "games.db")
    store = open_store(path, batch_seconds=3600.0)
    game_id = store.begin(setup(5))
    _, log = play(5, store.recorder(game_id))
    stored = open_store(path).load(game_id)
    assert stored.status == RUNNING
    last_round = max(i for i, e in enumerate(log) if isinstance(e, RoundStarted))
    boundary = next(
        i for i in range(last_round, len(log)) if isinstance(log[i], ChoiceMade | DieRolled)
    )
    assert stored.events == log[:boundary]
    assert state_to_json(replay(stored.events)) == state_to_json(replay(log[:boundary]))


def test_batches_commit_every_n_events_at_step_boundaries(tmp_path: Path) -> None:
    path = str(tmp_path / "games.db")
    store = open_store(path, batch_events=1, batch_seconds=3600.0)
    game_id = store.begin(setup(5))
    seen: list[Event] = []

    def record(event: Event) -> None:
        store.append(game_id, event)
        seen.append(event)
        if len(seen) == 60:
            stored = open_store(path).load(game_id).events
            assert stored == _whole_steps(seen)
            replay(stored)

    play(5, record)


@pytest.mark.parametrize("cut", [1, 17, 40, 120])
def test_an_interrupted_game_resumes_to_the_uninterrupted_final_state(
    tmp_path: Path, cut: int
) -> None:
    """A crash raised from on_event mid-step: interrupt() keeps a consistent record, and
    continuing it (agents caught up on their dice streams) ends exactly as a game never
    interrupted."""
    seed = 11
    uninterrupted, full_log = play(seed)
    assert len(full_log) > cut
    path = str(tmp_path / "games.db")
    store = open_store(path)
    game_id = store.begin(setup(seed))
    count = 0

    def crash_at_cut(event: Event) -> None:
        nonlocal count
        store.append(game_id, event)
        count += 1
        if count == cut:
            raise Crash

    with pytest.raises(Crash):
        play(seed, crash_at_cut)
    store.interrupt(game_id)

    later = open_store(path)
    assert later.load(game_id).status == INTERRUPTED
    stored = later.resume(game_id)
    assert stored.events == full_log[: len(stored.events)]
    players = agents(seed)
    if stored.events:
        state, caught = catch_up(stored.events, players)
        for event in caught[len(stored.events) :]:
            later.append(game_id, event)
    else:
        state = initial(seed)
    final, _ = play_on(state, players, later.recorder(game_id))
    later.finish(game_id, outcome(final))
    assert state_to_json(final) == state_to_json(uninterrupted)
    game = open_store(path).load(game_id)
    assert game.events == full_log
    assert game.status == FINISHED


def test_catching_up_an_agent_that_answers_differently_is_an_error() -> None:
    from confrontation.store.replays import ResumeMismatch

    _, log = play(4)
    with pytest.raises(ResumeMismatch, match="agent now answers"):
        catch_up(log, agents(99))


def test_replaying_by_round_gives_each_round_and_the_final_state() -> None:
    final, log = play(6)
    state, snapshots = replay_rounds(log)
    assert state_to_json(state) == state_to_json(final)
    assert [s.round for s in snapshots] == list(range(0, final.round + 1))
    picture = battlefield_svg(snapshots[-1].state)
    assert picture is not None and picture.startswith("<svg")
    assert picture.count("<polygon") >= sum(1 for f in final.fighters if f.in_play)


def test_unknown_games_and_finished_resumes_are_one_line_errors(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "games.db"))
    with pytest.raises(StoreError, match="no game 7"):
        store.load(7)
    final, log = play(2)
    game_id = store.save(setup(2), outcome(final), log)
    with pytest.raises(StoreError, match="finished"):
        store.resume(game_id)
    with pytest.raises(StoreError, match="not being recorded"):
        store.append(game_id, log[0])


def test_bad_urls_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="not a usable database URL"):
        open_store("nosuchdialect://x/y")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StoreError) as error:
        open_store(str(blocker / "sub" / "games.db"))
    assert "\n" not in str(error.value)


def test_the_default_store_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CONFRONTATION_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_url() == f"sqlite:///{tmp_path / 'data' / 'confrontation' / 'games.db'}"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_url().endswith("/home/.local/share/confrontation/games.db")
    monkeypatch.setenv("CONFRONTATION_DB", "postgresql://somewhere/games")
    assert default_url() == "postgresql://somewhere/games"
    monkeypatch.setenv("CONFRONTATION_DB", str(tmp_path / "mine.db"))
    store = open_store()
    assert (tmp_path / "mine.db").exists()
    assert store.url == f"sqlite:///{tmp_path / 'mine.db'}"


def test_a_game_runner_game_is_stored_with_its_config_and_replays_to_its_final_state(
    tmp_path: Path,
) -> None:
    from confrontation.sim.game import GameConfig, play_game
    from confrontation.sim.saved import outcome_of, setup_of
    from games_support import small_armies

    config = GameConfig(
        armies=small_armies(tmp_path), agents=("random", "greedy"), seed=31, rounds=2
    )
    store = open_store(str(tmp_path / "games.db"))
    game_id = store.begin(setup_of(config))
    result = play_game(config, on_event=store.recorder(game_id))
    store.finish(game_id, outcome_of(result))
    game = open_store(str(tmp_path / "games.db")).load(game_id)
    assert game.events == list(result.events)
    assert state_to_json(replay(game.events)) == state_to_json(result.state)
    assert game.setup.agents == ("random", "greedy")
    assert game.setup.options["armies"] == list(config.armies)
    assert game.setup.armies[1].source == Path(config.armies[1]).read_text(encoding="utf-8")
    assert game.summary.outcome is not None
    assert game.summary.outcome.vp == (result.players[0].vp, result.players[1].vp)
    assert game.summary.outcome.winner == result.winner


def test_catching_up_does_not_ask_a_person_the_recorded_questions_again() -> None:
    import io

    from rich.console import Console

    from confrontation.agents.human import HumanAgent

    final, log = play(12)
    screen = io.StringIO()
    person = HumanAgent(0, 0, stdin=io.StringIO(""), console=Console(file=screen))
    state, caught = catch_up(log, [person, agents(12)[1]])
    assert caught == log
    assert state_to_json(state) == state_to_json(final)
    assert screen.getvalue() == ""


@pytest.mark.rule("XX-A-4", "XX-A-5")
def test_tournament_points_and_goal_average_are_stored(tmp_path: Path) -> None:
    """A game of victory conditions keeps each player's tournament points and goal-average
    in the store, as its result gave them; a game without conditions keeps none."""
    from confrontation.sim.game import GameConfig, play_game
    from confrontation.sim.saved import outcome_of, setup_of

    store = open_store(str(tmp_path / "games.db"))
    for scenario, kept in (("assassination", True), ("conquest", False)):
        config = GameConfig(scenario=scenario, agents=("random", "random"), seed=3, rounds=1)
        game_id = store.begin(setup_of(config))
        result = play_game(config, on_event=store.recorder(game_id))
        store.finish(game_id, outcome_of(result))
        outcome = open_store(str(tmp_path / "games.db")).load(game_id).summary.outcome
        assert outcome is not None
        if kept:
            assert outcome.tp == tuple(p.tp for p in result.players)
            assert outcome.ga == tuple(p.goal_average for p in result.players)
            assert sum(outcome.tp) in range(9, 11)  # XX-A-4: 9/0 … 5/5 (a draw: 5 each)
        else:
            assert outcome.tp is None and outcome.ga is None


def test_a_store_made_before_tournament_points_gets_their_columns(tmp_path: Path) -> None:
    """An older store (no ``tp`` / ``ga`` columns) opens: the columns are added, its games
    read back with no tournament points, and new results keep theirs."""
    import sqlite3

    path = tmp_path / "old.db"
    final, events = play(5)
    open_store(str(path)).save(setup(5), outcome(final), events)
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE games DROP COLUMN tp")
        db.execute("ALTER TABLE games DROP COLUMN ga")
    [old] = open_store(str(path)).list()
    assert old.outcome is not None and old.outcome.tp is None
    with sqlite3.connect(path) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    assert {"tp", "ga"} <= columns


def test_an_option_set_later_is_kept_with_the_game(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "games.db"))
    game_id = store.begin(setup(3))
    before = store.load(game_id).setup.options
    store.set_option(game_id, "web", {"auto": {"0": False}})
    store.close()
    again = open_store(str(tmp_path / "games.db"))
    options = again.load(game_id).setup.options
    assert options == {**before, "web": {"auto": {"0": False}}}
    again.set_option(game_id, "web", {"auto": {"0": True}})  # replaced, not merged
    assert again.load(game_id).setup.options["web"] == {"auto": {"0": True}}
    with pytest.raises(StoreError, match="no game 99"):
        again.set_option(99, "web", {})
