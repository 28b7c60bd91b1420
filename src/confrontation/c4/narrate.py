"""C4 events in English: :func:`narrate` gives one sentence per event (None: nothing to
tell), as ``viewer`` may hear it (None: the referee, who sees everything). Players are
numbered from 1 in sentences.

Units, fighters and profiles are called by their cards' names (``Player 1's Conscripts of the
Griffin``, ``Sered the Blessed``, ``a Conscript of the Griffin``; an id whose card is not
bundled is spelt out from the id), counts agree with their nouns (``1 hit``, ``2 hits``) and
moves are told as a distance and a compass direction (the table's y axis points north).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import lru_cache

from confrontation.c4 import events as ev
from confrontation.c4.cards import Card, bundled_cards
from confrontation.engine.core.events import Event

_OWNED = re.compile(r"^p(\d+)-(.+)$")
COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")
"""The eight directions of a move, anticlockwise from east (y up: north)."""


def _p(player: int) -> str:
    return f"Player {player + 1}"


@lru_cache(maxsize=1)
def _cards() -> dict[str, Card]:
    return bundled_cards()


def _spelt(text: str) -> str:
    """An id as words: ``wolf-fenrirs`` → ``wolf fenrirs``."""
    return text.replace("/", " ").replace("-", " ").replace("_", " ").strip()


def _owned(item: str) -> tuple[int | None, str]:
    match = _OWNED.match(item)
    if match is None:
        return None, item
    return int(match.group(1)) - 1, match.group(2)


def _card_of(rest: str) -> tuple[Card | None, str]:
    """The bundled card whose id begins ``rest`` (the longest) and what follows it."""
    best: Card | None = None
    for card in _cards().values():
        if (rest == card.id or rest.startswith(card.id + "-")) and (
            best is None or len(card.id) > len(best.id)
        ):
            best = card
    if best is None:
        return None, rest
    return best, rest[len(best.id) + 1 :]


def unit_name(unit: str, owner: bool = True) -> str:
    """``p1-griffin-conscripts`` → ``Player 1's Conscripts of the Griffin`` (``owner``
    False: ``Conscripts of the Griffin``)."""
    player, rest = _owned(unit)
    card = _cards().get(rest)
    name = card.name if card is not None else _spelt(rest)
    return name if player is None or not owner else f"{_p(player)}'s {name}"


def article(name: str) -> str:
    """``a`` or ``an`` before ``name``."""
    return "an" if name[:1].lower() in "aeiou" else "a"


def fighter_name(fighter: str) -> str:
    """An Incarnate by his name (``Sered the Blessed``), another special fighter with
    ``the`` (``the Master archer``), a standard one as one of his kind (``a Conscript of the
    Griffin``)."""
    _, rest = _owned(fighter)
    card, tail = _card_of(rest)
    if card is None:
        return _spelt(rest)
    if tail.isdigit() or not tail:
        name = card.standard.name
        return f"{article(name)} {name}"
    try:
        profile = card.profile(tail)
    except KeyError:
        return _spelt(rest)
    return profile.name if profile.kind_value == "incarnate" else f"the {profile.name}"


def profile_name(profile: str) -> str:
    """A profile id (``griffin-arbalesters/arbalester``) by its name."""
    card_id, _, pid = profile.partition("/")
    card = _cards().get(card_id)
    if card is None or not pid:
        return _spelt(profile)
    try:
        return card.profile(pid).name
    except KeyError:
        return _spelt(profile)


def group(profile: str) -> str:
    """The fighters of a profile in a combat: standard fighters in the plural (``the Spearmen
    of the Lion``), an Incarnate by his name, another special fighter in the singular."""
    card_id, _, pid = profile.partition("/")
    card = _cards().get(card_id)
    name = profile_name(profile)
    if card is None or pid == card.standard.id:
        return f"the {plural(name)}"
    try:
        kind = card.profile(pid).kind_value
    except KeyError:
        return f"the {name}"
    return name if kind == "incarnate" else f"the {name}"


def plural(name: str) -> str:
    """The plural of a name whose head noun is its last word before `` of ``:
    ``Spearman of the Lion`` → ``Spearmen of the Lion``, ``Master archer`` → ``Master archers``."""
    head, sep, tail = name.partition(" of ")
    words = head.split(" ")
    last = words[-1]
    if last.endswith("man"):
        last = last[:-3] + "men"
    elif last.endswith(("s", "x", "ch", "sh")):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "i", "o", "u"):
        last = last[:-1] + "ies"
    else:
        last += "s"
    return " ".join([*words[:-1], last]) + sep + tail


def is_plural(name: str) -> bool:
    """Does ``name`` (a unit's card name) take a plural verb (``Conscripts of …``)?"""
    head = name.partition(" of ")[0].split(" ")[-1]
    return head.endswith(("s", "men"))


def count(n: int, noun: str, nouns: str | None = None) -> str:
    """``1 hit``, ``2 hits``, ``0 hits`` (``nouns``: an irregular plural)."""
    return f"{n} {noun if n == 1 else (nouns or noun + 's')}"


def _verb(unit: str, singular: str, plural_form: str) -> str:
    """The unit's name and the verb agreeing with it."""
    name = unit_name(unit)
    _, rest = _owned(unit)
    card = _cards().get(rest)
    card_name = card.name if card is not None else _spelt(rest)
    return f"{name} {plural_form if is_plural(card_name) else singular}"


def direction(dx: float, dy: float) -> str:
    """The compass direction of a move (y up: north)."""
    angle = math.degrees(math.atan2(dy, dx)) % 360
    return COMPASS[round(angle / 45) % 8]


def distance(cm: float) -> str:
    """A distance in cm, to the half-centimetre players measure (``12.5 cm``, ``20 cm``)."""
    halves = round(cm * 2) / 2
    text = f"{halves:.1f}".removesuffix(".0")
    return f"{text} cm"


def _eliminated(n: int) -> str:
    return "none eliminated" if n == 0 else f"{count(n, 'fighter')} eliminated"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


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
                names = ", ".join(unit_name(c, owner=False) for c in event.cards)
                return f"{_p(event.player)}'s cards: {names}."
            return f"{_p(event.player)} lays out {count(len(event.cards), 'card')}."
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
            if event.by == event.player:
                return f"{_p(event.by)} chooses to be the first active player."
            return f"{_p(event.by)} chooses {_p(event.player)} as the first active player."
        case ev.CardDrawn():
            return f"{_p(event.player)} draws a card."
        case ev.CardHanded():
            card = unit_name(event.card)
            return f"{_p(event.drawer)} reveals {card} and hands it to {_p(event.owner)}."
        case ev.CardReserved():
            return f"{_p(event.player)} puts a card in reserve and passes."
        case ev.CardRevealed():
            where = " from reserve" if event.from_reserve else ""
            return f"{_p(event.player)} reveals {unit_name(event.card)}{where}."
        case ev.UnitGone():
            return f"{_verb(event.unit, 'has', 'have')} no fighter left: nothing to activate."
        case ev.UnitActed():
            target = f" {unit_name(event.target)}" if event.target else ""
            verbs = {
                "hold": ("holds", "hold"),
                "walk": ("walks", "walk"),
                "run": ("runs", "run"),
                "assault": ("assaults", "assault"),
                "walk_shoot": ("walks and shoots at", "walk and shoot at"),
            }
            one, many = verbs.get(event.action, (event.action, event.action))
            return f"{_verb(event.unit, one, many)}{target}."
        case ev.UnitMoved():
            if abs(event.dx) < 0.05 and abs(event.dy) < 0.05:
                return f"The fighters of {unit_name(event.unit)} move round their leader."
            far = distance(math.hypot(event.dx, event.dy))
            way = direction(event.dx, event.dy)
            return f"{_verb(event.unit, 'moves', 'move')} {far} {way}."
        case ev.AssaultFailed():
            return (
                f"The assault of {unit_name(event.unit)} on {unit_name(event.target)} fails: "
                f"{distance(event.distance)} away."
            )
        case ev.Engaged():
            return f"{_verb(event.unit, 'engages', 'engage')} {unit_name(event.target)}."
        case ev.SalvoDue():
            return f"{_verb(event.unit, 'shoots', 'shoot')} at {unit_name(event.target)}."
        case ev.MeleeDue():
            return f"{_verb(event.unit, 'fights', 'fight')} in melee."
        case ev.FormationChanged():
            return f"{_verb(event.unit, 'takes', 'take')} the {event.formation} formation."
        case ev.OutOfFormation():
            return f"{_verb(event.unit, 'is', 'are')} out of formation: {event.problems[0]}."
        case ev.LeaderReplaced():
            return (
                f"{_cap(fighter_name(event.fallen))} fell: {fighter_name(event.leader)} now "
                f"leads {unit_name(event.unit)}."
            )
        case ev.FighterEliminated():
            return f"{_verb(event.unit, 'loses', 'lose')} {fighter_name(event.fighter)}."
        case ev.FighterWounded():
            left = count(event.health, "health point")
            return f"{_cap(fighter_name(event.fighter))} is wounded: {left} left."
        case ev.Disengaged():
            return f"{unit_name(event.unit)} and {unit_name(event.other)} are no longer in contact."
        case ev.SalvoResolved():
            name = profile_name(event.profile)
            who = count(event.marksmen, name, plural(name))
            return (
                f"{_verb(event.unit, 'shoots', 'shoot')} at {unit_name(event.target)} with "
                f"{who} ({distance(event.distance)}, difficulty "
                f"{event.difficulty}): {count(event.dice, 'die', 'dice')}, "
                f"{count(event.hits, 'hit')}, {count(event.damage, 'damage point')}, "
                f"{_eliminated(len(event.eliminated))}."
            )
        case ev.CombatResolved():
            weapon = f" with {event.weapon}" if event.weapon else ""
            return (
                f"{_verb(event.unit, 'fights', 'fight')} {unit_name(event.target)}, "
                f"{group(event.attacker)} against {group(event.defender)}{weapon}: "
                f"{count(event.dice, 'die', 'dice')}, {count(event.hits, 'hit')}, "
                f"{count(event.damage, 'damage point')}, {_eliminated(len(event.eliminated))}."
            )
        case ev.CourageTested():
            faces = "-".join(map(str, event.faces))
            kept = f"keeps {max(event.faces)}, " if len(event.faces) > 1 else ""
            what = (
                f"against the Fear of {unit_name(event.against)}"
                if event.purpose == "assault" and event.against is not None
                else "to rally"
            )
            result = "passes" if event.success else "fails"
            return (
                f"{_verb(event.unit, 'takes', 'take')} a Courage test {what} ({event.value} "
                f"against {event.difficulty}, {event.minimum}+): rolls {faces}, {kept}{result}."
            )
        case ev.FearIgnored():
            return (
                f"{_verb(event.unit, 'fears', 'fear')} nothing from {unit_name(event.against)}"
                f" (Fear {event.fear}): no test."
            )
        case ev.Routed():
            if event.active:
                return f"{_verb(event.unit, 'is', 'are')} in rout: the activation ends on the spot."
            return f"{_verb(event.unit, 'is', 'are')} in rout."
        case ev.UnitFled():
            far = distance(math.hypot(event.dx, event.dy))
            way = direction(event.dx, event.dy)
            return f"{_verb(event.unit, 'flees', 'flee')} {far} {way}."
        case ev.UnitLeftBattlefield():
            lost = count(event.fighters, "fighter")
            return f"{_verb(event.unit, 'flees', 'flee')} off the battlefield ({lost} gone)."
        case ev.Rallied():
            return f"{_verb(event.unit, 'rallies', 'rally')}: no longer in rout."
        case ev.ActivationEnded():
            return None
        case ev.C4GameEnded():
            result = "a draw" if event.winner is None else f"{_p(event.winner)} wins"
            scores = "-".join(map(str, event.scores))
            return f"The game is over ({event.reason}): fighters left {scores}, {result}."
    return None


def story(events: Iterable[Event], viewer: int | None = None) -> list[str]:
    """The sentences of ``events`` (events with nothing to tell left out)."""
    return [s for e in events if (s := narrate(e, viewer)) is not None]
