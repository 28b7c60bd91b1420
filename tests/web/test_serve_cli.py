"""`confrontation serve`: the options reach uvicorn; a bad store is one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from confrontation.cli import app

runner = CliRunner()


def test_serve_starts_the_web_app_on_the_given_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}

    def run(application: Any, **options: Any) -> None:
        seen.update(options, app=application)

    monkeypatch.setattr(uvicorn, "run", run)
    db = tmp_path / "web.db"
    result = runner.invoke(app, ["serve", "--port", "8123", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123
    assert seen["app"].state.hub.store.url == f"sqlite:///{db}"
    assert "http://127.0.0.1:8123/" in result.output


def test_serve_refuses_an_unusable_store_in_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["serve", "--db", "nosuchdialect://x"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "--db" in lines[0]
