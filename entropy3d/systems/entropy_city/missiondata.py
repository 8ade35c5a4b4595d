"""The schema of the rules data's missions (``missions:``, EC-MISSION-*), the NPCs' minimum to roll
(``npc:``) and the Law (``law:``, EC-LAW) in ``rules/entropy_city.yaml``: their VP and numbers, each
rejecting unknown keys (:class:`~entropy3d.core.specbase.Strict`). Pure: no YAML, no file I/O."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from entropy3d.core.specbase import NonNeg, NonNegInt, Pos, PosInt, Strict


class TurfWarScoring(Strict):
    bust: int
    taken_out: int


class LoversPointScoring(Strict):
    taken_out: int
    escaped: int


class PackageRunScoring(Strict):
    packages: list[PosInt] = Field(min_length=1, description="the VP of each package the runners carry "
                                                                  "(EC-MISSION-PACKAGE)")


class VipTakedownScoring(Strict):
    takedown: PosInt = Field(description="VP for a VIP that takes the enemy VIP out (EC-MISSION-VIP)")


class GrabNGoScoring(Strict):
    packages: PosInt = Field(description="packages on the table (EC-MISSION-GRAB)")
    hold_actions: NonNegInt = Field(description="complete actions a package is held before it may escape")
    escape: PosInt = Field(description="VP for each package carried off its holder's own deployment edge")


class JailbreakScoring(Strict):
    centre_in: NonNeg = Field(description="inches from the table's centre the jail's footprint comes within")
    stop_within_in: NonNeg = Field(description="inches from a door or window a stop frees the NPC (EC-MISSION-JAIL)")
    npc_tn: PosInt = Field(description="the NPC's test to get out (EC-MISSION-JAIL)")
    escape: PosInt = Field(description="VP for carrying the NPC off the table through a road exit")
    opening_on_wall_in: Pos = Field(description="inches from the jail's outline a door or window of the scene may "
                                                "stand and be on its walls")


class RescueSurviveScoring(Strict):
    npcs_per_gang: PosInt = Field(description="NPCs each gang rescues (EC-MISSION-RESCUE)")
    corner_in: NonNeg = Field(description="inches from a table corner an NPC starts and is delivered")
    deliver_in: NonNeg = Field(description="inches from its destination a holder's base delivers the NPC")
    deliver: PosInt = Field(description="VP for delivering the gang's own NPC")
    deliver_rival: PosInt = Field(description="VP for delivering the rival gang's NPC (the extra points)")


class CornersScoring(Strict):
    score_every: PosInt = Field(description="turns between scorings (\"x rounds score\", EC-MISSION-CORNERS)")
    hold: PosInt = Field(description="VP for each corner a gang holds at a scoring")
    parked_count: bool = Field(description="whether a stopped rider holds a corner (\"harder if you're not "
                                           "allowed to park\": false)")


class HoonHourScoring(Strict):
    checkpoint: NonNegInt = Field(description="VP for each checkpoint passed in order (EC-MISSION-HOON)")
    finish: PosInt = Field(description="VP for the first rider round the circuit")
    laps: PosInt = Field(description="laps of the circuit a rider rides to finish")
    radius_in: Pos = Field(le=24, description="inches: the radius of a scene's checkpoint that gives none")


class NpcSpec(Strict):
    """Every NPC's push-your-luck ("The Law: As NPC's": "a minimum to roll before giving up")."""

    min_roll: PosInt = Field(description="the total an NPC rolls to (15)")
    reading: Literal["gives_up_at", "at_least"] = Field(
        description="gives_up_at: it sits on min_roll whatever the TN; at_least: it rolls on to min_roll or what it "
                    "needs, whichever is higher")


class LawSpec(Strict):
    """The Law as an NPC side (EC-LAW): its gang, its riders, when and how it enters, whom it
    goes for and its push-your-luck minimum."""

    gang: str
    name: str
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    weapon: str = Field(description="each police rider's melee weapon (rules data `weapons:`)")
    gun: str = Field(description="each police rider's gun (rules data `guns:`)")
    riders: PosInt
    bike: str
    from_turn: PosInt
    enter_speed: PosInt
    file_gap_in: NonNeg
    edge_entry_in: Pos = Field(description="inches in from an open table edge where `law: on` enters")
    aggression: Literal["named_then_impact", "impact", "nearest"]
    named_until_turn: NonNegInt


class MissionsSpec(Strict):
    turf_war: TurfWarScoring
    lovers_point_brawl: LoversPointScoring
    package_run: PackageRunScoring
    vip_takedown: VipTakedownScoring
    grab_n_go: GrabNGoScoring
    jailbreak: JailbreakScoring
    rescue_survive: RescueSurviveScoring
    corners: CornersScoring
    hoon_hour: HoonHourScoring
