"""Scripted games: a YAML file of plans per activation, so a designer can stage a scene.

::

    scene: ../crossroads.yaml      # optional, relative to this file
    seed: 3                        # optional: the dice and the automatic players
    turns: 2                       # optional
    fallback: auto                 # activations not listed: `auto` plays them, `error` refuses
    activations:
      - {turn: 1, model: h1, plans: ["s1: straight 8", "s2: straight 10, left medium 5"]}
      - {turn: 1, model: k1, plans: ["s1: straight 6", "s1: straight 6"], attack: h1 with chain}
      - {turn: 2, model: h2, plans: ["overwatch s1: straight 4"]}
      - {turn: 4, model: h2, remain_on_overwatch: true}
      - {turn: 3, model: k2, attack: h1 with pistol}   # the shot of a skipped activation after a reload
      - {turn: 3, model: h1, plans: ["s2: straight 8"], attack: k1 with chain, use: {strategist: [attack]}}

Plans use the rules engine's notation (:mod:`entropy3d.systems.entropy_city.plan`). A plan the rules refuse
is an error naming the script, the entry and the clause, never a silent substitute.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Optional, Sequence, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from entropy3d.core.keypaths import did_you_mean
from entropy3d.errors import IllegalPlanError, PlanError, ScriptError
from entropy3d.game.action_view import ActionView
from entropy3d.game.attack_words import attack_parts, option_named
from entropy3d.game.players import AttackOption, AutoPlayer
from entropy3d.scene.yamlsource import line_of, read_yaml_with_lines
from entropy3d.systems.entropy_city.attacks import weapon_and_shots, weapon_kind
from entropy3d.systems.entropy_city.bike_advantages import TAUNT
from entropy3d.systems.entropy_city.choice_traits import DECLARED, auto_declared, auto_free_move
from entropy3d.systems.entropy_city.dice import Policy, policy_named
from entropy3d.systems.entropy_city.items import PASS
from entropy3d.systems.entropy_city.kick import KICK, kick_limits, parse_kick
from entropy3d.systems.entropy_city.plan import parse_plan


class ScriptedActivation(BaseModel):
    """The plans of one model's activation in one turn."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    turn: int = Field(ge=1, description="1-based turn")
    model: str = Field(description="model id from the scene")
    plans: list[str] = Field(default_factory=list, max_length=2, description="one plan per action, in order")
    attack: Union[str, list[str], None] = Field(
        None, description="`TARGET [with WEAPON]`: the model to attack after the move (with chicken, the melee "
                          "weapon or the gun, or `kick [own] [push INCHES] [pivot DEGREES]`, EC-MEL-KICK; "
                          "`get_a_real_bike`: Get a Real Bike's taunt, EC-TRAIT; "
                          "`FRIEND with pass` passes a held item, EC-ACT-PASS), if the "
                          "rules allow it; a list for a gung-ho rider's attacks, in order (up to 4, EC-ACT-GUNGHO)")
    remain_on_overwatch: bool = Field(False, description="spend this activation remaining on overwatch, once "
                                      "(EC-GUN-STOPPED); then no plans")
    use: dict[str, list[Union[int, Literal["attack"]]]] = Field(
        default_factory=dict, description="traits the rider uses, each with where: its actions' numbers (1, 2) and "
                                          "`attack`, e.g. {strategist: [attack], all_part_of_the_plan: [1]} (EC-TRAIT)")
    defence: Optional[Literal["dodge", "attack"]] = Field(
        None, description="how the target of this entry's melee attack answers (EC-MEL-DEF): `dodge` or `attack` "
                          "back; none: as its traits oblige (Aggressive, EC-TRAIT), else a dodge")
    inspire: Optional[dict[str, int]] = Field(None, description="Charismatic Energy in lieu of the attack: the "
                                              "stress taken off each follower, {h2: 3, h3: 1} (EC-TRAIT)")
    free_move: Optional[str] = Field(None, description="the free move Nimble (x) gives after a hit with no attack in "
                                     "return, a plan of one straight or turn: 's2: straight 3' (EC-TRAIT); none: "
                                     "not taken")

    @model_validator(mode="after")
    def _plans_or_watch(self) -> "ScriptedActivation":
        if self.remain_on_overwatch and self.plans:
            raise ValueError("remaining on overwatch spends the whole activation: give no plans with it")
        if not (self.plans or self.remain_on_overwatch or self.attack):
            raise ValueError("give plans, remain_on_overwatch: true, or (in the skipped activation after a "
                             "reload) an attack")
        return self

    @property
    def attacks(self) -> list[str]:
        """Its attacks in order (``attack:`` one, or a list of them)."""
        return [] if not self.attack else [self.attack] if isinstance(self.attack, str) else list(self.attack)


class GameScript(BaseModel):
    """A scripted-game file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    scene: Optional[str] = Field(None, description="scene file, relative to the script")
    seed: Optional[int] = Field(None, ge=0, description="the dice and the automatic players")
    turns: Optional[int] = Field(None, ge=1, le=200)
    fallback: Literal["auto", "error"] = "auto"
    push: Literal["sit-at-tn", "risk-aware", "never"] = Field("sit-at-tn", description="push-your-luck policy")
    activations: list[ScriptedActivation] = Field(default_factory=list)


def load_script(path: str | Path) -> tuple[GameScript, Path, dict[str, int]]:
    """Read and validate a script; returns it, its resolved path and the line of each key path
    (for :func:`script_problems`). Refused with the line, key path and fix: bad YAML, duplicate
    keys, unknown keys (with the closest allowed one), values of the wrong type."""
    from entropy3d.scene.loading import schema_problems

    path = Path(path)
    data, lines = read_yaml_with_lines(path, ScriptError)
    try:
        return GameScript.model_validate(data or {}), path.resolve(), lines
    except ValidationError as error:
        raise ScriptError(path, schema_problems(error, lines, GameScript)) from None


def script_problems(script: GameScript, lines: dict[str, int], table) -> list[tuple[str, int | None, str]]:
    """What a script asks that its game cannot give, found before the game is played, each with
    its key path, line and fix: a scene whose rulebook takes no script (``scripted``; the script's
    plans are Entropy City's), a model not in the scene, a turn after the script's last (its
    ``turns:``, else the scene's; a shorter game asked for on the command line just stops
    earlier), one model's activation in a turn given twice, a plan that does not parse, an attack
    on a model not there (or on itself) or with a weapon the rules do not know. Any of them would
    otherwise be passed over while the automatic players play on. Whether a plan is legal where
    the model then stands is the rules' question when the game gets there."""
    from entropy3d.scene.systemrules import system_of

    if not system_of(table, played=True).scripted:
        return [("", None, f"a script plays Entropy City plans; the scene {table.name!r} is a {table.spec.system} "
                           "game, played by its automatic players: play it without the script (leave out --script)")]

    ids = [model.id for model in table.models]
    turns = script_turns(script, table)
    problems: list[tuple[str, int | None, str]] = []
    first_of: dict[tuple[int, str], int] = {}

    def add(where: str, message: str) -> None:
        problems.append((where, line_of(lines, where), message))

    for k, entry in enumerate(script.activations):
        at = f"activations[{k}]"
        if entry.model not in ids:
            add(f"{at}.model",
                f"no model {entry.model!r} in the scene {table.name!r}; {did_you_mean(entry.model, ids)}")
        if entry.turn > turns:
            add(f"{at}.turn", f"turn {entry.turn} is after the game's last ({turns}): set `turns: {entry.turn}` "
                              "in the script, or move the entry")
        if (entry.turn, entry.model) in first_of:
            add(at, f"{entry.model}'s activation in turn {entry.turn} is given again (first at "
                    f"activations[{first_of[entry.turn, entry.model]}]): give its plans in one entry")
        first_of.setdefault((entry.turn, entry.model), k)
        for a, text in enumerate(entry.plans):
            try:
                parse_plan(text)
            except PlanError as error:
                add(f"{at}.plans[{a}]", str(error))
        for follower in entry.inspire or {}:
            if follower not in ids:
                add(f"{at}.inspire.{follower}", f"no model {follower!r} in the scene {table.name!r}; "
                                                f"{did_you_mean(follower, ids)}")
        for name in entry.use:
            if name not in DECLARED:
                add(f"{at}.use.{name}", f"{name!r} is not a trait a player uses when it chooses; use one of "
                                        f"{', '.join(DECLARED)} (EC-TRAIT)")
        most = int(table.ruleset.data("actions.gungho.max_attacks"))
        gungho = any(text.split() and text.split()[0] == "gungho" for text in entry.plans)
        if len(entry.attacks) > (most if gungho else 1):
            add(f"{at}.attack", f"{len(entry.attacks)} attacks: an activation has one, a gung-ho ride {most} at most "
                                "(EC-ACT-ATTACK, EC-ACT-GUNGHO)")
        for n, attack in enumerate(entry.attacks):
            where = f"{at}.attack" if isinstance(entry.attack, str) else f"{at}.attack[{n}]"
            target, weapon = attack_parts(attack)
            if target == entry.model:
                add(where, f"{entry.model} cannot attack itself: name another model")
            elif target not in ids:
                add(where, f"no model {target!r} to attack in the scene {table.name!r}; {did_you_mean(target, ids)}")
            if weapon and weapon.split()[0].lower() == KICK:
                try:
                    kick_limits(parse_kick(weapon.split()), table.ruleset)
                except IllegalPlanError as error:
                    add(where, error.message)
            elif weapon and weapon not in (PASS, TAUNT):  # made in lieu of the attack (EC-ACT-PASS, EC-TRAIT)
                try:
                    named, shots = weapon_and_shots(weapon)  # "pistol x2": a gun's split shots (EC-GUN-SPLIT)
                    if weapon_kind(named, table.ruleset) != "gun" and shots > 1:
                        raise ValueError(f"{weapon!r}: only a gun fires more than one shot (EC-GUN-SPLIT); "
                                         f"say {named!r} alone")
                except ValueError as error:
                    add(where, str(error))
    return problems


def script_turns(script: GameScript, table) -> int:
    """The turns a script is written for: its own ``turns:``, else its scene's."""
    return script.turns if script.turns is not None else table.spec.turns


def check_script_file(path: Path, scene: Path | None = None) -> str:
    """Validate a script and :func:`script_problems` against the scene it plays on (``scene``, else
    its own, else the bundled default scene, as ``demo --script`` picks it); a one-line summary,
    or ScriptError."""
    from entropy3d.resources import default_scene
    from entropy3d.scene import load_scene

    script, resolved, lines = load_script(path)
    scene = scene or scene_of(script, resolved) or default_scene()
    table = load_scene(scene)
    problems = script_problems(script, lines, table)
    if problems:
        raise ScriptError(path, problems)
    return (f"game script, {len(script.activations)} activation(s) on {table.name} over "
            f"{script_turns(script, table)} turn(s)")


def scene_of(script: GameScript, script_path: Path) -> Path | None:
    """The scene file a script names, resolved relative to the script."""
    return None if script.scene is None else (script_path.parent / script.scene).resolve()


class ScriptedPlayer:
    """Plays a gang's activations from a script; ``fallback`` plays the ones not listed.

    may_be_cornered: True while the fallback chose the current plan (it may be cornered, and
    then rides into the obstacle, EC-COL-1); a scripted plan is always checked on the table.
    """

    may_be_cornered = False
    #: a script may kick (EC-MEL-KICK): the attacks offered to it include kicks
    considers_kicks = True

    def __init__(self, script: GameScript, source: Path, ruleset, fallback: AutoPlayer | None,
                 lines: dict[str, int] | None = None):
        self.script = script
        self.source = source
        self.lines = lines or {}  # key path -> line, for errors
        self.fallback = fallback
        self.push = script.push
        self.policy: Policy = policy_named(script.push, ruleset)
        self._entries = {(a.turn, a.model): (k, a) for k, a in enumerate(script.activations)}

    def _entry(self, view: ActionView):
        return self._entries.get((view.state.turn, view.model.id))

    def choose_plan(self, view: ActionView) -> str:
        found = self._entry(view)
        if found is None or view.action_index >= len(found[1].plans):
            if self.fallback is None or self.script.fallback == "error":
                raise ScriptError(self.source, [("activations", None,
                                  f"no plan for {view.model.id} in turn {view.state.turn}, action "
                                  f"{view.action_index + 1}; add one or set `fallback: auto`")])
            self.may_be_cornered = True
            return self.fallback.choose_plan(view)
        self.may_be_cornered = False
        index, entry = found
        text = entry.plans[view.action_index]
        try:
            view.check(text)
        except (PlanError, IllegalPlanError) as error:
            where = f"activations[{index}].plans[{view.action_index}]"
            raise ScriptError(self.source, [(where, line_of(self.lines, where),
                                             f"{text!r} for {view.model.id} at {view.model.pose!r}, speed "
                                             f"{view.model.speed}: {error}")]) from None
        return text

    def remain_on_overwatch(self, view: ActionView) -> bool:
        found = self._entry(view)
        if found is None:
            return self.fallback is not None and self.fallback.remain_on_overwatch(view)
        return found[1].remain_on_overwatch

    def traits_to_use(self, view: ActionView, what: str) -> tuple[str, ...]:
        """The traits the script uses in the action numbered ``what`` ("1", "2") or in the attack
        (``attack``); for an activation it does not list, the fallback's (EC-TRAIT)."""
        found = self._entry(view)
        if found is None:
            ask = getattr(self.fallback, "traits_to_use", None)
            return tuple(ask(view, what)) if ask is not None else auto_declared(view.model, what)
        return tuple(name for name, where in found[1].use.items() if what in (str(w) for w in where))

    def defence(self, view: ActionView, option: AttackOption) -> str | None:
        """How the target of the script's attack answers (its entry's ``defence:``), or None: the
        automatic choice (what the target's traits oblige, else a dodge)."""
        found = self._entry(view)
        return None if found is None else found[1].defence

    def inspire_shares(self, view: ActionView) -> tuple[tuple[str, int], ...] | None:
        """The stress the script's leader takes off its followers this activation (Charismatic
        Energy, EC-TRAIT): its ``inspire:``, () when the entry gives none, None (the automatic
        player's choice) for an activation it does not list."""
        found = self._entry(view)
        if found is None:
            return None
        return tuple((found[1].inspire or {}).items())

    def free_move(self, view: ActionView) -> str | None:
        """The free move the script takes when Nimble gives one (EC-TRAIT), or None; for an
        activation it does not list, the automatic player's."""
        found = self._entry(view)
        return auto_free_move(view.model) if found is None else found[1].free_move

    def choose_attack(self, view: ActionView, options: Sequence[AttackOption]) -> AttackOption | None:
        found = self._entry(view)
        if found is None:  # the automatic player does not kick yet: its games stay as they were
            return self.fallback.choose_attack(view, [o for o in options if o.kind not in (KICK, TAUNT)]) \
                if self.fallback is not None else None
        attacks = found[1].attacks
        if view.model.attacks_made >= len(attacks):  # each attack it was given once, in order
            return None
        return option_named(options, attacks[view.model.attacks_made])  # kicks, split shots as written
