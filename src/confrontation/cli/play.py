"""`confrontation play`: one whole game between two to six agents (XX-F), narrated round
by round.

Defaults: Conquest (III-A-2), two bundled demo armies of different nations, greedy against
greedy (greedy for every army given), a random seed (printed, so the game can be played
again with ``--seed``).
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from confrontation.agents.human import HumanQuit
from confrontation.agents.spec import AgentSpecError, parse_agent_spec
from confrontation.armylists.load import LoadError
from confrontation.cli.options import (
    C4_RULES,
    OutputFile,
    check_lists,
    check_mode,
    check_rules,
    fail,
)
from confrontation.cli.stored import play_saved, resume_saved
from confrontation.engine.core import events as ev
from confrontation.engine.core.narrate import QUIET_EVENTS, Narrator, listed
from confrontation.engine.core.registry import EngineError
from confrontation.engine.core.state import (
    NEUTRAL,
    GameState,
    player_name,
)
from confrontation.engine.record import event_line, replay
from confrontation.scenarios import commander
from confrontation.scenarios.control import scenario_of
from confrontation.scenarios.picture import battlefield_svg
from confrontation.scenarios.results import signed
from confrontation.sim.game import (
    DEFAULT_AGENTS,
    DEFAULT_ARMIES,
    DEFAULT_SCENARIO,
    GameConfig,
    GameResult,
    GameSetupError,
    check_players,
    play_game,
    result_document,
)

QUIET = QUIET_EVENTS
"""Events the text narration leaves out (the record keeps them all: ``--log``)."""


def parse_agents(text: str, players: int = 2) -> tuple[tuple[str, ...], tuple[dict[str, Any], ...]]:
    """``A,B[,C...]``, one agent per player (or one agent for every player), each
    ``NAME[:KEY=VALUE[;...]]`` (:mod:`confrontation.agents.spec`) → the names and their
    options."""
    specs = [n.strip() for n in text.split(",")]
    if len(specs) == 1:
        specs = specs * players
    if not all(specs):
        fail(f"--agents: expected agent names as A,B[,C...], not {text!r}")
    try:
        check_players(players, len(specs), names=("--armies", "--agents"))
    except GameSetupError as error:
        more = f"; give --armies with {len(specs)} armies" if players == 2 else ""
        fail(f"{error}{more}")
    try:
        parsed = [parse_agent_spec(s) for s in specs]
    except AgentSpecError as error:
        fail(f"--agents: {error}")
    return tuple(name for name, _ in parsed), tuple(dict(options) for _, options in parsed)


def parse_armies(armies: Sequence[str] | None) -> tuple[str, ...]:
    """``--armies``: two to six armies (XX-F), else one line; the demo pair when not given."""
    if not armies:
        return DEFAULT_ARMIES
    try:
        check_players(len(armies), len(armies), names=("--armies", "--agents"))
    except GameSetupError as error:
        fail(str(error))
    return tuple(armies)


def objectives(narrator: Narrator, state: GameState) -> list[str]:
    """What each player plays for (III-A-2), told before the set-up."""
    scenario = scenario_of(state)
    if scenario is None:
        return []
    lines = [f"Scenario: {scenario.name}, {state.rounds} round(s)."]
    if scenario.goal == "control":
        for area in scenario.areas:
            if area.owner is None:
                lines.append(f"Controlling {area.name} is worth {area.vp} VP.")
            else:
                enemy = "his enemy" if len(state.sides) == 2 else "any of his enemies"
                lines.append(
                    f"Controlling {area.name} is worth {area.vp} VP to "
                    f"{player_name(area.owner)}, {area.vp_enemy} VP to {enemy}."
                )
    elif scenario.goal == "conditions":  # XX-A-4
        for condition in scenario.conditions:
            who = _concerned(condition.players)
            when = " (any round, kept once met)" if condition.when == "round" else ""
            text = condition.text or condition.id
            lines.append(f"{who}: {text}{when}: {condition.vp} VP (XX-A-4).")
    elif scenario.target == "highest-value":
        for player, targets in enumerate(scenario.targets):
            names = " or ".join(narrator.fighter(f) for f in targets)
            lines.append(f"{player_name(player)} must kill {names} to win at once.")
    else:
        lines.append("Each player must eliminate an enemy card drawn at random.")
    for bonus in scenario.bonuses:  # XX-A-5
        text = bonus.text or bonus.id
        whom = "" if not bonus.players else f" for {_concerned(bonus.players)}"
        lines.append(f"Bonus{whom}: {text}: {bonus.ap} AP (XX-A-5).")
    for player, fighter in enumerate(scenario.commanders):  # XX-B-1
        what = commander.title(state)
        if fighter:
            lines.append(f"{player_name(player)}'s {what}: {narrator.fighter(fighter)}.")
        elif player < len(scenario.choosing) and scenario.choosing[player]:
            tied = " or ".join(narrator.fighter(f) for f in scenario.choosing[player])
            lines.append(f"{player_name(player)} chooses his {what}: {tied}.")
        else:
            lines.append(f"{player_name(player)} has no Champion to be his {what}.")
    if scenario.loot is not None:
        count, carry = len(scenario.loot.tokens), scenario.loot.carry
        lines.append(
            f"{count} token(s) lie on the battlefield; a fighter carries at most {carry} (XX-D)."
        )
    neutral = [f for f in state.fighters if f.player == NEUTRAL]
    if neutral:  # XX-E
        names = ", ".join(narrator.fighter(f.id) for f in neutral)
        lines.append(f"Neutral fighters, attacking the nearest fighter of any side: {names}.")
    passive = [f for f in state.fighters if f.passive]
    if passive:  # XX-E-6
        names = ", ".join(narrator.fighter(f.id) for f in passive)
        lines.append(
            f"Passive individuals, moved by {player_name(passive[0].player)} (never assault, "
            f"defend only, stay within 15 cm of his fighters): {names}."
        )
    return lines


def _concerned(players: tuple[int, ...]) -> str:
    """Whom a condition or a bonus concerns."""
    return "Each player" if not players else listed([player_name(p) for p in players])


class Narration:
    """Prints the game as it happens: a rule per round, one sentence per telling event."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.narrator = Narrator()
        self.ended = False

    def prime(self, events: Sequence[ev.Event]) -> None:
        """Read what happened before (a resumed game) without telling it again, then recap
        the position the game resumes from."""
        for event in events:
            self.narrator.sentence(event)
        self.console.rule("The game resumes")
        try:
            state = replay(events, check=False)
        except EngineError:  # the game runner refuses a record that does not replay
            return
        for line in recap(state, self.narrator):
            self.console.print(escape(line))

    def tell_all(self, events: Sequence[ev.Event]) -> None:
        """Tell a whole record as the live game told it (``games show``)."""
        for event in events:
            self(event)

    def __call__(self, event: ev.Event) -> None:
        sentence = self.narrator.sentence(event)
        if isinstance(event, ev.GameStarted):
            self.console.print(escape(sentence or ""))
            for line in objectives(self.narrator, event.state):
                self.console.print(escape(line))
            self.console.rule("Set-up and deployment (III-A, III-B)")
        elif isinstance(event, ev.RoundStarted):
            self.console.rule(f"Round {event.round}")
        elif _ends(event) and not self.ended:
            self.ended = True
            self.console.rule("End of the game")
        if event.kind in QUIET or not sentence:
            return
        self.console.print(escape(sentence[0].upper() + sentence[1:]))


HEALTH = ("unhurt", "light wound", "serious wound", "critical wound", "killed")


def recap(state: GameState, narrator: Narrator | None = None) -> list[str]:
    """The position a resumed game goes on from: the round, phase and score, then each
    player's fighters in play with their wounds and markers, and the fallen."""
    narrator = narrator or Narrator()
    scores = "-".join(str(score) for score in state.scores)
    lines = [f"Round {state.round} of {state.rounds}, {state.phase.value} phase; score {scores}."]
    for side in state.players:
        mine = [f for f in state.fighters if f.player == side]
        standing = [f for f in mine if f.in_play]
        fallen = [f for f in mine if not f.alive]
        told = []
        for f in standing:
            marks = [HEALTH[f.wounds]] if f.wounds else []
            marks += [m for m, on in (("stunned", f.stunned), ("routed", f.routed)) if on]
            where = f"({f.x:.0f}, {f.y:.0f})"
            told.append(
                f"{narrator.fighter(f.id)} {where}" + (f" {', '.join(marks)}" * bool(marks))
            )
        text = f"{player_name(side)} ({state.side(side).name}): {len(standing)} in play"
        if told:
            text += ": " + "; ".join(told)
        if fallen:
            text += f"; fallen: {listed([narrator.fighter(f.id) for f in fallen])}"
        lines.append(text + ".")
    return lines


_END_KINDS = frozenset(
    {"area_controlled", "objective_scored", "game_ended", "bonus_earned", "result_scored"}
)


def _ends(event: ev.Event) -> bool:
    """The first event of the game's end (scoring)."""
    if event.kind == "condition_met":
        return getattr(event, "when", "") == "end"
    return event.kind in _END_KINDS


def scoreboard(result: GameResult, console: Console) -> None:
    """The final table: VP, losses and fighters left per player — with victory conditions or
    bonuses also TP (XX-A-4), enemy losses, bonus and goal-average (XX-A-5) — then the
    verdict."""
    grid = Table(title=escape(f"{result.scenario} — seed {result.seed}, {result.rounds} round(s)"))
    numbers = ["VP", "losses (AP)"]
    if result.tournament:
        numbers = ["VP", "TP", "losses (AP)", "enemy losses (AP)", "bonus (AP)", "GA"]
    for column in ("player", "army", "agent", *numbers, "fighters left"):
        grid.add_column(column, justify="right" if column in numbers else "left")
    state = result.state
    for p, side in enumerate(result.players):
        mine = [f for f in state.fighters if f.player == p and not f.passive]  # XX-E-6
        left = sum(f.alive for f in mine)
        figures = [str(side.vp), str(side.losses_ap)]
        if result.tournament:
            figures = [
                str(side.vp),
                "—" if side.tp is None else str(side.tp),
                str(side.losses_ap),
                str(side.enemy_losses_ap),
                str(side.bonus_ap),
                signed(side.goal_average),
            ]
        grid.add_row(
            player_name(p),
            escape(side.army),
            side.agent,
            *figures,
            f"{left}/{len(mine)}",
        )
    console.print(grid)
    if result.winner is None and len(result.players) != 2:  # XX-F: the best scores share it
        shared = listed([player_name(p) for p in result.leaders()])
        console.print(f"Draw between {shared} ({escape(result.reason)}).")
    elif result.winner is None:
        console.print(f"Draw ({escape(result.reason)}).")
    else:
        army = result.players[result.winner].army
        console.print(
            f"[bold]{player_name(result.winner)} ({escape(army)}) wins[/bold] "
            f"({escape(result.reason)})."
        )


def _open(path: Path, option: str, stack: ExitStack) -> OutputFile:
    output = OutputFile(path, option)  # a full disk: one line naming the option
    stack.callback(output.close)
    return output


def run_play(
    scenario: str | None,
    armies: list[str] | None,
    agents: str | None,
    seed: int | None,
    rounds: int | None,
    as_json: bool,
    log: Path | None,
    svg: Path | None,
    db: str | None,
    no_store: bool,
    resume: int | None,
    rules: str | None,
    allow_invalid: bool,
    mode: str | None,
) -> None:
    """``confrontation play`` with its options parsed
    (:func:`confrontation.cli.play_command.play_command`)."""
    if db is not None and no_store:
        fail("--db and --no-store cannot be used together")
    if rules == C4_RULES:
        _play_c4(armies, agents, seed, rules, mode, rounds, scenario, resume, as_json, log, svg,
                 db, no_store)  # fmt: skip
        return
    check_mode(mode, rules)
    if resume is not None and _stored_c4(resume, db):
        _play_c4(armies, agents, seed, rules, mode, rounds, scenario, resume, as_json, log, svg,
                 db, no_store)  # fmt: skip
        return

    config: GameConfig | None = None  # None: the saved game ``resume`` goes on
    if resume is not None:
        given = (scenario, armies or None, agents, seed, rounds, rules)
        if no_store or any(option is not None for option in given):
            fail(
                "--resume continues a saved game with its own settings (scenario, armies, "
                "agents and their options, seed, rounds, rules): drop --scenario, --armies, "
                "--agents, --seed, --rounds, --rules and --no-store"
            )
    else:
        rules = check_rules(rules)
        chosen = parse_armies(armies)
        check_lists(chosen, allow_invalid)  # I-D
        names, options = parse_agents(
            agents if agents is not None else DEFAULT_AGENTS[0], len(chosen)
        )
        config = GameConfig(
            scenario=scenario if scenario is not None else DEFAULT_SCENARIO,
            armies=chosen,
            agents=names,
            seed=seed if seed is not None else secrets.randbits(32),
            rounds=rounds,
            agent_options=options,
            rules=rules,
        )
    # the output files are opened before a game is saved: one that cannot be written leaves
    # no interrupted game behind
    with ExitStack() as stack:
        log_file = _open(log, "--log", stack) if log is not None else None
        svg_file = _open(svg, "--svg", stack) if svg is not None else None

        def show(
            cfg: GameConfig,
            on_event: Callable[[ev.Event], None] | None,
            resume_log: Sequence[ev.Event] | None,
        ) -> GameResult:
            return run_and_show(
                cfg,
                as_json=as_json,
                log_file=log_file,
                svg_file=svg_file,
                seed_given=seed is not None or resume_log is not None,
                on_event=on_event,
                resume_log=resume_log,
            )

        if config is None:
            assert resume is not None
            resume_saved(resume, db, show)
        elif no_store:
            try:
                show(config, None, None)
            except HumanQuit as quit:
                if not quit.chosen:
                    fail("the input ended before the game did (not saved: --no-store)", 1)
                sys.stderr.write("You left the game (not saved: --no-store).\n")
        else:
            play_saved(config, db, show)


def _stored_c4(game_id: int, db: str | None) -> bool:
    """Is the saved game ``game_id`` a C4 game (``--resume`` then goes the C4 way)?"""
    from confrontation.sim.c4game import is_c4
    from confrontation.store import StoreError, open_store

    try:
        return is_c4(open_store(db).load(game_id).setup)
    except StoreError:
        return False  # the ordinary path says what is wrong


def _play_c4(
    armies: list[str] | None,
    agents: str | None,
    seed: int | None,
    rules: str | None,
    mode: str | None,
    rounds: int | None,
    scenario: str | None,
    resume: int | None,
    as_json: bool,
    log: Path | None,
    svg: Path | None,
    db: str | None,
    no_store: bool,
) -> None:
    """``play --rules c4``: see :mod:`confrontation.cli.c4play`."""
    from confrontation.cli.c4play import config_from, play_c4_cli

    config = None
    if resume is not None:
        given = (scenario, armies or None, agents, seed, rounds, rules, mode)
        if no_store or any(option is not None for option in given):
            fail(
                "--resume continues a saved game with its own settings: drop --armies, "
                "--agents, --seed, --rounds, --rules, --mode and --no-store"
            )
    else:
        config = config_from(armies, agents, seed, check_mode(mode, rules), rounds, scenario)
    with ExitStack() as stack:
        log_file = _open(log, "--log", stack) if log is not None else None
        svg_file = _open(svg, "--svg", stack) if svg is not None else None
        play_c4_cli(
            config,
            as_json=as_json,
            log_file=log_file,
            svg_file=svg_file,
            db=db,
            no_store=no_store,
            resume=resume,
            seed_given=seed is not None,
        )


def run_and_show(
    config: GameConfig,
    *,
    as_json: bool = False,
    log_file: OutputFile | IO[str] | None = None,
    svg_file: OutputFile | IO[str] | None = None,
    seed_given: bool = True,
    on_event: Callable[[ev.Event], None] | None = None,
    resume_log: Sequence[ev.Event] | None = None,
) -> GameResult:
    """Play ``config`` and show it: the narration and scoreboard, or the JSON document.

    ``on_event`` / ``resume_log`` are passed to :func:`~confrontation.sim.game.play_game`
    (saved games: record each event, continue an interrupted game); the event log and the
    final battlefield go to ``log_file`` and ``svg_file``.
    """
    console = Console(highlight=False, soft_wrap=True)
    sinks: list[Callable[[ev.Event], None]] = []
    if not seed_given:  # told once the game has begun (a set-up error tells nothing else)

        def tell_seed(event: ev.Event) -> None:
            if not isinstance(event, ev.GameStarted):
                return
            note = f"seed {config.seed} (play this game again with --seed {config.seed})"
            if as_json:
                sys.stderr.write(note + "\n")
            else:
                console.print(note[0].upper() + note[1:])

        sinks.append(tell_seed)
    if not as_json:
        narration = Narration(console)
        if resume_log:
            narration.prime(resume_log)
        sinks.append(narration)
    if log_file is not None:
        out = log_file
        for old in resume_log or ():
            out.write(event_line(old) + "\n")

        def write(event: ev.Event) -> None:
            out.write(event_line(event) + "\n")

        sinks.append(write)
    if on_event is not None:
        sinks.append(on_event)

    def tell(event: ev.Event) -> None:
        for sink in sinks:
            sink(event)

    try:
        result = play_game(config, on_event=tell, resume_log=resume_log)
    except (LoadError, GameSetupError, EngineError) as exc:
        fail(str(exc))
    if svg_file is not None:
        svg_file.write(battlefield_svg(result.state) + "\n")
    if as_json:
        sys.stdout.write(json.dumps(result_document(result), ensure_ascii=False) + "\n")
    else:
        scoreboard(result, console)
    return result
