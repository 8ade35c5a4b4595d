"""The table's part of Jailbreak's and Rescue & Survive's set-up (EC-MISSION-JAIL,
EC-MISSION-RESCUE): the road exits a table's roads make, the checks only the table can make (the
jail a building of the scene near the table's centre, its door and windows on its walls, an NPC
not inside a building) and the NPCs of the game's first state. What the rulebook asks of the
set-up itself is :mod:`entropy3d.systems.entropy_city.npc`'s. Lengths in inches.
"""

from __future__ import annotations

from entropy3d.scene.schema import SceneSpec
from entropy3d.scene.yamlsource import line_of
from entropy3d.systems.entropy_city.npc import jail_set_up_problems, rescue_set_up_problems
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import Item

Problem = tuple[str, "int | None", str]
#: inches: a road's end this near a table edge meets it
ON_EDGE_IN = 0.01


def road_exits(spec: SceneSpec) -> tuple[tuple[str, float, float], ...]:
    """Where the scene's roads leave the table (EC-MISSION-JAIL: "a road exit"; DECISION in the
    rules data): each end of a road's centre line on a table edge, the road's width across it, as
    (edge, from, to) inches along the edge from its west or south end, in the scene's order."""
    width, depth = float(spec.table.width), float(spec.table.depth)
    found = []
    for road in spec.roads:
        for x, y in (road.points[0], road.points[-1]):
            x, y = float(x), float(y)
            for edge, on, along, length in (("west", x, y, depth), ("east", width - x, y, depth),
                                            ("south", y, x, width), ("north", depth - y, x, width)):
                if abs(on) <= ON_EDGE_IN:
                    half = 0.5 * float(road.width)
                    found.append((edge, max(0.0, along - half), min(length, along + half)))
    return tuple(found)


def jail_problems(spec: SceneSpec, ruleset: Ruleset, lines: dict[str, int]) -> list[Problem]:
    """Jailbreak's set-up (EC-MISSION-JAIL): the jail a building of the scene whose footprint
    comes within ``missions.jailbreak.centre_in`` of the table's centre ("a building at the centre
    of the board"), each opening within ``missions.jailbreak.opening_on_wall_in`` of its outline
    (DECISION in the rules data), then what the rulebook
    asks (:func:`entropy3d.systems.entropy_city.npc.jail_set_up_problems`); each with the line of its key path."""
    from shapely import Point, Polygon

    setup = spec.jailbreak
    problems: list[Problem] = []

    def report(key: str, message: str) -> None:
        problems.append((key, line_of(lines, key), message))

    buildings = {b.id: b for b in spec.buildings}
    jail = buildings.get(setup.jail)
    centre = (0.5 * float(spec.table.width), 0.5 * float(spec.table.depth))
    if jail is None:
        report("jailbreak.jail", f"no building {setup.jail!r} in the scene; its buildings: "
                                 f"{', '.join(buildings) or '(none: add one under `buildings:`)'} (EC-MISSION-JAIL)")
    else:
        shape = Polygon(jail.corners())
        near = float(ruleset.data("missions.jailbreak.centre_in"))
        gap = shape.distance(Point(centre))
        if gap > near + 1e-9:
            report("jailbreak.jail", f"{setup.jail} stands {gap:.1f}\" from the table's centre {centre}: the NPC is "
                                     f"\"locked inside a building at the centre of the board\"; choose a building "
                                     f"within {near:g}\" of it (missions.jailbreak.centre_in, EC-MISSION-JAIL)")
        on_wall = float(ruleset.data("missions.jailbreak.opening_on_wall_in"))
        for k, (x, y) in enumerate(setup.openings):
            off = shape.exterior.distance(Point(float(x), float(y)))
            if off > on_wall + 1e-9:
                report(f"jailbreak.openings[{k}]", f"({float(x):g}, {float(y):g}) is {off:.1f}\" from {setup.jail}'s "
                                                   f"walls: put each door and window on them (within {on_wall:g}\", "
                                                   "missions.jailbreak.opening_on_wall_in)")
        centre = tuple(float(v) for v in shape.centroid.coords[0])
    said = jail_set_up_problems(centre, [(float(x), float(y)) for x, y in setup.openings], road_exits(spec),
                                spec.table.edges, list(spec.gangs), float(spec.table.width), float(spec.table.depth))
    return problems + [(key, line_of(lines, key), message) for key, message in said]


def rescue_problems(spec: SceneSpec, ruleset: Ruleset, lines: dict[str, int]) -> list[Problem]:
    """Rescue & Survive's set-up (EC-MISSION-RESCUE): what the rulebook asks
    (:func:`entropy3d.systems.entropy_city.npc.rescue_set_up_problems`), then no NPC waiting or delivered inside
    a building (a rider picks it up and sets it down within reach of its base); each with the line
    of its key path."""
    from shapely import Point, Polygon

    npcs = spec.rescue_survive.npcs
    said = rescue_set_up_problems([(n.id, n.gang, (float(n.at[0]), float(n.at[1])), (float(n.to[0]), float(n.to[1])))
                                   for n in npcs], list(spec.gangs), float(spec.table.width),
                                  float(spec.table.depth), ruleset)
    problems = [(key, line_of(lines, key), message) for key, message in said]
    footprints = {b.id: Polygon(b.corners()) for b in spec.buildings}
    for k, npc in enumerate(npcs):
        for key, (x, y) in (("at", npc.at), ("to", npc.to)):
            inside = next((bid for bid, shape in footprints.items() if shape.covers(Point(float(x), float(y)))), None)
            if inside is not None:
                where = f"rescue_survive.npcs[{k}].{key}"
                problems.append((where, line_of(lines, where), f"({float(x):g}, {float(y):g}) is inside building "
                                 f"'{inside}': put {npc.id} on the street, where a rider rides within reach of it "
                                 "(EC-MISSION-RESCUE)"))
    return problems


def npc_items(spec: SceneSpec) -> tuple[Item, ...]:
    """The NPCs of the game's first state: Jailbreak's locked in at the jail's centre with its
    openings; each of Rescue & Survive's standing where it waits, its gang and destination with it."""
    if spec.jailbreak is not None:
        jail = next((b for b in spec.buildings if b.id == spec.jailbreak.jail), None)
        corners = jail.corners() if jail is not None else [(0.0, 0.0)]
        x = sum(float(c[0]) for c in corners) / len(corners)
        y = sum(float(c[1]) for c in corners) / len(corners)
        return (Item(spec.jailbreak.npc, x, y, locked=True,
                     openings=tuple((float(p[0]), float(p[1])) for p in spec.jailbreak.openings)),)
    if spec.rescue_survive is not None:
        return tuple(Item(n.id, float(n.at[0]), float(n.at[1]), owner=n.gang, to=(float(n.to[0]), float(n.to[1])))
                     for n in spec.rescue_survive.npcs)
    return ()


__all__ = ["jail_problems", "npc_items", "rescue_problems", "road_exits"]
