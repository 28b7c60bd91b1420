"""The activation phase (IV-B): drawing the cards of the activation sequences (IV-B-1).

The player with the floor either plays the top card of his sequence, or puts it face down
in reserve (once per phase), or — with a card in reserve — plays the reserve instead of
the top card or together with it, or uses a refusal; then the floor passes. The player
with fewer cards gets refusals equal to the difference. A player with no cards left
(deck and reserve) is skipped: the other plays on alone (note 1). A card whose fighters
all died earlier in the phase is still played, activating nobody (note 2).

The fighters' actions (IV-B-2) are the extension point of the ruleset's action providers:
once a card is played, its player is asked what the activated fighters do; the legal
choices are those every :class:`ActionProvider` of the game's rules offers, plus
:class:`EndActivation`. Movement (chapter V) and shooting (chapter VI) contribute providers;
without any the only legal answer is to end the activation.

Neutral fighters (XX-E-1) have no sequence: those free of any enemy when the phase begins are
activated (together, as one activation of the neutral side) before anybody has the floor;
those then in base contact with a non-neutral fighter once nobody has cards left. The rules
answer their questions (``engine.neutral``); the floor is untouched by their activations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from confrontation.engine.combat.seam import fighters_in_contact
from confrontation.engine.core.deferred import Deferred, LazyChoices, Part, parts_of
from confrontation.engine.core.events import (
    ActivationEnded,
    CardPlacedInReserve,
    CardRefused,
    CardRevealed,
    Event,
    FighterActivated,
    PhaseEnded,
    PhaseStarted,
    RefusalsGranted,
)
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.kinds import QuestionKind
from confrontation.engine.core.questions import (
    Announce,
    AnnouncementsDone,
    Choice,
    EndActivation,
    Option,
    PlayReserve,
    PlayReserveAndTop,
    PlayTop,
    PutInReserve,
    Question,
    Refuse,
)
from confrontation.engine.core.registry import (
    EngineError,
    Handler,
    Transition,
)
from confrontation.engine.core.ruleset import RulesBuilder, rules_of
from confrontation.engine.core.state import (
    NEUTRAL,
    Activation,
    ActivationProgress,
    ActivationStage,
    Fighter,
    GameState,
    Pending,
    Phase,
    player_name,
)
from confrontation.engine.table import passive


class ActionProvider(Protocol):
    """What activated fighters may do (IV-B-2): movement, shooting, mystic actions…

    ``choices`` lists the provider's legal choices for the activation under way (e.g. one
    per fighter and destination); ``apply`` resolves one of them (it may set a pending
    question or die of its own, whose handler its ruleset holds, and records acting fighters
    in ``Activation.done``). ``handles`` tells whether a choice is one of its own.
    """

    def choices(self, state: GameState, activation: Activation) -> Sequence[Choice]: ...

    def handles(self, choice: Choice) -> bool: ...

    def apply(self, state: GameState, choice: Choice) -> Transition: ...


# --- the phase driver ----------------------------------------------------------------------


def _begin(state: GameState) -> Transition:
    """IV-B-1: refusals from the difference in cards; the first speaker takes the floor.
    Nobody has been charged or engaged in this activation phase yet (V-C)."""
    events: list[Event] = [PhaseStarted(state.round, Phase.ACTIVATION.value)]
    state = state.with_fighters(*(evolve(f, attacked=False) for f in state.fighters if f.attacked))
    state, granted = open_floor(state)
    # XX-E-1: neutral fighters free of any enemy now are activated before every other fighter.
    waiting = _waiting_neutrals(state)
    if waiting:
        if _c3_timing(state):  # C3: "in contact with an enemy at the start of the round"
            engaged = {f.id for f in waiting if ENGAGED_AT_ROUND_START in f.markers}
        else:
            engaged = _engaged_neutrals(state)
        first = tuple(f.card for f in waiting if f.id not in engaged)
        state, activated = _activate(state, NEUTRAL, first) if first else (state, [])
        granted += activated
    return state, events + granted


ENGAGED_AT_ROUND_START = "engaged-at-round-start"
"""The marker of a neutral fighter in contact with a non-neutral fighter when the round began
(the C3 wording of XX-E-1, :func:`mark_round_start`)."""


def _c3_timing(state: GameState) -> bool:
    return bool(rules_of(state).extension("variant", "neutral-timing") == "c3")


def _engaged_neutrals(state: GameState) -> set[str]:
    """The neutral fighters in base contact with a non-neutral fighter now."""
    return {
        n
        for pair in fighters_in_contact(state)
        for n, other in (pair, pair[::-1])
        if state.fighter(n).player == NEUTRAL and state.fighter(other).player != NEUTRAL
    }


def mark_round_start(state: GameState) -> GameState:
    """C3 "Neutral fighters" (the switch ``variant.neutral-timing = "c3"``): a neutral fighter
    "in contact with an enemy at the start of the round" activates after all the others;
    the strategic phase marks them when the round begins (chapter 20 looks at the start of
    the activation phase instead: nothing to mark)."""
    if not _c3_timing(state) or not any(f.player == NEUTRAL for f in state.fighters):
        return state
    engaged = _engaged_neutrals(state)
    changed = []
    for f in state.fighters:
        if f.player != NEUTRAL:
            continue
        marked = ENGAGED_AT_ROUND_START in f.markers
        if (f.id in engaged) != marked:
            markers = tuple(m for m in f.markers if m != ENGAGED_AT_ROUND_START)
            if f.id in engaged:
                markers += (ENGAGED_AT_ROUND_START,)
            changed.append(evolve(f, markers=markers))
    return state.with_fighters(*changed)


def _waiting_neutrals(state: GameState) -> list[Fighter]:
    """XX-E-1: the neutral fighters in play not yet activated this round, in card order."""
    return [
        f
        for f in state.fighters
        if f.player == NEUTRAL
        and f.alive
        and not f.activated
        and (f.on_table or state.battleground is None)
    ]


def open_floor(state: GameState) -> Transition:
    """IV-B-1 / III-B-2: refusals from the difference in cards (with three players or more,
    against the largest deck, XX-F-2), reserves emptied; the first speaker takes the floor."""
    events: list[Event] = []
    most = max(len(state.side(p).deck) for p in state.players)
    for player in state.players:
        refusals = most - len(state.side(player).deck)
        side = evolve(state.side(player), reserve=None, reserve_used=False, refusals=refusals)
        state = state.with_side(side)
        if refusals:
            events.append(RefusalsGranted(player, refusals))
    floor = _next_floor(state, state.speaking_order()[-1])
    return evolve(state, activation=ActivationProgress(floor=floor)), events


def _next_floor(state: GameState, after: int) -> int | None:
    """Who speaks after ``after``: the next player in the speaking order (IV-B-1, XX-F-3)
    with cards left, ``after`` himself if only he has (note 1), else nobody."""
    order = state.speaking_order()
    at = order.index(after)
    count = len(order)
    for step in range(1, count + 1):
        player = order[(at + step) % count]
        if state.side(player).cards_left:
            return player
    return None


def drive(state: GameState) -> Transition:
    """Move the activation phase on to its next question, or end it."""
    progress = state.activation
    if progress is None:
        return _begin(state)
    if progress.current is not None:
        pending = Pending(QuestionKind.ACTIVATION, progress.current.player)
        return evolve(state, pending=pending), []
    if progress.floor is not None:
        return evolve(state, pending=Pending(QuestionKind.FLOOR, progress.floor)), []
    # XX-E-1: those in contact with a non-neutral fighter at the start, after all the others.
    late = _waiting_neutrals(state)
    if late:
        return _activate(state, NEUTRAL, tuple(f.card for f in late))
    end = PhaseEnded(state.round, Phase.ACTIVATION.value)
    return evolve(state, phase=Phase.COMBAT, activation=None, combat=None), [end]


# --- the floor (IV-B-1) ----------------------------------------------------------------------


def _progress(state: GameState) -> ActivationProgress:
    if state.activation is None:
        raise EngineError("the activation phase is not under way")
    return state.activation


def floor_choices(state: GameState, player: int) -> list[Choice]:
    """What ``player`` may do with the floor (IV-B-1)."""
    side = state.side(player)
    choices: list[Choice] = []
    if side.deck:
        choices.append(PlayTop())
        if not side.reserve_used:
            choices.append(PutInReserve())
    if side.reserve is not None:
        choices.append(PlayReserve())
        if side.deck:
            choices.append(PlayReserveAndTop())
    # Ruling: a refusal gives the floor to the next speaker, so it needs another player with
    # cards left (with three players or more, any other, XX-F-2).
    if side.refusals and any(state.side(p).cards_left for p in state.enemies(player)):
        choices.append(Refuse())
    return choices


def _floor_legal(state: GameState) -> list[Choice]:
    assert state.pending is not None and state.pending.player is not None
    return floor_choices(state, state.pending.player)


def _floor_apply(state: GameState, choice: Choice) -> Transition:
    player = _progress(state).floor
    assert player is not None
    side = state.side(player)
    if isinstance(choice, PutInReserve):
        card = side.deck[0]
        side = evolve(side, deck=side.deck[1:], reserve=card, reserve_used=True)
        state = _pass_floor(state.with_side(side), player)
        return state, [CardPlacedInReserve(player, card)]
    if isinstance(choice, Refuse):
        side = evolve(side, refusals=side.refusals - 1)
        state = _pass_floor(state.with_side(side), player)
        return state, [CardRefused(player, side.refusals)]
    events: list[Event] = []
    played: list[str] = []
    if isinstance(choice, PlayReserve | PlayReserveAndTop):
        assert side.reserve is not None
        played.append(side.reserve)
        events.append(CardRevealed(player, side.reserve, "reserve"))
        side = evolve(side, reserve=None)
    if isinstance(choice, PlayTop | PlayReserveAndTop):
        played.append(side.deck[0])
        events.append(CardRevealed(player, side.deck[0], "deck"))
        side = evolve(side, deck=side.deck[1:])
    state, activated = _activate(state.with_side(side), player, tuple(played))
    return state, events + activated


def _pass_floor(state: GameState, player: int) -> GameState:
    if player == NEUTRAL:  # XX-E-1: the neutral side never holds the floor
        return evolve(state, activation=evolve(_progress(state), current=None))
    progress = evolve(_progress(state), floor=_next_floor(state, player), current=None)
    return evolve(state, activation=progress)


def _activate(state: GameState, player: int, cards: tuple[str, ...]) -> Transition:
    """IV-B-2: all the living fighters of the played card(s) are activated together (in the
    deployment phase, III-B-2: they are the fighters to place). An activated fighter loses
    the Target/+2 of a move under cover (V-B-4: "until his next activation")."""
    events: list[Event] = []
    fighters: list[str] = []
    deploying = state.phase is Phase.DEPLOYMENT
    for card_id in cards:
        for fighter_id in state.card(card_id).fighters:
            fighter = state.fighter(fighter_id)
            if not fighter.alive:
                continue  # note 2: the card is played, its dead fighters do nothing
            if fighter.activated:
                raise EngineError(f"{fighter_id} would be activated twice this round")
            fighters.append(fighter_id)
            if not deploying:
                events.append(FighterActivated(fighter_id, card_id))
    if not deploying:
        state = state.with_fighters(
            *(evolve(state.fighter(f), activated=True, cover=False) for f in fighters)
        )
    if not fighters:
        events.append(ActivationEnded(player, cards))
        return _pass_floor(state, player), events
    # XX-E-6: a passive individual beyond 15 cm of every defender now may not be moved
    tethered = () if deploying else tuple(f for f in fighters if passive.tethered(state, f))
    current = Activation(player=player, cards=cards, fighters=tuple(fighters), tethered=tethered)
    progress = evolve(_progress(state), current=current)
    return evolve(state, activation=progress), events


_FLOOR_LABELS: dict[type[Choice], tuple[str, str]] = {
    PlayTop: ("play the top card", "reveal it and activate (or deploy) its fighters"),
    PutInReserve: ("put the top card in reserve", "face down; once per phase"),
    PlayReserve: ("play the reserve card", "instead of the top card"),
    PlayReserveAndTop: ("play the reserve and the top card", "both cards' fighters act"),
    Refuse: ("refuse", "play no card and give the floor back"),
}


def _floor_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None and state.pending.player is not None
    player = state.pending.player
    side = state.side(player)
    options = []
    for c in choices:
        label, detail = _FLOOR_LABELS[type(c)]
        if isinstance(c, PlayTop | PlayReserveAndTop | PutInReserve) and side.deck:
            label += f" ({state.card(side.deck[0]).label})"
        if isinstance(c, Refuse):
            detail += f"; {side.refusals} left"
        options.append(Option(c, label, detail))
    prompt = f"{player_name(player)} has the floor ({side.cards_left} card(s) left)."
    return Question(QuestionKind.FLOOR, player, prompt, tuple(options))


# --- the activated fighters (IV-B-2) ----------------------------------------------------------


def _current(state: GameState) -> Activation:
    current = _progress(state).current
    if current is None:
        raise EngineError("no activation is under way")
    return current


def _activation_legal(state: GameState) -> Sequence[Choice]:
    """The providers' choices; while exclusive actions are being announced (IV-B-2) the
    activation cannot end (the announcements end with the provider's own choice).

    A provider's :class:`~.deferred.LazyChoices` stay lazy: their deferred parts (assault
    announcements, each at least one :class:`Announce`; shots) are worked out when read."""
    current = _current(state)
    parts: list[Part] = []
    for provider in rules_of(state).action_providers.values():
        parts.extend(parts_of(provider.choices(state, current)))
    if current.stage != ActivationStage.ANNOUNCE or not any(
        isinstance(c, Announce | AnnouncementsDone) or (isinstance(c, Deferred) and c.least)
        for c in parts
    ):
        parts.append(EndActivation())
    if any(isinstance(c, Deferred) for c in parts):
        return LazyChoices(parts)
    return [c for c in parts if isinstance(c, Choice)]


def _activation_apply(state: GameState, choice: Choice) -> Transition:
    current = _current(state)
    if isinstance(choice, EndActivation):
        event = ActivationEnded(current.player, current.cards)
        return _pass_floor(state, current.player), [event]
    for provider in rules_of(state).action_providers.values():
        if provider.handles(choice):
            return provider.apply(state, choice)
    raise EngineError(f"no action provider handles {choice!r}")


def _provider_option(state: GameState, choice: Choice) -> Option:
    for provider in rules_of(state).action_providers.values():
        if provider.handles(choice):
            describe = getattr(provider, "option", None)
            if describe is not None:
                option: Option = describe(state, choice)
                return option
    return Option(choice, choice.kind)


def _activation_describe(state: GameState, choices: Sequence[Choice]) -> Question:
    current = _current(state)
    names = ", ".join(
        f"{state.profile(state.fighter(f).profile).name} ({f})" for f in current.fighters
    )
    options = tuple(
        Option(c, "end the activation", "the activated fighters do nothing more")
        if isinstance(c, EndActivation)
        else _provider_option(state, c)
        for c in choices
    )
    prompt = f"{player_name(current.player)}: activated — {names}. What do they do?"
    return Question(QuestionKind.ACTIVATION, current.player, prompt, options)


def contribute(rules: RulesBuilder) -> None:
    """The activation phase's driver and questions (IV-B)."""
    rules.phase(Phase.ACTIVATION, drive)
    rules.handler(Handler(QuestionKind.FLOOR, _floor_legal, _floor_apply, _floor_describe))
    rules.handler(
        Handler(QuestionKind.ACTIVATION, _activation_legal, _activation_apply, _activation_describe)
    )
