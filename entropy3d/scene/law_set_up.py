"""The Law on a scene's table (EC-LAW): a scene's ``law:`` (``law: on``, or its riders, turn and
entry points) becomes police models of the Law's own gang, waiting at the first entry point
until they enter (:func:`~entropy3d.systems.entropy_city.law.law_enters`), and the entry points the engine rolls
among. The numbers left out are the rules data's ``law:``. Inches, degrees CCW from +x.
"""

from __future__ import annotations

from entropy3d.scene.schema import Gang, Law, Model, Rider, SceneSpec
from entropy3d.systems.entropy_city.law import entry_poses
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.table_marks import Entry, LawPlan


def law_spec(spec: SceneSpec) -> Law | None:
    """The scene's Law set-up (``law: on`` is every default), None without the Law."""
    if spec.law is None or spec.law is False:
        return None
    return Law() if spec.law is True else spec.law


def law_plan(spec: SceneSpec, ruleset: Ruleset) -> LawPlan | None:
    """When and where the scene's Law enters: its ``from_turn`` (else the rules data's) and its
    ``enter`` points, else the middle of every open table edge, the rules data's
    ``law.edge_entry_in`` in from it (DECISION there), facing in."""
    law = law_spec(spec)
    if law is None:
        return None
    entries = tuple(Entry(float(e.at[0]), float(e.at[1]), float(e.facing)) for e in law.enter)
    if not entries:
        width, depth, edges = spec.table.width, spec.table.depth, spec.table.edges
        inset = float(ruleset.data("law.edge_entry_in"))
        middle = {"south": Entry(width / 2, inset, 90.0), "north": Entry(width / 2, depth - inset, 270.0),
                  "west": Entry(inset, depth / 2, 0.0), "east": Entry(width - inset, depth / 2, 180.0)}
        entries = tuple(entry for edge, entry in middle.items() if edges.get(edge, "open") == "open")
    return LawPlan(int(law.from_turn or ruleset.data("law.from_turn")), entries)


def law_riders(spec: SceneSpec, ruleset: Ruleset) -> int:
    law = law_spec(spec)
    return 0 if law is None else int(law.riders or ruleset.data("law.riders"))


def with_law(spec: SceneSpec, ruleset: Ruleset) -> SceneSpec:
    """The scene with the Law's gang (rules data ``law.gang``, ``name``, ``colour``) and its police
    (``law_1``, ``law_2``, ...; rules data ``law.bike``, ``weapon`` and ``gun``, the rider
    defaults) standing where they
    will enter at the first entry point; the scene as it is without the Law."""
    plan = law_plan(spec, ruleset)
    if plan is None or not plan.entries:
        return spec
    data = ruleset.data("law")
    gang = str(data["gang"])
    if gang in spec.gangs:
        return spec  # refused by law_problems: the id is the Law's
    riders = law_riders(spec, ruleset)
    poses = entry_poses(plan.entries[0], riders, float(data["file_gap_in"]))
    police = [Model(id=f"{gang}_{k + 1}", gang=gang, bike=str(data["bike"]), position=(x, y), facing=facing,
                    speed=int(data["enter_speed"]), rider=Rider(name=f"Officer {k + 1}", weapon=str(data["weapon"]),
                                                  gun=str(data["gun"])))
              for k, (x, y, facing) in enumerate(poses)]
    return spec.model_copy(update={"gangs": {**spec.gangs, gang: Gang(name=str(data["name"]),
                                                                        colour=str(data["colour"]))},
                                   "models": list(spec.models) + police})


def law_problems(spec: SceneSpec, ruleset: Ruleset) -> list[tuple[str, str]]:
    """What the Law's set-up refuses (asked of the scene as written, before :func:`with_law`), as
    (scene key path, message): a scene gang of the Law's id,
    no entry point (no open edge for `law: on`), a police rider off the table or inside a building
    at an entry point."""
    plan = law_plan(spec, ruleset)
    if plan is None:
        return []
    from shapely import Point, Polygon

    gang = str(ruleset.data("law.gang"))
    problems = []
    if gang in spec.gangs:
        problems.append((f"gangs.{gang}", f"the gang id {gang!r} is the Law's (rules data law.gang): rename the "
                                          "scene's gang (EC-LAW)"))
    if not plan.entries:
        problems.append(("law", "the Law has no way in: every table edge is a cliff; give `law: {enter: [{at: "
                                "[X, Y], facing: DEG}]}` (EC-LAW)"))
    footprints = {b.id: Polygon(b.corners()) for b in spec.buildings}
    gap = float(ruleset.data("law.file_gap_in"))
    for k, entry in enumerate(plan.entries):
        for x, y, _ in entry_poses(entry, law_riders(spec, ruleset), gap):
            where = f"law.enter[{k}].at" if isinstance(spec.law, Law) and spec.law.enter else "law"
            if not (0 <= x <= spec.table.width and 0 <= y <= spec.table.depth):
                problems.append((where, f"a police rider would enter at ({x:.1f}, {y:.1f}), off the table: the "
                                        f"riders line up {gap:g}\" apart ahead of the point; move it in (EC-LAW)"))
                break
            inside = next((bid for bid, shape in footprints.items() if shape.covers(Point(x, y))), None)
            if inside is not None:
                problems.append((where, f"a police rider would enter at ({x:.1f}, {y:.1f}), inside building "
                                        f"'{inside}': put the point on the street (EC-LAW)"))
                break
    return problems
