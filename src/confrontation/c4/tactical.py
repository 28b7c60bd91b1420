"""The tactical phase (``# C4 Tactical Phase``): the activation sequences and the Authority
opposition, then the winner chooses the first active player.

For the integrator: :func:`begin_round` starts a round (called by the control phase and by
``step.start``); :func:`drive` is the phase's driver; :data:`HANDLERS` its questions
(``c4_sequence``, ``c4_authority_die``, ``c4_authority_reroll``, ``c4_authority_reroll_die``,
``c4_choose_first``). Pure helpers: :func:`commander`, :func:`authority_terms`,
:func:`settle` (who won, lost or tied once the dice are down).

Rules (``# C4 Authority Opposition``): each player rolls one die (a bonus die if his Commander
is a Strategist; the best die is kept) and adds his Commander's Authority; a 1 loses; all 1s
roll again; a 6 may be re-rolled and added, the lowest Authority deciding first, a re-roll
showing 1 loses; the highest result wins; a tie is rolled again. A Commander in a unit in
rout, or no Incarnate with Authority: the bare die.

Sections (docs/rules-index.toml): C4-TACTICAL-PHASE, C4-ORDERING-THE-ACTIVATION-SEQUENCE,
C4-AUTHORITY-OPPOSITION.
"""

from __future__ import annotations

from collections.abc import Sequence

from confrontation.c4.choices import ChooseFirst, DieFace, KeepResult, PlaceCard, Raise
from confrontation.c4.events import (
    AuthorityAllOnes,
    AuthorityLost,
    AuthorityRerolled,
    AuthorityRolled,
    AuthorityTied,
    AuthorityWon,
    C4PhaseStarted,
    C4RoundStarted,
    FirstActiveChosen,
    SequenceBuilt,
)
from confrontation.c4.handlers import Handler, Transition, ask, die_describe, die_legal
from confrontation.c4.modes import Order, mode
from confrontation.c4.state import (
    Activation,
    Authority,
    C4State,
    Fighter,
    Kind,
    Phase,
    Side,
    Tactical,
)
from confrontation.engine.core.events import Event
from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.questions import Choice, Option, Question

STRATEGIST = "strategist"
"""The ability that gives a bonus die on the Authority opposition."""


def begin_round(state: C4State) -> Transition:
    """A new round's tactical phase: every unit not yet activated, fresh sides."""
    units = tuple(evolve(u, activated=False) for u in state.units)
    sides = tuple(Side(p) for p in range(state.players))
    state = evolve(
        state,
        units=units,
        sides=sides,
        phase=Phase.TACTICAL,
        tactical=Tactical(building=((),) * state.players),
        activation=None,
        first=None,
        authority_winner=None,
    )
    return state, [C4RoundStarted(state.round), C4PhaseStarted(state.round, Phase.TACTICAL)]


def cards_of(state: C4State, player: int) -> tuple[str, ...]:
    """``# C4 Ordering the activation sequence``: the cards of the player's units on the
    battlefield (a unit's card is its id), sorted."""
    return tuple(sorted(u.id for u in state.units_of(player)))


def commander(state: C4State, player: int) -> Fighter | None:
    """``# C4 Authority Opposition``: the player's Incarnate with the highest Authority (equal
    Authorities: a Strategist first, then the first by id — ruling); None if he has none."""
    ids = {u.id for u in state.units_of(player)}
    candidates = [
        f for f in state.fighters if f.unit in ids and f.incarnate and f.authority is not None
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda f: (-(f.authority or 0), STRATEGIST not in f.abilities, f.id))


def authority_terms(state: C4State, player: int) -> tuple[int, int]:
    """(dice rolled, value added) for the player's Authority roll.

    ``# C4 Authority Opposition``: a Strategist Commander rolls a bonus die; a Commander in a unit
    in rout, or no Incarnate with Authority: the result is the die alone (one die, ruling)."""
    chief = commander(state, player)
    if chief is None or state.unit(chief.unit).rout:
        return 1, 0
    return (2 if STRATEGIST in chief.abilities else 1), chief.authority or 0


def _opposition(state: C4State, contenders: tuple[int, ...], attempt: int) -> Authority:
    terms = [authority_terms(state, p) for p in contenders]
    return Authority(
        contenders=contenders,
        dice=tuple(t[0] for t in terms),
        values=tuple(t[1] for t in terms),
        faces=((),) * len(contenders),
        attempt=attempt,
    )


def lost(chain: Sequence[int]) -> bool:
    """A 1 on the kept die, or on a re-roll, loses the opposition."""
    return bool(chain) and (chain[0] == 1 or chain[-1] == 1)


def decider(auth: Authority) -> int | None:
    """The index of the contender who decides now whether to re-roll his 6, or None.

    Only while two contenders or more are still in; the lowest Authority decides first
    (equal: the contenders' order)."""
    alive = [i for i, c in enumerate(auth.chains) if not lost(c)]
    if len(alive) < 2:
        return None
    waiting = [i for i in alive if auth.chains[i][-1] == 6 and not auth.stopped[i]]
    if not waiting:
        return None
    return min(waiting, key=lambda i: (auth.values[i], i))


def settle(auth: Authority) -> tuple[int | None, tuple[int, ...]]:
    """Once nobody decides: (winner, ()) or (None, the contenders who roll again)."""
    alive = [i for i, c in enumerate(auth.chains) if not lost(c)]
    if not alive:  # everybody lost (ruling): the opposition is rolled again
        return None, auth.contenders
    results = {i: sum(auth.chains[i]) + auth.values[i] for i in alive}
    best = max(results.values())
    top = [i for i in alive if results[i] == best]
    if len(top) == 1:
        return auth.contenders[top[0]], ()
    return None, tuple(auth.contenders[i] for i in top)


def drive(state: C4State) -> Transition:
    """Move the tactical phase on until a question or a die is pending."""
    tac = state.tactical
    if tac is None:
        return begin_round(state)
    game_mode = mode(state.mode)
    if not tac.built:
        if game_mode.builds_sequence:
            for p in range(state.players):
                left = [c for c in cards_of(state, p) if c not in tac.building[p]]
                if len(left) > 1:
                    return ask(state, Kind.SEQUENCE, p), []
                if left:  # the last card goes last: no choice to make
                    building = list(tac.building)
                    building[p] = (*building[p], left[0])
                    return evolve(state, tactical=evolve(tac, building=tuple(building))), []
            orders = tac.building
        else:
            orders = tuple(cards_of(state, p) for p in range(state.players))
        events: list[Event] = []
        sides = []
        for p in range(state.players):
            in_hand = orders[p] if game_mode.order is not Order.SHARED_DECK else ()
            sides.append(Side(p, sequence=in_hand))
            events.append(SequenceBuilt(p, orders[p]))
        opening = _opposition(state, tuple(range(state.players)), 1)
        tac = evolve(tac, built=True, authority=opening)
        return evolve(state, sides=tuple(sides), tactical=tac), events
    if tac.winner is not None:
        return ask(state, Kind.CHOOSE_FIRST, tac.winner), []
    current = tac.authority
    assert current is not None
    auth: Authority = current
    for i, faces in enumerate(auth.faces):
        if len(faces) < auth.dice[i]:
            return ask(state, Kind.AUTHORITY_DIE, None), []
    if not auth.chains:
        return _first_dice_down(state, auth)
    who = decider(auth)
    if who is not None:
        return ask(state, Kind.AUTHORITY_REROLL, auth.contenders[who]), []
    winner, again = settle(auth)
    if winner is not None:
        result = (
            sum(auth.chains[auth.contenders.index(winner)])
            + auth.values[auth.contenders.index(winner)]
        )
        tac = evolve(tac, winner=winner, authority=None)
        return evolve(state, tactical=tac, authority_winner=winner), [AuthorityWon(winner, result)]
    i0 = auth.contenders.index(again[0])
    tied = AuthorityTied(again, sum(auth.chains[i0]) + auth.values[i0])
    tac = evolve(tac, authority=_opposition(state, again, auth.attempt + 1))
    return evolve(state, tactical=tac), [tied]


def _first_dice_down(state: C4State, auth: Authority) -> Transition:
    """Every first die is down: keep each player's best; all 1s roll again; a 1 loses."""
    assert state.tactical is not None
    events: list[Event] = []
    kept = tuple(max(faces) for faces in auth.faces)
    for i, p in enumerate(auth.contenders):
        events.append(AuthorityRolled(p, auth.faces[i], kept[i], auth.values[i]))
    if all(k == 1 for k in kept):  # all the players get a 1: they all re-roll
        events.append(AuthorityAllOnes(auth.contenders))
        auth = _opposition(state, auth.contenders, auth.attempt + 1)
    else:
        auth = evolve(
            auth, chains=tuple((k,) for k in kept), stopped=(False,) * len(auth.contenders)
        )
        events.extend(AuthorityLost(p) for i, p in enumerate(auth.contenders) if kept[i] == 1)
    return evolve(state, tactical=evolve(state.tactical, authority=auth)), events


# --- handlers -----------------------------------------------------------------------------


def _tac(state: C4State) -> Tactical:
    assert state.tactical is not None
    return state.tactical


def _auth(state: C4State) -> Authority:
    auth = _tac(state).authority
    assert auth is not None
    return auth


def _sequence_legal(state: C4State) -> list[Choice]:
    assert state.pending is not None and state.pending.player is not None
    p = state.pending.player
    placed = _tac(state).building[p]
    return [PlaceCard(c) for c in cards_of(state, p) if c not in placed]


def _sequence_apply(state: C4State, choice: Choice) -> Transition:
    assert isinstance(choice, PlaceCard)
    player = next(
        p
        for p in range(state.players)
        if choice.card in cards_of(state, p) and choice.card not in _tac(state).building[p]
    )
    building = list(_tac(state).building)
    building[player] = (*building[player], choice.card)
    return evolve(state, tactical=evolve(_tac(state), building=tuple(building))), []


def _sequence_describe(state: C4State, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None
    return Question(
        Kind.SEQUENCE,
        state.pending.player,
        "Place your next card in the activation sequence (first card first)",
        tuple(Option(c, f"place {c.card}") for c in choices if isinstance(c, PlaceCard)),
    )


def _authority_subject(state: C4State) -> int | None:
    auth = _auth(state)
    for i, faces in enumerate(auth.faces):
        if len(faces) < auth.dice[i]:
            return auth.contenders[i]
    return None


def _authority_die_apply(state: C4State, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    auth = _auth(state)
    i = next(i for i, faces in enumerate(auth.faces) if len(faces) < auth.dice[i])
    faces = list(auth.faces)
    faces[i] = (*faces[i], choice.face)
    tac = evolve(_tac(state), authority=evolve(auth, faces=tuple(faces)))
    return evolve(state, tactical=tac), []


def _reroll_legal(state: C4State) -> list[Choice]:
    return [Raise(), KeepResult()]


def _reroll_apply(state: C4State, choice: Choice) -> Transition:
    auth = _auth(state)
    who = decider(auth)
    assert who is not None
    if isinstance(choice, KeepResult):
        stopped = list(auth.stopped)
        stopped[who] = True
        tac = evolve(_tac(state), authority=evolve(auth, stopped=tuple(stopped)))
        return evolve(state, tactical=tac), []
    return ask(state, Kind.AUTHORITY_REROLL_DIE, None), []


def _reroll_die_apply(state: C4State, choice: Choice) -> Transition:
    assert isinstance(choice, DieFace)
    auth = _auth(state)
    who = decider(auth)
    assert who is not None
    chains = list(auth.chains)
    chains[who] = (*chains[who], choice.face)
    auth = evolve(auth, chains=tuple(chains))
    p = auth.contenders[who]
    events: list[Event] = [AuthorityRerolled(p, choice.face, sum(chains[who]))]
    if choice.face == 1:  # a re-roll showing 1: the opposition is lost
        events.append(AuthorityLost(p))
    return evolve(state, tactical=evolve(_tac(state), authority=auth)), events


def _reroll_subject(state: C4State) -> int | None:
    auth = _auth(state)
    who = decider(auth)
    return None if who is None else auth.contenders[who]


def _reroll_describe(state: C4State, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None
    auth = _auth(state)
    who = decider(auth)
    total = sum(auth.chains[who]) if who is not None else 0
    return Question(
        Kind.AUTHORITY_REROLL,
        state.pending.player,
        f"Your Authority die shows a 6 (dice total {total}): re-roll and add, or keep?",
        (
            Option(Raise(), "re-roll the 6 and add it (a 1 loses)"),
            Option(KeepResult(), "keep the result"),
        ),
    )


def _first_legal(state: C4State) -> list[Choice]:
    return [ChooseFirst(p) for p in range(state.players)]


def _first_apply(state: C4State, choice: Choice) -> Transition:
    assert isinstance(choice, ChooseFirst)
    winner = _tac(state).winner
    assert winner is not None
    deck: tuple[str, ...] = ()
    if mode(state.mode).order is Order.SHARED_DECK:
        deck = tuple(sorted(u.id for p in range(state.players) for u in state.units_of(p)))
    state = evolve(
        state,
        first=choice.player,
        phase=Phase.ACTIVATION,
        tactical=None,
        activation=Activation(active=choice.player, drawer=choice.player, deck=deck),
    )
    return state, [
        FirstActiveChosen(winner, choice.player),
        C4PhaseStarted(state.round, Phase.ACTIVATION),
    ]


def _first_describe(state: C4State, choices: Sequence[Choice]) -> Question:
    assert state.pending is not None
    return Question(
        Kind.CHOOSE_FIRST,
        state.pending.player,
        "You won the Authority opposition: who is the first active player?",
        tuple(Option(c, f"player {c.player + 1}") for c in choices if isinstance(c, ChooseFirst)),
    )


HANDLERS: dict[str, Handler] = {
    Kind.SEQUENCE: Handler(Kind.SEQUENCE, _sequence_legal, _sequence_apply, _sequence_describe),
    Kind.AUTHORITY_DIE: Handler(
        Kind.AUTHORITY_DIE,
        die_legal,
        _authority_die_apply,
        die_describe("Authority die"),
        _authority_subject,
    ),
    Kind.AUTHORITY_REROLL: Handler(
        Kind.AUTHORITY_REROLL, _reroll_legal, _reroll_apply, _reroll_describe
    ),
    Kind.AUTHORITY_REROLL_DIE: Handler(
        Kind.AUTHORITY_REROLL_DIE,
        die_legal,
        _reroll_die_apply,
        die_describe("Authority re-roll"),
        _reroll_subject,
    ),
    Kind.CHOOSE_FIRST: Handler(Kind.CHOOSE_FIRST, _first_legal, _first_apply, _first_describe),
}
