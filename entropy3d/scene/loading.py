"""Loading a scene file: YAML -> validated :class:`~entropy3d.scene.table.Table`.

Validation happens in three passes, each reporting every problem it finds with its key path and
line: the YAML syntax, the schema (types, required keys, ranges), then the cross-references
(terrain and bike type names against the rules data, gangs, unique ids, pieces on the table,
mesh files that exist and parse).
"""

from __future__ import annotations

import math
import re
import stat
from pathlib import Path

from pydantic import ValidationError

from entropy3d.core.keypaths import did_you_mean, keys_allowed_at
from entropy3d.errors import MeshError, SceneError
from entropy3d.resources import bundled_dir
from entropy3d.scene.ambush_set_up import ambush_problems
from entropy3d.scene.npc_set_up import jail_problems, rescue_problems
from entropy3d.scene.rulesfile import load_ruleset
from entropy3d.scene.schema import IDENTIFIER_PATTERN, RIDER_STATS, SceneSpec
from entropy3d.scene.systemrules import system_problems
from entropy3d.scene.table import Table
from entropy3d.scene.yamlsource import key_path, line_of, read_yaml_with_lines
from entropy3d.systems.entropy_city.conditions import CONDITIONS
from entropy3d.systems.entropy_city.ruleset import Ruleset

Problem = tuple[str, "int | None", str]

#: (scene section, key) of every terrain name a piece may carry
TERRAIN_KEYS = (("zones", "terrain"), ("blocks", "surface"), ("roads", "surface"),
                ("buildings", "roof_surface"), ("platforms", "surface"), ("ramps", "surface"),
                ("meshes", "surface"))


def schema_problems(error: ValidationError, lines: dict[str, int], model=SceneSpec) -> list[Problem]:
    """A pydantic validation error of a YAML file's ``model`` (a scene by default) as problems
    with key path, line and fix: an unknown key with the closest allowed one, a missing key, a
    name that is not plain, a number that is not finite, the value found otherwise."""
    problems = []
    for item in error.errors():
        loc = tuple(part for part in item["loc"] if not (isinstance(part, str) and "[" in part
                                                         and part.endswith("]")))
        path = key_path(loc)
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "extra_forbidden":
            key = str(loc[-1])
            message = f"unknown key {key!r}; {did_you_mean(key, keys_allowed_at(model, loc[:-1]))}"
            if model is SceneSpec:
                message += " (`entropy3d schema` lists every allowed key)"
        elif item["type"] == "missing":
            message = "required key is missing"
        elif item["type"] == "string_pattern_mismatch" and item.get("ctx", {}).get("pattern") == IDENTIFIER_PATTERN:
            plain = re.sub(r"[^A-Za-z0-9_\-]+", "_", str(item["input"])).strip("_").lower() or "name_1"
            message = (f"{item['input']!r} is not a plain name: use letters, digits, _ and - only "
                       f"(e.g. {plain!r})")
        elif item["type"] == "finite_number":
            message = f"must be a finite number (got {item['input']!r}); write a plain number such as 12.5"
        elif "input" in item and item["type"] not in ("value_error",):
            message = f"{message} (got {item['input']!r})"
        problems.append((path, line_of(lines, path), message))
    return problems


#: the largest number a scene may hold (inches, degrees, counts): a table is a few feet, and
#: numbers like 1e308 are finite but overflow in the geometry built from them
MAX_MAGNITUDE = 100_000


def _magnitude_problems(data, lines: dict[str, int], loc: tuple = ()) -> list[Problem]:
    """Every number of a validated scene (``spec.model_dump()``, so quoted numbers count too)
    whose size is over MAX_MAGNITUDE, with its key path."""
    if isinstance(data, dict):
        return [p for key, value in data.items() for p in _magnitude_problems(value, lines, loc + (key,))]
    if isinstance(data, (list, tuple)):
        return [p for index, value in enumerate(data) for p in _magnitude_problems(value, lines, loc + (index,))]
    if isinstance(data, (int, float)) and not isinstance(data, bool) and MAX_MAGNITUDE < abs(data) < math.inf:
        path = key_path(loc)
        return [(path, line_of(lines, path), f"{data!r} is too large: scene numbers are inches, degrees or "
                                             f"counts, at most {MAX_MAGNITUDE:,} in size")]
    return []


def resolve_asset(scene_path: Path, file: str) -> Path:
    """A mesh path as written in a scene: relative to the scene file, else the bundled models/."""
    candidate = Path(file).expanduser()
    if candidate.is_absolute():
        return candidate
    beside = (scene_path.parent / candidate).resolve()
    if beside.exists():
        return beside
    bundled = bundled_dir("models") / candidate.name
    return bundled if bundled.exists() else beside


def not_a_file(path: Path) -> str | None:
    """What is at ``path`` when it is there but is no regular file ("a named pipe", "a device",
    "a folder"), after symbolic links; None when nothing is there. A FIFO or a link to /dev/zero
    given as a mesh was "not found" (issue 49); reading one would wait forever or never end."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    for test, kind in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return None


def with_rider_defaults(spec: SceneSpec, ruleset: Ruleset) -> SceneSpec:
    """The scene with every rider stat it leaves out taken from the rules data: ``rider_defaults``
    and ``max_stress.default`` (the one place those defaults live)."""
    defaults = {**ruleset.data("rider_defaults"), "max_stress": ruleset.data("max_stress.default")}
    models = []
    for model in spec.models:
        missing = {stat: defaults[stat] for stat in RIDER_STATS if getattr(model.rider, stat) is None}
        models.append(model.model_copy(update={"rider": model.rider.model_copy(update=missing)}) if missing else model)
    return spec.model_copy(update={"models": models})


def _reference_problems(spec: SceneSpec, ruleset: Ruleset, lines: dict[str, int]) -> list[Problem]:
    problems: list[Problem] = []

    def report(path: str, message: str) -> None:
        problems.append((path, line_of(lines, path), message))

    terrains = set(ruleset.terrain_names)
    allowed_terrain = ", ".join(ruleset.terrain_names)

    def check_terrain(path: str, name: str | None) -> None:
        if name is not None and name not in terrains:
            report(path, f"unknown terrain {name!r}; use one of {allowed_terrain}")

    check_terrain("table.ground", spec.table.ground)
    for section, key in TERRAIN_KEYS:
        for i, piece in enumerate(getattr(spec, section)):
            check_terrain(f"{section}[{i}].{key}", getattr(piece, key))

    seen: dict[str, str] = {}
    for section in ("zones", "blocks", "roads", "buildings", "platforms", "ramps", "destructibles",
                    "meshes", "models"):
        for i, piece in enumerate(getattr(spec, section)):
            path = f"{section}[{i}].id"
            if piece.id in seen:
                report(path, f"id {piece.id!r} is already used at {seen[piece.id]}; ids must be unique")
            else:
                seen[piece.id] = path

    width, depth = spec.table.width, spec.table.depth
    problems += on_foot_problems(spec, ruleset, lines)
    problems += ambush_problems(spec, ruleset, lines)  # EC-TRAIT-AMBUSH
    for i, model in enumerate(spec.models):
        if model.vehicle is not None and model.vehicle not in ruleset.vehicles:
            report(f"models[{i}].vehicle", f"unknown vehicle {model.vehicle!r}; use one of "
                   f"{', '.join(ruleset.vehicles) or '(none: the rules data has no vehicles:)'}")
        elif model.vehicle is None and not model.on_foot and model.bike not in ruleset.bike_types:
            report(f"models[{i}].bike",
                   f"unknown bike type {model.bike!r}; use one of {', '.join(ruleset.bike_type_names)}")
        weapons, guns = ruleset.data("weapons"), ruleset.data("guns")
        if model.rider.weapon is not None and model.rider.weapon not in weapons:
            report(f"models[{i}].rider.weapon", f"unknown melee weapon {model.rider.weapon!r}; use one of "
                   f"{', '.join(weapons)} (EC-WPN), or leave it out to punch")
        if model.rider.gun is not None and model.rider.gun not in guns:
            report(f"models[{i}].rider.gun",
                   f"unknown gun {model.rider.gun!r}; use one of {', '.join(guns)} (EC-GUN-2)")
        elif model.rider.gun is not None and guns[model.rider.gun]["on_foot_only"] and not model.on_foot:
            report(f"models[{i}].rider.gun", f"a {model.rider.gun} is for models on foot only (EC-GUN-2): give it "
                   "to a model with `on_foot: true`, or give this rider another gun")
        for name, x in model.rider.traits.items():
            trait = ruleset.data("traits").get(name)
            where = f"models[{i}].rider.traits.{name}"
            if trait is None:
                report(where, f"unknown trait {name!r}; use one of {', '.join(ruleset.data('traits'))} (EC-TRAIT)")
            elif not trait["implemented"]:
                report(where, f"trait {name!r} is not played yet ({trait['why']}); leave it out (EC-TRAIT); "
                       "played: " + ", ".join(n for n, s in ruleset.data("traits").items() if s["implemented"]))
            elif trait["takes_x"] and x is None:
                report(where, f"trait {name!r} takes a number, e.g. {{{name}: 6}} (EC-TRAIT)")
            elif not trait["takes_x"] and x is not None:
                report(where, f"trait {name!r} takes no number: write {{{name}: null}} (EC-TRAIT)")
        for k, trap in enumerate(model.rider.traps):
            if trap not in ruleset.data("traps"):
                report(f"models[{i}].rider.traps[{k}]",
                       f"unknown trap {trap!r}; use one of {', '.join(ruleset.data('traps'))} (EC-TRAP)")
        for k, condition in enumerate(model.rider.conditions):
            if condition not in CONDITIONS:
                report(f"models[{i}].rider.conditions[{k}]",
                       f"unknown condition {condition!r}; use one of {', '.join(CONDITIONS)} (EC-COND-*)")
        if model.gang not in spec.gangs:
            known = ", ".join(spec.gangs) or "(none: add a `gangs:` section)"
            report(f"models[{i}].gang", f"unknown gang {model.gang!r}; declared gangs: {known}")
        x, y = model.position[0], model.position[1]
        if not (0 <= x <= width and 0 <= y <= depth):
            report(f"models[{i}].position",
                   f"({x}, {y}) is off the {width}x{depth} inch table")
        if model.rider.stress > model.rider.max_stress:
            report(f"models[{i}].rider.stress",
                   f"stress {model.rider.stress} exceeds max_stress {model.rider.max_stress}")
    for i, item in enumerate(spec.destructibles):
        x, y = item.position
        if not (0 <= x <= width and 0 <= y <= depth):
            report(f"destructibles[{i}].position", f"({x}, {y}) is off the {width}x{depth} inch table")
    # a mission with a set-up of its own: the set-up key is the mission's name
    for mission, setup, form, clause, checked in (
            ("package_run", spec.package_run, "{to: EDGE, carriers: {MODEL: VP, ...}}", "EC-MISSION-PACKAGE",
             lambda: package_run_problems(spec, ruleset, lines)),
            ("vip_takedown", spec.vip_takedown, "{vips: {GANG: MODEL, ...}}", "EC-MISSION-VIP",
             lambda: vip_problems(spec, lines)),
            ("grab_n_go", spec.grab_n_go, "{items: [{id: ID, at: [X, Y]}, ...], exits: {GANG: EDGE, ...}}",
             "EC-MISSION-GRAB", lambda: grab_problems(spec, ruleset, lines)),
            ("jailbreak", spec.jailbreak, "{jail: BUILDING, openings: [[X, Y], ...]}", "EC-MISSION-JAIL",
             lambda: jail_problems(spec, ruleset, lines)),
            ("rescue_survive", spec.rescue_survive, "{npcs: [{id: ID, gang: GANG, at: [X, Y], to: [X, Y]}, ...]}",
             "EC-MISSION-RESCUE", lambda: rescue_problems(spec, ruleset, lines)),
            ("corners", spec.corners, "{zones: [{id: ID, rect: [X0, Y0, X1, Y1]}, ...]}", "EC-MISSION-CORNERS",
             lambda: course_problems(spec, lines)),
            ("hoon_hour", spec.hoon_hour, "{checkpoints: [{id: ID, at: [X, Y], radius: R}, ...]}", "EC-MISSION-HOON",
             lambda: course_problems(spec, lines))):
        if spec.mission == mission and setup is None:
            report("mission", f"mission: {mission} needs its set-up: add `{mission}: {form}` ({clause})")
        if setup is not None and spec.mission != mission:
            report(mission, f"`{mission}:` sets up mission: {mission}, not {spec.mission}: remove it "
                            f"or set `mission: {mission}`")
        elif setup is not None:
            problems += checked()
    return problems


def course_problems(spec: SceneSpec, lines: dict[str, int]) -> list[Problem]:
    """Corners' zones (EC-MISSION-CORNERS) and Hoon Hour's checkpoints (EC-MISSION-HOON) as the
    rules refuse them (:func:`entropy3d.systems.entropy_city.corners.corners_set_up_problems`,
    :func:`entropy3d.systems.entropy_city.race.race_set_up_problems`), each with the line of its key path."""
    from entropy3d.systems.entropy_city.corners import corners_set_up_problems
    from entropy3d.systems.entropy_city.race import race_set_up_problems

    width, depth = spec.table.width, spec.table.depth
    said = []
    if spec.corners is not None:
        said += corners_set_up_problems([(z.id, *(float(v) for v in z.rect)) for z in spec.corners.zones], width, depth)
    if spec.hoon_hour is not None:
        said += race_set_up_problems([(c.id, float(c.at[0]), float(c.at[1])) for c in spec.hoon_hour.checkpoints],
                                     width, depth)
    return [(key, line_of(lines, key), message) for key, message in said]


def vip_problems(spec: SceneSpec, lines: dict[str, int]) -> list[Problem]:
    """VIP Takedown's set-up (EC-MISSION-VIP): every VIP a model of the scene, then what the
    rulebook asks of the set-up (:func:`entropy3d.systems.entropy_city.vip.vip_set_up_problems`), each with the
    line of its key path."""
    from entropy3d.systems.entropy_city.vip import vip_set_up_problems

    problems = []
    gang_of = {model.id: model.gang for model in spec.models}
    for gang, model_id in spec.vip_takedown.vips.items():
        if model_id not in gang_of:
            where = f"vip_takedown.vips.{gang}"
            problems.append((where, line_of(lines, where), f"no model {model_id!r} in the scene; its models: "
                             f"{', '.join(gang_of) or '(none)'}"))
    said = vip_set_up_problems(spec.vip_takedown.vips, gang_of, list(spec.gangs))
    return problems + [(key, line_of(lines, key), message) for key, message in said]


def grab_problems(spec: SceneSpec, ruleset: Ruleset, lines: dict[str, int]) -> list[Problem]:
    """Grab n Go's set-up (EC-MISSION-GRAB): what the rulebook asks of it
    (:func:`entropy3d.systems.entropy_city.grab.grab_set_up_problems`), then the table's part: "terrain setup to
    prevent a straight line possible from deployment to the packages" (DECISION: the straight line
    from every rider's starting base centre to every package crosses a building's footprint; a
    model on foot deploys on a roof and is not checked), and no package inside a building; each
    with the line of its key path."""
    from shapely import LineString, Point, Polygon

    from entropy3d.systems.entropy_city.grab import grab_set_up_problems

    setup = spec.grab_n_go
    said = grab_set_up_problems([(i.id, float(i.at[0]), float(i.at[1])) for i in setup.items], setup.exits,
                                list(spec.gangs), spec.table.edges, spec.table.width, spec.table.depth, ruleset)
    problems = [(key, line_of(lines, key), message) for key, message in said]
    footprints = {b.id: Polygon(b.corners()) for b in spec.buildings}
    for k, item in enumerate(setup.items):
        spot = Point(float(item.at[0]), float(item.at[1]))
        if not (0 <= spot.x <= spec.table.width and 0 <= spot.y <= spec.table.depth):
            continue  # off the table: said already
        inside = next((bid for bid, shape in footprints.items() if shape.covers(spot)), None)
        if inside is not None:
            where = f"grab_n_go.items[{k}].at"
            problems.append((where, line_of(lines, where), f"{item.id} lies inside building '{inside}': put it on "
                             "the street, where a rider can ride within 1\" of it (EC-ACT-PICKUP)"))
            continue
        for model in spec.models:
            if model.on_foot:
                continue
            line = LineString([(float(model.position[0]), float(model.position[1])), (spot.x, spot.y)])
            if not any(line.crosses(shape) or line.within(shape) for shape in footprints.values()):
                where = f"grab_n_go.items[{k}].at"
                problems.append((where, line_of(lines, where), f"{model.id} has a straight line from where it "
                                 f"deploys ({float(model.position[0]):g}, {float(model.position[1]):g}) to {item.id}: "
                                 "\"terrain setup to prevent a straight line possible from deployment to the "
                                 "packages\" (EC-MISSION-GRAB): put a building across it, or move the package"))
                break
    return problems


def package_run_problems(spec: SceneSpec, ruleset: Ruleset, lines: dict[str, int]) -> list[Problem]:
    """Package Run's set-up (EC-MISSION-PACKAGE): every carrier a model of the scene, then what the
    rulebook asks of the set-up (:func:`entropy3d.systems.entropy_city.missions.package_run_set_up_problems`),
    each with the line of its key path."""
    from entropy3d.systems.entropy_city.missions import Carrier, package_run_set_up_problems

    setup, problems = spec.package_run, []
    models = {model.id: model for model in spec.models}
    for model_id in setup.carriers:
        if model_id not in models:
            where = f"package_run.carriers.{model_id}"
            problems.append((where, line_of(lines, where), f"no model {model_id!r} in the scene; its models: "
                             f"{', '.join(models) or '(none)'}"))
    carriers = {m: Carrier(models[m].gang, models[m].on_foot, float(models[m].position[0]),
                           float(models[m].position[1])) for m in setup.carriers if m in models}
    said = package_run_set_up_problems(setup.to, list(setup.carriers.values()), carriers, list(spec.gangs),
                                       spec.table.edges.get(setup.to, "open"), spec.table.width, spec.table.depth,
                                       ruleset)
    return problems + [(key, line_of(lines, key), message) for key, message in said]


def on_foot_problems(spec: SceneSpec, ruleset: Ruleset, lines: dict[str, int]) -> list[Problem]:
    """Models on foot inside a building's footprint stand on its roof ("can be deployed within a
    building one on foot per building only"): at most ``on_foot.per_building`` in each
    (EC-FOOT-DEPLOY)."""
    from shapely import Point, Polygon

    most = int(ruleset.spec.on_foot.per_building)
    problems: list[Problem] = []
    held: dict[str, list[str]] = {}
    for i, model in enumerate(spec.models):
        if not model.on_foot:
            continue
        spot = Point(model.position[0], model.position[1])
        for building in spec.buildings:
            if Polygon(building.corners()).covers(spot):
                there = held.setdefault(building.id, [])
                if len(there) >= most:
                    path = f"models[{i}].position"
                    problems.append((path, line_of(lines, path),
                                     f"{model.id} is on foot in building '{building.id}', which already holds "
                                     f"{', '.join(there)}: one on foot per building (EC-FOOT-DEPLOY, rules data "
                                     f"on_foot.per_building {most}); put it in another building or on the street"))
                there.append(model.id)
    return problems


def load_scene(path: str | Path, *, load_meshes: bool = True,
               read: tuple[object, dict[str, int]] | None = None) -> Table:
    """Load and validate a scene file.

    Raises :class:`~entropy3d.errors.SceneError` listing every problem (key path, line, fix), or
    :class:`~entropy3d.errors.MeshError` for a mesh file that is missing or does not parse.
    ``load_meshes=False`` skips reading mesh files (existence is still checked). ``read``: the
    file's :func:`~entropy3d.scene.yamlsource.read_yaml_with_lines` when the caller has it already
    (``validate`` reads a file once to tell a scene from rules data).
    """
    source = Path(path)
    data, lines = read or read_yaml_with_lines(source)
    if not isinstance(data, dict):
        raise SceneError(source, [("", 1, "a scene must be a mapping with at least `name:`")])
    try:
        spec = SceneSpec.model_validate(data)
    except ValidationError as error:
        raise SceneError(source, schema_problems(error, lines)) from None
    too_large = _magnitude_problems(spec.model_dump(), lines)
    if too_large:
        raise SceneError(source, too_large)

    rules_ref = Path(spec.rules)
    if rules_ref.suffix in (".yaml", ".yml"):
        rules_path = rules_ref if rules_ref.is_absolute() else (source.parent / rules_ref)
        try:
            found = rules_path.is_file()
        except (OSError, ValueError):
            found = False
        if not found:
            raise SceneError(source, [("rules", line_of(lines, "rules"),
                                       f"rules file {spec.rules!r} not found (looked for {rules_path}); paths "
                                       "are relative to the scene file, or give a bundled name (entropy_city)")])
        ruleset = load_ruleset(rules_path)
    else:
        candidate = bundled_dir("rules") / f"{spec.rules}.yaml"
        if not candidate.exists():
            raise SceneError(source, [("rules", line_of(lines, "rules"),
                                       f"no bundled rules named {spec.rules!r}; give a bundled name "
                                       "(entropy_city) or a path to a .yaml file")])
        ruleset = load_ruleset(candidate)

    from entropy3d.scene.law_set_up import law_problems, with_law

    law_said = [(key, line_of(lines, key), message) for key, message in law_problems(spec, ruleset)]  # EC-LAW
    spec = with_rider_defaults(with_law(spec, ruleset), ruleset)
    problems = law_said + _reference_problems(spec, ruleset, lines) + system_problems(spec, lines)
    mesh_paths = {}
    for i, mesh in enumerate(spec.meshes):
        resolved = resolve_asset(source, mesh.file)
        if not resolved.is_file():
            kind = not_a_file(resolved)
            problems.append((f"meshes[{i}].file", line_of(lines, f"meshes[{i}].file"),
                             f"mesh file {mesh.file!r} not found (looked for {resolved}); paths are "
                             "relative to the scene file" if kind is None else
                             f"mesh file {mesh.file!r} ({resolved}) is {kind}, not a file; give a mesh file"))
        mesh_paths[mesh.id] = resolved
    if problems:
        raise SceneError(source, problems)

    meshes = {}
    mesh_notes: list[Problem] = []
    if load_meshes:
        from entropy3d.scene.meshes import load_mesh_piece

        for i, mesh in enumerate(spec.meshes):
            where = f"meshes[{i}].file"
            notes: list[str] = []
            try:
                meshes[mesh.id] = load_mesh_piece(mesh, mesh_paths[mesh.id], notes)
            except MeshError as error:
                raise SceneError(source, [(where, line_of(lines, where), str(p[2]))
                                          for p in error.problems]) from None
            mesh_notes.extend((where, line_of(lines, where), note) for note in notes)
    table = Table(spec=spec, source=source.resolve(), ruleset=ruleset, mesh_files=mesh_paths,
                  meshes=meshes, notes=mesh_notes)
    if load_meshes:
        _check_plausible(table, source, lines)
    return table


def _check_plausible(table: Table, source: Path, lines: dict[str, int]) -> None:
    """Build the table's geometry and check it is physically possible (:mod:`.plausibility`):
    errors raise SceneError, warnings go to ``table.notes``."""
    from entropy3d.errors import GeometryError
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.scene.plausibility import plausibility_problems

    try:
        geometry = build_table_geometry(table)
    except GeometryError as error:
        raise SceneError(source, [(error.key_path, line_of(lines, error.key_path), error.message)]) from None
    errors, warnings = plausibility_problems(table, geometry)
    if errors:
        raise SceneError(source, sorted(((path, line_of(lines, path), message) for path, message in errors),
                                        key=lambda problem: problem[1] or 0))
    table.notes.extend((path, line_of(lines, path), message) for path, message in warnings)
