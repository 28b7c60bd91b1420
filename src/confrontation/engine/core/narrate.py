"""Plain-English narration of a game record.

``narrate(log)`` turns events into sentences ("Round 2 — Player 1 wins the Tactics roll
(9 to 7)."). Names come from the initial state of the log's ``game_started`` event.
Bookkeeping events (choices, phase ends, maintenance steps without effect) are silent:
the events they cause tell the story. An event kind this module does not know is told
by its kind, so plug-ins' events still show.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from confrontation.engine.core import events as ev
from confrontation.engine.core.outcome import leaders
from confrontation.engine.core.ruleset import default_rules, rules_of
from confrontation.engine.core.state import GameState, player_name

SILENT: frozenset[str] = frozenset(
    {"choice_made", "phase_ended", "activation_ended", "maintenance_step", "test_rolled"}
)


Teller = Callable[["Narrator", ev.Event], str | None]
"""Tells one event of a plug-in's kind (a ruleset's ``sentences``, ``rules.sentence``)."""


class Narrator:
    """Tells events one by one, remembering the names from the game's initial state."""

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.round = 0
        self.notes: dict[str, Any] = {}
        """What plug-ins' tellers remember of earlier events (e.g. a Commander chosen)."""

    def fighter(self, fighter_id: str | None) -> str:
        """A fighter's name and id."""
        if fighter_id is None:
            return "nobody"
        if self.state is None:
            return fighter_id
        fighter = self.state.fighter(fighter_id)
        return f"{self.state.profile(fighter.profile).name} ({fighter_id})"

    def card(self, card_id: str) -> str:
        """A card's label and id."""
        if self.state is None:
            return card_id
        return f"{self.state.card(card_id).label} [{card_id}]"

    def sentence(self, event: ev.Event) -> str | None:
        """The sentence for one event, or None for a silent one."""
        match event:
            case ev.GameStarted(state=state):
                self.state = state
                if len(state.sides) != 2:  # XX-F
                    named = [f"{player_name(p)} ({s.name})" for p, s in enumerate(state.sides)]
                    return f"A game of {state.rounds} round(s) between {listed(named)}."
                return (
                    f"A game of {state.rounds} round(s): {player_name(0)} "
                    f"({state.sides[0].name}) against {player_name(1)} ({state.sides[1].name})."
                )
            case ev.RoundStarted(round=number):
                self.round = number
                return "the round begins."
            case ev.PhaseStarted(phase=phase):
                return f"the {phase} phase begins."
            case ev.DieRolled(player=player, face=face):
                who = player_name(player) if player is not None else "the die"
                return f"{who} rolls a {face}."
            case ev.CardsWithdrawn(player=player, cards=cards):
                names = ", ".join(self.card(c) for c in cards)
                return f"{player_name(player)} withdraws {names}: all their fighters are gone."
            case ev.SequenceSet(player=player, cards=cards):
                return f"{player_name(player)} sets an activation sequence of {len(cards)} card(s)."
            case ev.TacticsFighterChosen(player=player, fighter=fighter, discipline=dis):
                return (
                    f"{player_name(player)} rolls the Tactics roll with "
                    f"{self.fighter(fighter)} (DIS {dis})."
                )
            case ev.TestRaised(player=player):
                return f"{player_name(player)} raises the 6."
            case ev.TacticsTied(finals=finals):
                return tied_sentence("the Tactics roll", finals)
            case ev.RolledOff(
                purpose=purpose, sides=sides, finals=finals, faces=faces, first=first
            ):
                return rolled_off_sentence(purpose, sides, finals, faces, first)
            case ev.TacticsRolled(finals=finals, order=ranking) if ranking:
                ranked = ", ".join(f"{player_name(p)} ({finals[p]})" for p in ranking)
                return f"the Tactics roll ranks the players (XX-F-3): {ranked}."
            case ev.PlaceTaken(player=player, place=place, forced=forced):
                which = ordinal(place)
                # XX-F-1: before the battle, the deployment order; XX-F-3: the speaking order
                what = "deployment" if self.round == 0 else "speaking"
                left = ", the only one left" if forced else ""
                return f"{player_name(player)} takes the {which} place in the {what} order{left}."
            case ev.TacticsRolled(finals=finals, winner=winner, uncontested=uncontested):
                if len(finals) != 2:  # XX-F-3: every player rolls
                    results = ", ".join(f"{player_name(p)} {f}" for p, f in enumerate(finals))
                    return f"{player_name(winner)} wins the Tactics roll ({results})."
                if uncontested:
                    return (
                        f"{player_name(winner)} wins the Tactics roll: "
                        f"{player_name(1 - winner)} has no fighter to roll with."
                    )
                return (
                    f"{player_name(winner)} wins the Tactics roll "
                    f"({finals[winner]} to {finals[1 - winner]})."
                )
            case ev.FirstSpeakerChosen(by=by, first=first):
                if by == first:
                    return f"{player_name(by)} chooses to speak first."
                return f"{player_name(by)} lets {player_name(first)} speak first."
            case ev.RefusalsGranted(player=player, count=count):
                return f"{player_name(player)} has {count} refusal(s)."
            case ev.CardRevealed(player=player, card=card, source=source):
                where = " from the reserve" if source == "reserve" else ""
                return f"{player_name(player)} plays {self.card(card)}{where}."
            case ev.CardPlacedInReserve(player=player):
                return f"{player_name(player)} puts a card in reserve."
            case ev.CardRefused(player=player, refusals_left=left):
                return f"{player_name(player)} uses a refusal ({left} left)."
            case ev.FighterActivated(fighter=fighter):
                return f"{self.fighter(fighter)} is activated."
            case ev.MarkersRemoved(fighter=fighter, markers=markers):
                return f"{self.fighter(fighter)} loses the {' and '.join(markers)} marker(s)."
            case ev.SceneryLaid(elements=elements):
                return f"the scenery is laid: {', '.join(elements) or 'none'}."
            case ev.SceneryRolled(players=players, faces=faces, first=first):
                rolls = ", ".join(
                    f"{player_name(p)} {f}" for p, f in zip(players, faces, strict=True)
                )
                if first is None:
                    return f"who places the first scenery element: {rolls} — a tie, rolled again."
                return f"{player_name(first)} places the first scenery element ({rolls})."
            case ev.SceneryPlaced(element=element, player=player, x=x, y=y, angle=angle):
                if player is None:
                    return f"{element} is set up where the scenario places it (XX-A-2)."
                turned = f", turned {angle:g}°" if angle else ""
                return f"{player_name(player)} places {element} at ({x:g}, {y:g}){turned}."
            case ev.ZoneChosen(player=player, zone=zone):
                return f"{player_name(player)} takes deployment area {zone + 1}."
            case ev.Deployed(fighter=fighter, x=x, y=y):
                return f"{self.fighter(fighter)} is deployed at ({x:g}, {y:g})."
            case ev.ActionAnnounced(fighter=fighter, action=action, target=target, shoot=shoot):
                what = {"cover": "a move under cover", "engage": "an engagement"}.get(
                    action, f"a {action}"
                )
                on = f" on {self.fighter(target)}" if target else ""
                extra = " with an assault shot" if shoot else ""
                return f"{self.fighter(fighter)} announces {what}{on}{extra}."
            case ev.Moved(fighter=fighter, action=action, distance=cm):
                verb = {"walk": "walks", "run": "runs", "cover": "moves under cover"}.get(
                    action, "moves"
                )
                return f"{self.fighter(fighter)} {verb} {cm:g} cm."
            case ev.Charged(fighter=fighter, targets=targets, distance=cm, penalised=hurt):
                names = " and ".join(self.fighter(t) for t in targets)
                tail = f"; {', '.join(self.fighter(t) for t in hurt)} charged" if hurt else ""
                return f"{self.fighter(fighter)} charges {names} ({cm:g} cm){tail}."
            case ev.Engaged(fighter=fighter, targets=targets, distance=cm):
                names = " and ".join(self.fighter(t) for t in targets)
                return f"{self.fighter(fighter)} engages {names} ({cm:g} cm)."
            case ev.AssaultFellShort(fighter=fighter, target=target, distance=cm, moved=moved):
                far = f"{cm:g} cm away" if cm is not None else "out of reach"
                return (
                    f"{self.fighter(fighter)} falls short of {self.fighter(target)} ({far}) "
                    f"and moves {moved:g} cm."
                )
            case ev.Disengaged(fighter=fighter, method=method):
                return f"{self.fighter(fighter)} disengages by {method}."
            case ev.DisengageFailed(fighter=fighter):
                return f"{self.fighter(fighter)} fails to disengage: Defense counter."
            case ev.TookCover(fighter=fighter):
                return f"{self.fighter(fighter)} dives for cover."
            case ev.ShotFired(shooter=shooter, target=target, distance=cm, explain=explain):
                return (
                    f"{self.fighter(shooter)} shoots at {self.fighter(target)} ({cm:g} cm, "
                    f"difficulty {explain})."
                )
            case ev.ShotMissed(shooter=shooter, reason=reason):
                return f"{self.fighter(shooter)}'s shot misses: {reason}."
            case ev.ShotHit(victim=victim):
                return f"the shot hits {self.fighter(victim)}."
            case ev.GameEnded(reason=reason, scores=scores, winner=winner):
                if len(scores) == 2:
                    won = "a draw" if winner is None else f"{player_name(winner)} wins"
                    return f"the game ends ({reason}); score {scores[0]} to {scores[1]}: {won}."
                # XX-F: three players or more; a draw is shared by the best scores
                if winner is None:
                    won = f"a draw between {listed([player_name(p) for p in leaders(scores)])}"
                else:
                    won = f"{player_name(winner)} wins"
                score = listed([str(s) for s in scores])
                return f"the game ends ({reason}); score {score}: {won}."
        # the rules the game_started state names; a log without it is told with confede's
        rules = default_rules() if self.state is None else rules_of(self.state)
        teller = rules.sentences.get(event.kind)
        if teller is not None:
            return teller(self, event)
        if event.kind in SILENT:
            return None
        return f"{event.kind.replace('_', ' ')}."


QUIET_EVENTS = frozenset(
    {
        "die_rolled",
        "fighter_activated",
        "markers_removed",
        "phase_started",
        "sequence_set",
        "refusals_granted",
        "deployed",
        "round_started",
        "game_started",
    }
)
"""Kinds of events a game's running story leaves out (``confrontation play``, the web page):
their sentences repeat what the next event says."""

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
"""Places in an order of two to six players (XX-F), 0-based."""


def ordinal(place: int) -> str:
    """``place`` (0-based) as a word: "first", "second"…"""
    return ORDINALS[place]


def listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


_TESTS = {
    "tactics": "the Tactics roll",
    "split": "the Discipline test",
    "authority": "the Authority roll",
    "initiative": "the initiative test",
}


def tied_sentence(what: str, finals: Sequence[int]) -> str:
    """An opposed test tied (II-A-3), or every result a failure (≤ 0: II-A-4, CLARIFICATIONS
    §9): the tied sides roll again."""
    if len(finals) == 2 and finals[0] == finals[1]:
        return f"{what} is tied at {finals[0]}: both roll again."
    if len(finals) == 2:
        return (
            f"{what}: {finals[0]} and {finals[1]} are both failures (0 or less), a tie: "
            "both roll again."
        )
    results = ", ".join(str(f) for f in finals)
    return f"{what}: {results} (0 or less counts as 0): the tied sides roll again."


def rolled_off_sentence(
    purpose: str,
    sides: Sequence[int],
    finals: Sequence[int],
    faces: Sequence[Sequence[int]],
    first: int,
) -> str:
    """II-A-3, CLARIFICATIONS §9: a roll-off between sides showing a 6 with equal results."""
    who = " and ".join(player_name(s) for s in sides)
    rolls = ", ".join(
        f"{player_name(s)} {' then '.join(str(f) for f in mine)}"
        for s, mine in zip(sides, faces, strict=True)
    )
    return (
        f"{who} show a 6 with equal results ({finals[0]}) in {_TESTS.get(purpose, purpose)}; "
        f"roll-off: {rolls}: {player_name(first)} decides first whether to raise."
    )


def narrate(log: Iterable[ev.Event]) -> list[str]:
    """One sentence per event worth telling, each prefixed with its round."""
    narrator = Narrator()
    lines: list[str] = []
    for event in log:
        sentence = narrator.sentence(event)
        if sentence is None:
            continue
        sentence = f"{sentence[0].upper()}{sentence[1:]}"
        if narrator.round:
            sentence = f"Round {narrator.round} — {sentence}"
        lines.append(sentence)
    return lines
