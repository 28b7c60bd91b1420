"""What a seat is shown of a game, as JSON: the table (SVG and the fighters with their
cards), the players, the pending question with its options, the narration."""

from __future__ import annotations

from typing import Any

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


def question_view(asked: Question) -> dict[str, Any]:
    """The pending question with its options; an option that is a place says where."""
    options = []
    for index, option in enumerate(asked.options):
        choice = option.choice
        place = None
        if isinstance(choice, Place):
            place = {"x": choice.x, "y": choice.y, "facing": choice.facing}
        options.append(
            {"index": index, "label": option.label, "detail": option.detail, "place": place}
        )
    return {
        "kind": str(asked.kind),
        "player": asked.player,
        "prompt": asked.prompt,
        "free": asked.free,
        "options": options,
    }


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
            pending = question_view(asked)
            status = "your-turn"
        else:
            seat = game.seats[who]
            doing = "thinks" if seat != PERSON else "is to answer"
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
        "winner": state.winner if over else None,
        "question": pending,
        "table": {
            "width": ground.width if ground else 0,
            "height": ground.height if ground else 0,
            "scale": SCALE,
        },
        "fighters": [card(state, f) for f in state.fighters],
        "svg": board_svg(state),
        "log": [{"round": line.round, "text": line.text} for line in lines],
        "log_from": since,
    }
