"""Where a mission's NPCs are shown in a picture of the game (EC-MISSION-JAIL, EC-MISSION-RESCUE):
Jailbreak's prisoner locked in the jail, then riding pillion on its holder; Rescue & Survive's
contacts waiting on foot, then carried. An NPC has no miniature of its own, so every picture
tags it by name where it is: the film (:mod:`entropy3d.video`) draws a tag over the point, the
share page a tag that follows its holder. Both ask :func:`npc_marks` of the state the picture
shows (:func:`shown_state`), so they agree. Table inches, z up.
"""

from __future__ import annotations

from dataclasses import dataclass

from entropy3d.game.records import action_events
from entropy3d.look.mission_marks import MARK_COLOUR
from entropy3d.scene.build import TableGeometry
from entropy3d.scene.schema import SceneSpec
from entropy3d.systems.entropy_city.sentences import Names
from entropy3d.systems.entropy_city.state import State

#: the kinds of event that move an NPC: picked up, passed, freed, dropped (item); delivered or
#: escaped (score)
_MOVING = ("item", "score")


@dataclass(frozen=True)
class NpcMark:
    """An NPC in play: ``id``, its ``label`` ("Hades MC's contact", "The prisoner, locked in"), the
    ``colour`` of the gang whose NPC it is (the tape's blue for the prisoner, nobody's), its
    ``holder`` (a model id, or None) and ``at``: where it stands, or the middle of the jail's roof
    while locked in, or its holder's base centre as the state has it (x, y, z inches)."""

    id: str
    label: str
    colour: str
    holder: str | None
    at: tuple[float, float, float]

    def to_json(self) -> dict:
        return {"id": self.id, "label": self.label, "colour": self.colour, "holder": self.holder,
                "at": [round(float(v), 3) + 0.0 for v in self.at]}


def npc_ids(spec: SceneSpec) -> dict[str, str | None]:
    """The scene's mission NPCs: id -> the gang whose NPC it is (None: nobody's, the prisoner)."""
    owners: dict[str, str | None] = {}
    if spec.rescue_survive is not None:
        owners.update({npc.id: npc.gang for npc in spec.rescue_survive.npcs})
    if spec.jailbreak is not None:
        owners.setdefault(spec.jailbreak.npc, None)
    return owners


def npc_marks(state: State, spec: SceneSpec, names: Names, geometry: TableGeometry) -> list[NpcMark]:
    """Every NPC of ``spec``'s mission still in play in ``state`` (delivered, escaped or lost ones
    are gone), in the state's order."""
    owners = npc_ids(spec)
    if not owners:
        return []
    jail = next((p for p in geometry.pieces if spec.jailbreak is not None and p.id == spec.jailbreak.jail), None)
    marks = []
    for item in state.items:
        if item.id not in owners or item.fate is not None:
            continue
        owner = owners[item.id]
        colour = spec.gangs[owner].colour if owner in spec.gangs else MARK_COLOUR
        name = names.thing(item.id)
        label = name[:1].upper() + name[1:]
        if item.carrier is not None and item.carrier in state.models:
            pose = state.model(item.carrier).pose
            at = (pose.x, pose.y, pose.z)
        elif item.locked and jail is not None:
            (x0, y0, _), (x1, y1, _) = jail.mesh.bounds
            at, label = (0.5 * (x0 + x1), 0.5 * (y0 + y1), float(jail.top)), label + ", locked in"
        else:
            at = (item.x, item.y, float(geometry.surface_height([(item.x, item.y)])[0]))
        marks.append(NpcMark(item.id, label, colour, item.carrier, at))
    return marks


def shown_state(activation, index: int, after: bool) -> State:
    """The state whose NPCs a picture of the ``index``-th action of ``activation`` shows: the
    activation's state before it until the last of its actions that moves an NPC (a pickup, a
    pass, a jail opened, a delivery) is over (``after``: that action is shown over), then the
    state after it. The replay keeps an activation's states only, so an NPC picked up in its
    first action shows on its holder from the start of the second."""
    moving = [j for j in range(len(activation.actions))
              if any(e.kind in _MOVING for e in action_events(activation, j))]
    if not moving or index < moving[-1] or (index == moving[-1] and not after):
        return activation.state_before
    return activation.state_after
