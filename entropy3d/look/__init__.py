"""The table's painted look as plain pictures and triangles: no Panda3D, no window.

One look for every picture of a table, whoever draws it: the film and stills (:mod:`entropy3d.render`
turns these into a Panda3D scene), the glTF export and the share page (which must not load Panda3D).

- :mod:`.light` -- the sun, fill and ambient light, and vertex colours lit by them;
- :mod:`.paint` -- the table painted as a hobbyist paints one, baked into plan-view images
  (materials, road markings, soft shadows, ambient occlusion, dry-brushed edges);
- :mod:`.shadows` -- the sun's shadows of the table's pieces as plan polygons;
- :mod:`.facades` -- window rows on building walls;
- :mod:`.levels` -- the walkable levels (ground, curb, deck 1, roof 2 ...) and their colours;
- :mod:`.frame` -- the table's body: its wooden frame, cliff walls and hazard bands;
- :mod:`.shapes` -- triangle soups (strips, tubes, boxes, hazard stripes) in table inches.
"""
