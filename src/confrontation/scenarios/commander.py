"""The Commander (XX-B-1) and, under the ``c3`` variant, the Chief (C3 "Chief").

"Le Commandeur est obligatoirement le Champion le plus cher de l'armée en Valeur stratégique
(voir I-E-6). Si 2 Champions ou plus ont le coût le plus élevé en Valeur stratégique, le joueur
doit choisir lequel sera le Commandeur. Le Commandeur **doit** être noté sur la première ligne
de la feuille d'armée." (XX-B-1)

"The Chief of an army MUST be the most expensive Character (in total AP value, including
artefacts, additional costs, etc.) in the army list. If two or more characters have the
highest AP then the player may choose which of these characters will be their Chief." (C3)

A scenario that needs Commanders (``commander = true``, or a condition kind that reads them)
designates one per army when it is installed (:func:`designate`): the Champion of the highest
strategic value, equipment included (I-D-2, the French book's I-E-6); of several as dear, the
one on the list's first line, else the player chooses at the set-up (the question
``choose_commander``, before anything else). He stays the Commander all game, dead or alive
(``BasicScenario.commanders``). The variant switch ``commander`` that the ``c3`` rules turn
on (``scenarios.c3``) makes him the C3 Chief: the same fighter (a C3 Character is a Champion,
his "total AP value" his strategic value), named and cited as C3 says (docs/rulings.md
"XX-B-1").

Condition and bonus kinds: ``commander-alive``, ``kill-commander``, ``commander-in-area``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from confrontation.engine.core.events import Event, FighterKilled
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.narrate import Narrator, Teller
from confrontation.engine.core.questions import Choice, Option, Question
from confrontation.engine.core.registry import EngineError, Handler, PhaseDriver, Transition
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import GameState, Pending, Phase, player_name
from confrontation.engine.table.field import base_of
from confrontation.scenarios.c3 import variant
from confrontation.scenarios.conditions import BONUS, CONDITION, ConditionKind
from confrontation.scenarios.control import counts, fighter_value, geometry, scenario_of
from confrontation.scenarios.summoned import counts_for_victory
from confrontation.scenarios.victory import AreaParams, area_aim

COMMANDER = "commander"
"""The variant switch of the Commander rule (``scenarios.c3``): "c3" for the C3 Chief."""
C3 = "c3"


def is_chief(state: GameState) -> bool:
    """The game's rules designate the C3 Chief rather than the Commander of XX-B-1."""
    return variant(state, COMMANDER) == C3


def title(state: GameState) -> str:
    """What the rules call him: "Commander" (XX-B-1) or "Chief" (C3)."""
    return "Chief" if is_chief(state) else "Commander"


def section(state: GameState) -> str:
    """The section the rule cites."""
    return "C3-CHIEF" if is_chief(state) else "XX-B-1"


# --- designating him --------------------------------------------------------------------------


def candidates(state: GameState, champions: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    """Per player, the fighters who may be his Commander: his Champions (the cards
    ``champions`` names; summoned ones are not recruited, I-D-1) of the highest strategic value
    (equipment included), in the list's order."""
    named = set(champions)
    out: list[tuple[str, ...]] = []
    for player in state.players:
        mine = [
            f
            for f in state.fighters
            if f.player == player and f.card in named and not f.summoned and f.alive
        ]
        if not mine:
            out.append(())
            continue
        best = max(fighter_value(state, f) for f in mine)
        out.append(tuple(f.id for f in mine if fighter_value(state, f) == best))
    return tuple(out)


def first_line(state: GameState, player: int) -> str | None:
    """The card on the first line of ``player``'s army list (XX-B-1)."""
    return next((c.id for c in state.cards if c.player == player), None)


def designate(state: GameState, champions: Iterable[str]) -> GameState:
    """``state`` (before it starts) with each army's Commander, when its scenario needs them:
    the dearest Champion; of several as dear, the one on the list's first line, else the
    player will choose (``BasicScenario.choosing``); an army without a Champion has none."""
    scenario = scenario_of(state)
    if scenario is None or not scenario.commanders:
        return state
    chosen: list[str] = []
    choosing: list[tuple[str, ...]] = []
    for player, tied in enumerate(candidates(state, champions)):
        first = [f for f in tied if state.fighter(f).card == first_line(state, player)]
        if len(tied) == 1 or first:
            chosen.append((first or list(tied))[0])
            choosing.append(())
        else:
            chosen.append("")
            choosing.append(tied)
    record = dataclasses.replace(
        scenario,
        commanders=tuple(chosen),
        choosing=tuple(choosing) if any(choosing) else (),
    )
    return dataclasses.replace(state, scenario=record)


def commander_of(state: GameState, player: int) -> str | None:
    """``player``'s Commander (a fighter id), None if the game has none for him."""
    scenario = scenario_of(state)
    if scenario is None or player >= len(scenario.commanders):
        return None
    return scenario.commanders[player] or None


def commanders(state: GameState) -> dict[str, int]:
    """Every Commander designated so far: fighter id → player."""
    scenario = scenario_of(state)
    if scenario is None:
        return {}
    return {f: p for p, f in enumerate(scenario.commanders) if f}


# --- the question at the set-up ---------------------------------------------------------------


@dataclass(frozen=True)
class ChooseCommander(Choice):
    """XX-B-1: this Champion is the army's Commander."""

    kind = "choose_commander"
    fighter: str


@dataclass(frozen=True)
class CommanderChosen(Event):
    """XX-B-1: ``player`` chose ``fighter`` among his tied Champions."""

    kind = "commander_chosen"
    player: int
    fighter: str


def _choosing(state: GameState) -> int | None:
    """The first player who still has to choose his Commander."""
    scenario = scenario_of(state)
    if scenario is None:
        return None
    return next((p for p, tied in enumerate(scenario.choosing) if tied), None)


def _with_choice(inner: PhaseDriver) -> PhaseDriver:
    def drive(state: GameState) -> Transition:
        player = _choosing(state)
        if player is None:
            return inner(state)
        pending = Pending(QuestionKind.CHOOSE_COMMANDER, player)
        return dataclasses.replace(state, pending=pending), []

    return drive


def _legal(state: GameState) -> list[Choice]:
    scenario = scenario_of(state)
    player = _choosing(state)
    if scenario is None or player is None:
        return []
    return [ChooseCommander(f) for f in scenario.choosing[player]]


def _apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, ChooseCommander)
    scenario = scenario_of(state)
    player = _choosing(state)
    if scenario is None or player is None or choice.fighter not in scenario.choosing[player]:
        raise EngineError(f"{choice.fighter} is not one of the tied Champions (XX-B-1)")
    chosen = list(scenario.commanders)
    chosen[player] = choice.fighter
    choosing = [() if p == player else tied for p, tied in enumerate(scenario.choosing)]
    record = dataclasses.replace(
        scenario,
        commanders=tuple(chosen),
        choosing=tuple(choosing) if any(choosing) else (),
    )
    state = dataclasses.replace(state, scenario=record)
    return state, [CommanderChosen(player, choice.fighter)]


def _describe(state: GameState, choices: Sequence[Choice]) -> Question:
    player = _choosing(state)
    assert player is not None
    options = []
    for choice in choices:
        assert isinstance(choice, ChooseCommander)
        fighter = state.fighter(choice.fighter)
        name = state.profile(fighter.profile).name
        options.append(
            Option(choice, f"{name} ({choice.fighter})", f"{fighter_value(state, fighter)} AP")
        )
    prompt = (
        f"{player_name(player)}: which of your Champions as dear as each other is your "
        f"{title(state)} ({section(state)})?"
    )
    return Question(QuestionKind.CHOOSE_COMMANDER, player, prompt, tuple(options))


# --- condition kinds --------------------------------------------------------------------------


def _alive(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    """XX-B-1: the player's Commander is alive."""
    commander = commander_of(state, player)
    return commander is not None and state.fighter(commander).alive


def _killed(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    """XX-B-1: an enemy Commander is dead (with three players or more, any other player's;
    docs/rulings.md "XX-B-1")."""
    for enemy in state.enemies(player):
        commander = commander_of(state, enemy)
        if commander is not None and not state.fighter(commander).alive:
            return True
    return False


def _in_area(state: GameState, item: object, player: int, params: BaseModel) -> bool:
    """XX-B-1, XX-C-2: the player's Commander stands wholly in the area, and counts there
    (alive on the table, level 0, neither routed nor hidden; XX-B-3)."""
    assert isinstance(params, AreaParams)
    scenario = scenario_of(state)
    commander = commander_of(state, player)
    if scenario is None or commander is None:
        return False
    fighter = state.fighter(commander)
    if not counts(fighter) or not counts_for_victory(state, fighter):
        return False
    for area in scenario.areas:
        if area.name == params.area:
            where = geometry(state, area).buffer(1e-6)
            return bool(where.covers(base_of(state, fighter).polygon))
    raise EngineError(f"the scenario has no area {params.area!r} (XX-A-4 condition)")


def _enemy_commanders(state: GameState, item: object, player: int, params: BaseModel) -> list[str]:
    """The computer players' prey: the enemy Commanders still alive."""
    out = []
    for enemy in state.enemies(player):
        commander = commander_of(state, enemy)
        if commander is not None and state.fighter(commander).alive:
            out.append(commander)
    return out


COMMANDER_ALIVE = ConditionKind(
    "commander-alive",
    "XX-B-1",
    _alive,
    summary="his Commander (C3: Chief) is alive",
    commander=True,
)
KILL_COMMANDER = ConditionKind(
    "kill-commander",
    "XX-B-1",
    _killed,
    summary="an enemy Commander (C3: Chief) is dead",
    prey=_enemy_commanders,
    commander=True,
)
COMMANDER_IN_AREA = ConditionKind(
    "commander-in-area",
    "XX-B-1",
    _in_area,
    AreaParams,
    "his Commander (C3: Chief) stands wholly in the area named `area` (level 0, not routed)",
    aim=area_aim,
    commander=True,
)
KINDS = (COMMANDER_ALIVE, KILL_COMMANDER, COMMANDER_IN_AREA)


# --- narration --------------------------------------------------------------------------------


def _known(narrator: Narrator) -> dict[str, int]:
    """The Commanders the narrator knows: those of the initial state, then those chosen."""
    known = narrator.notes.get(COMMANDER)
    if not isinstance(known, dict):
        known = commanders(narrator.state) if narrator.state is not None else {}
        narrator.notes[COMMANDER] = known
    return known


def _tell_chosen(narrator: Narrator, event: Event) -> str | None:
    assert isinstance(event, CommanderChosen)
    _known(narrator)[event.fighter] = event.player
    what = title(narrator.state) if narrator.state is not None else "Commander"
    return f"{player_name(event.player)} names {narrator.fighter(event.fighter)} his {what}."


def _tell_killed(previous: Teller | None) -> Teller:
    """The death of a fighter, and that he was his army's Commander (XX-B-1)."""

    def tell(narrator: Narrator, event: Event) -> str | None:
        told = previous(narrator, event) if previous is not None else None
        assert isinstance(event, FighterKilled)
        player = _known(narrator).get(event.fighter)
        if player is None or told is None or narrator.state is None:
            return told
        what = title(narrator.state)
        return (
            f"{told[:-1]} — {player_name(player)}'s {what} has fallen ({section(narrator.state)})."
        )

    return tell


def contribute(rules: RulesBuilder) -> None:
    """The Commander (XX-B-1): the choice among tied Champions at the set-up, the condition
    kinds, the narration."""
    for kind in KINDS:
        rules.extension(CONDITION, kind.name, kind)
        rules.extension(BONUS, kind.name, kind)
    rules.handler(Handler(QuestionKind.CHOOSE_COMMANDER, _legal, _apply, _describe))
    for phase in (Phase.DEPLOYMENT, Phase.STRATEGIC):
        rules.phase(phase, _with_choice(rules.drivers[phase]))
    rules.sentence(CommanderChosen.kind, _tell_chosen)
    rules.sentence(FighterKilled.kind, _tell_killed(rules.sentences.get(FighterKilled.kind)))
