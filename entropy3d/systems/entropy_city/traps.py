"""Traps (EC-TRAP, EC-ACT-LAYTRAP): tokens a rider lays with Lay Trap that act on the bikes that
ride over them. The rulebook names four (spike strip, caltrops, molotov cocktail, explosive) and
gives no numbers: each one's area and effect is a DECISION in the rules data (``traps:``).

A spike strip lies across the layer's heading where its Lay Trap started ("positioned across the
road ... damage the incoming bikes behind you"); caltrops and a molotov's fire are discs there; an
explosive is dropped "at the position you started" and goes off after its fuse. Whether a ridden
path meets a token is plain geometry on the path the producer reported; what it does is decided
here, with the dice from the injected generator.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from entropy3d.core.event import Event, roll_text
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city import trait_tests
from entropy3d.systems.entropy_city.conditions import after_test, become, stun_tn_mod
from entropy3d.systems.entropy_city.dice import policy_named
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import OUT, ModelState, State, Trap


def trap_words(kind: str) -> str:
    """A trap kind of the rules data as words with its article: "a molotov", "an explosive",
    "caltrops" (a plural takes none)."""
    name = kind.replace("_", " ")
    if name.endswith("s"):
        return name
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def lay(state: State, layer: ModelState, at: Pose, rng: np.random.Generator, ruleset: Ruleset
        ) -> tuple[State, ModelState, list[Event]]:
    """The layer's first carried trap is put down at ``at`` (EC-ACT-LAYTRAP, EC-TRAP); an explosive
    gets its fuse, rolled from the data's range."""
    if not layer.traps_carried:
        return state, layer, []
    kind, rest = layer.traps_carried[0], layer.traps_carried[1:]
    spec = ruleset.data(f"traps.{kind}")
    fuse = None
    if spec.get("fuse_activations"):
        low, high = (int(v) for v in spec["fuse_activations"])
        fuse = int(rng.integers(low, high + 1))
    trap = Trap(f"{layer.id}-{kind}-{len(state.traps) + 1}", kind, round(at.x, 4), round(at.y, 4),
                round(at.facing_deg, 4), layer.id, fuse)
    text = f"lays {trap_words(kind)} at ({at.x:.1f}, {at.y:.1f})" + (
        f", fused for {fuse} activation{'s' if fuse != 1 else ''}" if fuse else "")
    figures = {"trap": kind, **({"fuse": fuse} if fuse else {})}
    return (dataclasses.replace(state, traps=state.traps + (trap,)), layer.but(traps_carried=rest),
            [Event("trap", layer.id, text, clauses=("EC-ACT-LAYTRAP", "EC-TRAP"), piece=trap.id, figures=figures)])


def distance_to(trap: Trap, points: np.ndarray, ruleset: Ruleset) -> np.ndarray:
    """Inches from each of ``points`` (n x 2) to the trap's area (0 inside it)."""
    spec = ruleset.data(f"traps.{trap.kind}")
    offsets = np.asarray(points, float).reshape(-1, 2) - [trap.x, trap.y]
    if spec["shape"] == "disc":
        return np.maximum(0.0, np.hypot(*offsets.T) - float(spec["radius_in"]))
    heading = math.radians(trap.heading_deg)
    along = offsets @ [math.cos(heading), math.sin(heading)]     # across the strip
    across = offsets @ [-math.sin(heading), math.cos(heading)]   # along the strip
    return np.hypot(np.maximum(0.0, np.abs(along) - 0.5 * float(spec["depth_in"])),
                    np.maximum(0.0, np.abs(across) - 0.5 * float(spec["length_in"])))


def crossed(state: State, model: ModelState, path_xy: np.ndarray, ruleset: Ruleset, skip: str | None = None
            ) -> list[Trap]:
    """The traps whose area the base of ``model`` rode into along ``path_xy`` (the ridden path), in
    the order met; one it starts on is not met again; an explosive acts by its fuse, not by being
    ridden over."""
    base = ruleset.base_for(model.bike_type)
    reach = 0.5 * base.width
    met = []
    for trap in state.traps:
        if trap.id == skip or ruleset.data(f"traps.{trap.kind}").get("fuse_activations"):
            continue
        on = distance_to(trap, path_xy, ruleset) <= reach
        entering = np.flatnonzero(on[1:] & ~on[:-1]) + 1  # a rider already on it when it set off rode it last time
        if entering.size:
            met.append((int(entering[0]), trap))
    return [trap for _, trap in sorted(met, key=lambda pair: pair[0])]


def spring(state: State, model_id: str, trap: Trap, push: str, rng: np.random.Generator, ruleset: Ruleset
           ) -> tuple[State, list[Event]]:
    """What a trap does to the rider that rode over it (EC-TRAP): a test at its TN (0: none) with
    stress and wounds on a failure, or a condition (fire). A one-shot trap is used up."""
    spec = ruleset.data(f"traps.{trap.kind}")
    model = state.model(model_id)
    name = trap.kind.replace("_", " ")
    events: list[Event] = []
    rolls = ()
    harmed = True
    if int(spec.get("tn", 0)):
        tn = int(spec["tn"]) + stun_tn_mod(model, ruleset)  # EC-COND-STUN: +3 to every test
        test = trait_tests.rider_test(model, trait_tests.RIDE, tn, model.stress, rng, ruleset,
                                      policy_named(push, ruleset))  # EC-TRAIT
        harmed, rolls = not test.succeeded, (test,)
        model = after_test(model.but(stress=max(0, model.stress + test.stress_change)), test.succeeded)
    text = f"rides over {trap.laid_by}'s {name}"
    if rolls:
        text += f": TN {rolls[0].tn}, {roll_text(rolls[0])}"
    if harmed:
        stress, wounds = int(spec.get("stress", 0)), min(model.wounds, int(spec.get("wounds", 0)))
        model = model.but(stress=model.stress + stress, wounds=model.wounds - wounds)
        harm = [f"+{stress} stress"] * bool(stress) + [f"-{wounds} wound"] * bool(wounds)
        text += f" - {', '.join(harm)}" if harm else ""
        if spec.get("condition"):
            model, more = become(model, str(spec["condition"]), ruleset)
            events += more
    else:
        text += " - through unharmed"
    events.insert(0, Event("trap", model.id, text, clauses=("EC-TRAP",), rolls=rolls, piece=trap.id,
                           stress_change=model.stress - state.model(model_id).stress,
                           figures={"trap": trap.kind, "laid_by": trap.laid_by,
                                    "wounds_lost": state.model(model_id).wounds - model.wounds}))
    if model.wounds <= 0 and model.in_play:
        model = model.but(wounds=0, status=OUT, air=None)
        events.append(Event("trap", model.id, f"{model.id} is out of the game", clauses=("EC-TRAP", "EC-WOUND"),
                            figures={"taken_out": True}))
    if spec.get("one_shot"):
        state = dataclasses.replace(state, traps=tuple(t for t in state.traps if t.id != trap.id))
    return state.with_model(model), events


def burn_fuses(state: State, layer_id: str, ruleset: Ruleset) -> tuple[State, list[Event]]:
    """At the end of each of its layer's activations an explosive's fuse burns one down; at 0 it
    goes off: every rider within its radius takes its stress and wounds (EC-TRAP)."""
    events: list[Event] = []
    kept = []
    for trap in state.traps:
        if trap.laid_by != layer_id or trap.fuse is None:
            kept.append(trap)
            continue
        if trap.fuse > 1:
            kept.append(dataclasses.replace(trap, fuse=trap.fuse - 1))
            continue
        spec = ruleset.data(f"traps.{trap.kind}")
        events.append(Event("trap", layer_id, f"the {trap.kind} at ({trap.x:.1f}, {trap.y:.1f}) goes off",
                            clauses=("EC-TRAP",), piece=trap.id, figures={"trap": trap.kind, "went_off": True}))
        for model in state.models.values():
            if not model.in_play or float(distance_to(trap, [model.pose.xy], ruleset)[0]) > 0.0:
                continue
            wounds = min(model.wounds, int(spec["wounds"]))
            hit = model.but(stress=model.stress + int(spec["stress"]), wounds=model.wounds - wounds)
            if hit.wounds <= 0:
                hit = hit.but(wounds=0, status=OUT, air=None)
            state = state.with_model(hit)
            events.append(Event("trap", model.id, f"caught in the blast: +{spec['stress']} stress, -{wounds} wound"
                                + (", out of the game" if hit.status == OUT else ""), clauses=("EC-TRAP", "EC-WOUND"),
                                piece=trap.id, stress_change=int(spec["stress"]),
                                figures={"taken_out": hit.status == OUT}))
    return dataclasses.replace(state, traps=tuple(kept)), events
