"""A game's rules as one immutable value, chosen per game and named in its state.

A :class:`Ruleset` holds every table the engine consults: the question handlers, the phase
drivers, the fighters' action providers and the actions' resume functions, the maintenance
hooks, the scoring hooks and watches, the contact and pursuit finders, the dice bonus and
the narration of plug-ins' events. The state names its rules (``state.rules``, a
:class:`~.state.RulesetId`) and :func:`rules_of` finds the value from that name (one dict
look-up), so ``step``, ``legal``, ``replay`` and the store need nothing but the state.

- **Rulesets by name.** :data:`RULESETS` maps a name to the modules that contribute to it
  (each has a ``contribute(rules: RulesBuilder)`` function, run in order) or to a builder
  ``(RulesetId) -> Ruleset``. ``ruleset("confede")`` builds one (once per process). A new
  ruleset is its modules and one entry here (or :func:`register_ruleset` from outside).
- **Derivation.** ``rules.with_handler(h)``, ``with_phase``, ``with_contacts``… return a new
  value and leave ``rules`` alone: a user's plug-in (an ability's effect, a new question
  kind) is a derived ruleset given to the game (:func:`with_rules`), never a patched global.
  A derived value gets a name of its own (``confede~3``) that this process knows; to save
  and replay such a game elsewhere, register a builder for a name (:func:`register_ruleset`)
  and name the value with :meth:`Ruleset.named`.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from confrontation.engine.core.frozen import evolve
from confrontation.engine.core.registry import EngineError, Handler, PhaseDriver, Transition
from confrontation.engine.core.state import CONFEDE, GameState, Phase, RulesetId

if TYPE_CHECKING:
    from confrontation.engine.combat.phase import DiceBonus, PursuitFinder
    from confrontation.engine.combat.seam import ContactFinder
    from confrontation.engine.core.ending import ScoringHook, Watch
    from confrontation.engine.core.narrate import Teller
    from confrontation.engine.round.activation import ActionProvider

Resume = Callable[[GameState], Transition]
MaintenanceHook = Callable[[GameState], Transition]
Builder = Callable[[RulesetId], "Ruleset"]

CONFEDE_MODULES: tuple[str, ...] = (
    "confrontation.engine.round.activation",
    "confrontation.engine.combat.scenery_attack",
    "confrontation.engine.core.rolloff",
    "confrontation.engine.combat.seam",
    "confrontation.engine.combat.phase",
    "confrontation.engine.combat.narrate",
    "confrontation.engine.combat.pursuit",
    "confrontation.engine.setup.deployment",
    "confrontation.engine.setup.scenario_fighters",
    "confrontation.engine.round.maintenance",
    "confrontation.engine.actions.shared",
    "confrontation.engine.actions.movement",
    "confrontation.engine.neutral",
    "confrontation.engine.actions.shooting",
    "confrontation.engine.actions.scenery",
    "confrontation.engine.round.strategic",
    "confrontation.scenarios.basic",
    "confrontation.scenarios.tokens",
    "confrontation.scenarios.occupation",
    "confrontation.scenarios.counters",
    "confrontation.scenarios.victory",
    "confrontation.scenarios.parties",
    "confrontation.scenarios.commander",
    "confrontation.scenarios.results",
    "confrontation.scenarios.control_points",
)
"""The modules of the ``confede`` rules, in the order they contribute (a later one may
replace or wrap an earlier one's entry: the scenarios wrap the deployment driver)."""

C3_MODULES: tuple[str, ...] = (*CONFEDE_MODULES, "confrontation.scenarios.c3")
"""The ``c3`` rules: ``confede`` with the C3 tournament scenario rules' differences
(``scenarios.c3``: the variant switches, CLARIFICATIONS §6)."""

RULESETS: dict[str, Sequence[str] | Builder] = {"confede": CONFEDE_MODULES, "c3": C3_MODULES}
"""Every ruleset this process can build, by name: its contributing modules or a builder."""


class RulesBuilder:
    """The tables of a ruleset while modules contribute to it (mutable; :meth:`build` ends)."""

    def __init__(self, base: Ruleset | None = None) -> None:
        self.handlers: dict[str, Handler] = dict(base.handlers) if base else {}
        self.drivers: dict[Phase, PhaseDriver] = dict(base.drivers) if base else {}
        self.action_providers: dict[str, ActionProvider] = (
            dict(base.action_providers) if base else {}
        )
        self.resumes: dict[str, Resume] = dict(base.resumes) if base else {}
        self.maintenance_hooks: dict[str, tuple[MaintenanceHook, ...]] = (
            dict(base.maintenance_hooks) if base else {}
        )
        self.scoring_hooks: dict[str, ScoringHook] = dict(base.scoring) if base else {}
        self.watches: dict[str, Watch] = dict(base.watches) if base else {}
        self.sentences: dict[str, Teller] = dict(base.sentences) if base else {}
        self.contact_finder: ContactFinder | None = base.contacts if base else None
        self.pursuit_finder: PursuitFinder | None = base.pursuits if base else None
        self.bonus: DiceBonus | None = base.dice_bonus if base else None
        self.tables: dict[str, dict[str, Any]] = (
            {k: dict(v) for k, v in base.extensions.items()} if base else {}
        )

    def handler(self, handler: Handler) -> None:
        """Let ``handler`` answer for questions of its ``kind`` (replacing any other)."""
        self.handlers[handler.kind] = handler

    def phase(self, phase: Phase, driver: PhaseDriver) -> None:
        """Let ``driver`` run ``phase`` (replacing the current driver)."""
        self.drivers[phase] = driver

    def action_provider(self, name: str, provider: ActionProvider) -> None:
        """Offer ``provider``'s actions to the fighters (IV-B-2), after the earlier ones."""
        self.action_providers[name] = provider

    def resume(self, kind: str, resume: Resume) -> None:
        """``resume(state)`` continues an action of ``kind`` after a test or a wound roll."""
        self.resumes[kind] = resume

    def maintenance_hook(self, step: str, hook: MaintenanceHook) -> None:
        """Run ``hook`` during the maintenance step ``step`` (after those added before)."""
        from confrontation.engine.core.rounddata import load_round_data

        steps = tuple(s.name for s in load_round_data().maintenance)
        if step not in steps:
            raise ValueError(f"no maintenance step {step!r} (steps: {', '.join(steps)})")
        self.maintenance_hooks[step] = (*self.maintenance_hooks.get(step, ()), hook)

    def scoring(self, name: str, hook: ScoringHook) -> None:
        """Run ``hook`` when a game ends (in the order they were added)."""
        self.scoring_hooks[name] = hook

    def watch(self, name: str, watch: Watch) -> None:
        """Let ``watch`` end a game at once after any step (an immediate victory)."""
        self.watches[name] = watch

    def sentence(self, kind: str, teller: Teller) -> None:
        """Let ``teller`` narrate the events of ``kind``."""
        self.sentences[kind] = teller

    def contacts(self, finder: ContactFinder) -> None:
        """The function that lists the pairs of enemy fighters in base contact."""
        self.contact_finder = finder

    def pursuits(self, finder: PursuitFinder) -> None:
        """The function that lists a pursuing fighter's moves (VII-C-6)."""
        self.pursuit_finder = finder

    def dice_bonus(self, bonus: DiceBonus) -> None:
        """The function that gives a fighter's bonus combat dice."""
        self.bonus = bonus

    def extension(self, table: str, name: str, value: Any) -> None:
        """Put ``value`` under ``name`` in the extension table ``table`` (replacing any): the
        tables of packages above the engine, e.g. the scenario condition kinds
        (``scenarios.conditions``), so that a ruleset holds them too."""
        self.tables.setdefault(table, {})[name] = value

    def build(self, id: RulesetId) -> Ruleset:
        """The finished, immutable value named ``id``."""
        if self.contact_finder is None or self.pursuit_finder is None or self.bonus is None:
            raise EngineError(f"ruleset {id}: no contact finder, pursuit finder or dice bonus")
        return Ruleset(
            id=id,
            handlers=MappingProxyType(dict(self.handlers)),
            drivers=MappingProxyType(dict(self.drivers)),
            action_providers=MappingProxyType(dict(self.action_providers)),
            resumes=MappingProxyType(dict(self.resumes)),
            maintenance_hooks=MappingProxyType(dict(self.maintenance_hooks)),
            scoring=MappingProxyType(dict(self.scoring_hooks)),
            watches=MappingProxyType(dict(self.watches)),
            sentences=MappingProxyType(dict(self.sentences)),
            contacts=self.contact_finder,
            pursuits=self.pursuit_finder,
            dice_bonus=self.bonus,
            extensions=MappingProxyType(
                {k: MappingProxyType(dict(v)) for k, v in self.tables.items()}
            ),
        )


_DERIVED = itertools.count(1)


@dataclass(frozen=True, eq=False)
class Ruleset:
    """Every rule table of one game, immutable. Two values are equal only if identical."""

    id: RulesetId
    handlers: Mapping[str, Handler]
    drivers: Mapping[Phase, PhaseDriver]
    action_providers: Mapping[str, ActionProvider]
    resumes: Mapping[str, Resume]
    maintenance_hooks: Mapping[str, tuple[MaintenanceHook, ...]]
    scoring: Mapping[str, ScoringHook]
    watches: Mapping[str, Watch]
    sentences: Mapping[str, Teller]
    contacts: ContactFinder
    pursuits: PursuitFinder
    dice_bonus: DiceBonus
    extensions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    _memo: dict[tuple[Any, ...], Ruleset] = field(default_factory=dict, repr=False)

    def handler(self, kind: str) -> Handler:
        """The handler of a pending question's kind."""
        try:
            return self.handlers[kind]
        except KeyError:
            raise EngineError(
                f"ruleset {self.id} has no handler for {str(kind)!r} questions"
            ) from None

    def extension(self, table: str, name: str) -> Any:
        """The entry ``name`` of the extension table ``table``, or None."""
        return self.extensions.get(table, {}).get(name)

    def extension_names(self, table: str) -> tuple[str, ...]:
        """The names in the extension table ``table`` (in the order they were added)."""
        return tuple(self.extensions.get(table, {}))

    def with_extension(self, table: str, name: str, value: Any) -> Ruleset:
        """An extension entry added (or replaced)."""
        key = ("extension", table, name, value)
        return self._derived(key, lambda b: b.extension(table, name, value))

    def derive(self, contribute: Callable[[RulesBuilder], None]) -> Ruleset:
        """A new ruleset: these tables with ``contribute``'s changes (``self`` is unchanged).

        Its name is new (``<name>~<n>``) and known to this process only."""
        builder = RulesBuilder(self)
        contribute(builder)
        derived = RulesetId(f"{self.id.name.split('~')[0]}~{next(_DERIVED)}", self.id.options)
        return _intern(builder.build(derived))

    def named(self, name: str, options: Mapping[str, str] | None = None) -> Ruleset:
        """The same tables under the name ``name`` (register a builder for it with
        :func:`register_ruleset` so that other processes find it too)."""
        return _intern(evolve(self, id=_id(name, options), _memo={}))

    def _derived(self, key: tuple[Any, ...], contribute: Callable[[RulesBuilder], None]) -> Ruleset:
        """One derived value per change: deriving twice the same way gives the same value."""
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self.derive(contribute)
        return found

    def with_handler(self, handler: Handler) -> Ruleset:
        """A handler added (or replacing the one of its kind)."""
        return self._derived(("handler", handler), lambda b: b.handler(handler))

    def with_phase(self, phase: Phase, driver: PhaseDriver) -> Ruleset:
        """Another driver for ``phase``."""
        return self._derived(("phase", phase, driver), lambda b: b.phase(phase, driver))

    def with_action_provider(self, name: str, provider: ActionProvider) -> Ruleset:
        """An action provider added (IV-B-2)."""
        key = ("action", name, provider)
        return self._derived(key, lambda b: b.action_provider(name, provider))

    def with_maintenance_hook(self, step: str, hook: MaintenanceHook) -> Ruleset:
        """A maintenance hook added to ``step`` (IV-D)."""
        key = ("maintenance", step, hook)
        return self._derived(key, lambda b: b.maintenance_hook(step, hook))

    def with_scoring(self, name: str, hook: ScoringHook) -> Ruleset:
        """A scoring hook added."""
        return self._derived(("scoring", name, hook), lambda b: b.scoring(name, hook))

    def with_watch(self, name: str, watch: Watch) -> Ruleset:
        """A watch (immediate victory) added."""
        return self._derived(("watch", name, watch), lambda b: b.watch(name, watch))

    def with_contacts(self, finder: ContactFinder) -> Ruleset:
        """Another contact finder."""
        return self._derived(("contacts", finder), lambda b: b.contacts(finder))

    def with_pursuits(self, finder: PursuitFinder) -> Ruleset:
        """Another pursuit finder (VII-C-6)."""
        return self._derived(("pursuits", finder), lambda b: b.pursuits(finder))

    def with_dice_bonus(self, bonus: DiceBonus) -> Ruleset:
        """Another dice bonus."""
        return self._derived(("bonus", bonus), lambda b: b.dice_bonus(bonus))


_LIVE: dict[RulesetId, Ruleset] = {}
"""The rulesets this process has built or derived, by name (what :func:`rules_of` reads)."""


def _intern(rules: Ruleset) -> Ruleset:
    _LIVE[rules.id] = rules
    return rules


def _id(name: str, options: Mapping[str, str] | None) -> RulesetId:
    return RulesetId(name, tuple(sorted((options or {}).items())))


def known_rulesets() -> tuple[str, ...]:
    """The names of the rulesets this process can build (``--rules`` of the front-ends)."""
    return tuple(RULESETS)


def register_ruleset(name: str, builder: Sequence[str] | Builder) -> None:
    """Make ``name`` a ruleset: its contributing modules, or ``builder(id) -> Ruleset``."""
    if name in RULESETS:
        raise ValueError(f"there is already a ruleset named {name!r}")
    if "~" in name:
        raise ValueError(f"a ruleset's name has no '~' (those name derived values): {name!r}")
    RULESETS[name] = builder


def build_from_modules(id: RulesetId, modules: Sequence[str]) -> Ruleset:
    """A ruleset made of ``modules``' contributions, in order (no options accepted)."""
    if id.options:
        raise ValueError(f"the {id.name} rules take no options (given: {id})")
    builder = RulesBuilder()
    for name in modules:
        importlib.import_module(name).contribute(builder)
    return builder.build(id)


def load(id: RulesetId) -> Ruleset:
    """The ruleset named ``id``, built on first use."""
    found = _LIVE.get(id)
    if found is not None:
        return found
    source = RULESETS.get(id.name)
    if source is None:
        if "~" in id.name:
            raise EngineError(
                f"ruleset {id.name!r} is a derived value of another process: register a builder "
                "for a name (register_ruleset) and name the derived rules (Ruleset.named)"
            )
        raise EngineError(f"no ruleset named {id.name!r} (rulesets: {', '.join(RULESETS)})")
    rules = build_from_modules(id, source) if isinstance(source, Sequence) else source(id)
    if rules.id != id:
        rules = evolve(rules, id=id, _memo={})
    return _intern(rules)


def rules_named(state_data: Mapping[str, Any]) -> RulesetId:
    """The rules a state's JSON data names (before it is decoded: their modules may define
    records the state holds)."""
    raw = state_data.get("rules")
    return CONFEDE if raw is None else RulesetId(raw["name"], tuple(map(tuple, raw["options"])))


def ruleset(name: str = "confede", options: Mapping[str, str] | None = None) -> Ruleset:
    """The ruleset ``name`` with ``options`` (built once per process)."""
    return load(_id(name, options))


_RECENT: tuple[RulesetId | None, Ruleset | None] = (None, None)
"""The last name :func:`rules_of` looked up and its value: every state of a game shares its
initial state's ``RulesetId`` object, so an identity check answers nearly every look-up (one
tuple, replaced whole, so threads never see a name with another name's rules)."""


def rules_of(state: GameState) -> Ruleset:
    """The rules ``state`` is played with."""
    global _RECENT
    key = state.rules
    recent = _RECENT
    if recent[0] is key:
        return recent[1]  # type: ignore[return-value]
    found = _LIVE.get(key)
    if found is None:
        found = load(key)
    _RECENT = (key, found)
    return found


def with_rules(state: GameState, rules: Ruleset) -> GameState:
    """``state`` played with ``rules`` from now on (a derived ruleset, say)."""
    _intern(rules)
    return evolve(state, rules=rules.id)


def default_rules() -> Ruleset:
    """The ``confede`` rules."""
    return load(CONFEDE)
