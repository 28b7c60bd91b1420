"""Agent specs for the command line: ``NAME[:KEY=VALUE[;KEY=VALUE...]]``.

``mcts:iterations=200;seconds=2.5`` is the ``mcts`` agent with two options. The options an
agent offers are the keyword-only parameters of its class's constructor, and each value is
read by that parameter's type: ``int``, ``float`` (finite), ``bool`` (true/false, yes/no,
1/0), ``str``, a list of ``str`` written with ``+`` (``kinds=allocate_dice+defend``), and
``none`` where the parameter may be ``None``. :func:`parse_agent_spec` also builds the agent
once, so a value the agent refuses (``iterations=0``) is found before any game starts. The
human agent's streams (its input and console) are not offered here.
"""

from __future__ import annotations

import importlib
import inspect
import math
import types
import typing
from collections.abc import Sequence
from typing import Any

from confrontation.agents import AGENTS, make

__all__ = ["AgentSpecError", "agent_options", "parse_agent_spec"]

_CLASSES: dict[str, tuple[str, str]] = {
    "random": ("confrontation.agents.random", "RandomAgent"),
    "greedy": ("confrontation.agents.greedy", "GreedyAgent"),
    "mcts": ("confrontation.agents.mcts", "MctsAgent"),
    "human": ("confrontation.agents.human", "HumanAgent"),
}
"""Each agent's class (imported only when asked about), whose constructor is inspected."""

_NOT_OFFERED: dict[str, frozenset[str]] = {"human": frozenset({"stdin", "console"})}
"""Options of an agent that are not set from the command line (objects, not values)."""

_TRUE = frozenset({"true", "yes", "1"})
_FALSE = frozenset({"false", "no", "0"})


class AgentSpecError(ValueError):
    """A spec that cannot be used: the one-line message names the agent and the option."""


def agent_options(name: str) -> dict[str, Any]:
    """The options ``name`` takes on the command line, each with its type (empty if none)."""
    key = name.strip().lower()
    if key not in AGENTS:
        raise AgentSpecError(f"unknown agent {name!r} (known: {', '.join(sorted(AGENTS))})")
    if key not in _CLASSES:
        return {}
    module, attribute = _CLASSES[key]
    cls = getattr(importlib.import_module(module), attribute)
    hints = typing.get_type_hints(cls.__init__)
    parameters = inspect.signature(cls.__init__).parameters.values()
    hidden = _NOT_OFFERED.get(key, frozenset())
    return {
        p.name: hints.get(p.name, str)
        for p in parameters
        if p.kind is p.KEYWORD_ONLY and p.name not in hidden
    }


def _optional(kind: Any) -> tuple[Any, bool]:
    """``X | None`` → (X, True); anything else → (kind, False)."""
    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
        members = [m for m in typing.get_args(kind) if m is not type(None)]
        if len(members) == 1:
            return members[0], True
    return kind, False


def _value(kind: Any, text: str) -> Any:
    """``text`` read as a ``kind``; ValueError (its message says what was expected)."""
    kind, optional = _optional(kind)
    if optional and text.lower() == "none":
        return None
    if kind is bool:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError("expected true/false, yes/no or 1/0")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError("expected a whole number") from None
    if kind is float:
        try:
            number = float(text)
        except ValueError:
            raise ValueError("expected a number") from None
        if not math.isfinite(number):
            raise ValueError("expected a finite number")
        return number
    if kind is str:
        if not text:
            raise ValueError("expected a word")
        return text
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if isinstance(origin, type) and issubclass(origin, Sequence) and args[:1] == (str,):
        items = [item.strip() for item in text.split("+")]
        if not all(items):
            raise ValueError("expected words joined by '+' (a+b)")
        return items
    raise ValueError("this option cannot be set from the command line")


def _refusal(name: str, options: dict[str, Any]) -> str | None:
    """Why the agent refuses ``options`` (its ValueError), or None if it takes them."""
    try:
        make(name, seed=0, player=0, **options)
    except (ValueError, TypeError) as error:
        return " ".join(str(error).split()) or type(error).__name__
    return None


def parse_agent_spec(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME[:KEY=VALUE[;KEY=VALUE...]]`` → the agent's name and its options.

    Raises :class:`AgentSpecError` (one line naming the agent and the option) for an
    unknown agent or option, a malformed or bad value, or a value the agent refuses.

    >>> parse_agent_spec("mcts:iterations=200;kinds=allocate_dice+defend")
    ('mcts', {'iterations': 200, 'kinds': ['allocate_dice', 'defend']})
    >>> parse_agent_spec("greedy")
    ('greedy', {})
    """
    head, colon, tail = text.partition(":")
    name = head.strip()
    if not name:
        raise AgentSpecError(f"no agent name in {text!r}")
    known = agent_options(name)
    label = name.lower()
    if not colon:
        refusal = _refusal(name, {})
        if refusal is not None:
            raise AgentSpecError(f"agent {label!r}: {refusal}")
        return name, {}
    options: dict[str, Any] = {}
    for item in tail.split(";"):
        key_text, equals, value_text = item.partition("=")
        key = key_text.strip().lower().replace("-", "_")
        if not equals or not key:
            raise AgentSpecError(f"agent {label!r}: expected KEY=VALUE, not {item.strip()!r}")
        if not known:
            raise AgentSpecError(f"agent {label!r} takes no options (got {key_text.strip()!r})")
        if key not in known:
            offered = ", ".join(sorted(known))
            raise AgentSpecError(
                f"agent {label!r} has no option {key_text.strip()!r} (options: {offered})"
            )
        if key in options:
            raise AgentSpecError(f"agent {label!r}: option {key!r} given twice")
        value = value_text.strip()
        try:
            options[key] = _value(known[key], value)
        except ValueError as error:
            raise AgentSpecError(f"agent {label!r}: {key}={value!r}: {error}") from None
    if _refusal(name, options) is not None:
        # Name the option at fault: the first one the agent refuses on its own.
        for key, value in options.items():
            refusal = _refusal(name, {key: value})
            if refusal is not None:
                raise AgentSpecError(f"agent {label!r}: {key}={value!r} refused: {refusal}")
        refusal = _refusal(name, options)
        raise AgentSpecError(
            f"agent {label!r}: options {', '.join(options)} refused together: {refusal}"
        )
    return name, options
