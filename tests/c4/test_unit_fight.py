"""Shooting and melee through step(): # C4 Unit Ranged Attack (and its five steps), # C4 Combat,
# C4 Damage, # C4 Units (a fallen leader replaced), with scripted dice."""

from __future__ import annotations

import pytest

from c4flow_support import feed, kind
from confrontation.c4 import events as ev
from confrontation.c4.choices import ChooseFirst, PickCard, UnitAction
from confrontation.c4.state import C4State, Fighter, Stats, Unit, new_game
from confrontation.c4.step import start

BOW = Stats("bow", att_dice=1, att=3, strength=3, defense=3, res=3, ranged_dice=1, ranged=4,
            ranged_strength=4)  # fmt: skip
SPEAR = Stats("spear", att_dice=1, att=3, strength=3, defense=3, res=3)
SWORD = Stats("sword", att_dice=2, att=4, strength=4, defense=3, res=3)
AXE = Stats("axe", att_dice=2, att=4, strength=3, defense=3, res=3, weapons=(("axe", 6),))
CAPTAIN = Stats("captain", att_dice=1, att=3, strength=3, defense=3, res=3)


def row(uid: str, owner: int, profile: str, spots: list[tuple[float, float]], **kw: object):  # type: ignore[no-untyped-def]
    fs = [
        Fighter(f"{uid}{k + 1}", uid, profile, x, y, 1.25, 1, 1, **kw)  # type: ignore[arg-type]
        for k, (x, y) in enumerate(spots)
    ]
    return fs, Unit(uid, owner, uid, "infantry", tuple(f.id for f in fs), fs[0].id)


def game(*parts, engaged: dict[str, tuple[str, ...]] | None = None) -> C4State:  # type: ignore[no-untyped-def]
    from confrontation.engine.core.frozen import evolve

    fighters = tuple(f for fs, _ in parts for f in fs)
    units = tuple(evolve(u, engaged=(engaged or {}).get(u.id, ())) for _, u in parts)
    stats = (BOW, SPEAR, SWORD, AXE, CAPTAIN)
    return new_game(fighters, units, mode="barbarian", profiles=stats)


def activated(state: C4State, unit_id: str, first: int = 0) -> C4State:
    state, _ = start(state)
    state, _ = feed(state, 5, 2, ChooseFirst(first), PickCard(unit_id))
    assert kind(state) == "c4_unit_action"
    return state


FAR = row("z", 1, "spear", [(110.0, 110.0)])  # keeps player 2 in the game


@pytest.mark.rule(
    "C4-UNIT-RANGED-ATTACK",
    "C4-MEASURING-THE-RANGE",
    "C4-RANGED-ATTACK-TEST",
    "C4-STRENGTH-TEST",
    "C4-REMOVAL-OF-THE-LOSSES",
    "C4-UNITS",
    "C4-DAMAGE",
    "C4-MEASURING-DISTANCE",
)
def test_a_salvo_resolves_its_five_steps_and_replaces_the_leader() -> None:
    # C4 Unit Ranged Attack: > Measuring the range (leader to leader: 10 cm, short band, 2),
    # > Ranged attack test (1 die x 2 marksmen, 4 against 2: 3+), > Strength test (one die per
    # hit, 4 against RES 3: 4+), > Removal of the losses (closest to the marksmen's leader)
    shooters = row("a", 0, "bow", [(60.0, 20.0), (63.0, 20.0)], ranged=True)
    target = row("e", 1, "spear", [(60.0, 32.5), (63.0, 32.5), (66.0, 32.5)])
    state = activated(game(shooters, target, FAR), "a")
    state, events = feed(state, UnitAction("a", "walk_shoot", 60.0, 20.0, "e"))
    assert kind(state) == "c4_action_die"
    state, events = feed(state, 3, 5, 4, 2)
    salvo = next(e for e in events if isinstance(e, ev.SalvoResolved))
    assert (salvo.marksmen, salvo.difficulty, salvo.dice, salvo.hits, salvo.damage) == (
        2, 2, 2, 2, 1,
    )  # fmt: skip
    assert salvo.eliminated == ("e1",)
    # C4 Units: the leader eliminated, the standard fighter closest to him leads
    assert ev.LeaderReplaced("e", "e1", "e2") in events
    assert state.unit("e").leader == "e2" and [f.id for f in state.members("e")] == ["e2", "e3"]
    assert kind(state) != "c4_action_die"


@pytest.mark.rule("C4-REMOVAL-OF-THE-LOSSES", "C4-UNIVERSAL-TABLE-OF-RESOLUTION")
def test_a_salvo_cannot_eliminate_more_than_the_weapons_shot() -> None:
    # C4 Unit Ranged Attack > Removal of the losses: more hits than dice are possible (a 6 is
    # rolled again, CLARIFICATIONS 7), but no more eliminated than there were weapons shot
    shooters = row("a", 0, "bow", [(60.0, 20.0)], ranged=True)
    target = row("e", 1, "spear", [(60.0, 32.5), (63.0, 32.5), (66.0, 32.5)])
    state = activated(game(shooters, target, FAR), "a")
    state, _ = feed(state, UnitAction("a", "walk_shoot", 60.0, 20.0, "e"))
    state, events = feed(state, 6, 6, 3, 5, 5, 5)  # 1 die: 6, 6, 3 → 3 hits; 3 damage
    salvo = next(e for e in events if isinstance(e, ev.SalvoResolved))
    assert (salvo.dice, salvo.hits, salvo.damage) == (1, 3, 3)
    assert len(salvo.eliminated) == 1 and len(state.members("e")) == 2


@pytest.mark.rule("C4-MEASURING-THE-RANGE", "C4-CHOICE-OF-THE-TARGET-AND-THE-MARKSMEN")
def test_out_of_range_or_unseen_targets_take_no_salvo() -> None:
    # C4 Unit Ranged Attack > Measuring the range: beyond the tape no shot; > Choice of the
    # target and the marksmen: only the marksmen who see a fighter of the target shoot
    shooters = row("a", 0, "bow", [(60.0, 10.0)], ranged=True)
    target = row("e", 1, "spear", [(60.0, 100.0)])
    state = activated(game(shooters, target, FAR), "a")
    state, events = feed(state, UnitAction("a", "walk_shoot", 60.0, 10.0, "e"))
    assert not any(isinstance(e, ev.SalvoResolved) for e in events)
    assert kind(state) != "c4_action_die"


@pytest.mark.rule("C4-UNIT-RANGED-ATTACK")
def test_a_profile_may_hold_its_fire_and_salvos_follow_the_players_order() -> None:
    # C4 Unit Ranged Attack: the player chooses in which order the salvos are resolved; it is
    # possible not to shoot with a certain profile of marksman
    mixed = row("a", 0, "bow", [(60.0, 20.0), (63.0, 20.0)], ranged=True)
    from confrontation.engine.core.frozen import evolve

    fs = [mixed[0][0], evolve(mixed[0][1], profile="captain")]
    target = row("e", 1, "spear", [(60.0, 32.5), (63.0, 32.5), (66.0, 32.5)])
    captain = Stats("captain", ranged_dice=2, ranged=4, ranged_strength=4, res=3)
    state = new_game(
        tuple([*fs, *target[0], *FAR[0]]),
        (mixed[1], target[1], FAR[1]),
        mode="barbarian",
        profiles=(BOW, SPEAR, captain),
    )
    state = activated(state, "a")
    act = UnitAction("a", "walk_shoot", 60.0, 20.0, "e", order=("captain",), hold_fire=("bow",))
    state, _ = feed(state, act)
    state, events = feed(state, 1, 1)
    salvos = [e for e in events if isinstance(e, ev.SalvoResolved)]
    assert [s.profile for s in salvos] == ["captain"] and salvos[0].dice == 2
    both = new_game(
        tuple([*fs, *target[0], *FAR[0]]),
        (mixed[1], target[1], FAR[1]),
        mode="barbarian",
        profiles=(BOW, SPEAR, captain),
    )
    state = activated(both, "a")
    state, _ = feed(state, UnitAction("a", "walk_shoot", 60.0, 20.0, "e", order=("captain",)))
    state, events = feed(state, 1, 1, 1)
    salvos = [e for e in events if isinstance(e, ev.SalvoResolved)]
    assert [(s.profile, s.dice) for s in salvos] == [("captain", 2), ("bow", 1)]


def engaged_pair(attackers: list[tuple[str, str]], defenders: list[tuple[str, str]]) -> C4State:
    """Attackers along y=20 and defenders along y=22.5, each pair touching, engaged."""
    a = [
        Fighter(f"a{k + 1}", "a", p, 60.0 + 2.5 * k, 20.0, 1.25, 1, 1)
        for k, (p, _) in enumerate(attackers)
    ]
    d = [
        Fighter(f"d{k + 1}", "d", p, 60.0 + 2.5 * k, 22.5, 1.25, 1, 1)
        for k, (p, _) in enumerate(defenders)
    ]
    ua = Unit("a", 0, "a", "infantry", tuple(f.id for f in a), "a1", engaged=("d",))
    ud = Unit("d", 1, "d", "infantry", tuple(f.id for f in d), "d1", engaged=("a",))
    return new_game(
        (*a, *d, *FAR[0]),
        (ua, ud, FAR[1]),
        mode="barbarian",
        profiles=(BOW, SPEAR, SWORD, AXE, CAPTAIN),
    )


@pytest.mark.rule("C4-COMBAT", "C4-DAMAGE")
def test_a_combat_attack_test_strength_test_losses() -> None:
    # C4 Combat: an engaged unit that does not move fights; one combat sword against spear,
    # each fighter fights the enemy in contact with his base: 2 x 2 dice, ATT 4 against DEF 3
    # (4+), STR 4 against RES 3 (4+); the defenders only retaliate on their own activation
    state = activated(engaged_pair([("sword", "")] * 2, [("spear", "")] * 2), "a")
    state, _ = feed(state, UnitAction("a", "hold"))
    state, events = feed(state, 4, 4, 1, 2, 5, 5)
    combats = [e for e in events if isinstance(e, ev.CombatResolved)]
    assert len(combats) == 1
    c = combats[0]
    assert (c.attacker, c.defender, c.dice, c.hits, c.damage) == ("sword", "spear", 4, 2, 2)
    assert state.members("d") == ()
    assert ev.FighterEliminated("d1", "d") in events
    assert kind(state) != "c4_action_die"  # no die for a retaliation


@pytest.mark.rule("C4-COMBAT")
def test_dice_are_split_between_the_profiles_in_contact() -> None:
    # C4 Combat: a fighter in contact with enemies of different profiles takes part in several
    # combats; his combat dice are split between them
    state = engaged_pair([("sword", "")], [("spear", ""), ("captain", "")])
    from confrontation.engine.core.frozen import evolve

    d1, d2 = state.fighter("d1"), state.fighter("d2")
    h = (2.5**2 - 1.25**2) ** 0.5  # a1 at (60, 20) touches both
    state = state.with_fighters(
        {"d1": evolve(d1, x=58.75, y=20.0 + h), "d2": evolve(d2, x=61.25, y=20.0 + h)}
    )
    state = activated(state, "a")
    state, _ = feed(state, UnitAction("a", "hold"))
    state, events = feed(state, 2, 2)  # one die each combat, both miss
    combats = [e for e in events if isinstance(e, ev.CombatResolved)]
    assert sorted((c.defender, c.dice) for c in combats) == [("captain", 1), ("spear", 1)]


@pytest.mark.rule("C4-COMBAT")
def test_the_strongest_weapon_is_chosen() -> None:
    # C4 Combat > 1/ Choice of weapon
    state = activated(engaged_pair([("axe", "")], [("spear", "")]), "a")
    state, _ = feed(state, UnitAction("a", "hold"))
    state, events = feed(state, 5, 1, 3)  # hit 4+ with 5; STR 6 against RES 3: 3+
    c = next(e for e in events if isinstance(e, ev.CombatResolved))
    assert (c.weapon, c.hits, c.damage) == ("axe", 1, 1)


@pytest.mark.rule("C4-COMBAT")
@pytest.mark.parametrize("first", [0, 1])
def test_retaliation_on_the_defenders_own_activation(first: int) -> None:
    # C4 Combat: the latter will only be allowed to retaliate during their next activation
    state = engaged_pair([("sword", "")] * 2, [("spear", "")] * 2)
    state = activated(state, "d" if first else "a", first)
    unit = "d" if first else "a"
    state, _ = feed(state, UnitAction(unit, "hold"))
    assert kind(state) == "c4_action_die"
    state, events = feed(state, *([1] * (2 if first else 4)))
    combats = [e for e in events if isinstance(e, ev.CombatResolved)]
    assert [c.unit for c in combats] == [unit]
