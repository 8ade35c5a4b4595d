"""Mission scoring and end conditions (rulebook "Mission Types"); the points are rules data
(``missions:`` in ``rules/entropy_city.yaml``).

Turf War: "one point for each character you actively take out, lose a point for every bust."
Lovers Point Brawl: "one point for every enemy taken out, two points for every friendly model
that escapes"; the deployment edge is a cliff (EC-COL-EDGE). A model escapes by riding off an
open table edge.
Package Run (EC-MISSION-PACKAGE): "One player selects three riders each is holding a package,
their mission is to reach the enemy table edge ... Three packages, two worth a single VP the last
is worth 3 VP." A carrier riding off that edge delivers its package (its VP to its gang); one
taken out or leaving by another edge drops it (DECISION: its VP to the defenders: the rulebook
plays a round per side and compares the runners' totals; one game is one round here, and the
defenders' points are what they stopped). A bust reveals the package's value ("only revealed
when either busting or completing their run") and does not drop it (DECISION); in a tie the VP
of packages delivered by busted carriers come off the runners' total. It ends when no package
is left in play.
VIP Takedown (EC-MISSION-VIP): :mod:`entropy3d.systems.entropy_city.vip`; it ends when a VIP takes the other out.
Grab n Go (EC-MISSION-GRAB): :mod:`entropy3d.systems.entropy_city.grab`; it ends when no package is left in play.
DECISION: the other missions of the scene schema are not written missions in the rulebook
("more vague ideas"); they are scored as Turf War.
Every game also ends when fewer than two gangs have a model on the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

from entropy3d.core.event import Event
from entropy3d.systems.entropy_city.corners import CORNERS, corners_explanation
from entropy3d.systems.entropy_city.grab import GRAB_N_GO, grab_explanation, grab_game_over, items_in_play
from entropy3d.systems.entropy_city.law import scoring_gangs
from entropy3d.systems.entropy_city.npc import NPC_MISSIONS, npc_explanation, npc_game_over
from entropy3d.systems.entropy_city.race import HOON_HOUR, race_explanation, race_game_over
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ESCAPED, RIDING, ModelState, State
from entropy3d.systems.entropy_city.vip import VIP_TAKEDOWN, last_vips_standing, taken_down, vip_explanation

TURF_WAR = "turf_war"
LOVERS_POINT = "lovers_point_brawl"
PACKAGE_RUN = "package_run"
#: the missions the rulebook gives scoring for; any other is scored as Turf War
SCORED_MISSIONS = (TURF_WAR, LOVERS_POINT, PACKAGE_RUN, VIP_TAKEDOWN, GRAB_N_GO, CORNERS, HOON_HOUR) + NPC_MISSIONS


def scored_as(mission: str) -> str:
    """The mission whose scoring ``mission`` is played with: its own, or Turf War's."""
    return mission if mission in SCORED_MISSIONS else TURF_WAR


def _points(state: State, ruleset: Ruleset) -> dict:
    return ruleset.data(f"missions.{scored_as(state.mission)}")


def score_bust(state: State, model: ModelState, ruleset: Ruleset) -> State:
    """A bust (EC-DICE-4): Turf War takes a point from the busting gang."""
    points = int(_points(state, ruleset).get("bust", 0))
    return state.add_score(model.gang, points) if points and not model.law else state  # the Law scores nothing


def score_taken_out(state: State, victim: ModelState, by_gang: str | None, ruleset: Ruleset) -> State:
    """A model out of the game. Turf War: a point to the gang that actively took it out.
    Lovers Point Brawl: a point to every enemy gang, however it went."""
    points = int(_points(state, ruleset).get("taken_out", 0))
    if not points:
        return state
    if state.mission == LOVERS_POINT:
        for gang in scoring_gangs(sorted({m.gang for m in state.models.values()} - {victim.gang}), state):
            state = state.add_score(gang, points)
        return state
    if by_gang is not None and by_gang != victim.gang and by_gang in scoring_gangs([by_gang], state):
        return state.add_score(by_gang, points)
    return state


def escape_points(state: State, model: ModelState, ruleset: Ruleset) -> int:
    """The points ``model`` riding off an open edge scores its gang: two in Lovers Point Brawl
    ("two points for every friendly model that escapes"), none elsewhere nor for the Law."""
    return 0 if model.law else int(_points(state, ruleset).get("escaped", 0))


def score_escaped(state: State, model: ModelState, ruleset: Ruleset) -> State:
    """A model that rode off an open edge: :func:`escape_points` to its gang."""
    points = escape_points(state, model, ruleset)
    return state.add_score(model.gang, points) if points else state


@dataclass(frozen=True)
class Carrier:
    """A Package Run carrier as a scene sets it up: its gang, whether it is on foot and where it
    starts (table inches)."""

    gang: str
    on_foot: bool
    x: float
    y: float


def package_run_set_up_problems(to: str, packages: Sequence[int], carriers: Mapping[str, Carrier],
                                gangs: Sequence[str], edge_kind: str, width: float, depth: float,
                                ruleset: Ruleset) -> list[tuple[str, str]]:
    """What the rulebook refuses in a Package Run set-up, as (scene key path, message): a carrier
    on foot ("selects three riders"), carriers of two gangs, packages other than the rules data's,
    other than two gangs (the runners and the defenders), carriers setting out (on average) on the
    half of the table their edge is on (DECISION: "the enemy table edge" is across the table) and
    an edge that is not open. ``to``: the edge; ``packages``: every package's VP as the set-up
    gives them; ``carriers``: those of its carriers the scene has; ``edge_kind``: what the table makes of it;
    ``width``, ``depth``: the table, inches."""
    problems = [(f"package_run.carriers.{model_id}", f"{model_id} is on foot: a package is carried by a rider "
                 "(\"selects three riders\", EC-MISSION-PACKAGE)") for model_id, c in carriers.items() if c.on_foot]
    running = sorted({c.gang for c in carriers.values()})
    if len(running) > 1:
        problems.append(("package_run.carriers", f"the carriers are of {' and '.join(running)}: one gang runs the "
                                                 "packages (EC-MISSION-PACKAGE)"))
    wanted = sorted(int(v) for v in ruleset.data("missions.package_run.packages"))
    given = sorted(int(v) for v in packages)
    if given != wanted:
        problems.append(("package_run.carriers", f"packages worth {given} VP; the rules data's are {wanted} "
                                                 "(missions.package_run.packages): give one carrier each "
                                                 "(EC-MISSION-PACKAGE)"))
    if len(gangs) != 2:
        problems.append(("gangs", f"Package Run is played by two gangs, the runners and the defenders; this scene "
                                  f"has {len(gangs)} (EC-MISSION-PACKAGE)"))
    if carriers:
        x = sum(c.x for c in carriers.values()) / len(carriers)
        y = sum(c.y for c in carriers.values()) / len(carriers)
        if {"west": x < width / 2, "east": x > width / 2, "south": y < depth / 2, "north": y > depth / 2}[to]:
            problems.append(("package_run.to", f"the carriers set out on the {to} half of the table (their mean at "
                                               f"({x:.1f}, {y:.1f})): the enemy edge is across the table; give the "
                                               "edge the defenders hold, or set the carriers up on the far half "
                                               "(EC-MISSION-PACKAGE)"))
    if edge_kind != "open":
        problems.append(("package_run.to", f"the {to} edge is a {edge_kind}: packages are delivered over an open "
                                           "edge (EC-MISSION-PACKAGE)"))
    return problems


def carry_packages(state: State, events: Sequence[Event]) -> tuple[State, list[Event]]:
    """Package Run after an action (EC-MISSION-PACKAGE): each package whose carrier rode off its
    edge in ``events`` is delivered, its VP to the carrier's gang; each whose carrier is out of the
    game or left by another edge is dropped, its VP to every other gang. A carrier that busted in
    them keeps its package, its value now known ("only revealed when either busting or completing
    their run"), and is marked for a tie (:func:`winner`). A score event says each."""
    if state.mission != PACKAGE_RUN:
        return state, []
    said = []
    for model in list(state.models.values()):
        if not model.carries_package:
            continue
        if any(e.kind == "bust" and e.model == model.id for e in events) and not model.package_busted:
            model = model.but(package_busted=True)
            state = state.with_model(model)
            said.append(Event("score", model.id, f"busts carrying the {model.package} VP package: its value is "
                              "known", clauses=("EC-MISSION-PACKAGE",),
                              figures={"package": model.package, "revealed": True, "gangs": []}))
        left = next((e for e in events if e.kind == "left_table" and e.model == model.id), None)
        edge = left.figures.get("edge") if left is not None else None
        if model.status == ESCAPED and edge == model.package_to:
            gangs, fate, why = [model.gang], "delivered", f"over the {edge} edge"
        elif model.status == ESCAPED:  # off another edge (or, were no edge said, off the table)
            where = f"the {edge} edge" if edge else "the table"
            gangs, fate, why = _others(state, model), "dropped", f"off {where}, not the {model.package_to} edge"
        elif model.status != RIDING:
            gangs, fate, why = _others(state, model), "dropped", "out of the game"
        else:
            continue
        for gang in gangs:
            state = state.add_score(gang, model.package)
        text = (f"delivers its package {why}: {model.gang} +{model.package} VP" if fate == "delivered" else
                f"drops its {model.package} VP package ({why}): {', '.join(gangs)} +{model.package} VP")
        said.append(Event("score", model.id, text, clauses=("EC-MISSION-PACKAGE",),
                          figures={"package": model.package, "delivered": fate == "delivered", "gangs": gangs}))
        state = state.with_model(model.but(package_fate=fate))
    return state, said


def _others(state: State, model: ModelState) -> list[str]:
    """The players' gangs other than ``model``'s (not the Law's, EC-LAW)."""
    return scoring_gangs(sorted({m.gang for m in state.models.values()} - {model.gang}), state)


def game_over(state: State, ruleset: Ruleset | None = None) -> str:
    """Why the game is over now ("" while it goes on). The Law takes part in no mission (EC-LAW):
    a game is over when fewer than two of the players' gangs are on the table."""
    gangs = scoring_gangs(state.gangs_in_play(), state)
    carried = any(m.carries_package for m in state.models.values())
    if state.mission == PACKAGE_RUN and not carried:
        return "no package left in play"
    down = taken_down(state) if state.mission == VIP_TAKEDOWN else None
    if down is not None:
        return f"a VIP took the other out ({down.vip_taken_by} took out {down.id})"
    if state.mission == GRAB_N_GO and grab_game_over(state):
        return grab_game_over(state)
    if state.mission in NPC_MISSIONS and npc_game_over(state):  # EC-MISSION-JAIL, EC-MISSION-RESCUE
        return npc_game_over(state)
    if state.mission == HOON_HOUR and ruleset is not None and race_game_over(state, ruleset):
        return race_game_over(state, ruleset)
    # the runners may ride on alone; so may the last gang while a package or an NPC is left to
    # take, and the last gang in a race, to finish it (EC-MISSION-HOON)
    if len(gangs) < 2 and not (state.mission == PACKAGE_RUN and carried) \
            and not (state.mission in (GRAB_N_GO,) + NPC_MISSIONS and gangs and items_in_play(state)) \
            and not (state.mission == HOON_HOUR and gangs):
        return "only one gang left on the table" if gangs else "no model left on the table"
    return ""


def winner(state: State) -> str:
    """The gang with the most points, "" on a tie. Package Run breaks a tie as the rulebook says:
    "Should the game result in a tie players should remove busted package carriers from their
    total" (the VP delivered by carriers that busted on the way come off the runners' points).
    VIP Takedown breaks a tie by the VIPs still in play
    (:func:`~entropy3d.systems.entropy_city.vip.last_vips_standing`)."""
    score = {g: s for g, s in state.score.items() if g in scoring_gangs([g], state)}  # not the Law's (EC-LAW)
    if not score:
        return ""
    best = max(score.values())
    leaders = [g for g, s in score.items() if s == best]
    if len(leaders) > 1 and state.mission == PACKAGE_RUN:
        for model in state.models.values():
            if model.package_fate == "delivered" and model.package_busted:
                score[model.gang] -= model.package
        best = max(score[g] for g in leaders)
        leaders = [g for g in leaders if score[g] == best]
    if len(leaders) > 1 and state.mission == VIP_TAKEDOWN:
        leaders = last_vips_standing(state, leaders)
    return leaders[0] if len(leaders) == 1 else ""


def law_rows(state: State, events: Iterable[Event], gang_of: Mapping[str, str], gang_name: Callable[[str], str]
             ) -> list[tuple[str, str]]:
    """The end card's row for the Law (EC-LAW), which scores nothing: the riders it took out (each
    rider's ``out_by``), and its own riders lost; no row without it."""
    law = sorted({m.gang for m in state.models.values() if m.law})
    if not law:
        return []
    police = {m.id for m in state.models.values() if m.law}
    took = sum(1 for m in state.models.values() if m.out_by in police and not m.law)
    lost = sum(1 for m in state.models.values() if m.law and m.status == "out")
    return [(law[0], f"{gang_name(law[0])}: took out {took} rider{'s' if took != 1 else ''}, lost {lost}")]


#: what each scoring key of ``missions:`` counts, for people
SCORED = {"bust": "bust", "taken_out": "rider taken out", "escaped": "escape"}


def score_explanation(state: State, events: Iterable[Event], gang_of: Mapping[str, str], ruleset: Ruleset,
                      mission_title: str, gang_name: Callable[[str], str],
                      rider_name: Callable[[str], str] = str) -> list[tuple[str, str]]:
    """The score ``state`` holds explained, as (gang id or "", text) rows: the mission's scoring
    line ("Turf War: +1 VP per rider taken out, -1 VP per bust"), then per gang (in id order) its
    points and what earned them ("Hades MC  -3 VP: 3 busts x -1"), counted from the game's
    ``events`` (``gang_of``: model id -> gang); points no counted event explains are said as
    "other". ``mission_title``: the scored mission's name; ``gang_name``, ``rider_name``: a gang's
    and a model's names by id."""
    events = list(events)
    law = law_rows(state, events, gang_of, gang_name)  # the Law scores nothing: a row of its own (EC-LAW)
    if law:
        gang_of = {m: g for m, g in gang_of.items() if not (m in state.models and state.models[m].law)}
    return _explanation(state, events, gang_of, ruleset, mission_title, gang_name, rider_name) + law


def _explanation(state: State, events: Iterable[Event], gang_of: Mapping[str, str], ruleset: Ruleset,
                 mission_title: str, gang_name: Callable[[str], str], rider_name: Callable[[str], str]
                 ) -> list[tuple[str, str]]:
    """:func:`score_explanation` of the players' gangs."""
    if state.mission == PACKAGE_RUN:
        return _package_explanation(state, events, gang_of, ruleset, mission_title, gang_name)
    if state.mission == VIP_TAKEDOWN:
        return vip_explanation(state, events, gang_of, ruleset, mission_title, gang_name, rider_name)
    if state.mission == GRAB_N_GO:
        return grab_explanation(state, events, gang_of, ruleset, mission_title, gang_name, rider_name)
    if state.mission in NPC_MISSIONS:
        return npc_explanation(state, events, gang_of, ruleset, mission_title, gang_name, rider_name)
    if state.mission == CORNERS:
        return corners_explanation(state, events, gang_of, ruleset, mission_title, gang_name)
    if state.mission == HOON_HOUR:
        return race_explanation(state, events, gang_of, ruleset, mission_title, gang_name, rider_name)
    points = dict(_points(state, ruleset))
    rule = ", ".join(f"{p:+d} VP per {SCORED.get(k, k)}" for k, p in points.items())
    rows = [("", f"{mission_title}: {rule}")]
    counted = {"bust": {}, "escaped": {}}
    for event in events:
        key = "bust" if event.kind == "bust" else "escaped" if event.kind == "left_table" else None
        if key is not None and event.model in gang_of:
            counted[key][gang_of[event.model]] = counted[key].get(gang_of[event.model], 0) + 1
    for gang in sorted(set(gang_of.values())):
        score = int(state.score.get(gang, 0))
        parts, rest = [], score
        for key in ("bust", "escaped"):
            count = counted[key].get(gang, 0)
            if points.get(key) and count:
                parts.append(f"{count} {SCORED[key]}{'s' if count != 1 else ''} x {points[key]:+d}")
                rest -= count * points[key]
        if rest and points.get("taken_out") and rest % points["taken_out"] == 0 and rest // points["taken_out"] > 0:
            taken = rest // points["taken_out"]
            parts.append(f"{taken} rider{'s' if taken != 1 else ''} taken out x {points['taken_out']:+d}")
        elif rest:
            parts.append(f"other {rest:+d}")
        rows.append((gang, f"{gang_name(gang)}  {score:+d} VP" + (f": {', '.join(parts)}" if parts else "")))
    return rows


def _package_explanation(state: State, events: Iterable[Event], gang_of: Mapping[str, str], ruleset: Ruleset,
                         mission_title: str, gang_name: Callable[[str], str]) -> list[tuple[str, str]]:
    """Package Run's card: the packages and what scores them, then per gang the packages it
    delivered and those it stopped, with their VP (EC-MISSION-PACKAGE)."""
    values = [int(v) for v in ruleset.data("missions.package_run.packages")]
    worth = ", ".join(str(v) for v in values[:-1]) + f" and {values[-1]}" if len(values) > 1 else str(values[0])
    rows = [("", f"{mission_title}: packages of {worth} VP"),
            ("", "a package delivered scores for the runners, one dropped for the defenders")]
    delivered: dict[str, list[str]] = {}
    stopped: dict[str, list[str]] = {}
    for event in events:
        if event.kind == "score" and "package" in event.figures and not event.figures.get("revealed"):
            into = delivered if event.figures.get("delivered") else stopped
            busted = into is delivered and state.models.get(event.model, None) is not None \
                and state.models[event.model].package_busted
            for gang in event.figures.get("gangs", ()):
                into.setdefault(gang, []).append(f"{int(event.figures['package'])}{' busted' if busted else ''}")
    for gang in sorted(set(gang_of.values())):
        parts = [f"{len(vps)} {what} ({' + '.join(vps)})"
                 for what, vps in (("delivered", delivered.get(gang, [])), ("stopped", stopped.get(gang, []))) if vps]
        score = int(state.score.get(gang, 0))
        rows.append((gang, f"{gang_name(gang)}  {score:+d} VP" + (f": {', '.join(parts)}" if parts else "")))
    riding = sum(1 for m in state.models.values() if m.carries_package)
    if riding:
        rows.append(("", f"{riding} package{'s' if riding != 1 else ''} still in play, scoring for nobody"))
    scores = sorted(state.score.values())
    if len(scores) > 1 and scores[-1] == scores[-2] and winner(state):
        rows.append(("", "tie broken: packages delivered by carriers that busted come off the runners' total"))
    return rows
