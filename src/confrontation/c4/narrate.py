"""C4 events in English: :func:`narrate` gives one sentence per event (None: nothing to
tell), as ``viewer`` may hear it (None: the referee, who sees everything). Players are
numbered from 1 in sentences."""

from __future__ import annotations

from collections.abc import Iterable

from confrontation.c4 import events as ev
from confrontation.engine.core.events import Event


def _p(player: int) -> str:
    return f"Player {player + 1}"


def narrate(event: Event, viewer: int | None = None) -> str | None:
    """One sentence for ``event``; a secret (a sequence's order) only for its owner."""
    match event:
        case ev.C4GameStarted():
            return f"A C4 game begins in {event.state.mode} mode."
        case ev.C4RoundStarted():
            return f"Round {event.round} begins."
        case ev.C4PhaseStarted():
            return f"The {event.phase} phase begins."
        case ev.SequenceBuilt():
            if viewer is None or viewer == event.player:
                return f"{_p(event.player)}'s cards: {', '.join(event.cards)}."
            return f"{_p(event.player)} lays out {len(event.cards)} cards."
        case ev.AuthorityRolled():
            faces = "-".join(map(str, event.faces))
            return (
                f"{_p(event.player)} rolls {faces} for Authority: keeps {event.kept}"
                f" (+{event.value})."
            )
        case ev.AuthorityAllOnes():
            return "Every player rolled a 1: the Authority opposition is rolled again."
        case ev.AuthorityRerolled():
            return f"{_p(event.player)} re-rolls the 6: {event.face} (dice {event.total})."
        case ev.AuthorityLost():
            return f"{_p(event.player)} rolled a 1 and loses the Authority opposition."
        case ev.AuthorityTied():
            who = " and ".join(_p(p) for p in event.players)
            return f"{who} tie at {event.result}: the opposition is rolled again."
        case ev.AuthorityWon():
            return f"{_p(event.player)} wins the Authority opposition with {event.result}."
        case ev.FirstActiveChosen():
            return f"{_p(event.by)} chooses {_p(event.player)} as the first active player."
        case ev.CardDrawn():
            return f"{_p(event.player)} draws a card."
        case ev.CardHanded():
            return f"{_p(event.drawer)} reveals {event.card} and hands it to {_p(event.owner)}."
        case ev.CardReserved():
            return f"{_p(event.player)} puts a card in reserve and passes."
        case ev.CardRevealed():
            where = " from reserve" if event.from_reserve else ""
            return f"{_p(event.player)} reveals {event.card}{where}."
        case ev.UnitGone():
            return f"{event.unit} has no fighter left: nothing to activate."
        case ev.UnitActed():
            target = f" {event.target}" if event.target else ""
            verb = {
                "hold": "holds",
                "walk": "walks",
                "run": "runs",
                "assault": "assaults",
                "walk_shoot": "walks and shoots at",
            }
            return f"{event.unit} {verb.get(event.action, event.action)}{target}."
        case ev.UnitMoved():
            if abs(event.dx) < 0.05 and abs(event.dy) < 0.05:
                return f"{event.unit}'s fighters move round their leader."
            return f"{event.unit} moves ({event.dx:+.1f}, {event.dy:+.1f}) cm."
        case ev.AssaultFailed():
            return f"{event.unit}'s assault on {event.target} fails ({event.distance:.1f} cm)."
        case ev.Engaged():
            return f"{event.unit} engages {event.target}."
        case ev.SalvoDue():
            return f"{event.unit} shoots at {event.target}."
        case ev.MeleeDue():
            return f"{event.unit} fights in melee."
        case ev.FormationChanged():
            return f"{event.unit} takes the {event.formation} formation."
        case ev.OutOfFormation():
            return f"{event.unit} is out of formation: {event.problems[0]}."
        case ev.LeaderReplaced():
            return f"{event.fallen} fell: {event.leader} now leads {event.unit}."
        case ev.FighterEliminated():
            return f"{event.fighter} ({event.unit}) is eliminated."
        case ev.FighterWounded():
            return f"{event.fighter} is wounded ({event.health} health left)."
        case ev.Disengaged():
            return f"{event.unit} and {event.other} are no longer in contact."
        case ev.SalvoResolved():
            return (
                f"{event.marksmen} {event.profile} of {event.unit} shoot at {event.target} "
                f"({event.distance:.1f} cm, difficulty {event.difficulty}): {event.dice} dice, "
                f"{event.hits} hits, {event.damage} damage, {len(event.eliminated)} eliminated."
            )
        case ev.CombatResolved():
            weapon = f" with {event.weapon}" if event.weapon else ""
            return (
                f"{event.attacker} of {event.unit} fight {event.defender} of {event.target}"
                f"{weapon}: {event.dice} dice, {event.hits} hits, {event.damage} damage, "
                f"{len(event.eliminated)} eliminated."
            )
        case ev.ActivationEnded():
            return None
        case ev.C4GameEnded():
            result = "a draw" if event.winner is None else f"{_p(event.winner)} wins"
            scores = "-".join(map(str, event.scores))
            return f"The game is over ({event.reason}): {scores}, {result}."
    return None


def story(events: Iterable[Event], viewer: int | None = None) -> list[str]:
    """The sentences of ``events`` (events with nothing to tell left out)."""
    return [s for e in events if (s := narrate(e, viewer)) is not None]
