"""What a seat is shown of a game, as JSON: the table (SVG and the fighters with their
cards), the players, the pending question with its options, the narration."""

from __future__ import annotations

from typing import Any

from confrontation.agents.advice import option_odds
from confrontation.engine.core.questions import Place, Question
from confrontation.engine.core.state import Fighter, GameState, player_name
from confrontation.engine.step import is_over, question
from confrontation.web.board import SCALE, board_svg, markers
from confrontation.web.hub import PERSON, LiveGame


def card(state: GameState, fighter: Fighter) -> dict[str, Any]:
    """A fighter as the page shows him on hover: his reference card and his state."""
    profile = state.profile(fighter.profile)
    return {
        "id": fighter.id,
        "player": fighter.player,
        "name": profile.name,
        "card": state.card(fighter.card).label,
        "x": round(fighter.x, 2),
        "y": round(fighter.y, 2),
        "facing": round(fighter.facing, 1),
        "wounds": fighter.wounds,
        "alive": fighter.alive,
        "on_table": fighter.in_play,
        "markers": markers(fighter),
        "profile": {
            "people": profile.people,
            "MOV": profile.mov,
            "INI": profile.ini,
            "ATT": profile.att,
            "STR": profile.strength,
            "DEF": profile.defense,
            "RES": profile.res,
            "AIM": profile.aim,
            "DIS": profile.discipline,
            "size": profile.size,
            "AP": profile.ap,
            "abilities": list(profile.abilities),
        },
    }


def question_view(
    asked: Question, odds: list[Any] | None = None, hint: int | None = None
) -> dict[str, Any]:
    """The pending question with its options; an option that is a place says where, one
    with odds has them (``advice.option_odds``); ``hint``: the option the greedy AI would
    choose on the seat's own view."""
    options = []
    for index, option in enumerate(asked.options):
        choice = option.choice
        place = None
        if isinstance(choice, Place):
            place = {"x": choice.x, "y": choice.y, "facing": choice.facing}
        options.append(
            {
                "index": index,
                "label": option.label,
                "detail": option.detail,
                "place": place,
                "odds": odds[index] if odds is not None else None,
            }
        )
    return {
        "kind": str(asked.kind),
        "player": asked.player,
        "prompt": asked.prompt,
        "free": asked.free,
        "options": options,
        "hint": hint,
        "actors": actors(asked),
    }


def actors(asked: Question) -> dict[str, list[int]]:
    """The options about each fighter (his actions: the page highlights them when he is
    clicked), and the options aimed at each target (a click on him takes one)."""
    out: dict[str, list[int]] = {}
    for index, option in enumerate(asked.options):
        for name in ("fighter", "attacker"):
            who = getattr(option.choice, name, None)
            if isinstance(who, str):
                out.setdefault(who, []).append(index)
    return out


def targets(asked: Question) -> dict[str, list[int]]:
    """The options naming each target fighter (a charge, a shot, an attack, a redirect)."""
    out: dict[str, list[int]] = {}
    for index, option in enumerate(asked.options):
        for name in ("target", "to"):
            who = getattr(option.choice, name, None)
            if isinstance(who, str):
                out.setdefault(who, []).append(index)
    return out


def advised(game: LiveGame, full: GameState, asked: Question, turn: int) -> dict[str, Any]:
    """The question as its seat is shown it: odds beside the options (from what the seat
    sees), the AI's hint (on the seat's redacted view)."""
    view = question_view(asked, option_odds(full, asked), game.hint(asked, turn, full))
    view["targets"] = targets(asked)
    view["auto"] = game.auto.get(asked.player, False) if asked.player is not None else False
    return view


def game_view(game: LiveGame, players: frozenset[int], since: int = 0) -> dict[str, Any]:
    """The game as the holder of ``players``' seats sees it (narration from line ``since``)."""
    with game.lock:
        full = game.current()
        state = game.view_state(players)
        asked = question(full)
        lines = game.lines[since:]
        turn, running, error = game.turn, game.running, game.error
    over = is_over(full)
    pending: dict[str, Any] | None = None
    status = "over" if over else "stopped" if error else "playing"
    if not over and asked is not None and asked.player is not None:
        who = asked.player
        if who in players and game.seats[who] == PERSON and not running:
            pending = advised(game, full, asked, turn)
            status = "your-turn"
        else:
            seat = game.seats[who]
            doing = "thinks" if seat != PERSON else "is to answer"
            if seat == PERSON and running:  # the server plays on (a die, an automatic answer)
                doing = "answers once the server has played on"
            pending = {"player": who, "waiting": f"{player_name(who)} ({seat}) {doing}."}
    sides = []
    for player in state.players:
        side = state.sides[player]
        own = player in players
        sides.append(
            {
                "player": player,
                "name": player_name(player),
                "army": side.name,
                "seat": game.seats[player],
                "yours": own,
                "score": state.scores[player],
                "cards_left": len(side.deck) + (side.reserve is not None),
                "sequence": [state.card(c).label for c in side.deck] if own else None,
                "reserve": (
                    state.card(side.reserve).label if own and side.reserve is not None else None
                ),
            }
        )
    ground = state.battleground
    return {
        "id": game.id,
        "scenario": game.scenario,
        "status": status,
        "error": error,
        "turn": turn,
        "round": state.round,
        "rounds": state.rounds,
        "phase": str(state.phase),
        "players": sides,
        "you": sorted(players),
        "auto": {str(p): on for p, on in game.auto.items() if p in players},
        "winner": state.winner if over else None,
        "question": pending,
        "table": {
            "width": ground.width if ground else 0,
            "height": ground.height if ground else 0,
            "scale": SCALE,
        },
        "fighters": [card(state, f) for f in state.fighters],
        "svg": board_svg(state),
        "log": [
            {"round": line.round, "text": line.text, "section": line.section, "dice": line.dice}
            for line in lines
        ],
        "log_from": since,
    }
