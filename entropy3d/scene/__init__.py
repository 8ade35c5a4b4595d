"""The scene layer: YAML scene files, rules data files and meshes, converted at the boundary.

``load_scene(path)`` -> :class:`Table`; ``load_ruleset(path=None)`` -> Ruleset.
"""

from entropy3d.scene.loading import load_scene
from entropy3d.scene.rulesfile import load_ruleset
from entropy3d.scene.table import Table

__all__ = ["Table", "load_ruleset", "load_scene"]
