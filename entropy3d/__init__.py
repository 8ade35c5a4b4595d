"""entropy3d: a 3D, physics-backed table visualiser for Entropy City.

Importing the package is cheap and needs no display: the heavy engines (pybullet, panda3d,
trimesh) are imported only by the packages that use them.
"""

__version__ = "0.1.0"
