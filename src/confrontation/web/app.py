"""The web server: pages to start and play games, and the JSON API under them.

Pages: ``/`` (start a game, the saved games), ``/games/{id}?seat=TOKEN`` (the table; a
hot-seat page holds several ``seat`` tokens). The API is under ``/api`` and described by
FastAPI's OpenAPI document (``/openapi.json``, browsable at ``/docs``). A refused request
gets a 4xx with ``{"detail": "one line"}`` and changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
import tempfile
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, File, Query, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field, ValidationError
from starlette.datastructures import UploadFile as StarletteUpload
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route

from confrontation.armylists.load import LoadError, bundled_army_files, load_army
from confrontation.armylists.validate import Report, validate
from confrontation.c4.cards import bundled_cards
from confrontation.c4.company import Company, bundled_companies, load_company, validate_company
from confrontation.c4.picture import svg as c4_svg
from confrontation.engine.core.ruleset import known_rulesets
from confrontation.engine.record import event_line
from confrontation.scenarios import bundled_scenarios, resolve
from confrontation.scenarios.base import load_scenario
from confrontation.sim.c4game import DEFAULT_MODE, MODES
from confrontation.web.board import NoPng, board_svg, svg_to_png
from confrontation.web.c4host import (
    C4,
    C4_SCENARIOS,
    C4_SEATS,
    DEFAULT_BATTLE,
    C4LiveGame,
    NewC4,
    rules_of,
)
from confrontation.web.c4replay import C4Frame
from confrontation.web.hub import AI_SEATS, PERSON, SEATS, Frame, Hub, LiveGame, NewGame, WebError
from confrontation.web.params import GameId
from confrontation.web.play import router as play_router
from confrontation.web.views import advised, game_view

HERE = Path(__file__).parent
MAX_UPLOAD = 200_000
"""Bytes: an army list is a few kilobytes."""

SeatQuery = Annotated[
    list[str], Query(description="Seat tokens (the secret links); none: a spectator.")
]


# --- the API's documents --------------------------------------------------------------------


class ArmySpec(BaseModel):
    """An army: a bundled id, or the text of an army list (TOML)."""

    id: str | None = Field(default=None, description="A bundled army id.")
    toml: str | None = Field(default=None, description="An army list file's text.")


MAX_PLAYERS = 6
"""XX-F: a game of three players or more (up to six: the layouts of the deployment areas)."""


class NewGameRequest(BaseModel):
    scenario: str | None = Field(
        default=None,
        description="A bundled id, ':variation' allowed (none: conquest). C4: one of "
        f"{', '.join(C4_SCENARIOS)} (none or '{DEFAULT_BATTLE}': the default battle).",
    )
    scenario_toml: str | None = Field(
        default=None, description="A scenario file's text (used instead of `scenario`)."
    )
    rules: str = Field(default="confede", description="confede, c3 or c4 (the unit-based rules).")
    mode: str | None = Field(
        default=None, description=f"C4 only: the game mode ({', '.join(MODES)}; none: marauder)."
    )
    armies: list[ArmySpec] = Field(
        min_length=2,
        max_length=MAX_PLAYERS,
        description="One per player (2 to 6, XX-F); C4: two bundled companies' ids.",
    )
    seats: list[str] = Field(
        min_length=2,
        max_length=MAX_PLAYERS,
        description=f"One per army: {', '.join(SEATS)}",
    )
    seed: int | None = Field(default=None, ge=0, lt=2**32)
    rounds: int | None = Field(default=None, ge=1, le=12)


class Seat(BaseModel):
    player: int
    seat: str
    token: str | None
    url: str | None


class Created(BaseModel):
    id: int
    url: str
    hotseat_url: str | None
    seats: list[Seat]
    reports: list[dict[str, Any]]


class Refusal(BaseModel):
    """A refused request: one line saying why (nothing was changed)."""

    detail: str


class Deleted(BaseModel):
    id: int
    deleted: bool


class Resumed(BaseModel):
    id: int
    status: str
    url: str


REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": Refusal, "description": why}
    for code, why in (
        (400, "A bad request: an unknown option, army, scenario…"),
        (403, "A seat link that is not the game's, or not allowed this."),
        (404, "No such game (or round)."),
        (409, "Not now: a stale answer, a game being played, over, stopped…"),
        (422, "A request of the wrong shape (the first problem)."),
    )
}
ROUND = Query(ge=0, le=99, description="The table at the end of this round (0: deployed).")


def body_of(media: str, **schema: str) -> dict[int | str, dict[str, Any]]:
    """An endpoint's 200 answer that is not JSON, for the OpenAPI description."""
    return {200: {"content": {media: {"schema": {"type": "string", **schema}}}}}


SVG = body_of("image/svg+xml")
PNG = {
    **body_of("image/png", format="binary"),
    501: {"model": Refusal, "description": "PNG drawing is not available on this server."},
}
RECORD = body_of("application/x-ndjson")


class Answer(BaseModel):
    option: int = Field(description="The index of the chosen option.")
    turn: int | None = Field(default=None, description="The game's turn the page saw.")
    facing: float | None = Field(default=None, description="Any facing, where the question lets.")


# --- helpers ------------------------------------------------------------------------------


def scenario_choices() -> list[dict[str, Any]]:
    """Every bundled scenario with its variations."""
    out = []
    for scenario_id in bundled_scenarios():
        scenario = resolve(scenario_id)
        out.append(
            {"id": scenario_id, "name": scenario.name, "variations": list(scenario.variations)}
        )
    return out


def army_choices() -> list[str]:
    return sorted(p.stem for p in bundled_army_files())


def rules_choices() -> list[str]:
    return [*known_rulesets(), C4]


def c4_choices() -> dict[str, Any]:
    """What a C4 game can be started with."""
    return {
        "modes": list(MODES),
        "default_mode": DEFAULT_MODE,
        "companies": sorted(bundled_companies()),
        "scenarios": [DEFAULT_BATTLE, *C4_SCENARIOS],
        "seats": list(C4_SEATS),
    }


def report_of(report: Report) -> dict[str, Any]:
    """The validator's report (I-D) as the pages show it."""
    return {
        "name": report.name,
        "valid": report.valid,
        "summary": (
            f"{report.name}: {'valid' if report.valid else 'INVALID'} — "
            f"{report.total_ap}/{report.points} AP, {report.fighters}/{report.quota} fighters"
        ),
        "violations": [str(v) for v in report.violations],
        "notes": [str(n) for n in report.notes],
    }


def one_line(error: RequestValidationError) -> str:
    first = error.errors()[0] if error.errors() else {}
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    return f"{where}: {first.get('msg', 'invalid request')}" if where else "invalid request"


# --- the app --------------------------------------------------------------------------------


def create_app(db: str | None = None) -> FastAPI:
    """The server's app, its games kept in the store at ``db`` (default: the CLI's)."""
    hub = Hub(db)
    uploads = Path(tempfile.mkdtemp(prefix="confrontation-uploads-"))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> Any:
        yield
        hub.close()

    app = FastAPI(
        title="confrontation",
        summary="Play Confrontation in a browser: start games, see the table, answer questions.",
        version="0.1.0",
        lifespan=lifespan,
        responses=REFUSALS,
    )
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")

    @app.exception_handler(WebError)
    async def refused(request: Request, error: WebError) -> Response:
        if request.url.path.startswith("/api"):
            return JSONResponse({"detail": error.message}, status_code=error.status)
        return templates.TemplateResponse(
            request, "error.html", {"message": error.message}, status_code=error.status
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        """Starlette's own refusals (no such path, a method the path has not) as one line;
        a 405 lists every method the path has (Starlette's names only its first route's)."""
        headers = dict(error.headers or {})
        if error.status_code == 405:
            methods = set()
            for route in app.routes:
                if isinstance(route, Route) and route.path_regex.match(request.url.path):
                    methods |= route.methods or set()
            headers["Allow"] = ", ".join(sorted(methods))
        return JSONResponse({"detail": error.detail}, error.status_code, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        return JSONResponse({"detail": one_line(error)}, status_code=422)

    def army_file(spec: ArmySpec, player: int) -> tuple[str, dict[str, Any]]:
        """An army to play: its name for the game and the validator's report; a 400 for
        one that cannot be read or breaks chapter I-D."""
        if (spec.id is None) == (spec.toml is None):
            raise WebError(400, f"army {player + 1}: give a bundled id or a list's text")
        if spec.toml is not None:
            data = spec.toml.encode("utf-8")
            if len(data) > MAX_UPLOAD:
                raise WebError(400, f"army {player + 1}: the file is over {MAX_UPLOAD} bytes")
            path = uploads / f"army-{hashlib.sha256(data).hexdigest()[:16]}.toml"
            path.write_bytes(data)
            name = str(path)
        else:
            assert spec.id is not None
            if spec.id not in army_choices():
                raise WebError(400, f"army {player + 1}: no bundled army {spec.id!r}")
            name = spec.id
            path = next(p for p in bundled_army_files() if p.stem == spec.id)
        try:
            report = report_of(validate(load_army(path)))
        except LoadError as error:
            message = " ".join(str(error).replace(str(uploads) + "/", "").split())
            raise WebError(400, f"army {player + 1}: {message}") from None
        if not report["valid"]:
            first = report["violations"][0]
            raise WebError(400, f"army {player + 1} breaks the army-list rules (I-D): {first}")
        return name, report

    def scenario_file(text: str) -> str:
        """An uploaded scenario file: its path for the game (a 400 with the loader's one
        line for one that cannot be read)."""
        data = text.encode("utf-8")
        if len(data) > MAX_UPLOAD:
            raise WebError(400, f"scenario: the file is over {MAX_UPLOAD} bytes")
        path = uploads / f"scenario-{hashlib.sha256(data).hexdigest()[:16]}.toml"
        path.write_bytes(data)
        try:
            load_scenario(path)
        except (LoadError, ValueError) as error:
            message = " ".join(str(error).replace(str(path), "the uploaded file").split())
            raise WebError(400, f"scenario: {message}") from None
        return str(path)

    def company_file(text: str, player: int) -> tuple[Path, Company]:
        """An uploaded C4 company file (``c4.company``): its path for the game and the
        company; a 400 with the loader's or the validator's one line naming the file."""
        data = text.encode("utf-8")
        if len(data) > MAX_UPLOAD:
            raise WebError(400, f"army {player + 1}: the file is over {MAX_UPLOAD} bytes")
        path = uploads / f"company-{hashlib.sha256(data).hexdigest()[:16]}.toml"
        path.write_bytes(data)
        try:
            company = load_company(path)
        except (LoadError, ValueError) as error:
            message = " ".join(str(error).replace(str(uploads) + "/", "").split())
            raise WebError(400, f"army {player + 1}: {message}") from None
        report = validate_company(company, bundled_cards())
        if not report.ok:
            raise WebError(400, f"army {player + 1}: {path.name}: {report.errors[0]}")
        return path, company

    def start_c4(request: NewGameRequest) -> Created:
        """A C4 game (``web.c4host``): two bundled companies, two seats."""
        if request.scenario_toml is not None:
            raise WebError(400, "a C4 game plays a bundled scenario, not an uploaded file")
        if len(request.armies) != 2 or len(request.seats) != 2:
            raise WebError(400, "a C4 game opposes two companies: two armies, two seats")
        companies = []
        known = bundled_companies()
        reports = []
        for p, spec in enumerate(request.armies):
            if (spec.id is None) == (spec.toml is None):
                raise WebError(400, f"army {p + 1}: give a bundled company's id or a file's text")
            if spec.toml is not None:
                path, company = company_file(spec.toml, p)
                companies.append(str(path))
                reports.append({"name": company.name, "valid": True, "summary": path.name})
                continue
            assert spec.id is not None
            if spec.id not in known:
                raise WebError(
                    400, f"army {p + 1}: no C4 company {spec.id!r} ({', '.join(sorted(known))})"
                )
            companies.append(spec.id)
            reports.append({"name": known[spec.id].name, "valid": True, "summary": spec.id})
        scenario = request.scenario or None
        if scenario == DEFAULT_BATTLE:
            scenario = None
        game = hub.create_c4(
            NewC4(
                companies=tuple(companies),
                seats=tuple(request.seats),
                seed=request.seed if request.seed is not None else secrets.randbits(32),
                mode=request.mode or DEFAULT_MODE,
                scenario=scenario,
                rounds=request.rounds,
            )
        )
        return created(game, reports)

    def start_game(request: NewGameRequest) -> Created:
        if request.rules == C4:
            return start_c4(request)
        if request.rules not in known_rulesets():
            choices = ", ".join(rules_choices())
            raise WebError(400, f"unknown rules {request.rules!r} ({choices})")
        if request.mode is not None:
            raise WebError(400, "a game mode (mode) is for C4 games only")
        if len(request.armies) != len(request.seats):
            raise WebError(
                400,
                f"{len(request.armies)} armies but {len(request.seats)} seats: one seat per army",
            )
        scenario = request.scenario or "conquest"
        if request.scenario_toml is not None:
            scenario = scenario_file(request.scenario_toml)
        armies, reports = zip(
            *(army_file(spec, p) for p, spec in enumerate(request.armies)), strict=True
        )
        seed = request.seed if request.seed is not None else secrets.randbits(32)
        game = hub.create(
            NewGame(
                scenario=scenario,
                armies=tuple(armies),
                seats=tuple(request.seats),
                seed=seed,
                rounds=request.rounds,
                rules=request.rules,
            )
        )
        return created(game, list(reports))

    def created(game: LiveGame | C4LiveGame, reports: list[dict[str, Any]]) -> Created:
        seats = [
            Seat(
                player=p,
                seat=seat,
                token=game.tokens[p],
                url=f"/games/{game.id}?seat={game.tokens[p]}" if game.tokens[p] else None,
            )
            for p, seat in enumerate(game.seats)
        ]
        held = [t for t in game.tokens if t]
        hotseat = None
        if len(held) > 1:
            hotseat = f"/games/{game.id}?" + "&".join(f"seat={t}" for t in held)
        return Created(
            id=game.id, url=f"/games/{game.id}", hotseat_url=hotseat, seats=seats, reports=reports
        )

    # --- the API ------------------------------------------------------------------------

    @app.get("/api/options", tags=["games"])
    def options() -> dict[str, Any]:
        """What a game can be started with."""
        return {
            "scenarios": scenario_choices(),
            "rules": rules_choices(),
            "armies": army_choices(),
            "seats": list(SEATS),
            "c4": c4_choices(),
        }

    @app.get("/api/games", tags=["games"])
    def games() -> list[dict[str, Any]]:
        """The saved games, newest first (``hosted``: this server has taken it up; one
        ``interrupted``, or ``running`` and not hosted, can be resumed)."""
        hosted = hub.hosted_ids()
        return [
            {
                "id": g.id,
                "scenario": g.scenario,
                "rules": rules_of(g.scenario)[0],
                "mode": rules_of(g.scenario)[1],
                "status": g.status,
                "armies": list(g.armies),
                "agents": list(g.agents),
                "winner": g.outcome.winner if g.outcome else None,
                "events": g.events,
                "hosted": g.id in hosted,
                "updated": g.updated.isoformat(),
            }
            for g in hub.summaries()
        ]

    @app.post("/api/games", tags=["games"], status_code=201)
    def new_game(request: NewGameRequest) -> Created:
        """Start a game; each person's seat gets a secret link."""
        return start_game(request)

    @app.post("/api/armies/check", tags=["armies"])
    def check_army(file: Annotated[UploadFile, File()]) -> dict[str, Any]:
        """The army-list validator's report (chapter I-D) on an uploaded list."""
        text = read_upload(file)
        try:
            path = uploads / f"check-{secrets.token_hex(6)}.toml"
            path.write_text(text, encoding="utf-8")
            try:
                return report_of(validate(load_army(path)))
            finally:
                path.unlink(missing_ok=True)
        except LoadError as error:
            message = " ".join(str(error).replace(str(uploads) + "/", "").split())
            raise WebError(400, message) from None

    @app.get("/api/games/{game_id}", tags=["play"])
    def view(game_id: GameId, seat: SeatQuery = [], since: int = 0) -> dict[str, Any]:  # noqa: B006
        """The game as the given seats see it: table, fighters, players, question, narration."""
        game = hub.get(game_id)
        if isinstance(game, C4LiveGame):
            return game.view(game.players_of(seat), max(since, 0))
        return game_view(game, game.players_of(seat), max(since, 0))

    @app.get("/api/games/{game_id}/question", tags=["play"])
    def pending(game_id: GameId, seat: SeatQuery = []) -> dict[str, Any] | None:  # noqa: B006
        """The question the given seats must answer now (null: none of theirs)."""
        game = hub.get(game_id)
        players = game.players_of(seat)
        if isinstance(game, C4LiveGame):
            return game.pending_for(players)
        from confrontation.engine.step import question

        with game.lock:
            full = game.current()
            asked = question(full)
            running, turn = game.running, game.turn
        if asked is None or asked.player not in players or running:
            return None
        return {"turn": turn, **advised(game, full, asked, turn)}

    @app.post("/api/games/{game_id}/answer", tags=["play"])
    def answer(game_id: GameId, body: Answer, seat: SeatQuery = []) -> dict[str, Any]:  # noqa: B006
        """Answer the pending question (option index, and a facing where any is allowed)."""
        game = hub.get(game_id)
        players = game.players_of(seat)
        if not players:
            raise WebError(403, "a seat link is needed to answer")
        game.answer(players, body.option, turn=body.turn, facing=body.facing)
        if isinstance(game, C4LiveGame):
            return game.view(players)
        return game_view(game, players)

    def table_of(game_id: int, seat: list[str], round_: int | None) -> str:
        """The table now, as the seats see it, or at the end of round ``round_``."""
        if round_ is None:
            game = hub.get(game_id)
            if isinstance(game, C4LiveGame):
                with game.lock:
                    return c4_svg(game.view_state(game.players_of(seat)))
            with game.lock:
                state = game.view_state(game.players_of(seat))
            return board_svg(state)
        if hub.is_c4(game_id):
            _, shown = hub.c4_frames(game_id, seat)
            at = next((f for f in shown if f.round == round_), None)
            if at is None:
                have = ", ".join(str(f.round) for f in shown)
                raise WebError(404, f"game {game_id} has no round {round_} (rounds: {have})")
            return at.svg
        _, replayed = hub.frames(game_id)
        frame = next((f for f in replayed if f.round == round_), None)
        if frame is None:
            have = ", ".join(str(f.round) for f in replayed)
            raise WebError(404, f"game {game_id} has no round {round_} (rounds: {have})")
        return board_svg(frame.state)

    @app.get("/api/games/{game_id}/board.svg", tags=["play"], responses=SVG)
    def board(
        game_id: GameId,
        seat: SeatQuery = [],  # noqa: B006
        round: Annotated[int | None, ROUND] = None,
    ) -> Response:
        """The table as SVG (as the given seats see it), now or at the end of a round."""
        headers = {"Content-Disposition": f'inline; filename="{name(game_id, round)}.svg"'}
        return Response(table_of(game_id, seat, round), media_type="image/svg+xml", headers=headers)

    @app.get("/api/games/{game_id}/board.png", tags=["saved"], responses=PNG)
    def board_png(
        game_id: GameId,
        seat: SeatQuery = [],  # noqa: B006
        round: Annotated[int | None, ROUND] = None,
    ) -> Response:
        """The table as PNG (drawn by CairoSVG), now or at the end of a round."""
        try:
            png = svg_to_png(table_of(game_id, seat, round))
        except NoPng as error:
            raise WebError(501, str(error)) from None
        headers = {"Content-Disposition": f'inline; filename="{name(game_id, round)}.png"'}
        return Response(png, media_type="image/png", headers=headers)

    @app.get("/api/games/{game_id}/record.jsonl", tags=["saved"], responses=RECORD)
    def record(game_id: GameId) -> Response:
        """The game's record so far, one JSON event a line (as `confrontation play --log`
        writes it). It holds every player's secrets: a game with a person's seat gives it
        once it is over."""
        got = hub.record(game_id)
        if not got.over and PERSON in got.seats:
            raise WebError(
                403, f"game {game_id} is not over: its record holds every player's secrets"
            )
        body = "".join(event_line(e) + "\n" for e in got.events)
        headers = {"Content-Disposition": f'attachment; filename="game-{game_id}.jsonl"'}
        return Response(body, media_type="application/x-ndjson", headers=headers)

    @app.get("/api/games/{game_id}/replay", tags=["saved"])
    def replay_api(game_id: GameId, seat: SeatQuery = []) -> dict[str, Any]:  # noqa: B006
        """The game round by round: the table at the end of each round (0: after the
        deployment; an unfinished game ends with the table where it stands) and its story.
        A C4 game: the table at the start of each round, then the end, as the given seats
        see it (everything once it is over or when no person plays in it)."""
        if hub.is_c4(game_id):
            got, shown = hub.c4_frames(game_id, seat)
            return {"id": game_id, "over": got.over, "frames": [c4_frame_of(f) for f in shown]}
        got, replayed = hub.frames(game_id)
        return {"id": game_id, "over": got.over, "frames": [frame_of(f) for f in replayed]}

    @app.delete("/api/games/{game_id}", tags=["saved"])
    def delete(game_id: GameId) -> Deleted:
        """Forget a game and its record (409 while the server is playing it: an AI thinking;
        or while another program records it)."""
        hub.delete(game_id)
        return Deleted(id=game_id, deleted=True)

    @app.post("/api/games/{game_id}/resume", tags=["saved"])
    def resume(game_id: GameId) -> Resumed:
        """Take up an interrupted game (a person plays on through his seat link)."""
        game = hub.resume(game_id)
        with game.lock:
            if isinstance(game, C4LiveGame):
                over = game.over()
            else:
                over = game.state is not None and game.waiting_for() is None and not game.running
        return Resumed(id=game_id, status="over" if over else "playing", url=f"/games/{game_id}")

    app.include_router(play_router)

    # --- the pages ----------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index(request: Request) -> Response:
        return templates.TemplateResponse(
            request,
            "index.html",
            {
                "scenarios": scenario_choices(),
                "rules": rules_choices(),
                "c4": c4_choices(),
                "rules_of": rules_of,
                "armies": army_choices(),
                "seats": SEATS,
                "ai": AI_SEATS,
                "max_players": MAX_PLAYERS,
                "games": hub.summaries(),
                "hosted": hub.hosted_ids(),
            },
        )

    @app.post("/games", response_class=HTMLResponse, include_in_schema=False)
    async def create_page(request: Request) -> Response:
        form = await request.form()

        def text(key: str) -> str:
            value = form.get(key)
            return value if isinstance(value, str) else ""

        def upload(key: str) -> StarletteUpload | None:
            value = form.get(key)
            return value if isinstance(value, StarletteUpload) and value.filename else None

        def company(p: int) -> ArmySpec:
            if text(f"company{p}") != "upload":
                return ArmySpec(id=text(f"company{p}"))
            file = upload(f"company_file{p}")
            if file is None:
                raise WebError(400, f"player {p}: choose a company file to upload")
            return ArmySpec(toml=read_upload(file))

        if text("rules") == C4:
            seed = text("seed")
            rounds = text("rounds")
            try:
                c4_request = NewGameRequest(
                    scenario=text("c4scenario") or None,
                    rules=C4,
                    mode=text("mode") or None,
                    armies=[company(1), company(2)],
                    seats=[text("seat1"), text("seat2")],
                    seed=int(seed) if seed.strip() else None,
                    rounds=int(rounds) if rounds.strip() else None,
                )
            except ValidationError as error:
                first = error.errors()[0]
                where = ".".join(str(part) for part in first["loc"])
                raise WebError(400, f"{where}: {first['msg']}") from None
            except ValueError:
                raise WebError(
                    400, f"seed and rounds are numbers, not {seed!r}, {rounds!r}"
                ) from None
            made = start_game(c4_request)
            if made.hotseat_url is None and sum(1 for s in made.seats if s.url) == 1:
                only = next(s.url for s in made.seats if s.url)
                return RedirectResponse(only, status_code=303)
            return templates.TemplateResponse(request, "created.html", {"made": made})
        count = int(text("players")) if text("players").isdigit() else 2
        if not 2 <= count <= MAX_PLAYERS:
            raise WebError(400, f"a game has 2 to {MAX_PLAYERS} players, not {count}")
        armies, seats = [], []
        for p in range(1, count + 1):
            army, file = text(f"army{p}"), upload(f"file{p}")
            if army == "upload":
                if file is None:
                    raise WebError(400, f"player {p}: choose an army list file to upload")
                armies.append(ArmySpec(toml=read_upload(file)))
            else:
                armies.append(ArmySpec(id=army))
            seats.append(text(f"seat{p}"))
        scenario, scenario_toml = text("scenario"), None
        if scenario == "upload":
            file = upload("scenario_file")
            if file is None:
                raise WebError(400, "choose a scenario file to upload")
            scenario_toml = read_upload(file)
        seed, rounds = text("seed"), text("rounds")
        try:
            request_body = NewGameRequest(
                scenario=scenario if scenario_toml is None else "conquest",
                scenario_toml=scenario_toml,
                rules=text("rules") or "confede",
                armies=armies,
                seats=seats,
                seed=int(seed) if seed.strip() else None,
                rounds=int(rounds) if rounds.strip() else None,
            )
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise WebError(400, f"{where}: {first['msg']}") from None
        except ValueError:
            raise WebError(400, f"seed and rounds are numbers, not {seed!r}, {rounds!r}") from None
        made = start_game(request_body)
        if made.hotseat_url is None and sum(1 for s in made.seats if s.url) == 1:
            only = next(s.url for s in made.seats if s.url)
            return RedirectResponse(only, status_code=303)
        return templates.TemplateResponse(request, "created.html", {"made": made})

    @app.get("/games/{game_id}/replay", response_class=HTMLResponse, include_in_schema=False)
    def replay_page(request: Request, game_id: GameId, seat: SeatQuery = []) -> Response:  # noqa: B006
        if hub.is_c4(game_id):
            got, shown = hub.c4_frames(game_id, seat)
            frames = [c4_frame_of(f) for f in shown]
        else:
            got, replayed = hub.frames(game_id)
            frames = [frame_of(f) for f in replayed]
        return templates.TemplateResponse(
            request,
            "replay.html",
            {
                "record": got,
                "c4": hub.is_c4(game_id),
                "seats": seat,
                "revealed": got.over or PERSON not in got.seats,
                "frames": frames,
                "record_ok": got.over or PERSON not in got.seats,
            },
        )

    @app.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    def game_page(request: Request, game_id: GameId, seat: SeatQuery = []) -> Response:  # noqa: B006
        game = hub.get(game_id)
        players = game.players_of(seat)
        if isinstance(game, C4LiveGame):
            return templates.TemplateResponse(
                request,
                "c4game.html",
                {"game": game, "players": sorted(players), "seats": seat},
            )
        return templates.TemplateResponse(
            request,
            "game.html",
            {"game": game, "players": sorted(players), "seats": seat},
        )

    return app


def name(game_id: int, round_: int | None) -> str:
    return f"game-{game_id}" + (f"-round-{round_}" if round_ is not None else "")


def frame_of(frame: Frame) -> dict[str, Any]:
    return {
        "round": frame.round,
        "label": frame.label,
        "scores": list(frame.state.scores),
        "svg": board_svg(frame.state),
        "log": list(frame.lines),
    }


def c4_frame_of(frame: C4Frame) -> dict[str, Any]:
    return {
        "round": frame.round,
        "label": frame.label,
        "scores": list(frame.scores),
        "svg": frame.svg,
        "log": list(frame.lines),
    }


def read_upload(file: StarletteUpload) -> str:
    """An uploaded text file (a 400 for one too big or not UTF-8 text)."""
    data = file.file.read(MAX_UPLOAD + 1)
    if len(data) > MAX_UPLOAD:
        raise WebError(400, f"the file is over {MAX_UPLOAD} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise WebError(400, "the file is not UTF-8 text") from None
