"""What a played game comes to, read from its replay: the summary row, its riders and its moments.

Everything here reads a :class:`~entropy3d.game.replay.Replay` (what the rules decided and the
producer found, as stored) and decides nothing: a sweep, the highlights reel and the report all
count from the same records, so a figure means the same thing everywhere.

Moments are the things worth watching, each where it happened on the table (inches):

- ``takedown``: a model that was riding before an activation and is out of the game after it, at
  its last pose; credited to the activating model when it is another gang's (its move or attack
  did it), to nobody when the model took itself out;
- ``escape``: a model that rode off an open table edge in the activation (Lovers Point Brawl's
  escape, Package Run's delivery), where it left, or delivered an NPC to its corner (Rescue &
  Survive), where it ended the action: its own gang's feat, so no takedown and no credit to anyone;
- ``crash``: a crash the rules resolved (EC-COL-HEAD/SIDE), where the bike was when it hit;
- ``jump``: a flight the rules gave air time (EC-JUMP-1), at its take-off;
- ``bust``: a bust (EC-DICE-4), ridden or in an attack; ``smash``: a destructible the rider went
  through with a test (EC-DEST-*); ``hit``: an attack that took a wound or more.

The drama score (:data:`DRAMA_WEIGHTS`) is a weighted count of moments plus a bonus for a close
finish: ``drama = sum(weight[kind] x moments of that kind) + LATE x takedowns in the last turn played
+ AIR x seconds in the air + CLOSE x closeness``, where closeness = 1 / (1 + margin) and margin is
the points between the winner and the next gang (0 for a draw, so a draw or a one-point finish
scores high). The weights favour what a viewer remembers: a takedown over a crash over a
bust; they are a DECISION of the sweep, not rules data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from entropy3d.systems.entropy_city.state import ESCAPED, RIDING

#: drama points per moment kind (see the module docstring)
DRAMA_WEIGHTS = {"takedown": 3.0, "escape": 2.0, "jump": 2.0, "crash": 1.5, "smash": 1.0, "hit": 1.0, "bust": 0.5}
#: extra drama points per takedown in the last turn played (a finish decided late)
LATE_TAKEDOWN = 2.0
#: drama points per second a bike spent in the air on jumps
AIR_SECOND = 1.0
#: drama points of a finish with closeness 1 (a draw or a one-point margin scores 4 or 2)
CLOSE_FINISH = 4.0


@dataclass(frozen=True)
class Moment:
    """One thing worth watching: kind (see the module docstring), the turn, the activation's index
    in the replay (0-based, for the highlights reel), the model it happened to, the model credited
    (takedowns; "" for none), where on the table (inches, to 0.001") and its drama points."""

    kind: str
    turn: int
    activation: int
    model: str
    credited: str
    x_in: float
    y_in: float
    drama: float


@dataclass(frozen=True)
class RiderOutcome:
    """How one model's game went: its gang and bike type, whether it ended the game riding, out or
    escaped, the takedowns credited to it, its crashes, busts and jumps."""

    model: str
    gang: str
    bike_type: str
    status: str
    takedowns: int
    crashes: int
    busts: int
    jumps: int


@dataclass(frozen=True)
class GameSummary:
    """One game's row. margin: points between the winner and the next gang (0 on a draw);
    closeness: 1 / (1 + margin); air_time_s: seconds the bikes were in the air on jumps (the
    producer's trajectory); drama: see the module docstring; objective: the game reached its
    mission's own objective (:func:`~entropy3d.systems.entropy_city.objectives.objective_met`: a package
    delivered, the VIP taken out, the NPC rescued...)."""

    scene_name: str
    winner: str
    score: dict
    end_reason: str
    turns_played: int
    activations: int
    attacks: int
    takedowns: int
    jumps: int
    air_time_s: float
    crashes: int
    busts: int
    destructibles_smashed: int
    margin: int
    closeness: float
    drama: float
    objective: bool
    moments: tuple[Moment, ...]
    riders: tuple[RiderOutcome, ...]


def summarize(replay) -> GameSummary:
    """The summary of a whole replay (it must have its end record)."""
    if replay.end is None:
        raise ValueError("the replay has no end record: the game was not finished")
    moments: list[Moment] = []
    attacks = 0
    air_time = 0.0
    for number, activation in enumerate(replay.activations):
        found, attacked, air = activation_moments(number, activation)
        moments += found
        attacks += attacked
        air_time += air
    end = replay.end
    last_turn = end.turns_played
    counts = {kind: sum(1 for m in moments if m.kind == kind) for kind in DRAMA_WEIGHTS}
    scores = sorted(end.score.values(), reverse=True)
    margin = int(scores[0] - scores[1]) if len(scores) > 1 else 0
    closeness = 1.0 / (1.0 + margin)
    late = sum(1 for m in moments if m.kind == "takedown" and m.turn == last_turn)
    drama = (sum(m.drama for m in moments) + LATE_TAKEDOWN * late + AIR_SECOND * air_time
             + CLOSE_FINISH * closeness)
    return GameSummary(replay.header.scene_name, end.winner, dict(sorted(end.score.items())), end.reason,
                       end.turns_played, len(replay.activations), attacks, counts["takedown"], counts["jump"],
                       round(air_time, 4), counts["crash"], counts["bust"], counts["smash"], margin,
                       round(closeness, 4), round(drama, 4), objective_reached(replay), tuple(moments),
                       _riders(replay, moments))


def objective_reached(replay) -> bool:
    """Whether ``replay``'s game reached its mission's own objective (decided by the mission's
    rules, :func:`~entropy3d.systems.entropy_city.objectives.objective_met`, from every event of the game)."""
    from entropy3d.game.replay import game_events
    from entropy3d.systems.entropy_city.objectives import objective_met

    return objective_met(replay.header.initial, game_events(replay))


def activation_moments(number: int, activation) -> tuple[list[Moment], int, float]:
    """(moments, attacks made, seconds in the air on jumps) of one activation."""
    moments: list[Moment] = []
    attacks = 0
    air = 0.0
    owner = activation.model_id

    def add(kind: str, model: str, xy, credited: str = "") -> None:
        moments.append(Moment(kind, activation.turn, number, model, credited, round(float(xy[0]), 3),
                              round(float(xy[1]), 3), DRAMA_WEIGHTS[kind]))

    for action in activation.actions:
        trajectory = action.trajectory
        # where the rider stood after the action (one that moved no model: where the activation left it)
        end_pose = (action.model_after or activation.state_after.model(owner)).pose
        here = (end_pose.x, end_pose.y)
        for event in action.events:
            at = _position_at(trajectory, event.t_s, here)
            if event.kind == "crash":
                add("crash", owner, at)
            elif event.kind == "jump" and event.figures.get("air_time"):
                add("jump", owner, at)
            elif event.kind == "bust":
                add("bust", owner, at)
            elif event.kind == "destructible" and "risk" in event.figures:
                add("smash", owner, at)
            elif event.kind == "score" and event.figures.get("delivered") and "npc" in event.figures:
                add("escape", owner, here)  # an NPC delivered to its corner, on the table (EC-MISSION-RESCUE)
        if action.ridden and action.facts is not None and any(
                e.kind == "jump" and e.figures.get("air_time") for e in action.events):
            end_t = float(trajectory[-1, 0]) if len(trajectory) else 0.0
            air += sum((f.land_t_s if f.land_t_s is not None else end_t) - f.launch_t_s for f in action.facts.flights)
        if action.attack is not None:
            attacks += 1
            target = action.attack.target or ""
            where = activation.state_after.model(target).pose if target in activation.state_after.models else None
            for event in action.attack.events:
                if event.kind == "bust":
                    add("bust", event.model or owner, here)
            wounds = [e for e in action.attack.events if e.kind == "attack" and e.figures.get("wounds_lost", 0)]
            if wounds and where is not None:
                add("hit", target, (where.x, where.y))
    before, after = activation.state_before, activation.state_after
    gang = before.model(owner).gang
    for model_id, model in after.models.items():
        was = before.models.get(model_id)
        if was is None or was.status != RIDING or model.status == RIDING:
            continue
        if model.status == ESCAPED:
            add("escape", model_id, (model.pose.x, model.pose.y))
        else:
            add("takedown", model_id, (model.pose.x, model.pose.y), owner if model.gang != gang else "")
    return moments, attacks, air


def _position_at(trajectory: np.ndarray, t_s: float, fallback) -> tuple[float, float]:
    """Where the ridden bike was ``t_s`` seconds into the ride (the trajectory's t, x, y rows)."""
    if len(trajectory) == 0:
        return float(fallback[0]), float(fallback[1])
    t = trajectory[:, 0]
    return float(np.interp(t_s, t, trajectory[:, 1])), float(np.interp(t_s, t, trajectory[:, 2]))


def _riders(replay, moments: list[Moment]) -> tuple[RiderOutcome, ...]:
    final = replay.end.state
    riders = []
    for model_id, model in sorted(final.models.items()):
        mine = [m for m in moments if m.model == model_id]
        riders.append(RiderOutcome(model_id, model.gang, model.bike_type, model.status,
                                   sum(1 for m in moments if m.kind == "takedown" and m.credited == model_id),
                                   sum(1 for m in mine if m.kind == "crash"),
                                   sum(1 for m in mine if m.kind == "bust"),
                                   sum(1 for m in mine if m.kind == "jump")))
    return tuple(riders)


def drama_reasons(row, gang_name=lambda gang: gang) -> tuple[str, ...]:
    """Why a game scores its drama, in words for a title card: what happened, then the finish.

    row: a ``games`` row (a mapping with the summary's counts). gang_name: a gang id's name."""
    phrases = []
    air = f" ({row['air_time_s']:.1f} s in the air)" if row["air_time_s"] else ""
    for count, word, plural in ((row["takedowns"], "takedown", "takedowns"), (row["jumps"], "jump", "jumps"),
                                (row["crashes"], "crash", "crashes"),
                                (row["destructibles_smashed"], "smash", "smashes"), (row["busts"], "bust", "busts")):
        if count:
            phrases.append(f"{count} {word if count == 1 else plural}" + (air if word == "jump" else ""))
    happened = ", ".join(phrases)
    if not row["winner"]:
        finish = "a draw"
    else:
        margin = row["margin"]
        # level on points, the rulebook's tie-break decided it (a package run's busted carriers)
        finish = (f"{gang_name(row['winner'])} win on the tie-break" if not margin else
                  f"{gang_name(row['winner'])} win by {margin} point{'s' if margin != 1 else ''}")
    return tuple(line for line in (happened, finish) if line)
