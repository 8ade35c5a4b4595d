"""A game system as a plug-in: its rules data schema, its per-model stats schema and its rules,
registered by name the way python-chess registers its variants (a class attribute names it,
:func:`find_system` looks it up).

The table, the scene, the fact producers (physics, geometric) and line of sight are shared by
every system; a system only *decides*: it reads plain facts (:mod:`entropy3d.systems.readings`)
and its validated rules data, and returns :class:`~entropy3d.core.event.Event` values naming
its clauses. Pure, like :mod:`entropy3d.systems.entropy_city`: no YAML, no file I/O, no engine; the scene
layer reads ``rules/<rules_file>.yaml`` and validates it with :attr:`GameSystem.rules_schema`
(:mod:`entropy3d.scene.systemrules`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, Protocol, Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from entropy3d.core.event import Event
from entropy3d.core.keypaths import Problem, validation_problems
from entropy3d.errors import RulesDataError, UnknownSystemError
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.readings import Impact, LevelChange, RiddenMove, Sighting

if TYPE_CHECKING:  # the move engine is not imported to read a scene's system (validate, los)
    from entropy3d.systems.entropy_city.transition import Action


@dataclass(frozen=True)
class ShotVerdict:
    """A rulebook's answer to "may this model shoot that one from here" (:meth:`GameSystem.shot_verdict`)."""

    allowed: bool | None
    """None: its rules do not say from the sight and the models alone."""
    clause: str = ""
    """The clause that refuses the shot ("" when allowed or not said)."""
    reason: str = ""
    """Why not, in the rules' words ("" when allowed or not said)."""

    def why_not(self) -> str:
        """"REASON (CLAUSE)" of a refused shot; "" when allowed or not said."""
        return f"{self.reason} ({self.clause})" if self.allowed is False else ""


class SystemData(BaseModel):
    """Base of every system's rules-data and stats schema: unknown keys are errors, values are
    not coerced and every number is finite. Each schema's validator is built when first used
    (``defer_build``): a command reads at most the scene's own system, not all five."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False, defer_build=True)


class NoStats(SystemData):
    """A system whose models carry no stats of their own (``stats:`` must be empty)."""


class Imported:
    """A class attribute that is ``"module:attribute"`` (or a whole ``"module"``), imported when
    read, neither bound nor copied: the class gives the very object the module holds. A system
    names its engine this way when importing the engine costs start-up time that a command
    reading only the scene's system (``validate``, ``los``) would pay for nothing (issue 17)."""

    def __init__(self, path: str):
        self.path = path

    def __get__(self, instance, owner=None):
        module, _, attribute = self.path.partition(":")
        found = importlib.import_module(module)
        return getattr(found, attribute) if attribute else found


def no_film_caption(event: Event, events: Sequence[Event], names) -> tuple[str, bool, bool] | None:
    """A rulebook's events told in the film's usual lines (:attr:`GameSystem.film_caption`)."""
    return None


def no_film_rank(event: Event) -> str | None:
    """A rulebook's events ranked by their own kind in the film (:attr:`GameSystem.film_ranks_as`)."""
    return None


class GameSystem:
    """One game system. Subclasses set the class attributes and override the deciders they serve.

    ``rules`` is the system's validated rules data (an instance of :attr:`rules_schema`).
    """

    name: ClassVar[str]
    """Registry key, written in a scene as ``system: NAME``."""
    title: ClassVar[str]
    """The rulebook's name, for people."""
    seed: ClassVar[str]
    """Which source document (``shared/seeds/NNN_*.txt``) its rules come from."""
    clause_prefix: ClassVar[str]
    """Prefix of its clause ids in ``rules/clauses.md`` (``GANG-``)."""
    clauses: ClassVar[tuple[str, ...]]
    """Clause ids this system resolves (each named by a test that checks it)."""
    turn_clauses: ClassVar[tuple[str, ...]] = ()
    """Clause ids a turn's start plays in its game (who goes first, the order of activations): what
    a turn's record (:class:`~entropy3d.game.records.TurnRecord`) shows was applied."""
    rules_file: ClassVar[str]
    """Its rules data, ``rules/<rules_file>.yaml``."""
    # the system's own words where the video shows its game (a system that plays)
    first_roll_words: ClassVar[str] = "roll-off"
    """the roll that decides who goes first, on the turn card ("priority roll 5 v 3")"""
    modifier_words: ClassVar[str] = "to hit"
    """an attack's modifier on the sight line's label ("in partial cover, -1 to hit")"""
    out_banner: ClassVar[str] = "OUT OF ACTION"
    """the banner over a figure its rules put out of the game"""
    lying_conditions: ClassVar[tuple[str, ...]] = ()
    """its conditions of a model lying on the table, still in play (a gang fighter Prone & Pinned
    or Seriously Injured, a 10acity figure gone prone): the pictures draw it down (:meth:`lies_down`)"""
    action_examples: ClassVar[tuple[str, ...]] = ()
    """a few of its actions as a player types them for a model (``parse_action``'s words: "walk:
    straight 3", "shoot"), for a prompt that asks for one (the viewer's typing line)"""
    turns_on_templates: ClassVar[bool] = False
    """its models turn along the table's turning templates (tight, medium and wide arcs,
    EC-TMPL-1): the viewer's t and the share page lay them at a model; figures that pivot have none"""
    mission_names: ClassVar[Mapping[str, str]] = {}
    """its missions' names for people where the id in title case is not the name ("getaway": "The Getaway")"""
    drives_vehicles: ClassVar[bool] = False
    """its game drives cars and vans (a scene model's ``vehicle:``, the table rules' ``vehicles:``)
    as well as bikes; a system that does not refuses a scene with one"""
    rules_schema: ClassVar[type[BaseModel]]
    """The schema of its rules data (rejects unknown keys)."""
    stats_schema: ClassVar[type[BaseModel]] = NoStats
    """The schema of a model's ``stats:`` in a scene of this system."""
    #: its words for one of its events, ``sentence(event, names) -> str``: Entropy City's shared
    #: sentences unless it words its own (a rulebook's sentences module beside its engine)
    sentence = Imported("entropy3d.systems.entropy_city.sentences:sentence")
    #: its film caption for one of its events where the film's usual line would tell it as another
    #: rulebook's (the chase's ram is no bike's crash): ``film_caption(event, events, names) -> (text,
    #: whether it tells harm, whether it shows as the ride begins) | None`` (None: the usual line)
    film_caption = Imported("entropy3d.systems.base:no_film_caption")
    #: the kind of event the film ranks one of its events with where it tells as another kind
    #: (the chase's maneuvering roll is its drive's news: ``move``): ``film_ranks_as(event) -> str | None``
    film_ranks_as = Imported("entropy3d.systems.base:no_film_rank")
    PLAYERS: ClassVar[Mapping[str, str]] = {}
    """Its players: kind -> "module:attribute" of the class or factory, imported when asked for
    (players read the table, a layer above the systems)."""

    def __init__(self, rules: Any):
        self.rules = rules

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, serves {', '.join(self.clauses)})"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<rules>") -> "GameSystem":
        """The system with its rules data validated from a mapping; RulesDataError names every
        bad key path (the scene layer adds the lines)."""
        rules = validated(cls.rules_schema, data, source, RulesDataError)
        named = getattr(rules, "game_system", cls.name)
        if named != cls.name:
            raise RulesDataError(source, [("game_system", None, f"this file is rules data of {named!r}, not of "
                                                                f"{cls.name!r}: write `game_system: {cls.name}`")])
        return cls(rules)

    @classmethod
    def stats_problems(cls, stats: Mapping[str, Any]) -> list[Problem]:
        """Problems ``(key_path, None, message)`` of one model's ``stats:`` (paths relative to it)."""
        try:
            cls.stats_schema.model_validate(dict(stats))
        except ValidationError as error:
            return validation_problems(error, cls.stats_schema, stats)
        return []

    @classmethod
    def stats_of(cls, stats: Mapping[str, Any]) -> Any:
        """One model's validated stats (defaults filled in)."""
        return cls.stats_schema.model_validate(dict(stats))

    @staticmethod
    def roll_details(event: Event) -> list[str]:
        """Its own words for an event's rolls its sentence leaves out (a gang fighter's wound and
        save), for the dice detail under the sentence; none by default."""
        return []

    def shot_verdict(self, state: State, shooter: str, target: str, sight: Any) -> "ShotVerdict":
        """Whether its rules let ``shooter`` shoot ``target`` now, with what it carries, from
        where the models stand in ``state`` (a what-if state puts them where a user dragged them),
        seeing this much of it (``sight``: the LOS engine's true verdict, with
        ``visible_fraction`` and ``bike_seen``), and if not why: for a page or a window that labels
        sight lines. By default its rules say nothing of it from sight alone (no shots, or a shot
        that needs more than the sight: a target priority, an arc)."""
        return ShotVerdict(None)

    def standing_refusals(self, on_foot: bool, roof: tuple[str, float] | None, drop_in: float) -> list[str]:
        """Why its rules let no model stand where a user tried one (the viewer's what-if), from
        what the table says of the spot: whether the model is on foot, the building whose roof it
        stands on (its name and the roof's height, inches; None: not on a roof) and the deepest
        drop under its base (inches); none by default (a scene's own checks still apply)."""
        return []

    @classmethod
    def mission_title(cls, mission: str) -> str:
        """The name of its mission ``mission`` (the id its state carries) for a title or an end card."""
        return cls.mission_names.get(mission, mission.replace("_", " ").title())

    @classmethod
    def first_roll_line(cls, rolls: tuple[int, int], first: str) -> str:
        """The turn card's line for the roll that decided who goes first: the last ``rolls`` (the
        first side's, the other's) and the side that won it, by name (``first``)."""
        return f"{cls.first_roll_words} {rolls[0]} v {rolls[1]}: {first} activate first"

    @classmethod
    def score_lines(cls, state: State, events: Sequence[Event], gang_of: Mapping[str, str], names,
                    rules: Any = None) -> list[tuple[str, str]]:
        """The end card's account of the score ``state`` holds, as (gang id or "", text) rows:
        by default its mission's name, then each side's points as they stand (``names``:
        :class:`~entropy3d.systems.words.Names`). A rulebook whose points come from counted events
        explains them from the game's ``events`` (every event of the game in order; ``gang_of``:
        model id -> its gang) and its ``rules`` (its rules data)."""
        return [("", cls.mission_title(state.mission))] + [
            (g, f"{names.gang(g)}  {int(state.score.get(g, 0)):+d} VP") for g in names.gangs]

    @classmethod
    def plate_note(cls, model: ModelState) -> str:
        """A word the film's name plate adds to a model's name for what its mission gives it to
        carry or be (Entropy City's package carriers); none by default."""
        return ""

    @staticmethod
    def cover_words(figures: Mapping[str, Any]) -> str:
        """An attack's cover on its sight line's label, from its event's ``figures`` ("in partial
        cover"; "in the open" for ``cover`` none). A rulebook whose cover may be the attacker's own
        words it its own way (10acity: "hidden by the attacker's soft cover")."""
        cover = str(figures.get("cover", "none"))
        return "in the open" if cover == "none" else f"in {cover} cover"

    @classmethod
    def lies_down(cls, model: ModelState) -> bool:
        """Whether ``model`` lies on the table in its rules (a condition of :attr:`lying_conditions`):
        the film and the stills draw it down, as a player lays the miniature on its side."""
        return model.in_play and any(c in cls.lying_conditions for c in model.conditions)

    @classmethod
    def ruling_headline(cls, applied: Event, rulings: Sequence[Event], names) -> str:
        """The film's one line for what its rulings did to a model in a ride of the game played
        beside it (``applied``: the ``applied`` ruling, ``rulings``: the rulings of that ride it
        sums up); by default the applied ruling's sentence."""
        return cls.sentence(applied, names)

    @staticmethod
    def dice_untold(event: Event) -> bool:
        """Whether the sentence of ``event`` leaves dice untold that the rules' own words give (so a
        terminal prints those words too); no by default."""
        return False

    @classmethod
    def player(cls, kind: str) -> Callable:
        """The player class or factory ``kind`` (``auto``, ...)."""
        if kind not in cls.PLAYERS:
            raise ValueError(f"no {kind!r} player; {cls.title} has {', '.join(cls.PLAYERS) or 'none'}")
        module, attribute = cls.PLAYERS[kind].split(":")
        return getattr(importlib.import_module(module), attribute)

    # Playing: a system that plays its own game on the shared table names its ENGINE and how its
    # players are seated; `entropy3d demo` on a scene of it then plays it, every rulebook on the one
    # loop (entropy3d.game.loop, entropy3d.game.session; docs/new-rulebook.md).

    #: ``"module:attribute"`` of what builds its game's engine, called with the system and the
    #: scene's stats (model id -> validated ``stats:``); None for a system that only decides. Named
    #: by path as the registry names systems: the engine module imports the system (its rulings and
    #: data), never the other way round, and a command that only reads a scene does not import it.
    ENGINE: ClassVar[str | None] = None
    #: ``"module:attribute"`` of what seats its players, ``seat(system, engine, seating) -> {gang:
    #: player}`` (:class:`entropy3d.game.seating.Seating` says what a seating may use): by
    #: default each gang gets its :attr:`PLAYERS` ``auto`` player, made as ``auto(gang, engine)``.
    SEATING: ClassVar[str] = "entropy3d.game.seating:seat_automatic_players"
    #: a game script (``--script``, docs/scripts.md) may play its gangs' activations
    scripted: ClassVar[bool] = False
    #: its models are riders on bikes with a speed and stress, riding plans under a push-your-luck
    #: policy (Entropy City's): ``activate`` takes the ride's own options (--turn, --policy, the ride's
    #: pictures), the film shows their speed dials and reads out every sentence, and the end card
    #: explains their points. Other rulebooks' figures are filmed by their large print and scored by
    #: their engine's points.
    riders: ClassVar[bool] = False

    @classmethod
    def plays(cls) -> bool:
        """It plays a game of its own (names its :attr:`ENGINE`) rather than deciding only."""
        return cls.ENGINE is not None

    def stats_rules_problems(self, stats: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """Problems ``(model id, stats key, message)`` of the scene's validated ``stats:`` against
        this system's rules data (a name its rules data does not have); none by default."""
        return []

    def engine(self, stats: Mapping[str, Any], table: Any = None, gangs: Sequence[str] = ()):
        """Its game's engine for the scene's models (model id -> validated ``stats:``): an object
        with ``initial_state``, ``gangs``, ``start_turn``, ``ready``, ``activation_order``,
        ``action_phase``, ``check``, ``resolve``, ``end_turn``, ``game_over`` and ``winner`` on the one game state,
        and ``condition_words`` (condition id -> the rulebook's words, for people) (see
        :class:`~entropy3d.systems.gang_battle.engine.GangEngine`, the first). ``table``: the
        table's view, for an engine the one path asks its table's answers of (Entropy City's: where a
        bike settles, what a watcher sees and where a wreck may lie, asked before and after its
        resolve, :mod:`entropy3d.table_answers`); ``gangs``: the scene's gangs in its order.
        Engines that read all they need from the facts ignore both."""
        if self.ENGINE is None:
            raise NotImplementedError(f"{self.title} decides from the table's facts but plays no game of its own yet")
        module, attribute = self.ENGINE.split(":")
        return getattr(importlib.import_module(module), attribute)(self, stats)

    def seat_players(self, engine, seating) -> dict[str, Any]:
        """Its players, gang -> player, for a game of ``engine`` (:attr:`SEATING` does it)."""
        module, attribute = self.SEATING.split(":")
        return getattr(importlib.import_module(module), attribute)(self, engine, seating)

    # Deciders: what the system makes of the table's facts. A system serves those it overrides.

    @property
    def reads_sight(self) -> bool:
        """It decides something from line of sight (overrides :meth:`judge_sightings`)."""
        return type(self).judge_sightings is not GameSystem.judge_sightings

    @property
    def reads_rides(self) -> bool:
        """It decides something from a ride: its impacts and falls or the levels it climbed
        (overrides :meth:`judge_impacts`, :meth:`judge_level_changes` or :meth:`judge_moves`)."""
        return any(getattr(type(self), judge) is not getattr(GameSystem, judge)
                   for judge in ("judge_impacts", "judge_level_changes", "judge_moves"))

    def judge_sightings(self, viewer: str, sightings: Sequence[Sighting],
                        stats: Mapping[str, Any]) -> list[Event]:
        """What the rules make of what ``viewer`` sees (targets, cover modifiers). ``stats``:
        model id -> validated stats. None of this system's rules read sight: no events."""
        return []

    def judge_impacts(self, impacts: Sequence[Impact], stats: Mapping[str, Any]) -> list[Event]:
        """What the rules make of bodies that hit something or fell. No events by default."""
        return []

    def judge_level_changes(self, changes: Sequence[LevelChange], stats: Mapping[str, Any]) -> list[Event]:
        """What the rules make of rides that climbed or came down levels. No events by default."""
        return []

    def judge_moves(self, moves: Sequence[RiddenMove], stats: Mapping[str, Any],
                    rng: np.random.Generator) -> list[Event]:
        """What the rules make of ridden moves (how far, over what, how sharply turned), rolling
        any test they call for with ``rng``. No events by default."""
        return []

    def ruling_effects(self, rulings: Sequence[Event]) -> list[RulingEffect]:
        """What this system's ``rulings`` (its judge_* events) do to the game played beside it, one
        effect per model touched; none for a system whose rulings only advise (the default)."""
        return []


@dataclass(frozen=True)
class RulingEffect:
    """What a judging rulebook's rulings on a ride do to one model of the game played beside it
    (:meth:`GameSystem.ruling_effects`), in plain terms the played game applies its own way:
    ``wounds`` lost; ``speed_change_kph``: how much faster (slower when negative) its next ride
    goes. ``why``: the rulings' words, ``clauses``: theirs."""

    model: str
    wounds: int
    speed_change_kph: float
    why: str
    clauses: tuple[str, ...]


def validated(schema: type[BaseModel], data: Any, source: str, error: type = RulesDataError):
    """``schema`` validated over ``data``, or ``error(source, problems)`` naming every key path."""
    if not isinstance(data, Mapping):
        raise error(source, [("", None, "must be a mapping of sections")])
    try:
        return schema.model_validate(dict(data))
    except ValidationError as failure:
        raise error(source, validation_problems(failure, schema, data)) from None


class ArmedFigures:
    """For a system whose models' scene ``stats:`` lay over a default profile of its rules data
    (``default_profile``, the key of that profile) and name a weapon of its rules data's
    ``weapons:``: the gang battle's fighters and 10acity's figures. Mixed into a
    :class:`GameSystem`."""

    #: the rules data's key of the profile every model starts from ("fighter", "figure")
    default_profile: str

    def profile(self, stats):
        """A model's numbers: its scene ``stats:`` over the rules data's default profile.
        Raises ValueError naming an unknown weapon."""
        given = {k: v for k, v in stats.model_dump().items() if v is not None and k != "prone"}
        profile = getattr(self.rules, self.default_profile).model_copy(update=given)
        if profile.weapon not in self.rules.weapons:
            raise ValueError(f"weapon {profile.weapon!r} is not in rules/{self.rules_file}.yaml weapons: "
                             f"{', '.join(self.rules.weapons)}")
        return profile

    def stats_rules_problems(self, stats: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """A ``weapon:`` that is not in the rules data's ``weapons:``."""
        return [(model, "weapon", f"unknown weapon {given.weapon!r}; use one of {', '.join(self.rules.weapons)} "
                                  f"(rules/{self.rules_file}.yaml weapons)")
                for model, given in stats.items() if given.weapon not in (None, *self.rules.weapons)]


class Registry:
    """The registered systems, in the order they were added: a class, or the ``"module:Class"``
    path of one, imported when first looked up (a command reads the scene's own system, and
    importing all five costs start-up time; issue 17)."""

    def __init__(self, systems: Mapping[str, type[GameSystem] | str]):
        self._systems: dict[str, type[GameSystem] | str] = {}
        for name, system in systems.items():
            self._add(name, system)

    def add(self, system: type[GameSystem]) -> type[GameSystem]:
        """Register a system class (usable as a class decorator)."""
        return self._add(system.name, system)

    def _add(self, name: str, system):
        if name in self._systems:
            raise ValueError(f"a game system named {name!r} is already registered")
        self._systems[name] = system
        return system

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._systems)

    def __iter__(self):
        return iter([self.find(name) for name in self._systems])

    def find(self, name: str) -> type[GameSystem]:
        """The system class registered as ``name``; UnknownSystemError lists the names there are."""
        try:
            system = self._systems[name]
        except (KeyError, TypeError):
            raise UnknownSystemError(f"unknown game system {name!r}; use one of {', '.join(self._systems)} "
                                     "(`entropy3d systems` lists them)") from None
        if isinstance(system, str):
            module, attribute = system.split(":")
            system = getattr(importlib.import_module(module), attribute)
            if system.name != name:
                raise ValueError(f"{self._systems[name]} is registered as {name!r} but names itself {system.name!r}")
            self._systems[name] = system
        return system


class SystemRules(SystemData):
    """Base of a system's rules-data schema: the file names its system (``game_system: NAME``),
    which is how ``entropy3d validate`` knows which schema checks it."""

    game_system: str


@dataclass(frozen=True)
class SystemView:
    """What a rulebook's player sees when it chooses: the state, its model, the engine, the
    table (the game's :class:`~entropy3d.game.tableview.TableView`: ``sightings``,
    ``figure_walk_met``, ``off_table``, ``lookahead``) and the steps its model took so far this
    activation (``taken``, :class:`~entropy3d.game.step.Step`: its start first; the last ridden
    one is where an attack along the move comes from)."""

    state: State
    model: ModelState
    engine: Any
    table: Any
    taken: tuple = ()


class SystemPlayer(Protocol):
    """A rulebook's automatic player (:attr:`GameSystem.PLAYERS`), made as ``Player(gang, engine)``."""

    gang: str

    def order(self, state: State, ready: Sequence[str], table: Any) -> list[str]:
        """Its ready models in the order it will activate them this turn."""

    def choose_action(self, view: SystemView) -> Action | None:
        """The next action of ``view.model`` (legal: the engine checks it), or None to end its
        activation. A player may also have ``refused(view, action, refusal) -> Action | None``:
        another action when the rules refuse one it chose (None: the refusal stands)."""
