"""The strategic phase (IV-A): secret activation sequences, then the Tactics roll.

1. Each player builds his activation sequence face down (IV-A-1). The engine asks each
   player for his cards one at a time, top card first (a question per card keeps the
   choices finite); the opponent's order stays hidden (``views.redact``). Cards whose
   fighters were all eliminated in earlier rounds are withdrawn first (IV-A-1 note).
2. The Tactics roll (IV-A-2): each player picks a fighter of the army's people; both roll
   an opposed Discipline test (II-A-3) with raises of 6s (II-A-1) and re-rolls of ties.
   A result ≤ 0 fails: two failures are a tie (II-A-4, CLARIFICATIONS §9); both 6s with
   equal results: a roll-off says who decides first (``engine.core.rolloff``).
   The winner chooses who speaks first in the activation phase (IV-B-1).
3. With three players or more (XX-F-3; before the deployment, XX-F-1): every player rolls,
   tied players roll again among themselves until the results order them all, then each,
   best result first, takes a free place in the speaking order (``choose_place``); the last
   one takes the place left. The order of the results is kept for the combat phase (XX-F-5).
"""

from __future__ import annotations

from collections.abc import Sequence

from confrontation.dice import FACES, RollOff, next_decider, rank_opposed
from confrontation.engine.core.events import (
    CardsWithdrawn,
    Event,
    FirstSpeakerChosen,
    PhaseEnded,
    PhaseStarted,
    PlaceTaken,
    RoundStarted,
    SequenceSet,
    TacticsFighterChosen,
    TacticsRolled,
    TacticsTied,
    TestRaised,
)
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.narrate import ordinal
from confrontation.engine.core.questions import (
    Choice,
    ChooseFirst,
    ChoosePlace,
    DieFace,
    KeepResult,
    Option,
    PlaceCard,
    Question,
    Raise,
    TacticsFighter,
)
from confrontation.engine.core.registry import (
    EngineError,
    Handler,
    Transition,
)
from confrontation.engine.core.rounddata import load_round_data
from confrontation.engine.core.ruleset import RulesBuilder
from confrontation.engine.core.state import (
    Fighter,
    GameState,
    Pending,
    Phase,
    Side,
    StrategicProgress,
    TacticsHand,
    player_name,
)
from confrontation.engine.round.activation import mark_round_start
from confrontation.model.profile import parse_ability

# --- who may roll the Tactics roll (IV-A-2) ------------------------------------------------


def may_roll_tactics(state: GameState, fighter: Fighter) -> bool:
    """IV-A-2 note 1: a living fighter of the army's people, or with Alliance/X (X = the
    army's people or alliance way). Allies, Immortal/X, Elemental/X and Mercenary fighters
    of another people are thereby excluded. Note 2 needs nothing: each fighter rolls with
    his own Discipline."""
    if not fighter.alive:
        return False
    side = state.side(fighter.player)
    profile = state.profile(fighter.profile)
    if profile.people == side.people:
        return True
    allowed = {side.people.lower()} | ({side.alliance_way.lower()} if side.alliance_way else set())
    alliance = load_round_data().alliance_ability.lower()
    for text in profile.abilities:
        ability = parse_ability(text)
        if ability.name.lower() == alliance and str(ability.value).lower() in allowed:
            return True
    return False


def tactics_candidates(state: GameState, player: int) -> list[Fighter]:
    """The fighters ``player`` may roll the Tactics roll with."""
    return [f for f in state.fighters if f.player == player and may_roll_tactics(state, f)]


# --- the phase driver ----------------------------------------------------------------------


def _begin_round(state: GameState) -> Transition:
    events: list[Event] = [
        RoundStarted(state.round),
        PhaseStarted(state.round, Phase.STRATEGIC.value),
    ]
    fighters = tuple(
        evolve(f, activated=False, walked=False, shots=0, attacked=False)
        if f.activated or f.walked or f.shots or f.attacked
        else f
        for f in state.fighters
    )
    # V-B-3: only the charges of the current round count for the charge penalties.
    state = evolve(state, fighters=fighters, first_speaker=None, speaking=(), charges=())
    state = mark_round_start(state)  # C3 "Neutral fighters": contacts at the round's start
    to_place: list[tuple[str, ...]] = []
    for player in state.players:
        side = state.side(player)
        in_play = tuple(
            c.id
            for c in state.cards_of(player)
            if c.id not in side.withdrawn and state.card_in_play(c.id)
        )
        gone = tuple(
            c.id
            for c in state.cards_of(player)
            if c.id not in side.withdrawn and c.id not in in_play
        )
        if gone:
            events.append(CardsWithdrawn(player, gone))  # IV-A-1 note
        state = state.with_side(
            evolve(
                side,
                withdrawn=side.withdrawn + gone,
                deck=(),
                reserve=None,
                reserve_used=False,
                refusals=0,
            )
        )
        to_place.append(in_play)
    return evolve(state, strategic=fresh_progress(tuple(to_place))), events


def fresh_progress(to_place: tuple[tuple[str, ...], ...]) -> StrategicProgress:
    """The strategic phase before any card is placed: one hand per player."""
    count = len(to_place)
    return StrategicProgress(
        building=((),) * count, to_place=to_place, hands=(TacticsHand(),) * count
    )


def _decide_raise_order(progress: StrategicProgress) -> int | RollOff | None:
    """Who decides next whether to raise a 6 (II-A-3): the one showing a 6; if several do,
    the lower final result first; equal results: the roll-off (CLARIFICATIONS §9), a
    :class:`RollOff` while its dice are due."""
    hands = progress.hands
    raisers = {p: h.final for p, h in enumerate(hands) if h.may_raise}
    return next_decider(raisers, progress.rolloff)


def _ranking(progress: StrategicProgress) -> tuple[tuple[int, ...], ...]:
    """The players by decreasing Tactics result, tied ones grouped (II-A-3, XX-F-3): groups
    ordered by earlier rolls keep their place, a tied group is ordered by its new roll."""
    finals = {p: h.final for p, h in enumerate(progress.hands)}
    ranked: list[tuple[int, ...]] = []
    for group in progress.ranking or (tuple(finals),):
        if len(group) == 1:
            ranked.append(group)
        else:
            ranked.extend(rank_opposed({p: finals[p] for p in group}))
    return tuple(ranked)


def _start_groups(state: GameState, progress: StrategicProgress) -> StrategicProgress:
    """XX-F-3 with a player who has no fighter to roll with (docs/rulings.md "IV-A-2"): the
    players who have one rank before those who have none; a group of one rolls no die."""
    hands = progress.hands
    with_one = tuple(p for p, h in enumerate(hands) if h.fighter is not None)
    without = tuple(p for p, h in enumerate(hands) if h.fighter is None)
    groups = tuple(g for g in (with_one, without) if g)
    if len(groups) == 1:
        return progress
    alone = {g[0] for g in groups if len(g) == 1}
    fresh = tuple(
        evolve(h, awaiting_die=False, stopped=True) if p in alone else h
        for p, h in enumerate(hands)
    )
    return evolve(progress, hands=fresh, ranking=groups)


def drive(state: GameState) -> Transition:
    """Move the strategic phase on to its next question or die, or end it."""
    progress = state.strategic
    if progress is None:
        return _begin_round(state)
    for player in state.players:  # IV-A-1
        if progress.to_place[player]:
            return evolve(state, pending=Pending(QuestionKind.PLACE_CARD, player)), []
    hands = progress.hands
    for player in state.players:  # IV-A-2: choose the fighters
        if not hands[player].chosen:
            return evolve(state, pending=Pending(QuestionKind.TACTICS_FIGHTER, player)), []
    if progress.winner is None:
        without = [p for p, h in enumerate(hands) if h.fighter is None]
        if len(hands) == 2 and len(without) == 1:
            # ruling: a side with no eligible fighter loses the roll
            return _decided(state, progress, 1 - without[0], uncontested=True)
        if len(hands) > 2 and not progress.attempts and not progress.ranking:
            started = _start_groups(state, progress)
            if started is not progress:
                return evolve(state, strategic=started), []
        if any(hand.awaiting_die for hand in hands):
            return evolve(state, pending=Pending(QuestionKind.TACTICS_DIE, None)), []
        decider = _decide_raise_order(progress)
        if isinstance(decider, RollOff):  # CLARIFICATIONS §9: the roll-off's dice
            progress = evolve(progress, rolloff=decider)
            return evolve(
                state, strategic=progress, pending=Pending(QuestionKind.ROLLOFF_DIE, None)
            ), []
        if decider is not None:
            return evolve(state, pending=Pending(QuestionKind.TACTICS_RAISE, decider)), []
        finals = tuple(h.final for h in hands)
        ranking = _ranking(progress)
        # XX-F-3: with three players or more the results must order every player
        tied = ranking[:1] if len(hands) == 2 else ranking
        again = {p for group in tied if len(group) > 1 for p in group}
        if again:
            # II-A-3: roll again until the tie is broken (with three players or more only the
            # tied players, among themselves); II-A-4 and CLARIFICATIONS §9: two results ≤ 0
            # are two failures, a tie like any other.
            fresh = tuple(
                evolve(h, dice=(), awaiting_die=True, stopped=False) if p in again else h
                for p, h in enumerate(hands)
            )
            progress = evolve(
                progress,
                hands=fresh,
                attempts=progress.attempts + 1,
                rolloff=None,
                ranking=ranking if len(hands) > 2 else (),
            )
            return evolve(state, strategic=progress), [TacticsTied(finals)]
        if len(hands) > 2:
            order = tuple(p for group in ranking for p in group)
            progress = evolve(progress, winner=order[0], order=order)
            event = TacticsRolled(finals, order[0], uncontested=False, order=order)
            return evolve(state, strategic=progress), [event]
        return _decided(state, progress, ranking[0][0], uncontested=False)
    if len(progress.hands) > 2:
        if not state.speaking:
            return _next_place(state, progress)
    elif state.first_speaker is None:
        return evolve(state, pending=Pending(QuestionKind.CHOOSE_FIRST, progress.winner)), []
    # The phase is over: on to the activation phase (or, before round 1, to the drawing of
    # the deployment sequence, III-B-2).
    end = PhaseEnded(state.round, Phase.STRATEGIC.value)
    if state.round == 0:
        return evolve(state, phase=Phase.DEPLOYMENT, activation=None), [end]
    return evolve(state, phase=Phase.ACTIVATION, activation=None), [end]


def _decided(
    state: GameState, progress: StrategicProgress, winner: int, uncontested: bool
) -> Transition:
    finals = tuple(h.final for h in progress.hands)
    progress = evolve(progress, winner=winner)
    event = TacticsRolled(finals, winner, uncontested)
    return evolve(state, strategic=progress), [event]


# --- building the sequences (IV-A-1) ------------------------------------------------------


def _progress(state: GameState) -> StrategicProgress:
    if state.strategic is None:
        raise EngineError("the strategic phase is not under way")
    return state.strategic


def _place_legal(state: GameState) -> list[Choice]:
    assert state.pending is not None and state.pending.player is not None
    return [PlaceCard(card) for card in _progress(state).to_place[state.pending.player]]


def _place_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, PlaceCard)
    progress = _progress(state)
    player = _owner(state, choice.card)
    building = list(progress.building)
    to_place = list(progress.to_place)
    building[player] = building[player] + (choice.card,)
    to_place[player] = tuple(c for c in to_place[player] if c != choice.card)
    progress = evolve(progress, building=tuple(building), to_place=tuple(to_place))
    state = evolve(state, strategic=progress)
    if to_place[player]:
        return state, []
    side: Side = evolve(state.side(player), deck=building[player])
    return state.with_side(side), [SequenceSet(player, building[player])]


def _owner(state: GameState, card_id: str) -> int:
    return state.card(card_id).player


def _place_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None and state.pending.player is not None
    player = state.pending.player
    placed = len(_progress(state).building[player])
    options = tuple(
        Option(c, state.card(c.card).label) for c in choices if isinstance(c, PlaceCard)
    )
    which = "deployment" if state.round == 0 else "activation"
    prompt = (
        f"{player_name(player)}: which card goes in position {placed + 1} of your "
        f"{which} sequence (top first)?"
    )
    return Question(QuestionKind.PLACE_CARD, player, prompt, options)


# --- the Tactics roll (IV-A-2) ---------------------------------------------------------------


def _set_hand(progress: StrategicProgress, player: int, hand: TacticsHand) -> StrategicProgress:
    hands = list(progress.hands)
    hands[player] = hand
    return evolve(progress, hands=tuple(hands))


def _fighter_legal(state: GameState) -> list[Choice]:
    assert state.pending is not None and state.pending.player is not None
    candidates = tactics_candidates(state, state.pending.player)
    if not candidates:
        return [TacticsFighter(None)]
    return [TacticsFighter(f.id) for f in candidates]


def _fighter_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, TacticsFighter)
    progress = _progress(state)
    player = next(p for p, h in enumerate(progress.hands) if not h.chosen)
    discipline = 0
    if choice.fighter is not None:
        discipline = state.profile(state.fighter(choice.fighter).profile).discipline
    hand = TacticsHand(fighter=choice.fighter, chosen=True, discipline=discipline)
    state = evolve(state, strategic=_set_hand(progress, player, hand))
    return state, [TacticsFighterChosen(player, choice.fighter, discipline)]


def _fighter_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None and state.pending.player is not None
    options = []
    for c in choices:
        assert isinstance(c, TacticsFighter)
        if c.fighter is None:
            options.append(Option(c, "no fighter may roll", "you lose the Tactics roll"))
        else:
            fighter = state.fighter(c.fighter)
            profile = state.profile(fighter.profile)
            options.append(Option(c, f"{profile.name} ({c.fighter})", f"DIS {profile.discipline}"))
    prompt = f"{player_name(state.pending.player)}: who rolls the Tactics roll?"
    return Question(QuestionKind.TACTICS_FIGHTER, state.pending.player, prompt, tuple(options))


def _rolling_player(state: GameState) -> int:
    hands = _progress(state).hands
    return next(p for p, h in enumerate(hands) if h.awaiting_die)


def _die_legal(state: GameState) -> list[Choice]:
    return [DieFace(face) for face in FACES]


def _die_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    progress = _progress(state)
    player = _rolling_player(state)
    hand = progress.hands[player]
    hand = evolve(hand, dice=(*hand.dice, choice.face), awaiting_die=False)
    return evolve(state, strategic=_set_hand(progress, player, hand)), []


def _die_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    player = _rolling_player(state)
    options = tuple(Option(c, str(c.face)) for c in choices if isinstance(c, DieFace))
    return Question(
        QuestionKind.TACTICS_DIE, None, f"{player_name(player)} rolls for Tactics", options
    )


def _raise_legal(state: GameState) -> list[Choice]:
    return [Raise(), KeepResult()]


def _raise_apply(state: GameState, choice: Choice) -> Transition:
    assert state.pending is None
    progress = _progress(state)
    player = _decide_raise_order(progress)
    assert isinstance(player, int)
    hand = progress.hands[player]
    if isinstance(choice, Raise):
        hand = evolve(hand, awaiting_die=True)
        events: list[Event] = [TestRaised(player, "tactics")]
    else:
        hand = evolve(hand, stopped=True)
        events = []
    return evolve(state, strategic=_set_hand(progress, player, hand)), events


def _raise_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None and state.pending.player is not None
    player = state.pending.player
    hands = _progress(state).hands
    mine = hands[player]
    others = ", ".join(
        f"{player_name(p)} has {h.final}" for p, h in enumerate(hands) if p != player
    )
    prompt = (
        f"{player_name(player)}: your Tactics roll shows a 6 (result {mine.final}); "
        f"{others}. Raise?"
    )
    options = (
        Option(Raise(), "raise", "roll again and add the die; a 1 makes the natural result 1"),
        Option(KeepResult(), "keep", f"keep {mine.final}"),
    )
    return Question(
        QuestionKind.TACTICS_RAISE, player, prompt, tuple(o for o in options if o.choice in choices)
    )


def _first_legal(state: GameState) -> list[Choice]:
    return [ChooseFirst(p) for p in state.players]


def _first_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, ChooseFirst)
    winner = _progress(state).winner
    assert winner is not None
    state = evolve(state, first_speaker=choice.player)
    return state, [FirstSpeakerChosen(winner, choice.player)]


def _first_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None and state.pending.player is not None
    player = state.pending.player
    options = tuple(
        Option(c, "me" if c.player == player else player_name(c.player), player_name(c.player))
        for c in choices
        if isinstance(c, ChooseFirst)
    )
    prompt = f"{player_name(player)} won the Tactics roll: who speaks first?"
    return Question(QuestionKind.CHOOSE_FIRST, player, prompt, options)


# --- the places in the order, three players or more (XX-F-1, XX-F-3) ---------------------------


def _free_places(state: GameState, progress: StrategicProgress) -> list[int]:
    taken = {place for _, place in progress.places}
    return [place for place in state.players if place not in taken]


def _placing(progress: StrategicProgress) -> int | None:
    """XX-F-3: who takes his place now, best Tactics result first."""
    done = {player for player, _ in progress.places}
    return next((p for p in progress.order if p not in done), None)


def _next_place(state: GameState, progress: StrategicProgress) -> Transition:
    player = _placing(progress)
    free = _free_places(state, progress)
    if player is not None and len(free) > 1:
        return evolve(state, pending=Pending(QuestionKind.CHOOSE_PLACE, player)), []
    events: list[Event] = []
    if player is not None:  # XX-F-1 example: "the Goblin player has no choice"
        progress = evolve(progress, places=(*progress.places, (player, free[0])))
        events.append(PlaceTaken(player, free[0], forced=True))
    speaking = tuple(p for p, _ in sorted(progress.places, key=lambda pair: pair[1]))
    state = evolve(state, strategic=progress, speaking=speaking, first_speaker=speaking[0])
    return state, events


def _place_choice_legal(state: GameState) -> list[Choice]:
    return [ChoosePlace(place) for place in _free_places(state, _progress(state))]


def _place_choice_apply(state: GameState, choice: Choice) -> Transition:
    assert isinstance(choice, ChoosePlace)
    progress = _progress(state)
    player = _placing(progress)
    assert player is not None
    progress = evolve(progress, places=(*progress.places, (player, choice.place)))
    return evolve(state, strategic=progress), [PlaceTaken(player, choice.place)]


def _place_choice_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None and state.pending.player is not None
    player = state.pending.player
    which = "deploy" if state.round == 0 else "speak"
    options = tuple(
        Option(c, ordinal(c.place), f"you {which} {ordinal(c.place)}")
        for c in choices
        if isinstance(c, ChoosePlace)
    )
    progress = _progress(state)
    rank = progress.order.index(player)
    section = "XX-F-1" if state.round == 0 else "XX-F-3"
    prompt = (
        f"{player_name(player)}: your Tactics result is the {ordinal(rank)} best; "
        f"which place do you take in the order? ({section})"
    )
    return Question(QuestionKind.CHOOSE_PLACE, player, prompt, options)


def contribute(rules: RulesBuilder) -> None:
    """The strategic phase's driver and questions (IV-A)."""
    rules.phase(Phase.STRATEGIC, drive)
    rules.handler(Handler(QuestionKind.PLACE_CARD, _place_legal, _place_apply, _place_describe))
    rules.handler(
        Handler(QuestionKind.TACTICS_FIGHTER, _fighter_legal, _fighter_apply, _fighter_describe)
    )
    rules.handler(
        Handler(
            QuestionKind.TACTICS_DIE, _die_legal, _die_apply, _die_describe, subject=_rolling_player
        )
    )
    rules.handler(Handler(QuestionKind.TACTICS_RAISE, _raise_legal, _raise_apply, _raise_describe))
    rules.handler(Handler(QuestionKind.CHOOSE_FIRST, _first_legal, _first_apply, _first_describe))
    rules.handler(
        Handler(
            QuestionKind.CHOOSE_PLACE,
            _place_choice_legal,
            _place_choice_apply,
            _place_choice_describe,
        )
    )
