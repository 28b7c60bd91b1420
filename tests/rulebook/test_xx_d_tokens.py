"""Chapter XX-D ("Prise de guerre") and the C3 "Looting" rules THROUGH THE ENGINE: picking up a
token at the end of a move, carrying it, putting it down — each sentence of XX-D-1..3 played
with ``step()`` on a real table, then random games in which no token is ever lost or doubled.

Square 25 mm bases (2.5 cm); facing 0° looks along +x, so a fighter at (x, y, 0) has his sight
at (x + 1.25, y). The made-up fighters have MOV 10.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from confrontation.armylists.load import LoadError
from confrontation.engine.combat.questions import AllocateDice, Pursue
from confrontation.engine.core import events as ev
from confrontation.engine.core.narrate import narrate
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    FighterDone,
    KeepResult,
    Place,
    Question,
    Walk,
)
from confrontation.engine.core.registry import IllegalChoice, Transition
from confrontation.engine.core.ruleset import ruleset, with_rules
from confrontation.engine.core.state import (
    GameState,
    MaintenanceProgress,
    Phase,
    ProfileSummary,
    state_from_json,
    state_to_json,
)
from confrontation.engine.record import replay
from confrontation.engine.step import legal, question, refusal, start, step
from confrontation.engine.table.field import base_of, destinations, field_of
from confrontation.scenarios.base import BasicScenario, load_scenario
from confrontation.scenarios.loot import Loot, Token
from confrontation.scenarios.tokens import (
    GAP_CM,
    TOKEN_DROP,
    TOKEN_PICKUP,
    CarrierRevealed,
    PickUp,
    PutDown,
    TokensDropped,
    TokensMovedAside,
    TokensPicked,
    cannot_collect,
    loot_of,
    move_end,
    with_loot,
)
from engine_support import (
    KindAgent,
    Script,
    activate,
    answer,
    fighter,
    only,
    play_out,
    plugged,
    profile,
    skirmish,
)

A, B = "p1-c1-1", "p1-c1-2"
Z, Y = "p2-c1-1", "p2-c1-2"


def looted(
    state: GameState,
    *spots: tuple[float, float],
    carry: int = 1,
    again: bool = True,
    held: dict[str, int] | None = None,
) -> GameState:
    """``state`` playing a scenario whose tokens lie at ``spots`` (token-1, token-2…); ``held``
    gives fighters tokens to carry from the start (numbered after those on the ground)."""
    tokens = [Token(f"token-{n + 1}", float(x), float(y)) for n, (x, y) in enumerate(spots)]
    for carrier, count in (held or {}).items():
        f = state.fighter(carrier)
        for _ in range(count):
            tokens.append(Token(f"token-{len(tokens) + 1}", f.x, f.y, carrier))
    record = BasicScenario(
        "loot", "Loot", "control", state.rounds, loot=Loot(tuple(tokens), carry, again)
    )
    return dataclasses.replace(state, scenario=record)


def c3(state: GameState) -> GameState:
    """The same game under the ``c3`` rules (the C3 wording of the looting rules)."""
    return with_rules(state, ruleset("c3"))


def two(
    a: ProfileSummary | None = None,
    z: ProfileSummary | None = None,
    at: dict[str, tuple[float, float, float]] | None = None,
) -> GameState:
    """One fighter a side (A for Player 1, Z for Player 2), far apart unless told."""
    positions = {A: (30.0, 20.0, 0.0), Z: (100.0, 50.0, 180.0), **(at or {})}
    return skirmish([[(a or fighter("A"), 1)], [(z or fighter("Z"), 1)]], positions)


def asked(state: GameState) -> str | None:
    """The kind of question pending (None: none)."""
    pending = question(state)
    return None if pending is None else pending.kind


def token(state: GameState, token_id: str) -> Token:
    loot = loot_of(state)
    assert loot is not None
    return next(t for t in loot.tokens if t.id == token_id)


def covering(state: GameState, mover: str, point: tuple[float, float]) -> list[Place]:
    """The offered destinations of the move under way whose base covers ``point``."""
    from shapely.geometry import Point

    template = field_of(state).base(mover)
    return [
        c
        for c in legal(state)
        if isinstance(c, Place)
        and template.moved(c.x, c.y, c.facing).polygon.buffer(1e-6).covers(Point(*point))
    ]


def walk(state: GameState, fighter_id: str, log: list[ev.Event]) -> GameState:
    """Activate ``fighter_id``'s card, announce nothing, and start his walk."""
    state = activate(state, state.fighter(fighter_id).card, log)
    state = answer(state, AnnouncementsDone(), log)
    return answer(state, Walk(fighter_id), log)


STRAIGHT_ON = (35.12, 19.47)
"""Where A (at 30, 20, facing 0°, Z far up the table) ends the walk offered straight on
(heading 0°, 5 cm), turned to face Z: a token put there lies under his base whether or not
the token's own destination is offered."""


def aims(state: GameState, mover: str) -> list[str]:
    """What the destinations of ``mover``'s walk head for ("to token-1", "heading 0°"…)."""
    return [s.towards for s in destinations(state, mover, 10.0, mov=10.0)]


def walk_onto(
    state: GameState, fighter_id: str, point: tuple[float, float], log: list[ev.Event]
) -> GameState:
    state = walk(state, fighter_id, log)
    places = covering(state, fighter_id, point)
    assert places, "no destination on the token is offered"
    return answer(state, places[0], log)


# --- XX-D-1 Ramasser un marqueur ------------------------------------------------------------------


@pytest.mark.rule("XX-D-1", "XX-D", "C3-COLLECTING-A-TOKEN")
def test_a_walk_that_ends_on_a_token_picks_it_up_onto_his_base() -> None:
    """XX-D-1: "Pour ramasser un marqueur, un combattant doit terminer un mouvement (pendant son
    activation …) dessus. Le marqueur est alors placé sur le socle du combattant."
    """
    state = looted(two(), (36.0, 22.0))
    log: list[ev.Event] = []
    state = walk_onto(state, A, (36.0, 22.0), log)
    pending = question(state)
    assert pending is not None and pending.kind == TOKEN_PICKUP and pending.player == 0
    assert legal(state) == [PickUp(A, 1), PickUp(A, 0)]
    state = answer(state, PickUp(A, 1), log)
    assert token(state, "token-1").carrier == A
    [picked] = only(log, TokensPicked)
    assert picked == TokensPicked(A, ("token-1",), "walk", False)
    # the walk is over: back to the activation, A may not walk again
    assert asked(state) == "activation"
    assert Walk(A) not in legal(state)
    assert "A (p1-c1-1) picks up token-1 (XX-D-1)." in narrate(log)[-1]


@pytest.mark.rule("XX-D-1")
def test_the_destinations_of_a_move_include_one_on_each_stack_within_reach() -> None:
    state = looted(two(), (36.0, 22.0), (36.0, 22.0), (40.5, 20.0), (70.0, 20.0))
    state = walk(state, A, [])
    assert covering(state, A, (36.0, 22.0)) and covering(state, A, (40.5, 20.0))
    assert not covering(state, A, (70.0, 20.0))  # 40 cm away: out of a walk's reach


@pytest.mark.rule("XX-D-1")
def test_passing_over_a_token_does_not_pick_it_up() -> None:
    """The move must END on the token: one lying on the way stays there."""
    state = looted(two(), (32.5, 20.0))
    log: list[ev.Event] = []
    state = walk(state, A, log)
    template = field_of(state).base(A)
    # straight on (heading 0°) for 5 cm: the sight goes from (31.25, 20) to (36.25, 20)
    [beyond] = [
        c
        for c in legal(state)
        if isinstance(c, Place)
        and math.dist(template.moved(c.x, c.y, c.facing).sight, (36.25, 20.0)) < 0.01
    ]
    assert beyond not in covering(state, A, (32.5, 20.0))
    state = answer(state, beyond, log)
    assert token(state, "token-1").carrier is None
    assert not only(log, TokensPicked)
    assert asked(state) == "activation"


@pytest.mark.rule("XX-D-1")
def test_a_run_and_a_charge_ending_on_a_token_pick_it_up() -> None:
    log: list[ev.Event] = []
    state = looted(two(), (45.0, 20.0))
    state = activate(state, "p1-c1", log)
    state = answer(state, Announce(A, "run"), log)
    state = answer(state, AnnouncementsDone(), log)
    state = answer(state, covering(state, A, (45.0, 20.0))[0], log)
    state = answer(state, PickUp(A, 1), log)
    assert token(state, "token-1").carrier == A
    assert only(log, TokensPicked)[0].how == "run"
    # a charge: the token lies where the charger's contact places him
    charge = two(at={Z: (42.0, 20.0, 180.0)})
    plain = activate(charge, "p1-c1", [])
    plain = answer(plain, Announce(A, "charge", Z), [])
    plain = answer(plain, AnnouncementsDone(), [])
    spot = (plain.fighter(A).x, plain.fighter(A).y)
    state = activate(looted(charge, spot), "p1-c1", log)
    state = answer(state, Announce(A, "charge", Z), log)
    state = answer(state, AnnouncementsDone(), log)
    assert asked(state) == TOKEN_PICKUP
    state = answer(state, PickUp(A, 1), log)
    assert token(state, "token-1").carrier == A
    assert only(log, TokensPicked)[-1].how == "charge"
    assert only(log, ev.Charged)  # the charge itself went on as usual


def _killing_blow(script: Script) -> list[ev.Event]:
    """B (Praetorian Guard) wins the initiative against Y (dawn warrior) and kills him
    outright with a double 6 (II-B-1)."""
    return script.play(
        6, 1, KeepResult(),  # the initiative test
        AllocateDice(Y, 2, 0), AllocateDice(B, 2, 0),
        6, 1, KeepResult(),  # B's attack
        6, 6,  # the wound roll: killed outright
    )  # fmt: skip


def _melee(**held: int) -> GameState:
    cards = [[(profile("praetorian-guard"), 2)], [(profile("dawn-warrior"), 2)]]
    positions = {
        A: (10.0, 10.0, 0.0),
        B: (50.0, 27.5, 0.0),
        Y: (52.5, 27.5, 180.0),
        Z: (100.0, 50.0, 180.0),
    }
    return looted(skirmish(cards, positions), carry=2, held=held)


@pytest.mark.rule("XX-D-1", "XX-D-3", "VII-C-6", "C3-DROPPING-A-TOKEN")
def test_a_killed_carrier_drops_his_tokens_stacked_and_a_pursuit_picks_them_up() -> None:
    """XX-D-3: "Quand un combattant est retiré du jeu … ses éventuels marqueurs sont posés à
    l'endroit où le combattant a quitté la table. Si plus d'un marqueur sont posés en même
    temps, ils sont empilés" — then XX-D-1: "terminer un mouvement (… suite à un mouvement de
    poursuite) dessus"."""
    script = Script(_melee(**{Y: 2}), phase=Phase.COMBAT, whole_log=True)
    events = _killing_blow(script)
    assert not script.state.fighter(Y).alive
    dropped = only(events, TokensDropped)
    assert dropped == [TokensDropped(Y, ("token-1", "token-2"), 52.5, 27.5, "killed")]
    one, other = token(script.state, "token-1"), token(script.state, "token-2")
    assert (one.x, one.y) == (other.x, other.y) == (52.5, 27.5) and not one.carrier
    # B's pursuit (MOV/2 = 5 cm) may end on the stack
    assert script.asked == "pursue"
    onto = [c for c in legal(script.state) if isinstance(c, Pursue) and "token" in c.label]
    assert len(onto) == 1 and onto[0].label == "move to token-1"
    script.play(onto[0])
    assert script.asked == TOKEN_PICKUP
    assert legal(script.state) == [PickUp(B, 2), PickUp(B, 1), PickUp(B, 0)]
    events = script.play(PickUp(B, 2))
    assert only(events, TokensPicked) == [TokensPicked(B, ("token-1", "token-2"), "pursuit")]
    told = narrate(script.events)
    assert any("Dawn Warrior (p2-c1-2) falls and drops token-1, token-2" in s for s in told)
    assert any("picks up token-1, token-2 after his pursuit (XX-D-1)" in s for s in told)


@pytest.mark.rule("XX-D-1")
def test_a_carrier_may_still_pursue() -> None:
    """XX-D-1: "il pourra cependant effectuer des mouvements de poursuite dans les conditions
    normales"."""
    script = Script(_melee(**{B: 1}), phase=Phase.COMBAT)
    _killing_blow(script)
    moves = [c for c in legal(script.state) if isinstance(c, Pursue) and c.x is not None]
    assert moves
    script.play(moves[-1])
    assert token(script.state, "token-1").carrier == B


@pytest.mark.rule("XX-D-1")
def test_never_with_infiltration() -> None:
    """XX-D-1: "Un combattant ne peut pas ramasser de marqueur lorsqu'il effectue un
    déplacement grâce à la compétence « Infiltration/X »." Infiltration/X is an ability the
    documents do not define (CLARIFICATIONS §5): no move of the engine is made with it; the
    rule is the hook's answer to a move made ``how="infiltration"``."""
    state = looted(two(at={A: (36.0, 22.0, 0.0)}), (36.0, 22.0))
    assert cannot_collect(state, state.fighter(A), "infiltration") is not None
    moved, events = move_end(state, A, "infiltration")
    assert moved.pending is None
    assert token(moved, "token-1").carrier is None
    assert only(events, TokensMovedAside)  # chapter 20: he stays there, the token moves


@pytest.mark.rule("XX-D-1", "C3-COLLECTING-A-TOKEN")
def test_a_routed_fighter_never_picks_up_a_token_it_is_moved_aside() -> None:
    """XX-D-1: "Un combattant en déroute ne peut jamais ramasser de marqueur." / "Un combattant peut
    terminer son mouvement sur un marqueur s'il ne peut/veut pas le ramasser, le marqueur est
    alors déplacé sur un côté du socle pour permettre à un autre combattant de le ramasser."
    """
    state = looted(two(), STRAIGHT_ON)
    state = state.with_fighters(dataclasses.replace(state.fighter(A), routed=True))
    log: list[ev.Event] = []
    state = walk(state, A, log)
    assert "to token-1" not in aims(state, A)  # he is not offered to go for it …
    state = answer(state, covering(state, A, STRAIGHT_ON)[0], log)
    assert asked(state) == "activation"  # … nor asked: he cannot
    [aside] = only(log, TokensMovedAside)
    lying = token(state, "token-1")
    assert lying.carrier is None and (lying.x, lying.y) == (aside.x, aside.y)
    base = base_of(state, state.fighter(A))
    from shapely.geometry import Point

    gap = base.polygon.distance(Point(lying.x, lying.y))
    assert 0 < gap <= GAP_CM + 0.01  # on a side of his base, no longer under it


@pytest.mark.rule("XX-D-1", "C3-COLLECTING-A-TOKEN")
def test_c3_a_fighter_who_cannot_collect_may_not_end_his_move_on_a_token() -> None:
    """C3: "A fighter that cannot collect a token may not end his movement on it." """
    state = looted(two(), (36.0, 22.0))
    state = c3(state.with_fighters(dataclasses.replace(state.fighter(A), routed=True)))
    state = walk(state, A, [])
    assert not covering(state, A, (36.0, 22.0))
    # nor by turning a listed destination: a free answer on the token is refused
    places = [c for c in legal(state) if isinstance(c, Place)]
    template = field_of(state).base(A)
    from confrontation.engine.actions.movement import turned

    for place in places:
        for facing in range(0, 360, 15):
            spun = turned(state, place, float(facing))
            base = template.moved(spun.x, spun.y, spun.facing)
            from shapely.geometry import Point

            if base.polygon.covers(Point(36.0, 22.0)):
                assert refusal(state, spun) is not None
                assert "token" in (refusal(state, spun) or "")


@pytest.mark.rule("XX-D-1", "C3-COLLECTING-A-TOKEN", "C3-LOOTING")
def test_c3_one_who_can_collect_does_so_without_being_asked() -> None:
    state = c3(looted(two(), (36.0, 22.0)))
    log: list[ev.Event] = []
    state = walk_onto(state, A, (36.0, 22.0), log)
    assert asked(state) == "activation"
    assert token(state, "token-1").carrier == A


@pytest.mark.rule("XX-D-1")
def test_he_may_refuse_to_pick_it_up_then_another_fighter_may() -> None:
    """XX-D-1: "s'il ne peut/veut pas le ramasser … pour permettre à un autre combattant de le
    ramasser"
    """
    cards = [[(fighter("A"), 2)], [(fighter("Z"), 1)]]
    # B stands behind A, on the line A walks along (22.8°)
    positions = {A: (30.0, 20.0, 0.0), B: (24.4, 17.6, 0.0), Z: (100.0, 50.0, 180.0)}
    state = looted(skirmish(cards, positions), (36.0, 22.0))
    log: list[ev.Event] = []
    state = walk_onto(state, A, (36.0, 22.0), log)
    state = answer(state, PickUp(A, 0), log)
    moved = token(state, "token-1")
    assert moved.carrier is None and only(log, TokensMovedAside)
    # B walks onto it where it now lies
    state = answer(state, FighterDone(A), log)
    state = answer(state, Walk(B), log)
    state = answer(state, covering(state, B, (moved.x, moved.y))[0], log)
    state = answer(state, PickUp(B, 1), log)
    assert token(state, "token-1").carrier == B


@pytest.mark.rule("XX-D-1", "XX-B-3", "C3-COLLECTING-A-TOKEN")
def test_a_summoned_fighter_picks_up_only_if_of_the_armys_people() -> None:
    """XX-D-1: "Un combattant invoqué ne peut ramasser de marqueurs que s'il appartient au
    même peuple que l'armée." (``Fighter.summoned``, ``scenarios.summoned``)"""
    wolfen = dataclasses.replace(fighter("A"), people="wolfen")
    for people, picks in ((wolfen, False), (fighter("A"), True)):
        state = looted(two(a=people), STRAIGHT_ON)
        summoned = dataclasses.replace(state.fighter(A), summoned=True)
        state = state.with_fighters(summoned)
        log: list[ev.Event] = []
        state = walk_onto(state, A, STRAIGHT_ON, log)
        assert (asked(state) == TOKEN_PICKUP) is picks
        assert bool(only(log, TokensMovedAside)) is not picks
    state = looted(two(a=wolfen), (36.0, 22.0))  # not summoned: an ally may
    state = walk_onto(state, A, (36.0, 22.0), [])
    assert asked(state) == TOKEN_PICKUP


@pytest.mark.rule("XX-D-1", "II-F", "C3-COLLECTING-A-TOKEN")
def test_a_fighter_at_another_level_never_ends_his_move_on_a_token() -> None:
    """XX-D-1: "Un combattant qui n'est pas au même palier qu'un marqueur ne peut jamais
    terminer son mouvement dessus." Tokens lie on the ground (level 0)."""
    state = looted(two(), (36.0, 22.0))
    state = state.with_fighters(dataclasses.replace(state.fighter(A), altitude=1))
    state = walk(state, A, [])
    assert not covering(state, A, (36.0, 22.0))
    on_it = Place(36.0, 22.0, 0.0)
    problem = refusal(state, on_it)
    assert problem is not None
    with pytest.raises(IllegalChoice):
        step(state, on_it)


# --- XX-D-2 Porter un marqueur --------------------------------------------------------------


@pytest.mark.rule("XX-D-2", "C3-CARRYING-A-TOKEN")
def test_carry_x_limits_how_many_he_takes_the_rest_is_moved_aside() -> None:
    """XX-D-2: "Tous les marqueurs ont la compétence « Prise/X ». Un combattant peut donc porter X
    marqueurs au maximum. La valeur de X est définie pour chaque scénario."
    """
    spot = (36.0, 22.0)
    state = looted(two(), spot, spot, spot, carry=2)
    log: list[ev.Event] = []
    state = walk_onto(state, A, spot, log)
    assert legal(state) == [PickUp(A, 2), PickUp(A, 1), PickUp(A, 0)]
    state = answer(state, PickUp(A, 2), log)
    assert [t.carrier for t in loot_of(state).tokens] == [A, A, None]  # type: ignore[union-attr]
    [aside] = only(log, TokensMovedAside)
    assert aside.tokens == ("token-3",)


@pytest.mark.rule("XX-D-2", "C3-CARRYING-A-TOKEN")
def test_a_full_carrier_is_not_asked_and_is_offered_no_token_to_go_to() -> None:
    state = looted(two(), STRAIGHT_ON, held={A: 1})
    log: list[ev.Event] = []
    state = walk(state, A, log)
    # no destination heads for the token any more (he could not take it) …
    assert "to token-1" not in aims(state, A)
    # … and ending on it by chance moves it aside (chapter 20), with no question
    state = answer(state, covering(state, A, STRAIGHT_ON)[0], log)
    assert asked(state) == "activation"
    assert only(log, TokensMovedAside)[0].tokens == ("token-1",)
    assert [t.carrier for t in loot_of(state).tokens] == [None, A]  # type: ignore[union-attr]


@pytest.mark.rule("XX-D-2", "C3-CARRYING-A-TOKEN")
def test_a_hidden_scout_who_picks_up_a_token_is_revealed() -> None:
    """XX-D-2: "Un combattant portant un marqueur ne peut jamais … Bénéficier de la compétence
    « Éclaireur » et rester dissimulé, il est donc considéré comme ayant été révélé."
    """
    state = looted(two(), (36.0, 22.0))
    state = state.with_fighters(dataclasses.replace(state.fighter(A), hidden=True))
    log: list[ev.Event] = []
    state = walk_onto(state, A, (36.0, 22.0), log)
    state = answer(state, PickUp(A, 1), log)
    assert not state.fighter(A).hidden
    assert only(log, TokensPicked)[0].revealed
    assert "he is revealed (XX-D-2)" in narrate(log)[-1]


@pytest.mark.rule("XX-D-2")
def test_a_carrier_made_hidden_by_any_effect_is_revealed_at_once() -> None:
    def hide(state: GameState) -> Transition:
        return state.with_fighters(dataclasses.replace(state.fighter(A), hidden=True)), []

    state = plugged(looted(two(), held={A: 1}), maintenance_hooks=[("rally", hide)])
    state = dataclasses.replace(state, phase=Phase.MAINTENANCE, maintenance=MaintenanceProgress())
    script = Script(state)
    assert not script.state.fighter(A).hidden
    assert only(script.events, CarrierRevealed) == [CarrierRevealed(A)]


@pytest.mark.rule("XX-D-2", "C3-CARRYING-A-TOKEN")
def test_a_carrier_moves_at_most_mov_x_2_once_a_phase_and_stays_at_level_0() -> None:
    """XX-D-2: "Bouger plus vite que MOUx2 … Augmenter son Mouvement … bouger plus d'une fois par
    phase … Quitter le palier 0": no effect of the engine can, for a carrier as for anyone
    (docs/rulings.md "XX-D-2"); checked on what a carrier is offered."""
    state = looted(two(), held={A: 1})
    log: list[ev.Event] = []
    state = activate(state, "p1-c1", log)
    state = answer(state, Announce(A, "run"), log)
    state = answer(state, AnnouncementsDone(), log)
    sight = field_of(state).base(A).sight
    template = field_of(state).base(A)
    for c in legal(state):
        if isinstance(c, Place):
            assert math.dist(sight, template.moved(c.x, c.y, c.facing).sight) <= 2 * 10 + 1e-6
    far = max((c for c in legal(state) if isinstance(c, Place)), key=lambda c: c.x)
    state = answer(state, far, log)
    assert asked(state) == "activation"
    assert not any(isinstance(c, Walk | Announce) for c in legal(state))  # one move
    assert state.fighter(A).altitude == 0


@pytest.mark.rule("XX-D-2")
def test_a_token_moves_only_with_its_carrier() -> None:
    """XX-D-2: "Un marqueur ne peut jamais être déplacé par un autre moyen que le mouvement du
    combattant qui le porte." Killed after walking, he drops it where he then stood."""
    state = looted(two(), held={A: 1})
    log: list[ev.Event] = []
    state = walk(state, A, log)
    place = max((c for c in legal(state) if isinstance(c, Place)), key=lambda c: c.x)
    state = answer(state, place, log)
    assert token(state, "token-1").carrier == A

    def kill(state: GameState) -> Transition:
        return state.with_fighters(dataclasses.replace(state.fighter(A), wounds=4)), []

    state = plugged(state, maintenance_hooks=[("rally", kill)])
    state = dataclasses.replace(
        state,
        phase=Phase.MAINTENANCE,
        maintenance=MaintenanceProgress(),
        activation=None,
        pending=None,
    )
    script = Script(state)
    [dropped] = only(script.events, TokensDropped)
    assert (dropped.x, dropped.y) == (place.x, place.y) and dropped.why == "killed"


# --- XX-D-3 Poser un marqueur -----------------------------------------------------------------


def _maintenance(state: GameState, *hooks: tuple[str, object]) -> Script:
    if hooks:
        state = plugged(state, maintenance_hooks=list(hooks))  # type: ignore[arg-type]
    state = dataclasses.replace(state, phase=Phase.MAINTENANCE, maintenance=MaintenanceProgress())
    return Script(state, whole_log=True)


@pytest.mark.rule("XX-D-3", "C3-DROPPING-A-TOKEN")
def test_a_carrier_may_put_tokens_down_in_the_maintenance_phase_in_contact_and_stacked() -> None:
    """XX-D-3: "Un combattant peut volontairement poser un ou plusieurs marqueurs durant la phase
    d'Entretien. Les marqueurs sont posés sur le sol en contact avec le combattant."
    """
    cards = [[(fighter("A"), 2)], [(fighter("Z"), 1)]]
    positions = {A: (30.0, 20.0, 0.0), B: (30.0, 40.0, 0.0), Z: (100.0, 50.0, 180.0)}
    state = looted(skirmish(cards, positions), carry=3, held={A: 3, B: 1})
    script = _maintenance(state)
    assert script.asked == TOKEN_DROP
    options = legal(script.state)
    assert options[0] == PutDown()  # keeping them is the first option
    assert set(options) == {PutDown(), PutDown(A, 1), PutDown(A, 2), PutDown(A, 3), PutDown(B, 1)}
    events = script.play(PutDown(A, 2))
    [dropped] = only(events, TokensDropped)
    assert dropped.tokens == ("token-1", "token-2") and dropped.why == "maintenance"
    # stacked, in contact with the back of his base (facing 0°: behind is -x)
    assert (dropped.x, dropped.y) == (30.0 - 1.25 - GAP_CM, 20.0)
    # asked again: B may still put his down; A has had his turn
    assert set(legal(script.state)) == {PutDown(), PutDown(B, 1)}
    script.play(PutDown())
    assert script.asked != TOKEN_DROP
    assert [t.carrier for t in loot_of(script.state).tokens] == [None, None, A, B]  # type: ignore[union-attr]
    told = narrate(script.events)
    assert "Round 1 — A (p1-c1-1) puts down token-1, token-2 at (27.75, 20) (XX-D-3)." in told


@pytest.mark.rule("XX-D-3", "C3-DROPPING-A-TOKEN")
def test_a_routed_carrier_drops_his_tokens_as_soon_as_he_routs() -> None:
    """XX-D-3: "Un combattant en déroute pose ses marqueurs aussitôt après avoir raté son test de
    courage, de la même façon." Courage is not in the documents (CLARIFICATIONS §5): a
    plug-in routs him here, in the rally step."""

    def rout(state: GameState) -> Transition:
        return state.with_fighters(dataclasses.replace(state.fighter(A), routed=True)), []

    script = _maintenance(looted(two(), held={A: 1}), ("rally", rout))
    [dropped] = only(script.events, TokensDropped)
    assert dropped.why == "routed" and (dropped.x, dropped.y) == (30.0 - 1.25 - GAP_CM, 20.0)
    assert script.asked != TOKEN_DROP  # nothing left to put down
    assert "A (p1-c1-1) routs and drops token-1" in " ".join(narrate(script.events))


@pytest.mark.rule("XX-D-3", "C3-DROPPING-A-TOKEN")
def test_a_carrier_leaving_the_table_drops_his_tokens_where_he_left() -> None:
    def leave(state: GameState) -> Transition:
        return state.with_fighters(dataclasses.replace(state.fighter(A), on_table=False)), []

    script = _maintenance(looted(two(), held={A: 2}, carry=2), ("rally", leave))
    [dropped] = only(script.events, TokensDropped)
    assert dropped == TokensDropped(A, ("token-1", "token-2"), 30.0, 20.0, "removed")


@pytest.mark.rule("XX-D-3", "C3-DROPPING-A-TOKEN")
def test_a_dropped_token_may_be_picked_up_again_unless_the_scenario_says_otherwise() -> None:
    """XX-D-3: "Un marqueur ainsi déposé peut être ramassé à nouveau, à moins que le scénario ne
    précise le contraire."
    """
    for again in (True, False):
        script = _maintenance(looted(two(), held={A: 1}, again=again))
        script.play(PutDown(A, 1))
        lying = token(script.state, "token-1")
        assert lying.dropped and lying.carrier is None
        # a fighter coming onto it is offered it (and asked) only when it may be picked again
        state = looted(two(), STRAIGHT_ON, again=again)
        dropped = dataclasses.replace(token(state, "token-1"), dropped=True)
        loot = loot_of(state)
        assert loot is not None
        state = with_loot(state, dataclasses.replace(loot, tokens=(dropped,)))
        state = walk(state, A, [])
        assert ("to token-1" in aims(state, A)) is again
        state = answer(state, covering(state, A, STRAIGHT_ON)[0], [])
        assert (asked(state) == TOKEN_PICKUP) is again


# --- the state, the record, the picture -----------------------------------------------------------


@pytest.mark.rule("XX-D")
def test_a_game_with_tokens_saves_and_replays() -> None:
    state = looted(two(), (36.0, 22.0))
    log: list[ev.Event] = []
    state = walk_onto(state, A, (36.0, 22.0), log)
    state = answer(state, PickUp(A, 1), log)
    assert state_from_json(state_to_json(state)) == state
    assert replay(log) == state


def test_a_game_without_tokens_keeps_its_json() -> None:
    plain = two()
    record = BasicScenario("x", "X", "control", 2)
    assert "loot" not in state_to_json(dataclasses.replace(plain, scenario=record))


# --- random games: no token lost or doubled ---------------------------------------------------


def _tokens_game(seed: int) -> GameState:
    cards = [[(fighter("A"), 3)], [(fighter("Z"), 3)]]
    positions = {
        "p1-c1-1": (50.0, 22.0, 0.0),
        "p1-c1-2": (50.0, 30.0, 0.0),
        "p1-c1-3": (50.0, 38.0, 0.0),
        "p2-c1-1": (70.0, 22.0, 180.0),
        "p2-c1-2": (70.0, 30.0, 180.0),
        "p2-c1-3": (70.0, 38.0, 180.0),
    }
    state = skirmish(cards, positions, rounds=4, seed=seed)
    spots = [(60.0, 30.0), (60.0, 30.0), (55.0, 25.0), (65.0, 35.0), (55.0, 35.0), (65.0, 25.0)]
    spots += [(57.0, 18.0), (63.0, 42.0), (56.0, 30.0), (64.0, 30.0)]
    return looted(state, *spots, carry=2)


def _check(state: GameState, ids: Sequence[str]) -> None:
    loot = loot_of(state)
    assert loot is not None
    assert sorted(t.id for t in loot.tokens) == sorted(ids)  # none lost, none doubled
    ground = state.battleground
    assert ground is not None
    for t in loot.tokens:
        if t.carrier is None:
            assert 0 <= t.x <= ground.width and 0 <= t.y <= ground.height
            continue
        carrier = state.fighter(t.carrier)
        assert carrier.in_play and not carrier.routed and not carrier.hidden
    counts = [sum(t.carrier == f.id for t in loot.tokens) for f in state.fighters]
    assert max(counts) <= loot.carry


def _random_game(seed: int) -> list[ev.Event]:
    state, events = start(_tokens_game(seed))
    loot = loot_of(state)
    assert loot is not None
    ids = [t.id for t in loot.tokens]
    log = list(events)

    def after(state: GameState, asked: Question, happened: list[ev.Event]) -> None:
        _check(state, ids)
        log.extend(happened)

    agents = [KindAgent(seed), KindAgent(seed + 1)]
    end = play_out(state, agents, after)
    _check(end, ids)
    return log


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10_000))
@pytest.mark.rule("XX-D-1", "XX-D-2", "XX-D-3")
def test_random_games_never_lose_or_double_a_token(seed: int) -> None:
    _random_game(seed)


@pytest.mark.rule("XX-D-1", "XX-D-3")
def test_random_games_pick_up_and_drop_tokens() -> None:
    """The random games above do exercise the rules (picked up, put down, moved aside)."""
    kinds: set[str] = set()
    for seed in range(4):
        kinds |= {e.kind for e in _random_game(seed)}
    assert {"tokens_picked", "tokens_dropped"} <= kinds


# --- the scenario file -------------------------------------------------------------------------

LOOT_FILE = """\
name = "Loot"
rounds = 2
goal = "control"
carry = 2
pick_up_again = false
tokens = [{x = 60.0, y = 30.0, count = 2}, {x = 40.0, y = 12.5}]

[[areas]]
name = "the centre"
shape = "centre"
vp = 1
"""


@pytest.mark.rule("XX-D", "XX-D-2", "C3-CARRYING-A-TOKEN")
def test_a_scenario_file_places_tokens_and_says_carry_x(tmp_path: Path) -> None:
    path = tmp_path / "loot.toml"
    path.write_text(LOOT_FILE, encoding="utf-8")
    scenario = load_scenario(path)
    assert scenario.loot == Loot(
        (
            Token("token-1", 60.0, 30.0),
            Token("token-2", 60.0, 30.0),
            Token("token-3", 40.0, 12.5),
        ),
        carry=2,
        again=False,
    )
    assert scenario.record().loot == scenario.loot
    # C3: "The value of X is considered to be 1 (one) unless defined in the scenario."
    path.write_text(LOOT_FILE.replace("carry = 2\n", ""), encoding="utf-8")
    loot = load_scenario(path).loot
    assert loot is not None and loot.carry == 1
    # XX-F-1: tokens are placed by coordinates on the two-player table
    with pytest.raises(ValueError, match="XX-F-1"):
        scenario.check_players(3)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("x = 40.0", "x = 140.0"), "loot.toml:6: tokens[2]: token (140, 12.5) is not on the"),
        (("count = 2", "count = 0"), "loot.toml:6: tokens[1].count: Input should be greater"),
        (("count = 2", "colour = 2"), "loot.toml:6: tokens[1].colour: unknown key"),
        (("carry = 2", "carry = 0"), "loot.toml:4: carry: Input should be greater"),
        (("y = 12.5", 'y = "top"'), "loot.toml:6: tokens[2].y:"),
    ],
)
def test_a_bad_token_is_one_line_naming_file_line_and_key(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    path = tmp_path / "loot.toml"
    path.write_text(LOOT_FILE.replace(*change), encoding="utf-8")
    with pytest.raises(LoadError) as caught:
        load_scenario(path)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def _toml(value: object) -> str:
    """A TOML literal (JSON's string escapes are TOML's)."""
    import json

    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


_VALUES = st.one_of(
    st.integers(-50, 200),
    st.floats(-50, 200, allow_nan=False),
    st.text(max_size=3),
    st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.dictionaries(st.sampled_from(["x", "y", "count", "size"]), _VALUES, max_size=4),
        max_size=3,
    ),
    _VALUES,
)
def test_any_tokens_key_loads_or_is_one_line(
    tokens: list[dict[str, object]], carry: object
) -> None:
    import tempfile

    head = LOOT_FILE[: LOOT_FILE.index("carry")]
    tail = LOOT_FILE[LOOT_FILE.index("[[areas]]") :]
    body = f"carry = {_toml(carry)}\ntokens = {_toml(tokens)}\n"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.toml"
        path.write_text(head + body + "\n" + tail, encoding="utf-8")
        try:
            loaded = load_scenario(path)
        except LoadError as error:
            assert "\n" not in str(error) and str(error).startswith(str(path))
            return
    assert isinstance(carry, int) and not isinstance(carry, bool) and carry >= 1
    assert loaded.loot is None or all(
        0 <= t.x <= 120 and 0 <= t.y <= 60 for t in loaded.loot.tokens
    )


@pytest.mark.rule("XX-D")
def test_play_from_the_cli_narrates_and_draws_the_tokens(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from confrontation.cli import app

    path, svg = tmp_path / "loot.toml", tmp_path / "end.svg"
    path.write_text(LOOT_FILE, encoding="utf-8")
    result = CliRunner().invoke(
        app,
        ["play", "--scenario", str(path), "--agents", "greedy,random", "--seed", "2",
         "--no-store", "--svg", str(svg)],
    )  # fmt: skip
    assert result.exit_code == 0, result.stdout
    assert "3 token(s) lie on the battlefield; a fighter carries at most 2 (XX-D)." in result.stdout
    picture = svg.read_text(encoding="utf-8")
    assert picture.count('fill="#f1c40f"') >= 2  # the stack and the lone token, or carried


def test_the_picture_shows_tokens_on_the_ground_and_on_their_carrier() -> None:
    from confrontation.scenarios.picture import battlefield_svg

    state = looted(two(), (60.0, 30.0), (60.0, 30.0), held={A: 1})
    picture = battlefield_svg(state)
    assert picture.count('fill="#f1c40f"') == 2  # one stack of two, one on A's base
    assert ">2</text>" in picture  # the stack says how many
    assert f'cx="{30.0 * 8:.1f}" cy="{(60 - 20.0) * 8:.1f}" r="7.2" fill="#f1c40f"' in picture


# --- victory conditions (XX-A-4) and the bundled scenarios -------------------------------------


def _scored(
    state: GameState, *conditions: tuple[str, str, dict[str, object]]
) -> set[tuple[int, str]]:
    """Who fulfils which of ``conditions`` (id, kind, parameters) when the game ends now."""
    from confrontation.engine.core.ending import finish
    from confrontation.engine.core.outcome import Termination
    from confrontation.scenarios.conditions import Condition, validate_params
    from confrontation.scenarios.victory import ConditionMet, kind_of

    made = tuple(
        Condition(cid, kind, params=validate_params(kind_of(state, "condition", kind), params))
        for cid, kind, params in conditions
    )
    scenario = state.scenario
    assert isinstance(scenario, BasicScenario)
    record = dataclasses.replace(scenario, goal="conditions", conditions=made)
    _, events = finish(dataclasses.replace(state, scenario=record), Termination.ROUNDS_PLAYED)
    return {(e.player, e.condition) for e in events if isinstance(e, ConditionMet)}


@pytest.mark.rule("XX-D-2", "XX-A-4")
def test_the_token_condition_kinds() -> None:
    cards = [[(fighter("A"), 2)], [(fighter("Z"), 2)]]
    positions = {
        A: (30.0, 20.0, 0.0),  # in Player 1's deployment area (III-A-1: 10 to 45 cm)
        B: (55.0, 30.0, 0.0),  # in the middle
        Z: (100.0, 50.0, 180.0),
        Y: (100.0, 40.0, 180.0),
    }
    state = skirmish(cards, positions)
    conditions: list[tuple[str, str, dict[str, object]]] = [
        ("most", "most-tokens", {}),
        ("two", "carry-tokens", {"count": 2}),
        ("one", "carry-tokens", {}),
        ("home", "tokens-in-area", {}),
        ("middle", "tokens-in-area", {"area": "the middle", "count": 2}),
    ]
    from confrontation.scenarios.base import Area

    def game(held: dict[str, int]) -> GameState:
        played = looted(state, carry=2, held=held)
        middle = Area("the middle", "rect", None, 0, 0, (50.0, 0.0, 70.0, 60.0))
        loot = loot_of(played)
        record = BasicScenario("t", "T", "control", 2, areas=(middle,), loot=loot)
        return dataclasses.replace(played, scenario=record)

    # A at home and B in the middle carry one each; Z, at home, one
    one_each = _scored(game({A: 1, B: 1, Z: 1}), *conditions)
    assert one_each == {(0, "most"), (0, "two"), (0, "one"), (0, "home"), (1, "one"), (1, "home")}
    # B in the middle carries two, Z two: equal, nobody has the most
    two_each = _scored(game({B: 2, Z: 2}), *conditions)
    assert two_each == {(0, "two"), (0, "one"), (0, "middle"), (1, "two"), (1, "one"), (1, "home")}
    # nobody carries: "most" needs one token at least
    assert _scored(game({}), *conditions) == set()


@pytest.mark.rule("XX-D", "XX-A-4")
@pytest.mark.parametrize("name", ["loot", "loot:short", "relics"])
def test_the_bundled_token_scenarios_play_to_the_end(name: str) -> None:
    from confrontation.scenarios import resolve
    from confrontation.sim.game import GameConfig, play_game

    scenario = resolve(name)
    assert scenario.loot is not None and len(scenario.conditions) == 3 and scenario.bonuses
    result = play_game(GameConfig(scenario=name, agents=("greedy", "random"), seed=3, rounds=2))
    assert result.state.phase is Phase.OVER
    loot = loot_of(result.state)
    assert loot is not None and len(loot.tokens) == len(scenario.loot.tokens)


@pytest.mark.rule("XX-D-3")
def test_scenarios_show_tells_the_tokens_as_a_player_reads_them() -> None:
    from typer.testing import CliRunner

    from confrontation.cli import app

    result = CliRunner().invoke(app, ["scenarios", "show", "relics"])
    assert result.exit_code == 0, result.stdout
    assert "Tokens" in result.stdout and "│ 60.0 │ 30.0 │ 2     │" in result.stdout
    assert "carry: 2 (XX-D-2)   picked up again: no (XX-D-3)" in result.stdout
