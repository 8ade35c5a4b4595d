"""Tables and games out of entropy3d for other tools: glTF 2.0 binary (:mod:`.gltf`) for Blender
and web viewers, and the printable 1:1 table plan (:mod:`.sheet`). Reads scenes and replays; no
renderer, no physics engine."""


def hex_rgb(colour: str) -> tuple[float, float, float]:
    """A scene or rules colour ``"#rrggbb"`` as three floats in 0..1."""
    return tuple(int(colour[i:i + 2], 16) / 255.0 for i in (1, 3, 5))
