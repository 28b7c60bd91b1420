"""Chapter VII's worked examples played THROUGH THE ENGINE: the combat phase's questions,
chance steps and events, with the book's dice as die faces and its players' decisions as
answers.

The contacts come from a contact finder registered for the test (the book gives who touches
whom, not coordinates), the pursuit moves from a pursuit finder offering the moves the
diagrams show.
"""

from __future__ import annotations

import dataclasses

import pytest

from confrontation.armylists.load import bundled_catalog
from confrontation.engine import narrate
from confrontation.engine.combat import events as ce
from confrontation.engine.combat.questions import (
    AllocateDice,
    Defend,
    MakeAttack,
    NameFighter,
    Pursue,
    SplitMelee,
)
from confrontation.engine.core import events as ev
from confrontation.engine.core.events import Event, PhaseEnded, RoundStarted
from confrontation.engine.core.melee import Combat
from confrontation.engine.core.questions import KeepResult, Raise
from confrontation.engine.core.state import GameState, Phase, ProfileSummary
from confrontation.engine.record import replay
from confrontation.engine.setup.game import SideSpec, game_from_specs, summarise
from confrontation.engine.step import legal, question
from engine_support import Script, only, plugged

GRIFFIN, DIRZ = 0, 1
GUARD = "p1-c1-1"
DW1, DW2 = "p2-c1-1", "p2-c1-2"
ARKEON = "p2-c2-1"


def _profile(pid: str) -> ProfileSummary:
    return summarise(bundled_catalog().profiles[pid])


def _in_combat_phase(state: GameState) -> GameState:
    """The game at the start of the combat phase of round 1 (the earlier phases are chapter
    IV's tests)."""
    return dataclasses.replace(state, phase=Phase.COMBAT)


# ---------------------------------------------------------------------------------------------
# VII-C: the Praetorian Guard against two Dawn Warriors and Arkeon Sanath
# ---------------------------------------------------------------------------------------------


def guard_contacts(state: GameState) -> GameState:
    pairs = [(GUARD, DW1), (GUARD, DW2), (GUARD, ARKEON)]
    return plugged(state, contacts=lambda state: [p for p in pairs])


def _book_game() -> GameState:
    griffin = SideSpec("Griffin", "griffin", ((_profile("praetorian-guard"), 1),))
    dirz = SideSpec(
        "Dirz", "scorpion", ((_profile("dawn-warrior"), 2), (_profile("arkeon-sanath"), 1))
    )
    return _in_combat_phase(game_from_specs([griffin, dirz]))


@pytest.fixture
def book() -> Script:
    script = Script(guard_contacts(_book_game()), whole_log=True)
    # VII-A: one melee, one way to separate it (the Guard against the three): no dice.
    split = only(script.events, ce.CombatSplit)
    assert split == [
        ce.CombatSplit(
            tuple(sorted((GUARD, DW1, DW2, ARKEON))), (Combat.of(GUARD, [DW1, DW2, ARKEON]),), None
        )
    ]
    # VII-B: the Authority roll (the book does not give it): the Griffin player has only the
    # Guard to name; the Dirz player names Arkeon Sanath. 5 + DIS 3 = 8 against 1 + DIS 5.
    assert script.asked == "name_fighter"
    authority = script.play(NameFighter(ARKEON), 5, 1)
    assert only(authority, ce.AuthorityRolled) == [
        ce.AuthorityRolled((GUARD, ARKEON), (5 + 3, 1 + 5), GRIFFIN)
    ]
    return script


@pytest.mark.rule("VII-A", "VII-B")
def test_authority_winner_starts_with_his_combat(book: Script) -> None:
    chosen = only(book.events, ce.CombatChosen)
    assert chosen == [ce.CombatChosen(GRIFFIN, Combat.of(GUARD, [DW1, DW2, ARKEON]), 0, False)]


@pytest.mark.rule("VII-C-1")
def test_allocation_in_ascending_strategic_value(book: Script) -> None:
    # "The two dawn warriors must first allocate ... 1+1=2 combat dice each ... two dice in
    # attack ... one in attack and one in defense. It is then up to the Praetorian Guard ...
    # 1+3=4 combat dice ... three of them in attack and one in defense. Finally, his opponent
    # places Arkeon Sanath's two dice, one for attack and one for defense."
    events = book.play(
        AllocateDice(DW1, 2, 0),
        AllocateDice(DW2, 1, 1),
        AllocateDice(GUARD, 3, 1),
        AllocateDice(ARKEON, 1, 1),
    )
    assert only(events, ce.DiceAllocated) == [
        ce.DiceAllocated(DW1, 2, 2, 0),
        ce.DiceAllocated(DW2, 2, 1, 1),
        ce.DiceAllocated(GUARD, 4, 3, 1),
        ce.DiceAllocated(ARKEON, 2, 1, 1),
    ]


def _allocated(book: Script) -> None:
    book.play(
        AllocateDice(DW1, 2, 0),
        AllocateDice(DW2, 1, 1),
        AllocateDice(GUARD, 3, 1),
        AllocateDice(ARKEON, 1, 1),
    )


@pytest.mark.rule("VII-C-2")
def test_initiative_eight_against_nine(book: Script) -> None:
    _allocated(book)
    # The Guard rolls alone (INI 3); the Dirz player names Arkeon Sanath: 5 + 2 = 7.
    assert book.asked == "name_fighter"
    events = book.play(NameFighter(ARKEON), 5, 2)
    assert only(events, ce.InitiativeRolled) == [
        ce.InitiativeRolled((GUARD, ARKEON), (3, 5 + 2), (5, 2), (5 + 3, 2 + 7), (DIRZ, GRIFFIN))
    ]


def _first_weapon_combat(book: Script) -> list[Event]:
    _allocated(book)
    book.play(NameFighter(ARKEON), 5, 2)
    return book.play(
        MakeAttack(DW1, GUARD),  # the first Dawn Warrior attacks
        Defend(1),  # "the Praetorian Guard uses his defense die"
        4,  # attack test: 4 + 3 = 7
        2,  # defence test: 2 + 5 = 7, parried
        MakeAttack(DW2, GUARD),  # no defence die left: straight to the wound roll
        2, 3,  # arm, 3 + 7 - 11 = -1: Stunned
        # Arkeon Sanath's attack is the only one left: it is declared without a question.
        3, 5,  # belly, 5 + 7 - 11 = 1: Light
        MakeAttack(GUARD, DW1),  # the Guard attacks all three
        2, 6,  # DW1 has no defence: arm, 6 + 6 - 7 = 5, Light
        MakeAttack(GUARD, DW2),
        Defend(1),  # DW2 uses his defence die
        6, Raise(), 4,  # 6, raised, 4: 6 + 4 + 3 = 13
        6, Raise(), 1,  # defence 6, raised, 1: 1 + 3 = 4
        4, 5,  # chest, 5 + 6 - 7 = 4: Serious
        # Arkeon Sanath is the last target: declared without a question.
        Defend(1),
        4,  # 4 + 3 = 7
        2,  # 2 + 6 = 8: blocked
    )  # fmt: skip


@pytest.mark.rule("VII-C-3", "VII-C-4")
def test_first_weapon_combat_every_roll(book: Script) -> None:
    events = _first_weapon_combat(book)
    declared = [e for e in only(events, ce.AttackDeclared) if e.weapon_combat == 1]
    assert declared == [
        ce.AttackDeclared(1, DW1, GUARD),
        ce.AttackDeclared(1, DW2, GUARD),
        ce.AttackDeclared(1, ARKEON, GUARD),
        ce.AttackDeclared(1, GUARD, DW1),
        ce.AttackDeclared(1, GUARD, DW2),
        ce.AttackDeclared(1, GUARD, ARKEON),
    ]
    attacks = only(events, ce.AttackRolled)[:6]
    # DW1: 4 + 3 = 7. DW2, Arkeon Sanath and the Guard on DW1: not rolled ("goes directly to
    # the wound roll"). The Guard, ATT 5 - 2 = 3: 6 + 4 + 3 = 13 on DW2, 4 + 3 = 7 on Arkeon.
    assert [(a.attacker, a.attack, a.faces, a.final, a.rolled) for a in attacks] == [
        (DW1, 3, (4,), 4 + 3, True),
        (DW2, 3, (), 0, False),
        (ARKEON, 5, (), 0, False),
        (GUARD, 5 - 2, (), 0, False),
        (GUARD, 5 - 2, (6, 4), 6 + 4 + 3, True),
        (GUARD, 5 - 2, (4,), 4 + 3, True),
    ]
    defences = only(events, ce.DefenceRolled)
    assert [(d.fighter, d.defence, d.faces, d.final, d.blocked, d.lost) for d in defences] == [
        (GUARD, 5, (2,), 2 + 5, True, 1),  # "also a final result of 7 (2+5)": parried
        (DW2, 3, (6, 1), 1 + 3, False, 1),  # the raise shows a 1: 1 + 3 = 4
        (ARKEON, 6, (2,), 2 + 6, True, 1),  # 2 + 6 = 8: blocked
    ]
    wounds = only(events, ce.Wounded)
    assert [
        (w.fighter, w.strength, w.resistance, w.dice, w.location, w.row, w.result, w.levels)
        for w in wounds
    ] == [
        (GUARD, 7, 11, (2, 3), "arms", 3 + 7 - 11, "stunned", 0),
        (GUARD, 7, 11, (3, 5), "belly", 5 + 7 - 11, "light", 1),
        (DW1, 8 - 2, 7, (2, 6), "arms", 6 + 6 - 7, "light", 1),  # STR 8 - 2 = 6
        (DW2, 8 - 2, 7, (4, 5), "chest", 5 + 6 - 7, "serious", 2),
    ]
    assert wounds[1].stunned  # "under the effect of a Light Wound and a Stunned"
    raised = only(events, ev.TestRaised)
    assert [(e.player, e.purpose) for e in raised] == [(GRIFFIN, "attack"), (DIRZ, "defence")]
    guard = book.state.fighter(GUARD)
    assert (guard.wounds, guard.stunned) == (1, True)


@pytest.mark.rule("VII-C-5")
def test_sustained_defence_offered_exactly_when_allowed(book: Script) -> None:
    _allocated(book)
    book.play(NameFighter(ARKEON), 5, 2, MakeAttack(DW1, GUARD))
    # The Guard placed 3 in attack, 1 in defence: no sustained defence.
    assert legal(book.state) == [Defend(0), Defend(1)]
    book.play(Defend(1), 4, 2, MakeAttack(DW2, GUARD), 2, 3, 3, 5, MakeAttack(GUARD, DW1), 2, 6)
    book.play(MakeAttack(GUARD, DW2))
    # DW2 placed 1 and 1, and this is his last defence die: he may sustain.
    assert legal(book.state) == [Defend(0), Defend(1), Defend(1, sustained=True)]
    events = book.play(Defend(1, sustained=True), 6, KeepResult(), 6, KeepResult())
    assert only(events, ce.SustainedDefence) == [ce.SustainedDefence(DW2, 3 - 2)]
    # 6 + 3 = 9 against 6 + 1 = 7 (DEF 3 - 2): not blocked, and the die is kept.
    defence = only(events, ce.DefenceRolled)[0]
    assert (defence.final, defence.blocked, defence.lost) == (6 + 3 - 2, False, 0)


@pytest.mark.rule("VII-C-3", "VII-C-4", "II-B-1")
def test_second_weapon_combat_the_decapitation(book: Script) -> None:
    _first_weapon_combat(book)
    # The second weapon combat begins at once: only DW1 has an attack die left, so his attack
    # is declared without a question. STR 7 - 1 = 6; the wound roll 6-6 kills.
    assert book.asked == "combat_wound_die"
    events = book.play(6, 6)
    log = book.events
    assert only(log, ce.WeaponCombatStarted) == [
        ce.WeaponCombatStarted(1),
        ce.WeaponCombatStarted(2),
    ]
    assert only(log, ce.AttackDeclared)[-1] == ce.AttackDeclared(2, DW1, GUARD)
    wound = only(events, ce.Wounded)[0]
    assert (wound.strength, wound.dice, wound.location, wound.row, wound.result) == (
        7 - 1,
        (6, 6),
        "head",
        6 + 6 - 11,
        "killed",
    )
    assert only(events, ce.FighterKilled) == [ce.FighterKilled(GUARD, DW1, 0)]
    resolved = only(events, ce.CombatResolved)[0]
    # Dice conserved: allocated = used + lost. The Guard used all four; DW1 two.
    assert {f: (n, used, lost) for f, n, used, lost in resolved.dice} == {
        DW1: (2, 2, 0),
        DW2: (2, 2, 0),
        GUARD: (4, 4, 0),
        ARKEON: (2, 2, 0),
    }
    assert resolved.killed == (GUARD,)
    assert not book.state.fighter(GUARD).alive
    # The Guard's card stays in the Griffin sequence until the next strategic phase.
    assert any(isinstance(e, PhaseEnded) and e.phase == "combat" for e in events)
    assert book.state.phase is not Phase.COMBAT


@pytest.mark.rule("VII-C", "VII-C-4")
def test_the_combat_narrated_like_the_book(book: Script) -> None:
    _first_weapon_combat(book)
    book.play(6, 6)
    text = "\n".join(narrate(book.events))
    for line in (
        "Dawn Warrior (p2-c1-1) places 2 combat dice: 2 in attack, 0 in defence.",
        "Praetorian Guard (p1-c1-1) places 4 combat dice: 3 in attack, 1 in defence.",
        "Initiative: Praetorian Guard (p1-c1-1) 5 + 3 = 8, Arkeon Sanath (p2-c2-1) 2 + 7 = 9",
        "Dawn Warrior (p2-c1-1) attacks Praetorian Guard (p1-c1-1).",
        "Attack test: 4 + 3 = 7.",
        "Defence test of Praetorian Guard (p1-c1-1): 2 + 5 = 7: the attack is blocked.",
        "goes straight to the wound roll",
        "Wound roll on Praetorian Guard (p1-c1-1): 2 and 3, arms, 3 + 7 - 11 = -1: stunned.",
        "Attack test: 6 + 4 + 3 = 13.",
        "Defence test of Dawn Warrior (p2-c1-2): 6 + 1 → 1 + 3 = 4: not blocked.",
        "head, 6 + 6 - 11 = 1: killed outright.",
        "Praetorian Guard (p1-c1-1) is killed",
    ):
        assert line in text, line


# ---------------------------------------------------------------------------------------------
# VII-A: the three ways to separate a melee, chosen through the engine
# ---------------------------------------------------------------------------------------------

A, B = "p1-c1-1", "p1-c1-2"
X, Y, Z = "p2-c1-1", "p2-c1-2", "p2-c1-3"


def _five() -> GameState:
    blue = SideSpec("Blue", "griffin", ((_profile("praetorian-guard"), 2),))
    red = SideSpec("Red", "scorpion", ((_profile("dawn-warrior"), 3),))
    return _in_combat_phase(game_from_specs([blue, red]))


@pytest.mark.rule("VII-A")
def test_three_ways_to_split_offered_to_the_discipline_winner() -> None:
    # Rebuilt diagram: A touches X, Y and Z; B touches Y and Z: "This melee can be separated
    # in three different ways".
    pairs = [(A, X), (A, Y), (A, Z), (B, Y), (B, Z)]
    script = Script(plugged(_five(), contacts=lambda state: list(pairs)), whole_log=True)
    assert only(script.events, ce.MeleeFound) == [ce.MeleeFound(tuple(sorted((A, B, X, Y, Z))))]
    # Each side names a fighter who is not routed; Discipline in opposition:
    # A, 5 + DIS 3 = 8, against Y, 1 + DIS 2 = 3.
    assert script.asked == "name_fighter"
    events = script.play(NameFighter(A), NameFighter(Y), 5, 1)
    assert only(events, ce.SplitRolled) == [ce.SplitRolled((A, Y), (5 + 3, 1 + 2), 0)]
    assert script.asked == "split_melee"
    options = legal(script.state)
    assert options == [
        SplitMelee((Combat.of(A, [X]), Combat.of(B, [Y, Z]))),
        SplitMelee((Combat.of(A, [X, Y]), Combat.of(B, [Z]))),
        SplitMelee((Combat.of(A, [X, Z]), Combat.of(B, [Y]))),
    ]
    asked = question(script.state)
    assert asked is not None and asked.player == 0
    assert asked.options[1].label == (
        "Praetorian Guard (p1-c1-1) against Dawn Warrior (p2-c1-1), Dawn Warrior (p2-c1-2); "
        "Praetorian Guard (p1-c1-2) against Dawn Warrior (p2-c1-3)"
    )
    events = script.play(options[1])
    chosen = SplitMelee((Combat.of(A, [X, Y]), Combat.of(B, [Z])))
    assert only(events, ce.CombatSplit) == [
        ce.CombatSplit(tuple(sorted((A, B, X, Y, Z))), chosen.combats, 0)
    ]
    # Every fighter in contact is in exactly one combat.
    assert script.state.combat is not None
    in_combats = [f for c in script.state.combat.combats for f in c.fighters]
    fighting = [f for f in in_combats] + [
        f for f in (script.state.combat.fight.combat.fighters if script.state.combat.fight else ())
    ]
    assert sorted(fighting) == sorted((A, B, X, Y, Z))


# ---------------------------------------------------------------------------------------------
# VII-C-6: pursuit through the engine
# ---------------------------------------------------------------------------------------------


def _pursuit_game() -> GameState:
    blue = SideSpec("Blue", "griffin", ((_profile("praetorian-guard"), 2),))
    red = SideSpec("Red", "scorpion", ((_profile("dawn-warrior"), 3),))
    return _in_combat_phase(game_from_specs([blue, red]))


def _engage_z(state: GameState, fighter: str, reach: int) -> list[Pursue]:
    """The diagram's pursuit: B may stay, or move MOV/2 = 5 cm along Z's flank."""
    moves = [Pursue(fighter, (), "stay in place")]
    if fighter == B and state.fighter(Z).alive:
        moves.append(Pursue(fighter, (Z,), "engage Z"))
    return moves


@pytest.mark.rule("VII-C-6", "VII-A")
@pytest.mark.parametrize("with_x", [False, True])
def test_pursuit_engages_z_and_the_new_combat_is_resolved_at_once(with_x: bool) -> None:
    # A fights Z, B fights Y; B kills Y and pursues into contact with Z. Without X: the combat
    # Z against A and B is resolved at once. With X also touching A: a new separation by B's
    # player; only B against Z is resolved at once.
    pairs = [(A, Z), (B, Y)] + ([(A, X)] if with_x else [])
    script = Script(
        plugged(_pursuit_game(), contacts=lambda state: list(pairs), pursuits=_engage_z),
        whole_log=True,
    )
    # Authority: Player 1 names B (so B's combat comes first), Player 2 names Y.
    script.play(NameFighter(B), NameFighter(Y), 6, 1, KeepResult())
    assert only(script.events, ce.AuthorityRolled)[0].winner == 0
    assert only(script.events, ce.CombatChosen)[-1].combat == Combat.of(B, [Y])
    _b_kills_y(script)
    assert not script.state.fighter(Y).alive
    assert script.asked == "pursue"
    events = script.play(Pursue(B, (Z,), "engage Z"))
    assert only(events, ce.Pursued) == [ce.Pursued(B, 5, (Z,), "engage Z")]
    if not with_x:
        # "The combat between Z and A and B is immediately resolved."
        assert only(events, ce.CombatSplit) == [
            ce.CombatSplit((A, B, Z), (Combat.of(Z, [A, B]),), None)
        ]
        chosen = only(events, ce.CombatChosen)
        assert chosen == [ce.CombatChosen(0, Combat.of(Z, [A, B]), 0, True)]
    else:
        # The new melee X-A-Z-B is separated again (by B's player, without dice); X
        # touches only A, so there is one way: A against X, B against Z.
        assert only(events, ce.CombatSplit) == [
            ce.CombatSplit((A, B, X, Z), (Combat.of(A, [X]), Combat.of(B, [Z])), None)
        ]
        # "Only the combat between Z and B is immediately resolved."
        chosen = only(events, ce.CombatChosen)
        assert chosen == [ce.CombatChosen(0, Combat.of(B, [Z]), 0, True)]
        assert script.state.combat is not None
        assert script.state.combat.combats == (Combat.of(A, [X]),)


def _b_kills_y(script: Script) -> None:
    """B (Praetorian Guard, 49 AP) against Y (Dawn Warrior, 19 AP): Y places first."""
    script.play(AllocateDice(Y, 0, 2), AllocateDice(B, 2, 0))
    script.play(6, 1, KeepResult())  # initiative: B 6 + 3 = 9 against Y 1 + 3 = 4
    # B's only attack is declared without a question; Y does not block: straight to the
    # wound roll, 6-6: killed outright.
    script.play(Defend(0), 6, 6)


@pytest.mark.rule("VII-C-6")
def test_staying_in_place_joins_the_unresolved_combat() -> None:
    # "Fighter B has just killed Fighter Y. He can either (1) stay in place and the combat
    # between Fighter Z and Fighters A and B is immediately resolved or (2) move MOV/2."
    # B touches Y and Z, A touches Z: Player 1 separates B-Y and A-Z.
    pairs = [(A, Z), (B, Y), (B, Z)]
    script = Script(plugged(_pursuit_game(), contacts=lambda state: list(pairs)), whole_log=True)
    # Y touches only B: one way to separate (A against Z, B against Y), no dice.
    assert only(script.events, ce.CombatSplit) == [
        ce.CombatSplit((A, B, Y, Z), (Combat.of(A, [Z]), Combat.of(B, [Y])), None)
    ]
    script.play(NameFighter(B), NameFighter(Y), 6, 1, KeepResult())  # Authority
    before = len(script.events)
    _b_kills_y(script)
    events = script.events[before:]
    # The default pursuit finder: stay in place, in contact with Z who has not fought.
    pursued = only(events, ce.Pursued)
    assert pursued == [ce.Pursued(B, 5, (Z,), "stay in place")]
    assert only(events, ce.CombatSplit) == [
        ce.CombatSplit((A, B, Z), (Combat.of(Z, [A, B]),), None)
    ]
    assert only(events, ce.CombatChosen)[-1] == ce.CombatChosen(0, Combat.of(Z, [A, B]), 0, True)
    # B fights a second time this phase; A and Z for the first time.
    assert script.state.combat is not None
    assert script.state.combat.pursued == (B,)


# ---------------------------------------------------------------------------------------------
# II-A-3 in the combat phase: equal 6s are ordered by a roll-off (CLARIFICATIONS §9)
# ---------------------------------------------------------------------------------------------


@pytest.mark.rule("VII-C-2", "II-A-3")
def test_equal_sixes_at_the_initiative_are_ordered_by_a_roll_off() -> None:
    """II-A-3: "If both players roll a '6', the player with the lower final score (before a
    possible re-roll) decides first whether to re-roll his die." CLARIFICATIONS §9: with
    equal final results "each side rolls a d6, again until the faces differ, and the lower
    face decides first whether to raise … One rule everywhere (engine, odds, every opposed
    roll)" — the initiative too (the old engine let Player 1 decide first)."""
    script = Script(plugged(_pursuit_game(), contacts=lambda state: [(B, Y)]), whole_log=True)
    script.play(5, 1)  # Authority: B 5 + 3 = 8 against Y 1 + 2 = 3
    script.play(AllocateDice(Y, 1, 1), AllocateDice(B, 2, 0))
    # Initiative: B (INI 3) and Y (INI 3) both roll a 6: 9 against 9.
    events = script.play(6, 6)
    assert script.asked == "rolloff_die"
    assert only(events, ce.InitiativeRolled) == []
    events = script.play(5, 2)  # Player 2's face is lower: he decides first
    assert only(events, ev.RolledOff) == [
        ev.RolledOff("initiative", (0, 1), (9, 9), ((5,), (2,)), DIRZ)
    ]
    asked = question(script.state)
    assert asked is not None and (asked.kind, asked.player) == ("contest_raise", DIRZ)
    # Player 2 keeps 9; Player 1 decides knowing it, raises: 6 + 4 + 3 = 13.
    events = script.play(KeepResult(), Raise(), 4)
    assert only(events, ce.InitiativeRolled)[0].order == (GRIFFIN, DIRZ)
    text = "\n".join(narrate(script.events))
    assert (
        "Player 1 and Player 2 show a 6 with equal results (9) in the initiative test; "
        "roll-off: Player 1 5, Player 2 2: Player 2 decides first whether to raise."
    ) in text
    # The record replays, the roll-off's dice included (the game starts in the combat
    # phase: the round began before the log).
    log = [e for e in script.events if not isinstance(e, RoundStarted)]
    assert replay(log) == script.state
