"""XX-F — games of three players or more, THROUGH THE ENGINE: every worked example of the
section replayed with ``step()`` and fixed dice, then seeded random games of three and four
players checked after every step.

The players of the book's examples: Lion (Player 1), Goblin (Player 2), Drune (Player 3); in
XX-F-6 the karnagh belongs to a third player (Wolfen, Player 3). The profiles are made up
(the book gives no characteristics): only what each example needs is set.

Not tested here: the deployment version of XX-F-1/XX-F-2 (round 0: the deployment order and
the refusals of the approach). It needs deployment areas for three players on the table, a
layout not merged yet (the 120x60 table has two areas: the zone question cannot even be
described with three players).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Sequence

import pytest

from confrontation.agents.random import RandomAgent
from confrontation.engine.combat import events as ce
from confrontation.engine.combat.questions import (
    AllocateDice,
    ChooseCombat,
    MakeAttack,
    Pursue,
    SplitMelee,
)
from confrontation.engine.core.events import (
    CardRefused,
    ChoiceMade,
    Event,
    FighterKilled,
    GameEnded,
    PhaseEnded,
    PlaceTaken,
    RefusalsGranted,
    ShotHit,
    TacticsRolled,
    TacticsTied,
)
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.melee import Combat
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.questions import (
    AnnouncementsDone,
    ChoosePlace,
    EndActivation,
    KeepResult,
    PlaceCard,
    PlayTop,
    Question,
    Raise,
    Refuse,
    Shoot,
)
from confrontation.engine.core.state import (
    NEUTRAL,
    GameState,
    Pending,
    Phase,
    ProfileSummary,
    state_from_json,
    state_to_json,
)
from confrontation.engine.core.views import redact
from confrontation.engine.neutral import NeutralSpec, add_neutrals
from confrontation.engine.record import replay
from confrontation.engine.setup.game import SideSpec, game_from_specs, on_battlefield, place
from confrontation.engine.step import game_roller, is_over, legal, question, start, step
from confrontation.engine.table.contact_limits import position_problems
from confrontation.engine.table.field import field_of
from engine_support import KindAgent, Script, only, profile

LION, GOBLIN, DRUNE = 0, 1, 2
WOLFEN = 2  # XX-F-6: the karnagh's player


def _card(pid: str, people: str, dis: int = 3, ap: int = 10, **more: object) -> ProfileSummary:
    """A made-up profile of ``people`` (harmless blows by default: STR 0 against RES 12)."""
    stats: dict[str, object] = {"strength": 0, "res": 12, **more}
    return ProfileSummary(pid, pid.replace("-", " ").title(), people, dis, ap=ap, **stats)  # type: ignore[arg-type]


def _sides(*cards: Sequence[ProfileSummary], peoples: Sequence[str]) -> list[SideSpec]:
    """One side per people, one card of one fighter per profile."""
    return [
        SideSpec(people.title(), people, tuple((p, 1) for p in side))
        for people, side in zip(peoples, cards, strict=True)
    ]


PEOPLES = ("lion", "goblin", "drune")


def _example_sides(lion: int = 1, goblin: int = 1, drune: int = 1) -> list[SideSpec]:
    """Lion, Goblin and Drune with that many cards; their Tactics fighters have Discipline 4,
    3 and 2 (the first card of each)."""
    counts = (lion, goblin, drune)
    return _sides(
        *(
            [_card(f"{people}-{n}", people, dis=4 - p) for n in range(1, count + 1)]
            for p, (people, count) in enumerate(zip(PEOPLES, counts, strict=True))
        ),
        peoples=PEOPLES,
    )


def _sequences(script: Script) -> None:
    """IV-A-1: every player builds his sequence in the order of his army list."""
    while script.asked == QuestionKind.PLACE_CARD:
        player = question(script.state)
        assert player is not None and player.player is not None
        card = next(
            c.id
            for c in script.state.cards_of(player.player)
            if PlaceCard(c.id) in legal(script.state)
        )
        script.play(PlaceCard(card))


def _tactics(script: Script, *faces: int) -> list[Event]:
    """IV-A-2: each player rolls with his first eligible fighter; ``faces`` in player order."""
    _sequences(script)
    while script.asked == QuestionKind.TACTICS_FIGHTER:
        script.play(legal(script.state)[0])
    return script.play(*faces)


def _lion_9_goblin_5_drune_6(script: Script) -> list[Event]:
    """The book's results: Lion DIS 4 + 5, Goblin DIS 3 + 2, Drune DIS 2 + 4; then Lion takes
    the third place, Drune the second, Goblin the first (forced)."""
    events = _tactics(script, 5, 2, 4)
    return events + script.play(ChoosePlace(2), ChoosePlace(1))


def _dull(script: Script, until: Callable[[Script], bool], limit: int = 600) -> None:
    """Answer the dullest way (dice 4, 2, 5, 3, 1 over and over; end activations, play the
    top card, keep the results, else the first legal answer) until ``until`` holds."""
    dice = itertools.cycle((4, 2, 5, 3, 1))
    for _ in range(limit):
        if until(script):
            return
        asked = question(script.state)
        assert asked is not None, "the game ended first"
        if asked.player is None:
            script.play(next(dice))
            continue
        options = legal(script.state)
        preferred = (AnnouncementsDone(), EndActivation(), PlayTop(), KeepResult())
        script.play(next((c for c in preferred if c in options), options[0]))
    raise AssertionError(f"not reached in {limit} answers")


# --- XX-F-1 / XX-F-3: the places in the order -----------------------------------------------


@pytest.mark.rule("XX-F-1", "XX-F-3", "IV-A-2", "IV-B-1")
def test_lion_9_goblin_5_drune_6_take_their_places() -> None:
    """XX-F-1, example: "Lors de la phase d'approche, le joueur Lion obtient un résultat final
    de 9 à son jet de Tactique, le joueur Gobelin obtient 5 et le joueur Drune obtient 6. Le
    joueur Lion décide de prendre la troisième place. Le joueur Drune a le choix entre la
    première et la deuxième place. Il choisit cette dernière. Le joueur Gobelin n'a pas le
    choix : il joue le premier." XX-F-3: "L'ordre dans lequel les joueurs prennent la parole est
    déterminé de la même façon que lors de l'approche." Played in round 1 (the approach needs
    the three-player deployment areas, not merged yet)."""
    script = Script(game_from_specs(_example_sides()))
    events = _tactics(script, 5, 2, 4)
    assert only(events, TacticsRolled) == [
        TacticsRolled((9, 5, 6), LION, uncontested=False, order=(LION, DRUNE, GOBLIN))
    ]
    # "Celui qui obtient le meilleur résultat choisit sa place dans l'ordre de jeu."
    assert script.state.pending == Pending(QuestionKind.CHOOSE_PLACE, LION)
    assert legal(script.state) == [ChoosePlace(0), ChoosePlace(1), ChoosePlace(2)]
    events = script.play(ChoosePlace(2))
    # "Le joueur Drune a le choix entre la première et la deuxième place."
    assert script.state.pending == Pending(QuestionKind.CHOOSE_PLACE, DRUNE)
    assert legal(script.state) == [ChoosePlace(0), ChoosePlace(1)]
    events += script.play(ChoosePlace(1))
    # "Le joueur Gobelin n'a pas le choix : il joue le premier." — nobody asks him.
    assert only(events, PlaceTaken) == [
        PlaceTaken(LION, 2),
        PlaceTaken(DRUNE, 1),
        PlaceTaken(GOBLIN, 0, forced=True),
    ]
    assert script.state.speaking == (GOBLIN, DRUNE, LION)
    assert script.state.first_speaker == GOBLIN
    # XX-F-3: "Les résultats finaux de ce test doivent être gardés en mémoire".
    assert script.state.strategic is not None
    assert script.state.strategic.order == (LION, DRUNE, GOBLIN)
    # The activation phase: the Goblin player speaks first, then Drune, then Lion, and round.
    assert script.state.phase is Phase.ACTIVATION
    speakers = []
    for _ in range(3):
        asked = question(script.state)
        assert asked is not None and asked.kind == QuestionKind.FLOOR
        speakers.append(asked.player)
        script.play(PlayTop(), EndActivation())
    assert speakers == [GOBLIN, DRUNE, LION]
    assert PhaseEnded(1, Phase.ACTIVATION.value) in script.events  # every card was played


@pytest.mark.rule("XX-F-1", "XX-F-3")
def test_the_narration_names_every_player_and_the_places() -> None:
    """The record of the example told in plain words: three players at the start, the
    Tactics results in their order, each place taken, three scores at the end."""
    script = Script(game_from_specs(_example_sides(), rounds=2), whole_log=True)
    _lion_9_goblin_5_drune_6(script)
    _dull(script, lambda s: is_over(s.state))
    lines = narrate(script.events)
    assert lines[0] == (
        "A game of 2 round(s) between Player 1 (Lion), Player 2 (Goblin) and Player 3 (Drune)."
    )
    ranks = "Player 1 (9), Player 3 (6), Player 2 (5)"
    assert f"Round 1 — The Tactics roll ranks the players (XX-F-3): {ranks}." in lines
    told = [line for line in lines if "place in the" in line][:3]
    assert told == [
        "Round 1 — Player 1 takes the third place in the speaking order.",
        "Round 1 — Player 3 takes the second place in the speaking order.",
        "Round 1 — Player 2 takes the first place in the speaking order, the only one left.",
    ]
    assert lines[-1] == (
        "Round 2 — The game ends (all rounds played); score 0, 0 and 0: "
        "a draw between Player 1, Player 2 and Player 3."
    )


@pytest.mark.rule("XX-F-3", "II-A-3")
def test_tied_players_roll_again_among_themselves() -> None:
    """XX-F-3 with II-A-3 ("the players concerned roll again"): Goblin and Drune tie at 6
    behind Lion's 9; only they roll again, Lion keeps his result and his rank."""
    script = Script(game_from_specs(_example_sides()))
    events = _tactics(script, 5, 3, 4)  # 9, 6, 6
    assert only(events, TacticsTied) == [TacticsTied((9, 6, 6))]
    assert only(events, TacticsRolled) == []
    events = script.play(1, 5)  # Goblin 3 + 1, Drune 2 + 5: two dice, no more
    assert only(events, TacticsRolled) == [
        TacticsRolled((9, 4, 7), LION, uncontested=False, order=(LION, DRUNE, GOBLIN))
    ]
    assert script.state.pending == Pending(QuestionKind.CHOOSE_PLACE, LION)


@pytest.mark.rule("XX-F-3", "II-A-3")
def test_with_several_sixes_the_lowest_result_decides_first_whether_to_raise() -> None:
    """II-A-3 (CLARIFICATIONS §9: the player showing a 6 with the lower final result decides
    first) among three players: Lion 4 + 6 and Goblin 3 + 6 may raise, Drune 2 + 2 may not;
    the Goblin player (9) decides before the Lion player (10)."""
    script = Script(game_from_specs(_example_sides()))
    _tactics(script, 6, 6, 2)
    assert script.state.pending == Pending(QuestionKind.TACTICS_RAISE, GOBLIN)
    events = script.play(Raise(), 3)  # Goblin 3 + 6 + 3 = 12
    assert script.state.pending == Pending(QuestionKind.TACTICS_RAISE, LION)
    events += script.play(KeepResult())
    assert only(events, TacticsRolled) == [
        TacticsRolled((10, 12, 4), GOBLIN, uncontested=False, order=(GOBLIN, LION, DRUNE))
    ]


@pytest.mark.rule("XX-F-1", "XX-F-3")
def test_four_players_choose_their_places_in_turn() -> None:
    """XX-F-1: "Celui qui a obtenu le deuxième meilleur résultat choisit ensuite la sienne
    parmi celles qui restent et ainsi de suite." Four players: Wolfen 8, Lion 7, Goblin 6,
    Drune 5; each chooses among the places left, the last has no choice."""
    wolfen = SideSpec("Wolfen", "wolfen", ((_card("wolfen-1", "wolfen"), 1),))
    script = Script(game_from_specs([*_example_sides(), wolfen]))
    events = _tactics(script, 3, 3, 3, 5)  # Lion 4 + 3, Goblin 3 + 3, Drune 2 + 3, Wolfen 3 + 5
    assert only(events, TacticsRolled)[0].order == (3, LION, GOBLIN, DRUNE)
    offered = []
    for taken in (1, 3, 0):
        assert script.state.pending is not None
        offered.append((script.state.pending.player, legal(script.state)))
        events += script.play(ChoosePlace(taken))
    assert offered == [
        (3, [ChoosePlace(0), ChoosePlace(1), ChoosePlace(2), ChoosePlace(3)]),
        (LION, [ChoosePlace(0), ChoosePlace(2), ChoosePlace(3)]),
        (GOBLIN, [ChoosePlace(0), ChoosePlace(2)]),
    ]
    assert only(events, PlaceTaken)[-1] == PlaceTaken(DRUNE, 2, forced=True)
    assert script.state.speaking == (GOBLIN, 3, DRUNE, LION)
    assert script.state.pending == Pending(QuestionKind.FLOOR, GOBLIN)


@pytest.mark.rule("XX-F-3", "IV-A-2")
def test_a_player_with_no_fighter_to_roll_ranks_last_without_a_die() -> None:
    """Ruling IV-A-2 (a side with no eligible fighter loses the roll) with three players: the
    Drune player, whose only fighter is not of his people, ranks last; the two others roll."""
    sides = _example_sides()
    sides[DRUNE] = SideSpec("Drune", "drune", ((_card("hired-blade", "mercenary"), 1),))
    script = Script(game_from_specs(sides))
    events = _tactics(script, 5, 2)  # Lion 9, Goblin 5: no die for Drune
    assert only(events, TacticsRolled)[0].order == (LION, GOBLIN, DRUNE)
    script.play(ChoosePlace(0))
    assert script.state.pending == Pending(QuestionKind.CHOOSE_PLACE, GOBLIN)


# --- XX-F-2: refusals against the largest deck -------------------------------------------------


@pytest.mark.rule("XX-F-2", "IV-B-1")
def test_lion_7_cards_goblin_6_drune_5() -> None:
    """XX-F-2, example: "Le joueur Lion a 7 cartes. Le joueur gobelin a 6 cartes. Le joueur
    Drune a 5 cartes. Le joueur Lion a le plus grand nombre de cartes. Le joueur gobelin
    dispose donc de 1 refus, le joueur Drune de 2 refus." Each refusal passes the floor to
    the next player of the speaking order (Goblin, Drune, Lion)."""
    script = Script(game_from_specs(_example_sides(lion=7, goblin=6, drune=5)))
    events = _lion_9_goblin_5_drune_6(script)
    assert only(events, RefusalsGranted) == [RefusalsGranted(GOBLIN, 1), RefusalsGranted(DRUNE, 2)]
    assert [script.state.side(p).refusals for p in (LION, GOBLIN, DRUNE)] == [0, 1, 2]
    assert script.state.pending == Pending(QuestionKind.FLOOR, GOBLIN)
    assert Refuse() in legal(script.state)
    events = script.play(Refuse())
    assert only(events, CardRefused) == [CardRefused(GOBLIN, 0)]
    assert script.state.pending == Pending(QuestionKind.FLOOR, DRUNE)
    events = script.play(Refuse())
    assert only(events, CardRefused) == [CardRefused(DRUNE, 1)]
    assert script.state.pending == Pending(QuestionKind.FLOOR, LION)
    assert Refuse() not in legal(script.state)  # the largest deck: no refusal
    script.play(PlayTop(), EndActivation())
    assert script.state.pending == Pending(QuestionKind.FLOOR, GOBLIN)
    assert Refuse() not in legal(script.state)  # his one refusal is spent
    script.play(PlayTop(), EndActivation())
    assert script.state.pending == Pending(QuestionKind.FLOOR, DRUNE)
    assert Refuse() in legal(script.state)  # one left


@pytest.mark.rule("XX-F-2", "IV-B-1")
def test_a_refusal_needs_another_player_with_cards_and_skips_those_without() -> None:
    """Ruling IV-B-1 with three players: a refusal passes the floor on, so it is offered while
    any other player has cards left; the floor then skips the players who have none. (A game
    effect takes the cards away, as in the two-player test.)"""
    script = Script(game_from_specs(_example_sides(lion=7, goblin=6, drune=5)))
    _lion_9_goblin_5_drune_6(script)
    script.play(PlayTop(), EndActivation())  # Goblin plays: Drune has the floor
    state = script.state
    assert state.pending == Pending(QuestionKind.FLOOR, DRUNE)
    no_lion = state.with_side(dataclasses.replace(state.side(LION), deck=()))
    assert Refuse() in legal(no_lion)  # the Goblin player still has cards
    after = Script(no_lion)
    after.play(Refuse())
    assert after.state.pending == Pending(QuestionKind.FLOOR, GOBLIN)  # Lion is skipped
    alone = no_lion.with_side(dataclasses.replace(state.side(GOBLIN), deck=()))
    assert Refuse() not in legal(alone)


# --- XX-F-5: combats ---------------------------------------------------------------------------

L1, L2 = "p1-c1-1", "p1-c2-1"
G1, G2, G3 = "p2-c1-1", "p2-c2-1", "p2-c3-1"
D1, D2 = "p3-c1-1", "p3-c2-1"


def _battle() -> GameState:
    """Three melees on an empty table: L1, G1 and D1 each touching the other two (a melee of
    three sides with three ways to separate it), L2 against G2, G3 against D2. Strategic
    values: goblins 5, drunes 10, lions 15. Harmless blows."""
    sides = _sides(
        [_card(f"lion-{n}", "lion", dis=4, ap=15) for n in (1, 2)],
        [_card(f"goblin-{n}", "goblin", dis=3, ap=5) for n in (1, 2, 3)],
        [_card(f"drune-{n}", "drune", dis=2, ap=10) for n in (1, 2)],
        peoples=PEOPLES,
    )
    state = on_battlefield(game_from_specs(sides), scenery=(), deploy=False)
    return place(
        state,
        {
            L1: (60.0, 30.0, 0.0),
            G1: (62.5, 30.0, 180.0),
            D1: (61.25, 32.5, 270.0),
            L2: (20.0, 10.0, 0.0),
            G2: (22.5, 10.0, 180.0),
            G3: (100.0, 50.0, 0.0),
            D2: (102.5, 50.0, 180.0),
        },
    )


def _to_combat_phase(script: Script) -> None:
    """Round 1 up to the combat phase: the Tactics example (Lion 9, Drune 6, Goblin 5; the
    speaking order Goblin, Drune, Lion), everybody plays his cards and does nothing."""
    _lion_9_goblin_5_drune_6(script)
    _dull(script, lambda s: s.state.phase is Phase.COMBAT)


HARMLESS = (1, 2)  # the wound roll of STR 0 against RES 12: no damage


@pytest.mark.rule("XX-F-5", "VII-A", "VII-B", "VII-C-1", "VII-C-2", "VII-C-3")
def test_combats_of_three_players() -> None:
    """XX-F-5: "Les mêlées sont séparées par le joueur ayant obtenu le meilleur résultat au test
    de Discipline de la mêlée, chaque joueur impliqué doit participer au test. Le joueur ayant
    obtenu le meilleur résultat au jet de Tactique choisit le premier combat à résoudre. Puis,
    c'est le joueur ayant obtenu le deuxième meilleur résultat qui choisit le deuxième combat
    et ainsi de suite. […] Chaque combattant place ses dés de combat dans l'ordre croissant de
    leurs Valeurs stratégiques. On procède ensuite à un test d'Initiative pour chaque camp
    impliqué dans le combat. […] Lors de chaque passe d'armes, les joueurs effectuent les
    attaques de leurs combattants dans l'ordre défini par les résultats des tests
    d'Initiative." """
    script = Script(_battle())
    _to_combat_phase(script)
    # The melee of three sides: the three players roll Discipline (one fighter each).
    events = script.play(1, 2, 5)  # Lion 4 + 1, Goblin 3 + 2, Drune 2 + 5
    assert only(events, ce.SplitRolled) == [ce.SplitRolled((L1, G1, D1), (5, 5, 7), DRUNE)]
    assert script.state.pending == Pending(QuestionKind.SPLIT_MELEE, DRUNE)
    assert len(legal(script.state)) == 3  # each of the three may be the lone fighter
    centred_on_goblin = (Combat.of(G1, (L1, D1)),)
    events = script.play(SplitMelee(centred_on_goblin))
    # No Authority roll: the turns follow the Tactics results (Lion 9, Drune 6, Goblin 5), not
    # the speaking order (Goblin, Drune, Lion).
    assert only(events, ce.AuthorityRolled) == []
    assert only(events, ce.CombatTurnsSet) == [ce.CombatTurnsSet((LION, DRUNE, GOBLIN))]
    assert script.state.pending == Pending(QuestionKind.CHOOSE_COMBAT, LION)
    script.play(ChooseCombat(centred_on_goblin[0]))
    # Dice in ascending strategic value: the goblin (5), the drune (10), the lion (15).
    asked = []
    for fighter, attack in ((G1, 3), (D1, 2), (L1, 2)):
        assert script.state.pending is not None
        asked.append(script.state.pending.player)
        script.play(AllocateDice(fighter, attack, 0))
    assert asked == [GOBLIN, DRUNE, LION]
    # One initiative test per side (INI 3 each): Lion 3 + 2, Goblin 3 + 1, Drune 3 + 4.
    events = script.play(2, 1, 4)
    rolled = only(events, ce.InitiativeRolled)
    assert [r.order for r in rolled] == [(DRUNE, LION, GOBLIN)]
    assert rolled[0].finals == (5, 4, 7)
    # Weapon combat 1: Drune, then Lion, then Goblin (who chooses his order of attacks).
    script.play(*HARMLESS, *HARMLESS)  # D1 -> G1, L1 -> G1, each the only attack left
    assert script.state.pending == Pending(QuestionKind.MAKE_ATTACK, GOBLIN)
    script.play(MakeAttack(G1, L1), *HARMLESS, *HARMLESS)  # then G1 -> D1
    # Weapon combat 2, same order; the goblin's last die goes to the drune.
    script.play(*HARMLESS, *HARMLESS, MakeAttack(G1, D1), *HARMLESS)
    attacks = [
        (e.weapon_combat, e.attacker, e.target) for e in only(script.events, ce.AttackDeclared)
    ]
    assert attacks == [
        (1, D1, G1),
        (1, L1, G1),
        (1, G1, L1),
        (1, G1, D1),
        (2, D1, G1),
        (2, L1, G1),
        (2, G1, D1),
    ]
    assert len(only(script.events, ce.CombatResolved)) == 1
    # The second best Tactics result, Drune, chooses the second combat.
    assert script.state.pending == Pending(QuestionKind.CHOOSE_COMBAT, DRUNE)
    drune_goblin = Combat.of(G3, (D2,))
    script.play(ChooseCombat(drune_goblin))
    script.play(AllocateDice(G3, 0, 2), AllocateDice(D2, 0, 2), 3, 4)  # nobody attacks
    # Goblin, the third, has the last combat (the only one left: nothing to choose).
    script.play(AllocateDice(G2, 0, 2), AllocateDice(L2, 0, 2), 3, 4)
    chosen = [(e.player, e.turn) for e in only(script.events, ce.CombatChosen)]
    assert chosen == [(LION, 0), (DRUNE, 1), (GOBLIN, 2)]
    assert PhaseEnded(1, Phase.COMBAT.value) in script.events


@pytest.mark.rule("XX-F-5", "VII-A", "II-A-3")
def test_a_tie_for_the_best_discipline_result_is_rolled_again_by_the_tied_players() -> None:
    """XX-F-5 with II-A-3 (ruling "XX-F-5 — ties of the initiative among three sides": for
    the Discipline test only a tie for the best result is rolled again): Lion and Drune tie at
    6, Goblin is behind; only Lion and Drune roll again."""
    script = Script(_battle())
    _to_combat_phase(script)
    events = script.play(2, 1, 4)  # Lion 6, Goblin 4, Drune 6
    assert only(events, ce.ContestTied) == [ce.ContestTied("split", (6, 4, 6))]
    events = script.play(1, 4)  # Lion 4 + 1, Drune 2 + 4: two dice, Goblin keeps his 4
    assert only(events, ce.SplitRolled) == [ce.SplitRolled((L1, G1, D1), (5, 4, 6), DRUNE)]
    assert script.state.pending == Pending(QuestionKind.SPLIT_MELEE, DRUNE)


# --- XX-F-6: the karnagh -----------------------------------------------------------------------

SWORD, ASHI_1, ASHI_2, KARNAGH = "p1-c1-1", "p2-c1-1", "p2-c1-2", "p3-c1-1"


def _karnagh_fight() -> GameState:
    """The karnagh (large, RES 1) touched by the Lion's sword player on his west side and by
    two goblin ashigarus (STR 10) on his north and south sides, each ashigaru 1.3 cm from the
    sword player; strategic values: ashigarus 8, sword player 20, karnagh 40."""
    sword = _card("sword-player", "lion", ap=20)
    ashigaru = _card("ashigaru", "goblin", ap=8, strength=10)
    karnagh = _card("karnagh", "wolfen", ap=40, res=1, size="large", size_value=3)
    specs = [
        SideSpec("Lion", "lion", ((sword, 1),)),
        SideSpec("Goblin", "goblin", ((ashigaru, 2),)),
        SideSpec("Wolfen", "wolfen", ((karnagh, 1),)),
    ]
    state = on_battlefield(game_from_specs(specs, rounds=3), scenery=(), deploy=False)
    return place(
        state,
        {
            KARNAGH: (60.0, 30.0, 180.0),
            SWORD: (56.875, 30.0, 0.0),
            ASHI_1: (60.5, 33.125, 270.0),
            ASHI_2: (60.5, 26.875, 90.0),
        },
    )


def _engaging(script: Script, enemy: str) -> Pursue:
    """The pursuit move that ends in contact with ``enemy`` alone."""
    return next(m for m in legal(script.state) if isinstance(m, Pursue) and m.engage == (enemy,))


def _staying(script: Script) -> Pursue:
    return next(
        m for m in legal(script.state) if isinstance(m, Pursue) and m.label == "stay in place"
    )


@pytest.mark.rule("XX-F-6", "VII-C-6", "VII-C-2")
@pytest.mark.parametrize(
    ("initiative", "order"),
    [
        ((2, 4, 1), (GOBLIN, LION, WOLFEN)),  # the book: the Goblin player did better
        ((5, 1, 1), (LION, GOBLIN, WOLFEN)),  # the other way round
    ],
)
def test_the_karnagh_dies_and_the_best_initiative_pursues_first(
    initiative: tuple[int, int, int], order: tuple[int, ...]
) -> None:
    """XX-F-6, examples: "Un combat opposant un karnagh à un joueur d'épée et à deux ashigarûs
    gobelins s'achève par la mort du karnagh. Ses trois adversaires peuvent donc effectuer un
    mouvement de poursuite. Ayant obtenu un meilleur résultat que le joueur Lion lors du test
    d'Initiative de ce combat, le joueur Gobelin peut déplacer ses ashigarûs avant le joueur
    Lion." — "Après avoir éliminé le karnagh, le joueur Gobelin a recours au mouvement de
    poursuite de ses deux ashigarûs pour engager le joueur d'épée. Ces trois figurines ayant
    déjà combattu, le nouveau combat sera résolu au prochain tour." """
    script = Script(_karnagh_fight(), phase=Phase.COMBAT)
    assert [len(m.fighters) for m in only(script.events, ce.MeleeFound)] == [4]
    script.play(
        AllocateDice(ASHI_1, 2, 0),
        AllocateDice(ASHI_2, 2, 0),
        AllocateDice(SWORD, 2, 0),
        AllocateDice(KARNAGH, 4, 0),
    )
    # One initiative test per side: the Goblin player names one of his two ashigarus.
    assert script.state.pending == Pending(QuestionKind.NAME_FIGHTER, GOBLIN)
    events = script.play(legal(script.state)[0], *initiative)
    rolled = only(events, ce.InitiativeRolled)[0]
    assert rolled.order == order
    # "L'Initiative de chaque camp est calculée normalement": INI 3 + the other fighters of
    # the side (VII-C-2): the Goblin side has two ashigarus.
    assert rolled.values == (3, 4, 3)
    assert rolled.finals == (3 + initiative[0], 4 + initiative[1], 3 + initiative[2])
    # The ashigarus' first blow kills the karnagh (STR 10 against RES 1, 6 and 5: killed).
    if order[0] == LION:  # the sword player's blow first, harmless
        script.play(*HARMLESS)
    assert script.state.pending == Pending(QuestionKind.MAKE_ATTACK, GOBLIN)
    script.play(MakeAttack(ASHI_1, KARNAGH), 6, 5)
    killed = only(script.events, FighterKilled)
    assert [(e.fighter, e.by) for e in killed] == [(KARNAGH, ASHI_1)]
    # "Ses trois adversaires peuvent donc effectuer un mouvement de poursuite", in the order
    # of the initiative results; nobody is asked who pursues first (no neutral was killed).
    # Once an ashigaru has engaged him, the sword player is engaged and makes no pursuit
    # move (docs/rulings.md "XX-F-6").
    done = len(script.events)
    lion_first = order.index(LION) < order.index(GOBLIN)
    for _ in range(3 if lion_first else 2):
        asked = script.state.pending
        assert asked is not None and asked.kind == QuestionKind.PURSUE
        pursuer = script.state.combat.fight.pursuers[0]  # type: ignore[union-attr]
        if pursuer == SWORD:
            script.play(_staying(script))
        else:  # the ashigarus engage the sword player
            script.play(_engaging(script, SWORD))
    pursued = only(script.events[done:], ce.Pursued)
    expected = [SWORD, ASHI_1, ASHI_2] if lion_first else [ASHI_1, ASHI_2]
    assert [e.fighter for e in pursued] == expected
    engaged = {e.fighter: e.engaged for e in pursued}
    assert engaged[ASHI_1] == engaged[ASHI_2] == (SWORD,)
    assert QuestionKind.PURSUE_FIRST not in {e.question for e in only(script.events, ChoiceMade)}
    # "le nouveau combat sera résolu au prochain tour": the phase ends with no new combat.
    later = script.events[done:]
    assert only(later, ce.MeleeFound) == [] and only(later, ce.CombatChosen) == []
    assert PhaseEnded(1, Phase.COMBAT.value) in later
    assert set(field_of(script.state).enemies_in_contact(SWORD)) == {ASHI_1, ASHI_2}
    # The next round's combat phase resolves it (the Wolfen player, without fighters, rolls
    # no Tactics die and ranks last).
    _dull(script, lambda s: bool(only(s.events, ce.CombatChosen)[1:]))
    assert script.state.round == 2
    melee = only(script.events, ce.MeleeFound)[-1]
    assert melee == ce.MeleeFound(tuple(sorted((SWORD, ASHI_1, ASHI_2))))
    assert only(script.events, ce.CombatChosen)[-1].combat == Combat.of(SWORD, (ASHI_1, ASHI_2))
    assert only(script.events, TacticsRolled)[-1].order[-1] == WOLFEN
    second = script.events[script.events.index(PhaseEnded(1, Phase.MAINTENANCE.value)) :]
    floors = [e.player for e in only(second, ChoiceMade) if e.question == QuestionKind.FLOOR]
    assert floors and WOLFEN not in floors  # no cards: never the floor
    turns = only(script.events, ce.CombatTurnsSet)[-1]
    assert set(turns.order) == {LION, GOBLIN}


# --- XX-F-4: a shot into a melee of three sides ------------------------------------------------

REAPER, LION_FRIEND = "p1-c1-1", "p1-c2-1"
TARGET, GOBLIN_FRIEND = "p2-c1-1", "p2-c2-1"
GUARD = "p3-c1-1"


def _melee_of_three_players() -> GameState:
    """A Reaper of Alahan (Lion) shoots at a large goblin touched by a Lion friend (north), a
    Drune guard (south-east) and a goblin friend (south-west). From the Reaper: the goblin
    friend is the nearest (12.2 cm), then the guard (14.8 cm), then the Lion friend (16.7 cm)."""
    reaper = profile("alahan-reaper")
    sides = _sides(
        [reaper, _card("lion-friend", "lion")],
        [
            _card("goblin-target", "goblin", size="large", size_value=3),
            _card("goblin-friend", "goblin"),
        ],
        [_card("guard", "drune")],
        peoples=PEOPLES,
    )
    state = on_battlefield(game_from_specs(sides), scenery=(), deploy=False)
    return place(
        state,
        {
            REAPER: (30.0, 20.0, 30.0),
            TARGET: (45.0, 30.0, 180.0),
            LION_FRIEND: (45.0, 33.125, 270.0),
            GOBLIN_FRIEND: (43.5, 26.875, 90.0),
            GUARD: (46.5, 26.875, 90.0),
        },
    )


@pytest.mark.rule("XX-F-4", "VI-B-1")
@pytest.mark.parametrize(("face", "victim"), [(2, GUARD), (5, TARGET)])
def test_a_shot_into_a_melee_of_three_players(face: int, victim: str) -> None:
    """XX-F-4: "Lors d'un tir dans une mêlée impliquant plus de deux camps, le jet de
    répartition est effectué normalement. Si ce n'est pas la cible visée qui est touchée, le
    combattant (d'un camp différent de la cible initiale) le plus proche du tireur reçoit le
    projectile." On 1-3 the Drune guard is hit: nearer than the Reaper's friend, and the
    goblin friend, nearer still, is of the target's camp."""
    state = _melee_of_three_players()
    here = field_of(state)
    assert sorted(here.contacts(TARGET)) == sorted([LION_FRIEND, GOBLIN_FRIEND, GUARD])
    script = Script(state)
    _sequences(script)
    while script.asked == QuestionKind.TACTICS_FIGHTER:
        script.play(legal(script.state)[0])
    # Lion 3 + 5, Goblin 3 + 2, Drune 3 + 1: Lion speaks first and plays the Reaper.
    script.play(5, 2, 1, ChoosePlace(0), ChoosePlace(1), PlayTop(), AnnouncementsDone())
    script.play(Shoot(REAPER, TARGET), 5)  # AIM 4 + 5: hit
    assert script.asked == QuestionKind.DISTRIBUTION_DIE
    script.play(face, *HARMLESS)
    assert only(script.events, ShotHit) == [ShotHit(REAPER, TARGET, victim, face)]


# --- random games of three and four players ----------------------------------------------------

RANDOM_PEOPLES = ("lion", "goblin", "drune", "wolfen")


def _army(people: str) -> tuple[tuple[ProfileSummary, int], ...]:
    """Two soldiers, an archer and a brute (large) of ``people``: blows that wound and kill."""
    soldier = _card(f"{people}-soldier", people, ap=10, mov=12.0, strength=4, res=4, att=3)
    archer = _card(
        f"{people}-archer", people, ap=12, strength=2, res=3, aim=4, aim_str=4,
        ranges=(10.0, 20.0, 30.0),
    )  # fmt: skip
    brute = _card(
        f"{people}-brute", people, ap=25, mov=10.0, strength=6, res=6, size="large",
        size_value=3, dis=2,
    )  # fmt: skip
    return ((soldier, 2), (archer, 1), (brute, 1))


def _random_game(seed: int, players: int, neutral: bool = False) -> GameState:
    """``players`` armies round the middle of an empty 120x60 table, 18 cm from it, facing it
    (within a charge of each other); with ``neutral`` a neutral beast in the middle."""
    specs = [SideSpec(people.title(), people, _army(people)) for people in RANDOM_PEOPLES[:players]]
    state = on_battlefield(game_from_specs(specs, rounds=4, seed=seed), scenery=(), deploy=False)
    positions: dict[str, tuple[float, float, float]] = {}
    for player in range(players):
        angle = math.radians(90.0 + 360.0 * player / players)
        cx, cy = 60.0 + 18.0 * math.cos(angle), 30.0 + 18.0 * math.sin(angle)
        facing = (math.degrees(angle) + 180.0) % 360.0
        spots = ((-4.5, 0.0), (-1.5, 0.0), (1.5, 0.0), (5.0, 0.0))
        ids = [f.id for f in state.fighters if f.player == player]
        side_x, side_y = -math.sin(angle), math.cos(angle)  # along the army's front
        for fighter_id, (along, _) in zip(ids, spots, strict=True):
            positions[fighter_id] = (cx + along * side_x, cy + along * side_y, facing)
    state = place(state, positions)
    if neutral:
        beast = _card("beast", "wild", ap=30, strength=5, res=5, mov=8.0)
        state = add_neutrals(state, [NeutralSpec(beast, 60.0, 30.0, 0.0)])
    return state


class _Watch:
    """The invariants of a game of ``n`` players, checked after every step, and what the
    games showed (the kinds of events seen)."""

    def __init__(self, players: int) -> None:
        self.players = tuple(range(players))
        self.kinds: set[str] = set()
        self.three_sided = 0  # combats with three sides or more
        self.forced_places = 0
        self.places: dict[int, list[tuple[int, int]]] = {}
        self.rank: dict[int, int] = {}  # the current fight's initiative ranks
        self.pursued_ranks: list[int] = []
        self.free_order = False  # a PURSUE_FIRST answer may reorder the pursuers
        self.mixed_pursuits = 0  # combats whose pursuers were of several sides

    def check(self, state: GameState, asked: Question | None, events: Sequence[Event]) -> None:
        players = self.players
        assert state.players == players
        if asked is not None:
            assert asked.player is None or asked.player in players, asked
            if asked.player is not None:  # the others' sequences and reserves stay secret
                self._secrets_kept(state, asked.player)
        now = question(state)
        if now is not None:
            assert now.player is None or now.player in players, now
            assert legal(state), f"{now.kind} has no legal answer"
        assert sorted(state.speaking_order()) == list(players)
        if state.speaking:
            assert sorted(state.speaking) == list(players)
        if state.pending is not None and state.pending.kind == QuestionKind.FLOOR:
            assert state.pending.player is not None
            assert state.side(state.pending.player).cards_left, "the floor with no cards"
        floor = state.activation
        if floor is not None and floor.floor is not None and floor.current is None:
            assert state.side(floor.floor).cards_left, "the floor passed to a player without cards"
        assert len(state.scores) == len(players) == len(state.sides)
        for fighter in state.fighters:
            assert fighter.player in players or fighter.player == NEUTRAL, fighter
        assert position_problems(state) == []  # II-E-3
        for event in events:
            self._event(state, event)

    def _secrets_kept(self, state: GameState, player: int) -> None:
        seen = redact(state, player)
        assert seen.side(player) == state.side(player)
        for other in state.enemies(player):
            mine, theirs = state.side(other), seen.side(other)
            assert len(theirs.deck) == len(mine.deck)
            assert (theirs.reserve is None) == (mine.reserve is None)
            held = sorted((*mine.deck, *((mine.reserve,) if mine.reserve else ())))
            assert sorted((*theirs.deck, *((theirs.reserve,) if theirs.reserve else ()))) == held

    def _event(self, state: GameState, event: Event) -> None:
        self.kinds.add(event.kind)
        if isinstance(event, PlaceTaken):
            taken = self.places.setdefault(state.round, [])
            taken.append((event.player, event.place))
            self.forced_places += event.forced
            if len(taken) == len(self.players):  # XX-F-3: one place each
                assert sorted(p for p, _ in taken) == list(self.players)
                assert sorted(place for _, place in taken) == list(self.players)
                assert event.forced
        elif isinstance(event, TacticsRolled):
            assert sorted(event.order) == list(self.players)
            assert len(event.finals) == len(self.players)
        elif isinstance(event, ce.CombatTurnsSet):
            # XX-F-5: the Tactics order, the players without a combat left out
            assert state.strategic is not None
            ranked = [p for p in state.strategic.order if p in event.order]
            assert list(event.order) == ranked
        elif isinstance(event, ce.InitiativeRolled):
            self._pursuit_order_ok()
            self.rank = {p: n for n, p in enumerate(event.order)}
            self.three_sided += len(event.order) >= 3
        elif isinstance(event, ChoiceMade) and event.question == QuestionKind.PURSUE_FIRST:
            self.free_order = True
        elif isinstance(event, ce.Pursued):
            self.pursued_ranks.append(self.rank[state.fighter(event.fighter).player])
        elif isinstance(event, GameEnded):
            assert len(event.scores) == len(self.players)

    def _pursuit_order_ok(self) -> None:
        """XX-F-6: the pursuers of one combat went in its initiative order."""
        if not self.free_order:
            assert self.pursued_ranks == sorted(self.pursued_ranks)
        self.mixed_pursuits += len(set(self.pursued_ranks)) > 1
        self.pursued_ranks, self.free_order = [], False


def _play(
    state: GameState, watch: _Watch, seed: int, uniform: bool = False
) -> tuple[GameState, list[Event]]:
    """Play to the end with random agents (``uniform``: :class:`RandomAgent`, which mostly
    charges; else :class:`KindAgent`) and the game's own dice, checking every step."""
    state, log = start(state)
    watch.check(state, None, log)
    agent = RandomAgent if uniform else KindAgent
    agents = [agent(seed * 10 + p) for p in watch.players]
    dice = game_roller(state)
    for _ in range(20_000):
        if is_over(state):
            watch.check(state, None, [])
            watch._pursuit_order_ok()
            return state, log
        asked = question(state)
        assert asked is not None
        if asked.player is None:
            choice = asked.choices[dice.d6() - 1]
        else:
            choice = agents[asked.player].choose(state, asked, asked.choices)
        state, events = step(state, choice)
        log.extend(events)
        watch.check(state, asked, events)
    raise AssertionError("the game did not end")


@pytest.mark.rule("XX-F", "XX-F-2", "XX-F-3", "XX-F-5", "XX-F-6", "II-E-3")
@pytest.mark.parametrize(
    ("players", "seeds", "neutral", "uniform"),
    [
        (3, range(1, 21), False, False),
        (3, range(21, 29), False, True),
        (3, range(29, 35), True, False),
        (4, range(1, 7), False, False),
        (4, range(7, 10), False, True),
    ],
)
def test_random_games_of_three_and_four_players(
    players: int, seeds: range, neutral: bool, uniform: bool
) -> None:
    """Random agents play whole games; after every step: every question goes to a player of
    the game (or to chance); the speaking order is a permutation of the players; nobody holds
    the floor without cards; one score per player; every fighter is a player's or neutral;
    no fighter is past his contact limit (II-E-3). Each round's places are a permutation with
    the last one forced (XX-F-3); the combat turns follow the Tactics results (XX-F-5); the
    pursuers of a combat go in its initiative order (XX-F-6). Every game ends; the first one
    replays from its record and its last state survives JSON."""
    watch = _Watch(players)
    for n, seed in enumerate(seeds):
        final, log = _play(_random_game(seed, players, neutral), watch, seed, uniform)
        assert is_over(final)
        assert len(only(log, GameEnded)) == 1
        if n == 0:
            assert replay(log) == final
            assert state_from_json(state_to_json(final)) == final
    # The games did play the rules of this section.
    assert watch.forced_places == len(seeds) * 4  # one a round: the last player's
    wanted = {"place_taken", "combat_turns_set", "initiative_rolled", "pursued", "refusals_granted"}
    assert wanted <= watch.kinds, wanted - watch.kinds
    assert watch.three_sided > 0 and watch.mixed_pursuits > 0
