"""The `confrontation` command line: thin adapters that parse, call and render.

The subcommands' modules (and the engine, the store, sqlalchemy, networkx, shapely behind
them) are imported only when their command runs: ``confrontation --help`` lists them from
:data:`COMMANDS` alone, and ``confrontation odds test`` imports the odds module only.
"""

from __future__ import annotations

import errno
import importlib
import os
import re
import sys
import types
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

import typer
from typer._click import Command, Context, HelpFormatter
from typer._click.exceptions import ClickException, NoArgsIsHelpError
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
from typer.core import TyperCommand, TyperGroup, _TyperParameter
from typer.exceptions import Abort

from confrontation.cli.examples import EXAMPLES


@dataclass(frozen=True)
class LazyCommand:
    """A subcommand known by name and help until it runs: ``target`` is ``module:attribute``,
    a Typer app (a group of commands) or a command function; ``help`` is the text the
    loaded command has (a test checks they agree), shown by ``confrontation --help``."""

    name: str
    target: str
    help: str
    many_values: bool = False  # the command is a ManyValues (``--armies A B C``)


COMMANDS: tuple[LazyCommand, ...] = (
    LazyCommand(
        "simulate",
        "confrontation.cli.simulate_command:simulate_command",
        "Play N games between 2 to 6 agents (sides and armies turn round; XX-F) and report win\n"
        "rates with 95 % intervals, mean VP and losses, mean rounds and games per second.",
        many_values=True,
    ),
    LazyCommand(
        "play",
        "confrontation.cli.play_command:play_command",
        "Play a whole game (III-A-2 scenarios) between 2 to 6 agents (XX-F) and show the "
        "result.\n\nEvery game is saved (see: confrontation games list) unless --no-store. "
        "With --rules\nc4 a game of the unit-based ruleset in a game mode (--mode), "
        "between two companies\n(--armies: bundled companies or files) and two agents "
        "(random, greedy, mcts).",
        many_values=True,
    ),
    LazyCommand(
        "odds", "confrontation.cli.odds:app", "Exact odds: tests, opposed tests, wound rolls."
    ),
    LazyCommand("army", "confrontation.cli.army:app", "Army lists: validate (I-D) and show."),
    LazyCommand(
        "armies",
        "confrontation.cli.armies:app",
        "Bundled army lists and the peoples (I-D-8): list them.",
    ),
    LazyCommand(
        "profiles", "confrontation.cli.profiles:app", "Reference cards (profiles): list and show."
    ),
    LazyCommand(
        "artifacts",
        "confrontation.cli.artifacts:app",
        "Artifacts and optional equipment (I-D-6): list and show, with their restrictions.",
    ),
    LazyCommand("games", "confrontation.cli.games:app", "Saved games: list, show, replay, delete."),
    LazyCommand(
        "scenarios",
        "confrontation.cli.scenarios:app",
        "Scenarios: list the bundled ones, show one.",
    ),
    LazyCommand(
        "tournament",
        "confrontation.cli.tournament:app",
        "Tournaments: lists checked, Swiss rounds, results, standings; the AI tournament.",
    ),
    LazyCommand(
        "serve",
        "confrontation.cli.serve:serve_command",
        "Serve the game in a browser: start games against the AI or a friend, play by clicking.",
    ),
)
"""Every subcommand, in the order ``--help`` lists them."""


def load_command(lazy: LazyCommand) -> Command:
    """Import ``lazy``'s module and build its click command as ``app.add_typer`` /
    ``app.command`` on the root app would.

    A group's commands (``odds test``, ``odds wound``...) are built when first asked for
    (:class:`LazyCommands`): typer's building of a command reads every parameter's
    annotations, and ``odds test`` needs one command of ten (issue 22, start-up)."""
    module_name, _, attribute = lazy.target.partition(":")
    target = getattr(importlib.import_module(module_name), attribute)
    holder = typer.Typer()
    if isinstance(target, typer.Typer):
        if target.registered_groups:  # nested groups: built whole, as typer builds them
            holder.add_typer(target, name=lazy.name)
            command = typer.main.get_group(holder).commands[lazy.name]
            _polish_help(command, lazy.name)
            plain_coercion(command)
            return command
        return _lazy_group(holder, target, lazy.name)
    from confrontation.cli.options import ManyValues

    holder.command(lazy.name, cls=ManyValues if lazy.many_values else None)(target)
    command = typer.main.get_group(holder).commands[lazy.name]
    _polish_help(command, lazy.name)
    plain_coercion(command)
    return command


def _lazy_group(holder: typer.Typer, target: typer.Typer, name: str) -> Command:
    """``target``'s group as ``holder.add_typer(target, name=name)`` builds it, its
    commands built one by one when resolved (or listed by a help)."""
    registered = target.registered_commands
    target.registered_commands = []  # the group alone: its callback, help and settings
    try:
        holder.add_typer(target, name=name)
        group = typer.main.get_group(holder).commands[name]
    finally:
        target.registered_commands = registered
    _polish_help(group, name)
    plain_coercion(group)

    def build(info: typer.models.CommandInfo) -> Command:
        command = typer.main.get_command_from_info(
            info,
            pretty_exceptions_short=holder.pretty_exceptions_short,
            rich_markup_mode=holder.rich_markup_mode,
        )
        _polish_help(command, f"{name} {command.name}")
        plain_coercion(command)
        return command

    named = {
        info.name or typer.main.get_command_name(info.callback.__name__): info
        for info in registered
        if info.callback is not None
    }
    group.commands = LazyCommands(named, build)  # type: ignore[attr-defined]
    return group


class LazyCommands(MutableMapping[str, Command]):
    """A group's commands by name, in their order, each built by ``build`` from its typer
    ``CommandInfo`` the first time it is read (and kept)."""

    def __init__(
        self,
        infos: dict[str, typer.models.CommandInfo],
        build: Callable[[typer.models.CommandInfo], Command],
    ) -> None:
        self._infos = dict(infos)
        self._build = build
        self._built: dict[str, Command] = {}

    def __getitem__(self, name: str) -> Command:
        if name not in self._built:
            self._built[name] = self._build(self._infos[name])
        return self._built[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self._infos.setdefault(name, None)  # type: ignore[arg-type]
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._infos[name]
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)

    def __contains__(self, name: object) -> bool:
        return name in self._infos


@dataclass(frozen=True)
class PlainParam(RuntimeParam):
    """Typer's coercion of a plain ``str`` option or a ``bool`` flag, without pydantic for
    the values a command line gives: typer 0.29 builds a pydantic ``TypeAdapter`` for every
    option when it first parses one (even a flag not given), importing pydantic (≈ 0.06 s
    of start-up, issue 22). For ``str`` its adapter gives ``str(value)``, for a flag's
    ``bool`` the bool; any other value (bytes, a flag's text from an environment variable)
    goes to typer's own adapter, built then."""

    descriptor: TypeDescriptor

    def _coerce_value(self, value: Any, param: _TyperParameter, ctx: Context) -> Any:
        if self.annotation is str and isinstance(value, str):
            return str(value)
        if self.annotation is bool and isinstance(value, bool):
            return value
        return build_runtime_param(self.descriptor)._coerce_value(value, param, ctx)


def plain_coercion(command: Command) -> None:
    """Give ``command``'s plain ``str`` and ``bool`` options (no parser, file or choice),
    its ``--help`` included, :class:`PlainParam`'s coercion; other options keep typer's."""
    for param in command.params:
        _plain(param)
    built = command.get_help_option  # made (and kept) when first parsing or showing help

    def get_help_option(ctx: Context) -> Any:
        return _plain(built(ctx))

    command.get_help_option = get_help_option  # type: ignore[method-assign]
    formats = command.format_help

    def format_help(ctx: Context, formatter: HelpFormatter) -> None:
        import_rich_help()
        formats(ctx, formatter)

    command.format_help = format_help  # type: ignore[method-assign]


def _plain(param: Any) -> Any:
    """``param`` with :class:`PlainParam`'s coercion if it is a plain ``str`` or ``bool``
    typer option whose coercion is not built yet; returned as given."""
    if not isinstance(param, _TyperParameter) or param._runtime_param is not None:
        return param
    descriptor = param.type_descriptor
    if (
        descriptor.annotation in (str, bool)
        and descriptor.file_annotation is None
        and descriptor.parameter_info.parser is None
        and not descriptor.is_choice
    ):
        param._runtime_param = PlainParam(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            descriptor=descriptor,
        )
    return param


_DEFERRED_RICH = (("rich.markdown", "Markdown"), ("rich.traceback", "Traceback"))
"""What ``typer.rich_utils`` imports for markdown help and pretty tracebacks, neither of
which the CLI uses (rich markup, ``pretty_exceptions_enable=False``): markdown_it, rich's
pretty-printer and traceback modules, ≈ 0.03-0.05 s of every ``--help`` (issue 22)."""


class _Deferred(type):
    """Metaclass of a stand-in class that becomes the real one when called or asked for an
    attribute (``Traceback.from_exception``): the real module is imported then."""

    _real: tuple[str, str]

    def _target(cls) -> Any:
        module, attribute = cls._real
        return getattr(importlib.import_module(module), attribute)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls._target()(*args, **kwargs)

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(cls._target(), name)


def import_rich_help() -> None:
    """Import ``typer.rich_utils`` (the help's renderer) with stand-ins for the
    :data:`_DEFERRED_RICH` classes, imported only if typer uses them. The stand-ins are in
    ``sys.modules`` during that import only: any other import of those modules gets the real
    ones."""
    if "typer.rich_utils" in sys.modules:
        return
    stand_ins: dict[str, types.ModuleType] = {}
    for module, attribute in _DEFERRED_RICH:
        if module in sys.modules:
            continue
        stand_in = types.ModuleType(module)
        setattr(stand_in, attribute, _Deferred(attribute, (), {"_real": (module, attribute)}))
        stand_ins[module] = stand_in
    sys.modules.update(stand_ins)
    try:
        importlib.import_module("typer.rich_utils")
    finally:
        for module, stand_in in stand_ins.items():
            if sys.modules.get(module) is stand_in:
                del sys.modules[module]


def paragraphs(text: str) -> str:
    """A docstring's wrapped lines joined into paragraphs (blank lines and ``-`` list lines
    kept): the help wraps them to the terminal's width."""
    return re.sub(r"(?<!\n)\n(?!\n|\s*- )\s*", " ", text.strip())


def _polish_help(command: Command, path: str) -> None:
    """Hang each command's example (:mod:`confrontation.cli.examples`) as its help's epilog,
    and join a docstring's wrapped lines into paragraphs (the help wraps them to the terminal;
    a line starting with ``-`` stays a line of a list)."""
    from confrontation.cli.examples import example_of

    example = example_of(path)
    shown = "Example" in (command.help or "")  # the docstring gives its own
    if example is not None and not command.epilog and not shown:
        command.epilog = example
    if command.help:
        command.help = paragraphs(command.help)
    for name, sub in getattr(command, "commands", {}).items():
        _polish_help(sub, f"{path} {name}")


class OneLineErrors(TyperGroup):
    """Root command group: any usage error becomes one ``error: ...`` line on stderr.

    Typer's default is a multi-line box; the project's rule is one clear line, a non-zero
    exit and no traceback. ``--help`` and a bare command still print the full help.
    Subcommands are :data:`COMMANDS`, imported when first resolved (not to list them).
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        plain_coercion(self)  # --version
        self._loaded: dict[str, Command] = {}
        self._listing = False

    def list_commands(self, ctx: Context) -> list[str]:
        return [lazy.name for lazy in COMMANDS]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        lazy = next((c for c in COMMANDS if c.name == cmd_name), None)
        if lazy is None:
            return None
        if self._listing:  # the help's list of commands needs only names and help
            return TyperCommand(name=lazy.name, help=paragraphs(lazy.help))
        if cmd_name not in self._loaded:
            self._loaded[cmd_name] = load_command(lazy)
        return self._loaded[cmd_name]

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        import_rich_help()
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(
                args=args,
                prog_name=prog_name or "confrontation",
                complete_var=complete_var,
                standalone_mode=False,
                windows_expand_args=windows_expand_args,
                **extra,
            )
            sys.stdout.flush()  # a full disk on stdout is told here, not at exit
        except OSError as exc:
            if exc.errno not in _OUTPUT_ERRORS:
                raise
            _drop_stdout()
            reason = exc.strerror or str(exc)
            typer.echo(f"error: cannot write the output ({reason})", err=True)
            rv = 1
        except NoArgsIsHelpError as exc:
            typer.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
            rv = 0
        except ClickException as exc:
            ctx = getattr(exc, "ctx", None)
            where = f"{ctx.command_path}: " if ctx is not None else ""
            message = " ".join(exc.format_message().split())
            typer.echo(f"error: {where}{message}", err=True)
            rv = exc.exit_code
        except Abort:
            typer.echo("error: aborted", err=True)
            rv = 1
        except Exception as exc:
            if _store_error(exc):
                typer.echo(f"error: {' '.join(str(exc).split())}", err=True)
            elif _database_error(exc):  # a store not wrapped in StoreError (the tournament's)
                reason = " ".join(str(getattr(exc, "orig", None) or exc).split())
                typer.echo(f"error: the game store: {reason}", err=True)
            else:
                raise
            rv = 1
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


_OUTPUT_ERRORS = frozenset({errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EDQUOT, errno.EFBIG})
"""Errors of a write that fails because of where the output goes (a full disk, a closed
pipe), not because of the program."""


def _store_error(exc: Exception) -> bool:
    """The game store's one-line error (a database locked by another program...), checked
    without importing the store (and SQLAlchemy) when no command used it."""
    store = sys.modules.get("confrontation.store.database")
    return store is not None and isinstance(exc, store.StoreError)


def _database_error(exc: Exception) -> bool:
    """An SQLAlchemy error (a locked or vanished database) from a command that used one."""
    errors = sys.modules.get("sqlalchemy.exc")
    return errors is not None and isinstance(exc, errors.SQLAlchemyError)


def _drop_stdout() -> None:
    """Point stdout at the null device: what is left in its buffer is not flushed again (with
    a second traceback) when Python exits."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no real file (CliRunner's)
        pass


app = typer.Typer(
    name="confrontation",
    cls=OneLineErrors,
    help="Confrontation (Conf'fédé rules): odds, army lists and games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def version_text() -> str:
    """``confrontation X.Y.Z`` from the installed package's metadata (the source tree's
    ``pyproject.toml`` version when run uninstalled)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("confrontation")
    except PackageNotFoundError:  # run from a source tree without installing
        number = "unknown"
    return f"confrontation {number}"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


@app.callback(epilog=f"Example: {EXAMPLES['']}")
def _root(
    version: bool = typer.Option(
        False,
        "--version",
        help="Print the program's version and exit.",
        callback=_print_version,
        is_eager=True,
    ),
) -> None:
    # Typer builds a group only for an app with a callback or registered commands; the
    # commands here are OneLineErrors' lazy ones.
    pass


_PLUGIN_LOADER = "pydantic.plugin._loader"
_PLUGINS_OFF = ("__all__", "1", "true")


def lazy_pydantic_plugins() -> None:
    """Stand in for pydantic's plugin loader until plugins are wanted (issue 22, start-up).

    typer 0.29 builds a pydantic ``TypeAdapter`` for every non-flag option with plugins
    disabled (``typer._adapters.disabled_pydantic_plugins``); pydantic's loader module
    imports ``importlib.metadata`` (≈ 0.02-0.03 s) at the top only to answer "no plugins".
    The stand-in answers the same while ``PYDANTIC_DISABLE_PLUGINS`` disables them, and
    otherwise puts the real loader in its place and asks it (the same plugins as ever)."""
    if _PLUGIN_LOADER in sys.modules:
        return
    stand_in = types.ModuleType(_PLUGIN_LOADER)

    def get_plugins() -> Any:
        if os.environ.get("PYDANTIC_DISABLE_PLUGINS") in _PLUGINS_OFF:
            return ()
        if sys.modules.get(_PLUGIN_LOADER) is stand_in:
            del sys.modules[_PLUGIN_LOADER]
        return importlib.import_module(_PLUGIN_LOADER).get_plugins()

    stand_in.get_plugins = get_plugins  # type: ignore[attr-defined]
    sys.modules[_PLUGIN_LOADER] = stand_in


def main() -> None:
    """Console-script entry point."""
    lazy_pydantic_plugins()
    app()
