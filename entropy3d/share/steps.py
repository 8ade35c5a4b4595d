"""A replay's ridden actions as the page's timeline: one entry per action the viewer steps through.

Each entry holds where every bike stands as the action starts, the active bike's trajectory and
where the rules left it (``model_after``), the moved scenery as it starts and the pieces it knocks
aside (their flight, :meth:`~entropy3d.game.knocks.Knock.path`: ride seconds, dx, dy), the
action's words (title, plain-words sentences and
their dice detail, clauses), the mission's NPCs as it starts (where each is, or whose base it
rides on: :func:`~entropy3d.look.npc_marks.npc_marks`), the turning templates laid at its start
(EC-TMPL-1) and the sight lines from where it ended to every rival (EC-LOS-1: top-down verdict, true-LOS % visible). The
last one also shows how the game ended (:func:`replay_end`).
"""

from __future__ import annotations

import numpy as np

from entropy3d.game.knocks import knocks_in, spots_as_action_starts
from entropy3d.game.records import action_events
from entropy3d.game.replay import Replay
from entropy3d.game.timeline import Timeline, taken_out_by, template_polylines
from entropy3d.geometry import Pose
from entropy3d.look.npc_marks import npc_marks, shown_state
from entropy3d.scene.build import TableGeometry
from entropy3d.scene.table import Table
from entropy3d.share.payload import DECIMALS, pose_list, thinned
from entropy3d.systems.words import Names, lines
from entropy3d.video.ending import result_card


def _points(points: np.ndarray) -> list[list[float]]:
    return np.round(np.asarray(points, float), DECIMALS).tolist()


def template_lines(table: Table) -> list:
    """The turning templates (EC-TMPL-1) laid at the origin facing +x, as [template, points]: the
    page moves them to each action's starting pose (they are rigid), so they are written once.
    None for a rulebook whose figures pivot (``turns_on_templates``): the page hides the toggle."""
    from entropy3d.scene.systemrules import system_of

    if not system_of(table, played=True).turns_on_templates:
        return []
    return [[name.split("-")[0], _points(points)]
            for name, points in template_polylines(Pose(0.0, 0.0, 0.0, 0.0), table.ruleset)]


def replay_steps(replay: Replay, table: Table, geometry: TableGeometry) -> list[dict]:
    """Every action of ``replay`` a model took (:func:`~entropy3d.game.timeline.is_step`: its rides,
    its shots, a rulebook's own actions) in order, as the page's timeline entries."""
    from entropy3d.los import LosWorld
    from entropy3d.scene.systemrules import system_of

    names = Names.of_table(table)
    gang = {m.id: m.gang for m in table.models}
    sight = LosWorld(table, geometry)
    rulebook = system_of(table)
    timeline = Timeline(replay, replay.header.initial)
    entries = []
    for index in range(len(timeline.steps)):
        timeline.index, timeline.t = index, 0.0
        poses, hidden, active = timeline.poses()
        step = timeline.step
        activation = replay.activations[step.activation]
        action = activation.actions[step.action]
        after = action.model_after
        end = after.pose if after is not None else poses[active]
        end_poses = {**poses, active: end}
        if after is not None and not after.in_play:
            end_poses.pop(active)
        taken = taken_out_by(activation, step.action)
        for model_id in taken:  # no sight line to a model this action took out
            end_poses.pop(model_id, None)
        entries.append({
            "model": active,
            "title": (f"Turn {activation.turn} - {names.rider_of_gang(active)}, action {action.index + 1}: "
                      f"{action.plan or action.action.kind.replace('_', ' ')}"),
            "lines": [list(pair) for pair in lines(action_events(activation, step.action), names)],
            "poses": {model_id: pose_list(pose) for model_id, pose in poses.items()},
            "hidden": sorted(hidden),
            "trajectory": thinned(action.trajectory).tolist(),
            "after": pose_list(end),
            "out": after is not None and not after.in_play,
            "taken_out": list(taken),
            "scenery": {piece: list(spot) for piece, spot in spots_as_action_starts(activation, step.action).items()},
            "knocks": {knock.piece_id: _points(knock.path()) for knock in knocks_in(activation, step.action)},
            "npcs": [mark.to_json() for mark in npc_marks(shown_state(activation, step.action, False), table.spec,
                                                          names, geometry)],
            "sight": _sight_lines(sight, end_poses, active, gang, rulebook,
                                  _as_the_action_ends(activation, after, end_poses), names),
        })
    return entries


def replay_end(replay: Replay, table: Table) -> dict | None:
    """How the game ended, shown with its last action: the demo video's end card (title, lines
    and the gang each line is about); for a replay cut short (no end record), that it stops
    there (``cut_short``), so a stranger does not take its last action for the game's end."""
    if replay.cut_short:
        where = f"turn {replay.activations[-1].turn}" if replay.activations else "its start"
        return {"title": "The replay stops here, cut short", "cut_short": True, "gangs": [],
                "lines": [f"Its end is missing: the game that wrote it stopped in {where}, before the game's end."]}
    title, card, gangs = result_card(replay, table, Names.of_table(table))
    return {"title": title, "lines": list(card), "gangs": list(gangs)}


def _as_the_action_ends(activation, after, poses: dict[str, Pose]):
    """The game's state as an action ends, as far as a shot from its end is concerned: the
    activation's state before with the active model as the action left it and every model where
    it stands then (``poses``)."""
    state = activation.state_before
    if after is not None:
        state = state.with_model(after)
    return state.with_poses(poses)


def _sight_lines(sight, poses: dict[str, Pose], viewer: str, gang: dict[str, str], rulebook, state,
                 names: Names) -> list[dict]:
    """From ``viewer`` (if still in play) to every rival in play: both verdicts, eye to eye, and
    whether the scene's rulebook lets it shoot from there with what it carries (``state``: the
    game as the action ends, models at ``poses``; ``can_shoot`` None when its rules do not say
    from sight alone: the page then claims nothing), and if not why (``no_shot``, models by
    their ``names``)."""
    if viewer not in poses:
        return []
    rivals = [m for m in poses if gang[m] != gang[viewer]]
    if not rivals:
        return []
    everyone = {m: poses.get(m) for m in gang}
    results = sight.all_pairs(everyone, [(viewer, rival) for rival in rivals])
    out = []
    for (_, target), result in results.items():
        a, b = poses[viewer], poses[target]
        verdict = rulebook.shot_verdict(state, viewer, target, result.true_los)
        out.append({"target": target, "visible": bool(result.top_down.visible),
                    "percent": round(100 * float(result.true_los.visible_fraction), 1),
                    "can_shoot": verdict.allowed, "no_shot": names.named(verdict.why_not()),
                    "from": [round(a.x, DECIMALS), round(a.y, DECIMALS), round(a.z + 1.0, DECIMALS)],
                    "to": [round(b.x, DECIMALS), round(b.y, DECIMALS), round(b.z + 1.0, DECIMALS)]})
    return out
