"""What the viewer asks the table: which model or surface is under the mouse, where a dragged
model stands, what the selected rider sees, how far two points are. Pure numpy over the LOS engine
(:class:`~entropy3d.los.LosWorld`) and the table's downward probe
(:meth:`~entropy3d.scene.build.TableGeometry.surface_stacks`): no window, so it is tested headless.

All lengths are table inches; headings degrees counter-clockwise from +x.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from entropy3d.geometry import Pose
from entropy3d.scene.build import level_below

#: inches: a point the mouse ray meets stands on the highest surface at most this far above it, so
#: a ray meeting a wall puts the model at the wall's foot, and one meeting a roof on the roof
SURFACE_SLACK_IN = 0.05
#: inches: spacing of the samples of the along-the-ground measure
GROUND_SAMPLE_IN = 0.1


@dataclass(frozen=True)
class Hit:
    """What the mouse ray met first: a model id, a piece id, or "" for the bare table top."""

    what: str
    point: np.ndarray
    """(3,) where, inches."""


@dataclass(frozen=True)
class SightLabel:
    """The selected rider's sight of one enemy, as `entropy3d los` gives it (EC-LOS-4, EC-COVER-1),
    and the rulebook's verdict on a shot with what the rider carries from where both stand."""

    target: str
    visible_percent: float
    cover: bool
    can_shoot: bool | None
    """None: the scene's rulebook says nothing of a shot from sight alone (no shots in it)."""
    top_down_visible: bool
    blockers: tuple[str, ...]
    no_shot: str = ""
    """Why there is no shot, models by name, with its clause ("" when it can shoot, or when the
    rulebook does not say from sight alone)."""
    behind: bool = False
    """The target is wholly behind the viewer's front half (EC-LOS-2): it sees none of it."""

    def text(self, name: str) -> str:
        shot = "" if self.can_shoot is None else ", can shoot" if self.can_shoot else ", no shot"
        where = ", behind its front half (EC-LOS-2)" if self.behind else ""
        return f"{name}: {self.visible_percent:.0f}% visible{' (cover)' if self.cover else ''}{where}{shot}"

    def to_dict(self) -> dict:
        return {"target": self.target, "visible_percent": self.visible_percent, "cover": self.cover,
                "can_shoot": self.can_shoot, "no_shot": self.no_shot, "behind": self.behind,
                "top_down_visible": self.top_down_visible, "blockers": list(self.blockers)}


@dataclass(frozen=True)
class Measure:
    """Two points and the distances between them, inches."""

    start: np.ndarray
    end: np.ndarray
    straight_in: float
    """The straight 3D distance."""
    ground_in: float
    """Along the ground: the path over every surface under the straight line from above, up and
    down each level on the way (a roof to the street counts the drop)."""
    profile: np.ndarray
    """(N, 3) that path."""
    edge_in: float | None = None
    """Between two models: from base edge to base edge, seen from above (how a tabletop player
    measures, and so first in the text); None between points of the table."""

    def text(self) -> str:
        edges = (f"{self.edge_in:.1f}\" base edge to base edge; centre to centre (a gun's range, EC-GUN-2) "
                 if self.edge_in is not None else "")
        return (f"measure: {edges}{self.straight_in:.1f}\" straight, {self.ground_in:.1f}\" along the ground; "
                f"levels {self.start[2]:.1f}\" -> {self.end[2]:.1f}\"")

    def to_dict(self) -> dict:
        return {"start": [round(float(v), 3) for v in self.start], "end": [round(float(v), 3) for v in self.end],
                "straight_in": round(self.straight_in, 3), "ground_in": round(self.ground_in, 3),
                "edge_in": None if self.edge_in is None else round(self.edge_in, 3)}


class TableQuestions:
    """The viewer's questions about one table, over one cached :class:`~entropy3d.los.LosWorld`."""

    def __init__(self, table, geometry):
        from entropy3d.los import LosWorld
        from entropy3d.scene.systemrules import system_of
        from entropy3d.systems.words import Names

        self.table, self.geometry = table, geometry
        self.world = LosWorld(table, geometry)
        self.names = Names.of_table(table)
        self.gang_of = {m.id: m.gang for m in table.models}
        #: the scene's rulebook: it says whether a sight is a shot (:meth:`GameSystem.shot_verdict`)
        self.rulebook = system_of(table)

    def pick(self, start, end, poses: Mapping[str, Pose], models: bool = True) -> Hit | None:
        """First model (unless ``models`` is False) or piece along the mouse ray from ``start`` to
        ``end`` (inches), else where it meets the table top (z = 0); None when it meets neither."""
        start, end = np.asarray(start, float), np.asarray(end, float)
        minis = list(self.world.miniatures(poses).values()) if models else []
        t, names = self.world.cast(start[None], end[None], [m for m in minis if m.id in poses])
        if np.isfinite(t[0]):
            return Hit(str(names[0]), start + float(t[0]) * (end - start))
        if start[2] > 0 >= end[2]:
            return Hit("", start + start[2] / (start[2] - end[2]) * (end - start))
        return None

    def level_at(self, point) -> float:
        """The highest surface under ``point`` at most :data:`SURFACE_SLACK_IN` above it."""
        stack = self.geometry.surface_stacks([np.asarray(point, float)[:2]])[0]
        return level_below(stack, float(point[2]) + SURFACE_SLACK_IN)

    def stand(self, point, facing_deg: float) -> Pose:
        """A model put down at ``point`` (a hit of :meth:`pick`), on the level under it."""
        return Pose(float(point[0]), float(point[1]), facing_deg % 360.0, self.level_at(point))

    def enemies(self, model_id: str, poses: Mapping[str, Pose]) -> list[str]:
        return [m for m in poses if m in self.gang_of and self.gang_of[m] != self.gang_of[model_id]]

    def sight(self, viewer: str, poses: Mapping[str, Pose], state, targets: list[str] | None = None):
        """(labels, results) for ``viewer`` looking at every enemy in play (or ``targets``): the
        LOS engine's answer with everyone at ``poses``, the one `entropy3d los` prints, and the
        rulebook's verdict on a shot with what ``viewer`` carries in ``state`` (the game's state
        at the replay's moment; the models stand at ``poses``)."""
        targets = self.enemies(viewer, poses) if targets is None else targets
        if not targets:
            return [], {}
        results = self.world.all_pairs(dict(poses), [(viewer, t) for t in targets])
        posed = state.with_poses(poses)
        labels = []
        for (_, t), r in results.items():
            verdict = self.rulebook.shot_verdict(posed, viewer, t, r.true_los)
            labels.append(SightLabel(t, round(100 * r.true_los.visible_fraction, 1), r.true_los.cover,
                                     verdict.allowed, r.top_down.visible,
                                     tuple(sorted(set(r.top_down.blockers) | set(r.true_los.blockers))),
                                     self.names.named(verdict.why_not()),
                                     r.true_los.rays > 0 and r.true_los.rays_behind == r.true_los.rays))
        return labels, {t: r for (_, t), r in results.items()}

    def standing_problems(self, poses: Mapping[str, Pose], tried) -> dict[str, str]:
        """Why each model of ``tried`` (ids) cannot stand where ``poses`` puts it, in words with
        the clause or the fix ({} when every one can): off the table; a base inside a solid or
        over another base (the checks `entropy3d validate` runs on a scene's starting positions,
        :func:`~entropy3d.scene.plausibility.plausibility_problems`, on the table as tried, and
        more figures on foot on a roof than it holds, EC-FOOT-DEPLOY); then what the scene's
        rulebook refuses of the spot, told the deepest drop under the base and the roof it stands
        on (:meth:`~entropy3d.systems.base.GameSystem.standing_refusals`; Entropy City's: a base
        over a drop deeper than a curb, a bike on a building's roof, EC-TER-BUILDING).
        ``poses``: every model in play."""
        import dataclasses
        import re

        from entropy3d.scene.loading import on_foot_problems
        from entropy3d.scene.plausibility import plausibility_problems

        table = self.table
        problems: dict[str, list[str]] = {model_id: [] for model_id in tried if model_id in poses}
        for model_id in problems:
            pose = poses[model_id]
            if not (0 <= pose.x <= table.width and 0 <= pose.y <= table.depth):
                problems[model_id].append(f"off the {table.width:g}x{table.depth:g} inch table")
        if not problems:
            return {}
        # the tried models last: a scene's check blames the later of two models that clash
        in_play = sorted((m for m in table.models if m.id in poses and not problems.get(m.id)),
                         key=lambda m: m.id in problems)
        moved = [m.model_copy(update={"position": (poses[m.id].x, poses[m.id].y, poses[m.id].z),
                                      "facing": poses[m.id].facing_deg}) for m in in_play]
        tried_table = dataclasses.replace(table, spec=table.spec.model_copy(update={"models": moved}))
        errors, _ = plausibility_problems(tried_table, self.geometry)
        errors += [(path, message) for path, _, message in on_foot_problems(tried_table.spec, table.ruleset, {})]
        for path, message in errors:
            if not path.startswith("models["):
                continue
            said = re.sub(r"\b[a-z]+ '([^']+)'", lambda found: self.names.thing(found.group(1)),
                          re.split(r": move|; put it", message)[0])  # "building 'offices'" -> "the offices"
            for model_id in problems:
                if re.search(rf"(?<![\w]){re.escape(model_id)}(?![\w])", said):
                    problems[model_id].append(self.names.named(said.replace(f"{model_id} at", "at", 1)))
        step = float(table.ruleset.data("ride.step_height_in"))  # how far up the surface is followed
        for model_id, found in problems.items():
            if found:
                continue
            pose, model = poses[model_id], table.model(model_id)
            drop = self._edge_under(pose, table.base_of(model).outline(pose, samples=16), step)
            standing_on = self._piece_under(pose)
            roof = ((self.names.thing(standing_on.id), pose.z)
                    if standing_on is not None and standing_on.kind == "building" else None)
            found += self.rulebook.standing_refusals(model.on_foot, roof, drop)  # the rules decide, not the viewer
        return {model_id: "; ".join(found) for model_id, found in problems.items() if found}

    def _edge_under(self, pose: Pose, outline: np.ndarray, step: float) -> float:
        """The deepest drop (inches) between neighbouring points 0.1" apart on the lines from the
        base's centre out to its edge, the surface under each found from just above the one
        before: a roof's edge under the base is a drop of the roof's height, while a ramp's slope
        (a third of an inch over a base on a 1-in-3 ramp) is no drop at all."""
        centre = np.array([pose.x, pose.y])
        reach = float(np.max(np.linalg.norm(outline - centre, axis=1)))
        count = max(2, int(np.ceil(reach / GROUND_SAMPLE_IN)) + 1)
        fractions = np.linspace(0.0, 1.0, count)[:, None, None]
        rays = centre + fractions * (outline - centre)[None]  # (count, points, 2): centre outwards
        deepest, level = 0.0, np.full(len(outline), pose.z)
        for ring in rays[1:]:
            heights = self.geometry.surface_height(ring, below=level + step + SURFACE_SLACK_IN)
            deepest = max(deepest, float(np.max(level - heights)))
            level = heights
        return deepest

    def _piece_under(self, pose: Pose):
        """The piece whose surface ``pose`` stands on (None: the table top)."""
        heights, _, owners = self.geometry.downward_crossings(np.array([[pose.x, pose.y]]))
        near = np.abs(heights - pose.z) <= SURFACE_SLACK_IN
        if not near.any() or pose.z <= SURFACE_SLACK_IN:
            return None
        return self.geometry.pieces[int(owners[np.argmax(near)])]

    def measure(self, start, end, models: tuple[str, str] | None = None, poses: Mapping[str, Pose] | None = None
                ) -> Measure:
        """Straight and along-the-ground distances from ``start`` to ``end`` (points on the table);
        between two ``models`` (ids, standing at ``poses``; ``start`` and ``end`` their centres)
        also from base edge to base edge, seen from above."""
        start, end = np.asarray(start, float), np.asarray(end, float)
        flat = float(np.linalg.norm(end[:2] - start[:2]))
        count = max(2, int(math.ceil(flat / GROUND_SAMPLE_IN)) + 1)
        xy = np.linspace(start[:2], end[:2], count)
        heights = self.geometry.surface_height(xy)
        heights[0], heights[-1] = start[2], end[2]
        profile = np.column_stack([xy, heights])
        ground = float(np.linalg.norm(np.diff(profile, axis=0), axis=1).sum())
        edge = None
        if models is not None:
            from shapely import Polygon

            a, b = (Polygon(self.table.base_of(self.table.model(m)).outline(poses[m], samples=48)) for m in models)
            edge = float(a.distance(b))
        return Measure(start, end, float(np.linalg.norm(end - start)), ground, profile, edge)

    def panel(self, model, loadout, played=None, condition_words=None) -> str:
        """The selection panel: who the rider is and its numbers (``model``: a
        :class:`~entropy3d.systems.entropy_city.state.ModelState`; ``loadout``: the scene's rider). ``played``:
        the rulebook played here (a :class:`~entropy3d.systems.base.GameSystem`); one whose models
        are no riders on bikes (a gang's fighters, a chase's vehicles) is told in its own words:
        :meth:`figure_panel`, its conditions in ``condition_words`` (its engine's)."""
        if played is not None and not played.riders:
            return self.figure_panel(model, played, condition_words or {})
        gun = f", {model.gun} ({model.ammo} shots)" if model.gun else ""
        return "\n".join([
            f"{self.names.rider(model.id)} ({model.id})",
            f"gang: {self.names.gang(model.gang)}   bike: {model.bike_type}",
            f"speed {model.speed}   stress {model.stress}/{model.max_stress}   wounds {model.wounds}",
            f"conditions: {', '.join(model.conditions) or 'none'}" + ("   stopped" if model.stopped else ""),
            f"loadout: {model.weapon}{gun}; dodge {model.dodge}, protection {model.protection}"
            + (f", strength {loadout.strength}" if loadout is not None and loadout.strength is not None else ""),
        ])

    def figure_panel(self, model, played, condition_words) -> str:
        """The selection panel of a figure of a rulebook without riders (``played``): its name,
        gang and rulebook, its vehicle (a rulebook that drives them), whether it is in the game in
        that rulebook's words (a chase's "wrecked") with the wounds it may still take and any stress
        on it, its conditions in the rulebook's words and the numbers the scene gives it (``stats:``)."""
        from entropy3d.systems.words import conditions_words, status_words

        stats = self.table.model(model.id).stats or {}
        vehicle = f"   vehicle: {model.bike_type.replace('_', ' ')}" if played.drives_vehicles else ""
        return "\n".join([
            f"{self.names.rider(model.id)} ({model.id})",
            f"gang: {self.names.gang(model.gang)}   {played.title}{vehicle}",
            f"{status_words(model.status, played.out_banner)}, "
            f"{model.wounds} wound{'' if model.wounds == 1 else 's'} left"
            # stress its rulebook has put on it (a 10acity figure's, TEN-STRESS); none in most
            + (f", stress {model.stress} of {model.max_stress}" if model.stress else ""),
            "conditions: " + (conditions_words(model.conditions, condition_words) if model.conditions else "none"),
            "stats: " + (", ".join(f"{key.replace('_', ' ')} {str(value).replace('_', ' ')}"
                                   for key, value in stats.items()) or "the rulebook's own"),
        ])
