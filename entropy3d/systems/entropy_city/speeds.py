"""Speeds, distances and turn order (EC-SPD-*, EC-MOVE-1, EC-BIKE-*, EC-TER-*, EC-TURN-*).

All distances are table inches. Speed 0 means stopped (a model on foot has no speed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.ruleset import Ruleset


@dataclass(frozen=True)
class DistanceBand:
    """Allowed distance of one action, inches: ``min`` <= distance <= ``max``.

    clauses: the rule clauses that shaped the band.
    """

    min: float
    max: float
    clauses: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f'DistanceBand({self.min:g}"..{self.max:g}" {", ".join(self.clauses)})'


def difficult_ignored(bike_type: str, ruleset: Ruleset) -> bool:
    """Trailbikes treat difficult terrain as normal (EC-BIKE-TRAIL, "Braaaap")."""
    return ruleset.bike_rules(bike_type).ignores_difficult_terrain


def distance_band(bike_type: str, speed: int, ruleset: Ruleset,
                  terrain: Iterable[str] = ()) -> DistanceBand:
    """Min and max distance of one action of ``bike_type`` at ``speed`` over ``terrain`` (the
    names of every terrain type the move touches; the most restrictive applies).

    EC-SPD-2 standard bands, EC-BIKE-* modifiers, EC-TER-GRAVEL and EC-TER-RUINS.
    """
    if bike_type not in ruleset.bike_types:
        raise ValueError(f"unknown bike type {bike_type!r}; use one of {', '.join(ruleset.bike_types)}")
    if speed == 0:
        return DistanceBand(0.0, 0.0, ("EC-MOVE-1",))
    if speed not in ruleset.speeds:
        raise IllegalPlanError("EC-SPD-2", f"there is no speed {speed}; speeds are "
                               f"{', '.join(str(s) for s in ruleset.speeds)}")
    band = ruleset.speeds[speed]
    bike = ruleset.bike_types[bike_type]
    lo = band.min + bike.min_mod
    hi = band.max + bike.max_mod.get(speed, 0.0)
    clauses = ["EC-SPD-2"]
    if bike.min_mod or bike.max_mod.get(speed, 0.0):
        clauses.append(bike_clause(bike_type))
    touched = set(terrain)
    for name in sorted(touched):
        effect = ruleset.terrain_effect(name)
        if bike_type in effect.bike_types:
            lo += effect.min_mod
            hi += effect.max_mod
            clauses.append("EC-TER-GRAVEL")
            break  # gravel and dirt are one rule; apply it once
    ruins = ruleset.terrain_effect("ruins")
    if "ruins" in touched and ruins.max_is_min_plus_speed and bike_type not in ruins.exempt:
        hi = min(hi, lo + speed)
        clauses.append("EC-TER-RUINS")
    return DistanceBand(float(lo), float(max(lo, hi)), tuple(clauses))


_BIKE_CLAUSE = {"sportsbike": "SPORT", "cruiser": "CRUISER", "trailbike": "TRAIL", "quad": "QUAD",
                "scooter": "SCOOTER", "police": "POLICE"}


def bike_clause(bike_type: str) -> str:
    """The clause of a bike type's own rules: "EC-BIKE-TRAIL" for a trailbike."""
    return f"EC-BIKE-{_BIKE_CLAUSE.get(bike_type, bike_type.upper())}"


@dataclass(frozen=True)
class SpeedChange:
    """A legal speed change at the start of an action (EC-SPD-1).

    before / after: speeds. stress: instant stress it costs (a quad's 3 -> 1 drop costs 1).
    clauses: the clauses applied.
    """

    before: int
    after: int
    stress: int
    clauses: tuple[str, ...]


def check_speed_change(bike_type: str, before: int, after: int, ruleset: Ruleset, *,
                       first_action_of_game: bool = False) -> SpeedChange:
    """Check (never apply) a speed change; raise IllegalPlanError naming the clause.

    first_action_of_game: the first action of the first turn must be at speed 1 (EC-TURN-4).
    """
    if first_action_of_game:
        forced = int(ruleset.data("turn.first_action_speed"))
        if after != forced:
            raise IllegalPlanError("EC-TURN-4", f"the first action of the game is at speed {forced}, "
                                   f"not {after}")
        return SpeedChange(before, after, 0, ("EC-TURN-4",))
    step = int(ruleset.data("turn.max_speed_change"))
    if abs(after - before) <= step:
        return SpeedChange(before, after, 0, ("EC-SPD-1",))
    for special in ruleset.spec.speed_change.get(bike_type, ()):
        if special.from_ == before and special.to == after:
            return SpeedChange(before, after, special.stress, ("EC-SPD-1", "EC-BIKE-QUAD"))
    raise IllegalPlanError("EC-SPD-1", f"speed may change by at most {step} per action "
                           f"({before} -> {after} for a {bike_type})")


@dataclass(frozen=True)
class Activator:
    """A model waiting to activate: ``id``, its ``player``, its current ``speed`` (0 stopped) and
    whether it is ``on_foot`` (it activates after every bike, EC-TURN-2)."""

    id: str
    player: str
    speed: int
    on_foot: bool = False


@dataclass(frozen=True)
class RollOff:
    """The turn's roll-off (EC-TURN-1): every round of 1d10 each, and the winner who chooses."""

    rounds: tuple[tuple[int, int], ...]
    winner: int  # 0 or 1: index of the player who chooses who activates first


def roll_off(rng: np.random.Generator, ruleset: Ruleset) -> RollOff:
    """Both players roll 1d10, highest chooses; ties roll again (EC-TURN-1)."""
    sides = int(ruleset.data("turn.roll_off_die"))
    rounds = []
    while True:
        a, b = (int(v) for v in rng.integers(1, sides + 1, size=2))
        rounds.append((a, b))
        if a != b:
            return RollOff(tuple(rounds), 0 if a > b else 1)


def activation_order(models: Sequence[Activator], first_player: str, ruleset: Ruleset) -> list[str]:
    """The ids in activation order (EC-TURN-2): speed 3, then 2, then 1, then on foot; players
    alternate, starting with ``first_player``. When the player to move has nothing left in the
    current speed band, the other player activates there. Within one player's band, the input
    order is kept.
    """
    order: list[str] = []
    players = sorted({m.player for m in models}, key=lambda p: (p != first_player, p))
    turn = 0
    bands = [[m for m in models if not m.on_foot and m.speed == speed]
             for speed in ruleset.data("turn.activation_order")]
    for band in bands + [[m for m in models if m.on_foot]]:  # "Activate on foot models." last
        waiting = {p: [m.id for m in band if m.player == p] for p in players}
        while any(waiting.values()):
            for k in range(len(players)):
                p = players[(turn + k) % len(players)]
                if waiting[p]:
                    order.append(waiting[p].pop(0))
                    turn = (players.index(p) + 1) % len(players)
                    break
    return order


def whole_inches(value: float) -> bool:
    """Whether a distance is a whole number of inches."""
    return math.isclose(value, round(value), abs_tol=1e-9)
