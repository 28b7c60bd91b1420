"""The combat phase told in plain English, in the words of the book's worked example
("The Dirz player makes the Attack check and rolls a '4' for a final result of 4+3=7")."""

from __future__ import annotations

from collections.abc import Sequence

from confrontation.engine.combat import events as ce
from confrontation.engine.core.events import Event
from confrontation.engine.core.melee import Combat
from confrontation.engine.core.narrate import Narrator, tied_sentence
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import player_name

_RESULTS = {
    "none": "no damage",
    "stunned": "stunned",
    "light": "light wound",
    "serious": "serious wound",
    "critical": "critical wound",
    "killed": "killed outright",
}

_PURPOSES = {"split": "the Discipline test", "authority": "the Authority roll"}


def _signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def _test(faces: Sequence[int], natural: int, value: int, final: int) -> str:
    """'4 + 3 = 7', '6 + 4 + 3 = 13', '6 + 1 → 1 + 3 = 4', '2, 5 → 5 + 3 = 8'."""
    chain = all(f == 6 for f in faces[:-1])
    shown = (" + " if chain else ", ").join(str(f) for f in faces)
    if len(faces) > 1 and not (chain and natural == sum(faces)):
        shown = f"{shown} → {natural}"
    return f"{shown} {_signed(value)} = {final}"


def _names(n: Narrator, fighters: Sequence[str]) -> str:
    return ", ".join(n.fighter(f) for f in fighters)


def _combat(n: Narrator, combat: Combat) -> str:
    return f"{n.fighter(combat.one)} against {_names(n, combat.many)}"


def _score(finals: tuple[int, ...]) -> str:
    """ "9 to 5" (or "9 to 5, 3"): the winner's result first. The winner of an opposed roll has
    the one best result (ties are rolled again), so it is the highest of ``finals``."""
    best = finals.index(max(finals))
    return f"{finals[best]} to " + ", ".join(str(f) for i, f in enumerate(finals) if i != best)


def tell(n: Narrator, event: Event) -> str | None:
    """The sentence for one combat event."""
    match event:
        case ce.MeleeFound(fighters=fighters):
            return f"a melee: {_names(n, fighters)}."
        case ce.ContestFighterNamed(purpose=purpose, player=player, fighter=fighter, value=v):
            what = _PURPOSES.get(purpose, "the initiative test")
            unit = "INI + X" if purpose == "initiative" else "DIS"
            return f"{player_name(player)} names {n.fighter(fighter)} for {what} ({unit} {v})."
        case ce.ContestTied(purpose=purpose, finals=finals):
            return tied_sentence(_PURPOSES.get(purpose, "the initiative test"), finals)
        case ce.SplitRolled(finals=finals, winner=winner):
            return (
                f"{player_name(winner)} wins the Discipline test ({_score(finals)}) "
                "and separates the melee."
            )
        case ce.CombatSplit(combats=combats, by=by):
            parts = "; ".join(_combat(n, c) for c in combats)
            who = f"{player_name(by)} separates the melee" if by is not None else "the melee is"
            if by is None:
                return f"{who} separated one way only: {parts}."
            return f"{who}: {parts}."
        case ce.AuthorityRolled(finals=finals, winner=winner):
            won = f"{player_name(winner)} wins the Authority roll"
            return f"{won} ({_score(finals)}) and speaks first."
        case ce.CombatTurnsSet(order=order):
            return (
                "the Tactics results give the turns to choose the combats (XX-F-5): "
                + ", ".join(player_name(p) for p in order)
                + "."
            )
        case ce.CombatChosen(player=player, combat=combat, pursuit=pursuit):
            if pursuit:
                return f"the combat the pursuit caused is resolved at once: {_combat(n, combat)}."
            return f"{player_name(player)} chooses the combat {_combat(n, combat)}."
        case ce.DiceAllocated(fighter=fighter, dice=dice, attack=attack, defence=defence):
            return (
                f"{n.fighter(fighter)} places {dice} combat dice: {attack} in attack, "
                f"{defence} in defence."
            )
        case ce.InitiativeRolled(
            fighters=fighters, values=values, naturals=naturals, finals=finals, order=order
        ):
            rolls = ", ".join(
                f"{n.fighter(f)} {nat} {_signed(v)} = {fin}"
                for f, v, nat, fin in zip(fighters, values, naturals, finals, strict=True)
            )
            then = (
                "".join(f", then {player_name(p)}'s" for p in order[1:]) if len(order) > 2 else ""
            )
            return f"initiative: {rolls}: {player_name(order[0])}'s side attacks first{then}."
        case ce.WeaponCombatStarted(number=number):
            return f"weapon combat {number} begins."
        case ce.AttackDeclared(attacker=attacker, target=target):
            return f"{n.fighter(attacker)} attacks {n.fighter(target)}."
        case ce.DefenceAnnounced(fighter=fighter, dice=dice):
            noun = "die" if dice == 1 else "dice"
            return f"{n.fighter(fighter)} tries to block with {dice} defence {noun}."
        case ce.SustainedDefence(fighter=fighter, defence=defence):
            return f"{n.fighter(fighter)} makes a sustained defence (DEF {defence})."
        case ce.AttackRolled(rolled=False, attacker=attacker):
            return (
                f"{n.fighter(attacker)}'s attack cannot fail and nobody blocks: he goes straight "
                "to the wound roll."
            )
        case ce.AttackRolled(
            faces=faces, natural=natural, attack=value, final=final, automatic_failure=failed
        ):
            end = ": an automatic failure" if failed else ""
            return f"attack test: {_test(faces, natural, value, final)}{end}."
        case ce.DefenceRolled(
            fighter=fighter, faces=faces, natural=natural, defence=value, final=final, blocked=b
        ):
            outcome = "the attack is blocked" if b else "not blocked"
            test = _test(faces, natural, value, final)
            return f"defence test of {n.fighter(fighter)}: {test}: {outcome}."
        case ce.Wounded(fighter=fighter, dice=dice, location=loc, result=result, row=row):
            told = _RESULTS.get(result, result)
            where = f"{dice[0]} and {dice[-1]}, {loc}" if dice else loc
            if row is None or event.strength is None or event.resistance is None:
                return f"wound roll on {n.fighter(fighter)}: {where}: {told}."
            return (
                f"wound roll on {n.fighter(fighter)}: {where}, "
                f"{max(dice)} + {event.strength} - {event.resistance} = {row}: {told}."
            )
        case ce.FighterKilled(fighter=fighter, dice_lost=lost):
            gone = f"; {lost} combat dice lost" if lost else ""
            return f"{n.fighter(fighter)} is killed and leaves the table{gone}."
        case ce.CombatResolved(combat=combat):
            return f"the combat {_combat(n, combat)} is over."
        case ce.Pursued(
            fighter=fighter, reach=reach, engaged=engaged, label=label, distance=distance
        ):
            end = f", engaging {_names(n, engaged)}" if engaged else ""
            moved = f", moving {distance:g} cm" if distance else ""
            return f"{n.fighter(fighter)} pursues (up to {reach} cm): {label}{moved}{end}."
    return None


def contribute(rules: RulesBuilder) -> None:
    """The combat events' sentences."""
    for kind in (
        ce.MeleeFound,
        ce.ContestFighterNamed,
        ce.ContestTied,
        ce.SplitRolled,
        ce.CombatSplit,
        ce.AuthorityRolled,
        ce.CombatTurnsSet,
        ce.CombatChosen,
        ce.DiceAllocated,
        ce.InitiativeRolled,
        ce.WeaponCombatStarted,
        ce.AttackDeclared,
        ce.DefenceAnnounced,
        ce.SustainedDefence,
        ce.AttackRolled,
        ce.DefenceRolled,
        ce.Wounded,
        ce.FighterKilled,
        ce.CombatResolved,
        ce.Pursued,
    ):
        rules.sentence(kind.kind, tell)
