"""The table's light in a Panda3D scene graph: the sun, the fill and the ambient light of
:mod:`entropy3d.look.light`, one function every renderer and the viewer call.
"""

from __future__ import annotations

from panda3d.core import AmbientLight, DirectionalLight, NodePath, Point3

from entropy3d.look.light import AMBIENT_RGB, FILL_DIRECTION, FILL_RGB, SUN_DIRECTION, SUN_RGB


def add_lights(scene: NodePath) -> NodePath:
    """Light ``scene`` with the sun, the fill and the ambient light; returns the lights' own graph
    (kept apart from the scene: a light inside the scene would make the scene's light state point
    back at the scene, a reference cycle Panda3D never frees, ~2 MB per renderer)."""
    lights = NodePath("lights")
    for name, rgb, towards in (("sun", SUN_RGB, SUN_DIRECTION), ("fill", FILL_RGB, FILL_DIRECTION)):
        light = DirectionalLight(name)
        light.set_color((*rgb, 1.0))
        node = lights.attach_new_node(light)
        node.look_at(Point3(*(-towards)))  # a directional light shines along its node's forward
        scene.set_light(node)
    ambient = AmbientLight("ambient")
    ambient.set_color((*AMBIENT_RGB, 1.0))
    scene.set_light(lights.attach_new_node(ambient))
    return lights
