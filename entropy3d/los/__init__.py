"""Line of sight on the table, both ways the rulebook describes (geometry only, no rendering).

- top-down (EC-LOS-1..3): lines from the front half of the viewer's base edge to the target's
  base edge, blocked by pieces by size class and level (``rules/los.yaml``);
- true LOS (EC-LOS-4, EC-COVER-1): the visible share of the target's bike and rider from the
  rider's eye, cover, and whether a shot is allowed.

``LosWorld(table).line_of_sight("h1", "k1")`` answers one pair, ``.all_pairs()`` every pair in
one batch of ray casts; ``.updated({piece_id: Pose | None})`` moves or removes destructibles.

``LosWorld`` and ``Miniature`` are imported on first use: the ray engine brings in trimesh, scipy
and Embree, which reading ``rules/los.yaml`` (``entropy3d validate``) does not need.
"""

from entropy3d.los.losrules import LosRules, load_los_rules
from entropy3d.los.results import LosResult, SightGeometry, TopDownVerdict, TrueVerdict

#: names of :mod:`entropy3d.los.world`, imported when first asked for (PEP 562)
_WORLD_NAMES = ("LosWorld", "Miniature")


def __getattr__(name: str):
    if name in _WORLD_NAMES:
        from entropy3d.los import world

        return getattr(world, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["LosResult", "LosRules", "LosWorld", "Miniature", "SightGeometry", "TopDownVerdict",
           "TrueVerdict", "load_los_rules"]
