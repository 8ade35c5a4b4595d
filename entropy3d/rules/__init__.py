"""The rules engine: pure Python + numpy, no pybullet, panda3d, trimesh, YAML or file I/O.

Rules data arrives as a plain mapping (read from ``rules/*.yaml`` by :mod:`entropy3d.scene`) and
is validated into a :class:`~entropy3d.rules.ruleset.Ruleset`.
"""

from entropy3d.rules.ruleset import Ruleset

__all__ = ["Ruleset"]
