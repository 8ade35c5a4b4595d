"""The table as the rules' :func:`~entropy3d.systems.entropy_city.transition.check` asks it during a game: the
footprints of :class:`~entropy3d.scene.probe.SceneProbe` (curbs, buildings, edges) and line of
sight from the LOS engine (:class:`~entropy3d.los.world.LosWorld`) for shots. It reports what
the table shows; the rules decide (EC-COVER-1 lives in :mod:`entropy3d.systems.entropy_city.attacks`).
"""

from __future__ import annotations

import math

from entropy3d.core.facts import Sight
from entropy3d.geometry import Pose
from entropy3d.scene.probe import SceneProbe
from entropy3d.systems.entropy_city.state import State

#: room (inches) the automatic players keep from walls when they look ahead: physics rides a box
#: around the oval base, about this much wider at its corners
LOOKAHEAD_MARGIN_IN = 0.3
#: answers of :meth:`TableView.sight` kept (then forgotten all at once): a game asks a few thousand
#: times, often the same question again (the player weighing an attack, then the rules checking it)
SIGHTS_KEPT = 4096


def sight_poses(state: State) -> dict[str, Pose | None]:
    """Where line of sight sees each model: a riding one where it stands; one taken out as its
    wreck (EC-WOUND: scenery that blocks sight as the miniature did, size class 1 like a bike,
    EC-LOS-3); one out with no wreck on the table (or escaped) nowhere (None)."""
    poses: dict[str, Pose | None] = {m.id: (m.pose if m.in_play else None) for m in state.models.values()}
    for wreck in state.wrecks:
        poses[wreck.model_id] = wreck.pose
    return poses


class TableView(SceneProbe):
    """A :class:`SceneProbe` that also answers ``sight`` (line of sight between two models) and,
    for a game system's engine, ``sightings`` and ``figure_walk_met``."""

    def __init__(self, table, geometry):
        super().__init__(geometry, {r.id: r.heading for r in table.spec.ramps}, dict(table.spec.table.edges))
        self.table, self.geometry = table, geometry
        self._los = None
        self._lookahead = None
        self._sights: dict[tuple, Sight] = {}

    @property
    def storey_in(self) -> float:
        """The height of one storey of the table, inches (rules/los.yaml ``level_height_in``):
        the levels the sightings count and a rulebook's elevation rules read."""
        from entropy3d.los.losrules import load_los_rules

        return float(load_los_rules().level_height_in)

    @property
    def los(self):
        """The LOS engine, built on first use (a game without guns never needs it)."""
        if self._los is None:
            from entropy3d.los.world import LosWorld

            self._los = LosWorld(self.table, self.geometry)
        return self._los

    def lookahead(self):
        """A geometric producer over this table that a player rides candidate moves with before it
        chooses (keeping :data:`LOOKAHEAD_MARGIN_IN` from walls); built on first use. It decides
        nothing: the game's own producer rides the move chosen."""
        if self._lookahead is None:
            from entropy3d.geometric import GeometricProducer

            self._lookahead = GeometricProducer(self.table, self.geometry, margin_in=LOOKAHEAD_MARGIN_IN)
        return self._lookahead

    def sight(self, state: State, viewer: str, target: str, viewer_pose: Pose) -> Sight:
        """What ``viewer`` standing at ``viewer_pose`` sees of ``target`` now: the true-LOS visible
        share of its bike and rider, whether the bike itself is seen, and the distance.

        Kept by everything the answer depends on (the two models, every pose the LOS engine is
        given, the scenery removed, the target's pose for the distance), so asking again costs a
        look-up and gives the same answer."""
        poses = sight_poses(state)
        poses[viewer] = viewer_pose
        removed = {piece: None for piece, spot in state.scenery.items() if spot.removed}
        other = state.model(target).pose
        key = (viewer, target, other, tuple(sorted(poses.items())), tuple(sorted(removed)))
        kept = self._sights.get(key)
        if kept is not None:
            return kept
        los = self.los
        if removed:
            los = los.updated(removed)
        verdict = los.line_of_sight(viewer, target, poses).true_los
        sight = Sight(float(verdict.visible_fraction), bool(verdict.bike_seen),
                      math.hypot(viewer_pose.x - other.x, viewer_pose.y - other.y))
        if len(self._sights) >= SIGHTS_KEPT:
            self._sights.clear()
        self._sights[key] = sight
        return sight

    def _los_now(self, state: State):
        removed = {piece: None for piece, spot in state.scenery.items() if spot.removed}
        return self.los.updated(removed) if removed else self.los

    def sightings(self, state: State, viewer: str, viewer_pose: Pose | None = None) -> list:
        """What ``viewer`` (standing at ``viewer_pose``, default where it stands) sees of every
        model of another gang still in play, as a game system reads it
        (:class:`~entropy3d.systems.readings.Sighting`, from the LOS engine)."""
        from entropy3d.table_readings import sightings

        poses = sight_poses(state)
        if viewer_pose is not None:
            poses[viewer] = viewer_pose
        gang = state.model(viewer).gang
        pairs = [(viewer, m.id) for m in state.models.values() if m.gang != gang and m.in_play]
        return sightings(self._los_now(state), poses, pairs=pairs) if pairs else []

    def figure_walk_met(self, path, level: float):
        """:meth:`SceneProbe.walk_met` for a figure on the table's on-foot base (its half width
        the clearance), the wall or drop a walk of ``path`` at ``level`` meets first, or None."""
        return self.walk_met(path, level, 0.5 * self.table.ruleset.base_for("on_foot").width)

    def read_ride(self, model_id: str, facts, stop_in: float | None = None):
        """A ride of ``model_id`` as a game system's engine reads it
        (:class:`~entropy3d.systems.readings.RideReading`): the facts, the ridden move over this
        table (terrain, turns, the nearest obstacle) and its impacts; with ``stop_in`` (inches),
        the ride read as far as that too (``stopped``: the nearest obstacle from there)."""
        from entropy3d.systems.readings import RideReading
        from entropy3d.table_readings import impacts, ridden_move, ride_cut

        base = self.table.base_of(self.table.model(model_id))
        cut = None if stop_in is None else ride_cut(facts, stop_in)
        return RideReading(facts, ridden_move(model_id, facts, self, base),
                           tuple(impacts(model_id, facts, self.table.ruleset.scale, self.geometry)),
                           None if cut is None else ridden_move(model_id, cut, self, base))
