"""The table's walkable levels (ground, curb, deck 1, roof 2 ...) and their colours: one naming
for every picture that speaks of heights, the levels map (:mod:`entropy3d.render.levels_map`) and the
printed table plan (:mod:`entropy3d.export.plan_marks`), so a player reads "roof 3" on both.

Levels are read off the built table (:func:`~entropy3d.scene.build.build_table_geometry`): the
tops of the ground, curbs (blocks), decks (platforms) and roofs (buildings); heights within
:data:`SAME_LEVEL_IN` are one level. Heights are table inches; colours 0-255 RGB.
"""

from __future__ import annotations

from dataclasses import dataclass

#: tops closer than this (inches) are one level
SAME_LEVEL_IN = 0.1
GROUND_KINDS = ("ground", "zone", "road")
LEVEL_KINDS = {"block": "curb", "platform": "deck", "building": "roof"}
GROUND_RGB, CURB_RGB = (70, 74, 82), (128, 132, 140)
#: colours of the raised levels, lowest first (cycled when a table has more)
LEVEL_RGB = ((66, 133, 244), (52, 168, 83), (251, 188, 5), (234, 67, 53), (171, 71, 188), (0, 172, 193))


@dataclass(frozen=True)
class Level:
    """One height level: ``name`` as a player says it ("ground", "curb", "deck 1", "roof 2"),
    ``height_in``, its ``colour`` and the ``pieces`` (ids) whose tops make it."""

    name: str
    height_in: float
    colour: tuple[int, int, int]
    pieces: tuple[str, ...]


def table_levels(geometry) -> list[Level]:
    """The table's walkable levels, lowest first: ground, curbs, then each raised height of decks
    and roofs numbered from 1 ("deck 1", "roof 2", "deck / roof 3" when both share a height)."""
    levels = [Level("ground", 0.0, GROUND_RGB, tuple(p.id for p in geometry.pieces if p.kind in GROUND_KINDS))]
    curbs = [p for p in geometry.pieces if p.kind == "block"]
    if curbs:
        levels.append(Level("curb", max(p.top for p in curbs), CURB_RGB, tuple(p.id for p in curbs)))
    raised: list[list] = []
    for piece in sorted((p for p in geometry.pieces if p.kind in ("platform", "building")), key=lambda p: p.top):
        if raised and piece.top - raised[-1][0].top <= SAME_LEVEL_IN:
            raised[-1].append(piece)
        else:
            raised.append([piece])
    for number, group in enumerate(raised, start=1):
        kinds = sorted({LEVEL_KINDS[p.kind] for p in group})
        levels.append(Level(f"{' / '.join(kinds)} {number}", group[0].top, LEVEL_RGB[(number - 1) % len(LEVEL_RGB)],
                            tuple(p.id for p in group)))
    return levels


def level_of(levels: list[Level], piece) -> Level | None:
    """The level a piece's top belongs to (None for a ramp or an obstacle)."""
    return next((level for level in levels if piece.id in level.pieces), None)
