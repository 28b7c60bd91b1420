"""Start-up (issue 22, fourth round): pydantic's plugin loader, and the ``importlib.metadata``
it imports, stay out of ``confrontation odds test``; with plugins enabled the real loader
answers (:func:`confrontation.cli.lazy_pydantic_plugins`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import sys
from confrontation.cli import main
sys.argv = ["confrontation", "odds", "test", "--value", "3", "--difficulty", "5"]
try:
    main()
except SystemExit:
    pass
print("METADATA", "importlib.metadata" in sys.modules)
"""

ENABLED = """
import os, sys
from confrontation.cli import lazy_pydantic_plugins
lazy_pydantic_plugins()
stand_in = sys.modules["pydantic.plugin._loader"]
os.environ["PYDANTIC_DISABLE_PLUGINS"] = "1"
from pydantic.plugin._loader import get_plugins
print("OFF", tuple(get_plugins()), sys.modules["pydantic.plugin._loader"] is stand_in)
del os.environ["PYDANTIC_DISABLE_PLUGINS"]
import pydantic
class Model(pydantic.BaseModel):
    x: int
print("ON", Model(x=1).x, sys.modules["pydantic.plugin._loader"] is stand_in,
      hasattr(sys.modules["pydantic.plugin._loader"], "_plugins"))
"""


def _run(source: str) -> list[str]:
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    done = subprocess.run(
        [sys.executable, "-c", source], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip().splitlines()


def test_odds_test_does_not_import_the_plugin_loader() -> None:
    lines = _run(PROBE)
    assert "83.33%" in lines[0]
    assert lines[-1] == "METADATA False"


def test_the_real_loader_answers_when_plugins_are_enabled() -> None:
    off, on = _run(ENABLED)[-2:]
    assert off == "OFF () True"  # disabled: the stand-in answers, nothing imported
    assert on == "ON 1 False True"  # enabled: the real loader took its place
