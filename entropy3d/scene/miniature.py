"""The shape of a miniature (bike and rider) in table inches, for sight lines and physics.

Simple solids sized from the rules data: the bike fills most of its base up to
``bike_height_in``; the rider sits over the middle up to ``bike_height_in + rider_height_in``.
Rendering may draw finer meshes, but what is *seen* and *hit* is this shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import trimesh

from entropy3d.geometry import BaseShape, Pose
from entropy3d.rules.ruleset import Ruleset
from entropy3d.scene.build import oriented_box

BASE_THICKNESS_IN = 0.12


@dataclass(frozen=True, eq=False)
class MiniatureShape:
    """Meshes of one miniature at a pose, table inches. ``base`` is the flat base disc."""

    bike: trimesh.Trimesh
    rider: trimesh.Trimesh
    base: trimesh.Trimesh

    @property
    def body(self) -> trimesh.Trimesh:
        """Bike and rider together (what the 25% cover rule measures, EC-COVER-1)."""
        return trimesh.util.concatenate([self.bike, self.rider])


def miniature_shape(base: BaseShape, pose: Pose, ruleset: Ruleset) -> MiniatureShape:
    """The bike, rider and base of a miniature standing at ``pose`` (z = surface height)."""
    disc = trimesh.creation.cylinder(radius=0.5, height=BASE_THICKNESS_IN, sections=32)
    disc.apply_scale((base.length, base.width, 1.0))
    disc.apply_transform(trimesh.transformations.rotation_matrix(
        pose.facing_deg * 3.141592653589793 / 180.0, [0, 0, 1]))
    disc.apply_translation((pose.x, pose.y, pose.z + BASE_THICKNESS_IN / 2))
    top = pose.z + BASE_THICKNESS_IN
    bike_length = 0.85 * base.length if not base.is_round else 0.8 * base.length
    bike_width = 0.3 * base.width if not base.is_round else 0.6 * base.width
    bike = oriented_box((pose.x, pose.y), bike_length, bike_width, ruleset.bike_height_in,
                        pose.facing_deg, top)
    rider = oriented_box((pose.x, pose.y), 0.3 * base.length, 0.35 * base.width if not base.is_round
                         else 0.3 * base.width, ruleset.rider_height_in, pose.facing_deg,
                         top + 0.6 * ruleset.bike_height_in)
    return MiniatureShape(bike=bike, rider=rider, base=disc)
