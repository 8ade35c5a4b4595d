"""Tables and games out of entropy3d for other tools: glTF 2.0 binary (:mod:`.gltf`) for Blender
and web viewers, and the printable 1:1 table plan (:mod:`.sheet`). Reads scenes and replays; no
renderer, no physics engine."""
