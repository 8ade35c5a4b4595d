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

Plans use the rules engine's notation (:mod:`entropy3d.rules.plan`). A plan the rules refuse
is an error naming the script, the entry and the clause, never a silent substitute.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Optional, Sequence

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from entropy3d.errors import IllegalPlanError, InputError, PlanError
from entropy3d.game.players import ActionView, AttackOption, AutoPlayer
from entropy3d.rules.dice import Policy, policy_named


class ScriptError(InputError):
    """A scripted-game YAML file that does not validate or asks for an illegal plan."""


class ScriptedActivation(BaseModel):
    """The plans of one model's activation in one turn."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    turn: int = Field(ge=1, description="1-based turn")
    model: str = Field(description="model id from the scene")
    plans: list[str] = Field(default_factory=list, max_length=2, description="one plan per action, in order")
    attack: Optional[str] = Field(None, description="`TARGET [with WEAPON]`: the model to attack after the "
                                  "move (with chicken, the melee weapon or the gun), if the rules allow it")
    remain_on_overwatch: bool = Field(False, description="spend this activation remaining on overwatch, once "
                                      "(EC-GUN-STOPPED); then no plans")

    @model_validator(mode="after")
    def _plans_or_watch(self) -> "ScriptedActivation":
        if self.remain_on_overwatch and self.plans:
            raise ValueError("remaining on overwatch spends the whole activation: give no plans with it")
        if not (self.plans or self.remain_on_overwatch or self.attack):
            raise ValueError("give plans, remain_on_overwatch: true, or (in the skipped activation after a "
                             "reload) an attack")
        return self


class GameScript(BaseModel):
    """A scripted-game file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    scene: Optional[str] = Field(None, description="scene file, relative to the script")
    seed: Optional[int] = None
    turns: Optional[int] = Field(None, ge=1, le=200)
    fallback: Literal["auto", "error"] = "auto"
    push: Literal["sit-at-tn", "risk-aware", "never"] = Field("sit-at-tn", description="push-your-luck policy")
    activations: list[ScriptedActivation] = Field(default_factory=list)


def load_script(path: str | Path) -> tuple[GameScript, Path]:
    """Read and validate a script; returns it and its resolved path."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise ScriptError(path, [("", mark.line + 1 if mark else None, f"not valid YAML: {error}")]) from None
    try:
        return GameScript.model_validate(data or {}), path.resolve()
    except ValidationError as error:
        problems = [(".".join(str(p) for p in e["loc"]), None, e["msg"]) for e in error.errors()]
        raise ScriptError(path, problems) from None


def scene_of(script: GameScript, script_path: Path) -> Path | None:
    """The scene file a script names, resolved relative to the script."""
    return None if script.scene is None else (script_path.parent / script.scene).resolve()


class ScriptedPlayer:
    """Plays a gang's activations from a script; ``fallback`` plays the ones not listed.

    may_be_cornered: True while the fallback chose the current plan (it may be cornered, and
    then rides into the obstacle, EC-COL-1); a scripted plan is always checked on the table.
    """

    may_be_cornered = False

    def __init__(self, script: GameScript, source: Path, ruleset, fallback: AutoPlayer | None):
        self.script = script
        self.source = source
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
            raise ScriptError(self.source, [(f"activations.{index}.plans.{view.action_index}", None,
                                             f"{text!r} for {view.model.id} at {view.model.pose!r}, speed "
                                             f"{view.model.speed}: {error}")]) from None
        return text

    def remain_on_overwatch(self, view: ActionView) -> bool:
        found = self._entry(view)
        if found is None:
            return self.fallback is not None and self.fallback.remain_on_overwatch(view)
        return found[1].remain_on_overwatch

    def choose_attack(self, view: ActionView, options: Sequence[AttackOption]) -> AttackOption | None:
        found = self._entry(view)
        if found is None:
            return self.fallback.choose_attack(view, options) if self.fallback is not None else None
        if not found[1].attack:
            return None
        target, _, weapon = (part.strip() for part in found[1].attack.partition(" with "))
        return next((o for o in options if o.target == target and (not weapon or o.kind == weapon)), None)
