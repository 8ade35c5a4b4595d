"""A replay's motion as keyframe tracks: where each bike and each knocked-about piece of scenery
is over the game's time, in table inches and depicted seconds. Pure numpy; the glTF writer
(:mod:`entropy3d.export.gltf`) turns the tracks into animation channels.

The game's actions play one after the other on one clock. A ridden action contributes its
trajectory samples (``ActionRecord.trajectory``: seconds from the action's start, x, y, z,
heading) and then, :data:`SETTLE_S` later, the pose the rules left the bike in
(``ActionRecord.model_after``, e.g. where a jump lands); :data:`PAUSE_S` separates actions.
Other bikes an activation moved or took out (a crash victim, an attack's target) and scenery that
moved or broke (``State.scenery``, EC-DEST-4) change between the activation's start and end: a
piece a rider knocked aside flies on the path every picture of the replay gives it
(:meth:`~entropy3d.game.knocks.Knock.path`, from the hit over ``KNOCK_S``); any other change to
a piece shows when the activation starts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from entropy3d.core.scenery import ScenerySpot
from entropy3d.game.knocks import knocks_in
from entropy3d.game.replay import Replay
from entropy3d.geometry import Pose
from entropy3d.systems.entropy_city.state import ModelState, State

#: seconds from a trajectory's last sample to the pose the rules put the bike in
SETTLE_S = 0.2
#: seconds between two actions
PAUSE_S = 0.5
#: two keys closer than this (seconds) are one key: the later one wins
SAME_TIME_S = 1e-4


@dataclass
class Track:
    """Keyframes of one animated thing.

    times: seconds from the game's start, increasing. points: (x, y, z) table inches, one per
    time. headings: degrees counter-clockwise from +x, unwrapped (no jump at 360) so that an
    interpolation turns the short way. shown: (time, visible) steps, first at time 0.
    """

    times: list[float] = field(default_factory=list)
    points: list[tuple[float, float, float]] = field(default_factory=list)
    headings: list[float] = field(default_factory=list)
    shown: list[tuple[float, bool]] = field(default_factory=list)

    def key(self, time: float, point, heading_deg: float) -> None:
        """Add a key; a key at the time of the last one (within :data:`SAME_TIME_S`) replaces it."""
        if self.times and time <= self.times[-1] + SAME_TIME_S:
            if time < self.times[-1] - SAME_TIME_S:
                raise ValueError(f"key at {time:.3f} s before the last one at {self.times[-1]:.3f} s")
            self.times.pop(), self.points.pop(), self.headings.pop()
        if self.headings:  # unwrap: the nearest equivalent angle to the previous heading
            heading_deg = self.headings[-1] + (heading_deg - self.headings[-1] + 180.0) % 360.0 - 180.0
        self.times.append(float(time))
        self.points.append(tuple(float(v) for v in point))
        self.headings.append(float(heading_deg))

    def show(self, time: float, visible: bool) -> None:
        """Visible or hidden from ``time`` on (a no-op when that is already so)."""
        if not self.shown or self.shown[-1][1] != visible:
            if self.shown and time <= self.shown[-1][0] + SAME_TIME_S:
                self.shown.pop()
            self.shown.append((float(time), bool(visible)))

    @property
    def moves(self) -> bool:
        """More than one key, or ever hidden: worth an animation channel."""
        return len(self.times) > 1 or len(self.shown) > 1


@dataclass
class Motion:
    """The tracks of a replay: ``bikes`` by model id, ``scenery`` by destructible piece id (only
    pieces that moved or broke); ``duration`` in seconds; ``centres`` of those pieces' meshes
    (table inches), about which their ``turn_deg`` turns them."""

    bikes: dict[str, Track]
    scenery: dict[str, Track]
    duration: float


def _pose_key(track: Track, time: float, pose: Pose) -> None:
    track.key(time, (pose.x, pose.y, pose.z), pose.facing_deg)


def _bike_key(track: Track, time: float, model: ModelState) -> None:
    _pose_key(track, time, model.pose)
    track.show(time, model.in_play)


def _spot_key(track: Track, time: float, centre, spot: ScenerySpot) -> None:
    track.key(time, (centre[0] + spot.dx, centre[1] + spot.dy, centre[2]), spot.turn_deg)
    track.show(time, not spot.removed)


def replay_motion(replay: Replay, scenery_centres: dict[str, tuple[float, float, float]]) -> Motion:
    """Keyframe tracks of every bike and of every destructible that moved in ``replay``.

    scenery_centres: each destructible's centre where the scene put it (table inches), the
    point its ``ScenerySpot`` moves and turns."""
    initial: State = replay.header.initial
    bikes = {model_id: Track() for model_id in initial.models}
    for model_id, model in initial.models.items():
        _bike_key(bikes[model_id], 0.0, model)
    scenery: dict[str, Track] = {}
    clock = 0.0
    for activation in replay.activations:
        start = clock
        flights: dict[str, list[tuple[float, float, float]]] = {}  # piece -> (game time, dx, dy) keys
        rider = bikes[activation.model_id]
        for index, action in enumerate(activation.actions):
            trajectory = action.trajectory
            for knock in knocks_in(activation, index):
                flights.setdefault(knock.piece_id, []).extend((clock + t, dx, dy) for t, dx, dy in knock.path())
            if len(trajectory):
                for t, x, y, z, heading in trajectory:
                    rider.key(clock + t, (x, y, z), heading)
                clock += float(trajectory[-1, 0])
            if action.model_after is not None:
                _bike_key(rider, clock + SETTLE_S, action.model_after)
            clock += PAUSE_S
        settled = (clock - PAUSE_S if activation.actions else clock) + SETTLE_S
        if not activation.actions:
            clock += PAUSE_S
        before, after = activation.state_before, activation.state_after
        for model_id, model in after.models.items():
            if model_id == activation.model_id or model == before.models.get(model_id):
                continue
            track = bikes.setdefault(model_id, Track())
            _bike_key(track, start, before.models.get(model_id, model))
            _bike_key(track, settled, model)
        _bike_key(rider, settled, after.model(activation.model_id))
        for piece_id, spot in after.scenery.items():
            was = before.scenery.get(piece_id, ScenerySpot())
            if spot == was or piece_id not in scenery_centres:
                continue
            centre = scenery_centres[piece_id]
            track = scenery.get(piece_id)
            if track is None:
                track = scenery[piece_id] = Track()
                _spot_key(track, 0.0, centre, ScenerySpot())
            if piece_id not in flights:  # not knocked by a ride: changed as the activation starts
                _spot_key(track, start, centre, was)
                _spot_key(track, start + SAME_TIME_S * 2, centre, spot)
                continue
            for time, dx, dy in flights[piece_id]:
                _spot_key(track, time, centre, ScenerySpot(dx, dy, was.turn_deg))
            _spot_key(track, max(flights[piece_id][-1][0], settled), centre, spot)
    return Motion(bikes, scenery, max(clock, SAME_TIME_S))
