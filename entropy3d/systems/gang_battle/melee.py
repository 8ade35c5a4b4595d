"""The gang battle's close combat (seed 003): a Charge (GANG-CHARGE), a Fight with its reaction
attacks and the free Coup de Grace after it (GANG-CC), the Coup De Grace action (GANG-COUP) and a
Retreat (GANG-RETREAT).

Decided here for :class:`~entropy3d.systems.gang_battle.engine.GangEngine`, which calls it: pure
like the engine, the dice from the injected ``numpy.random.Generator``. Engagement is kept in the
fighters' conditions: ``engaged:<enemy id>`` on both fighters of each pair a charge brought base
to base; ``charging:<target id>`` (or ``charging_short:<target id>``) marks a charger whose D3
is rolled, until the walk the rules force on it (``forced_move``) is made; ``retreating`` a
fighter whose Retreat's D6 is rolled. A fighter is *Engaged* while an enemy Engaged with it is in
play and not Seriously Injured (that enemy holds it); *Standing* is neither Prone nor Seriously
Injured. Lengths are table inches between base centres; the numbers and their seed passages are
in ``rules/gang_battle.yaml`` (``close_combat:``, ``melee_weapons:``).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from entropy3d.core.event import Event
from entropy3d.core.roll import DiceRoll
from entropy3d.errors import IllegalPlanError
from entropy3d.geometry import Pose, angle_between_deg
from entropy3d.systems.entropy_city.plan import parse_plan
from entropy3d.systems.entropy_city.state import OUT, ModelState, State
from entropy3d.systems.gang_battle.nerve import BROKEN, PRONE, SERIOUSLY_INJURED, GangEngine, nerve_tests
from entropy3d.systems.skirmish import FigureTable, checked_walk, roll_die

CHARGE, FIGHT, COUP_DE_GRACE, RETREAT = "charge", "fight", "coup_de_grace", "retreat"
ENGAGED, CHARGING, CHARGING_SHORT, RETREATING = "engaged:", "charging:", "charging_short:", "retreating"
OUT_OF_AMMO = "out_of_ammo"
#: the melee weapon that is none: the fighter's fists (GANG-CC "Unarmed attacks")
UNARMED = "unarmed"
#: what an Engaged fighter may do (rules data ``close_combat:``, a DECISION)
ENGAGED_MAY = (FIGHT, RETREAT, COUP_DE_GRACE, "reload", "stand_up")
#: the most two fighters' levels may differ for a charge between them, inches (a figure walks on its level)
SAME_LEVEL_IN = 0.25


# -- who is engaged with whom ----------------------------------------------------------------------

def engaged_ids(model: ModelState) -> list[str]:
    """The ids of the enemies Engaged with ``model``, in the order they engaged."""
    return [c[len(ENGAGED):] for c in model.conditions if c.startswith(ENGAGED)]


def standing(model: ModelState) -> bool:
    """In play, neither Prone nor Seriously Injured."""
    return model.in_play and PRONE not in model.conditions and SERIOUSLY_INJURED not in model.conditions


def holds(model: ModelState) -> bool:
    """In play and not Seriously Injured: an enemy Engaged with a fighter that keeps it Engaged."""
    return model.in_play and SERIOUSLY_INJURED not in model.conditions


def holding_foes(state: State, model: ModelState) -> list[ModelState]:
    """The enemies Engaged with ``model`` that hold it (in play, not Seriously Injured)."""
    return [state.model(i) for i in engaged_ids(model) if holds(state.model(i))]


def is_engaged(state: State, model: ModelState) -> bool:
    """GANG-CC: Engaged with an enemy that holds it."""
    return bool(holding_foes(state, model))


def _tokens(model: ModelState, add: tuple[str, ...] = (), drop=lambda c: False) -> ModelState:
    kept = tuple(c for c in model.conditions if not drop(c))
    return model.but(conditions=kept + tuple(c for c in add if c not in kept))


def engage(state: State, a_id: str, b_id: str) -> State:
    """``a`` and ``b`` Engaged with each other."""
    state = state.with_model(_tokens(state.model(a_id), (ENGAGED + b_id,)))
    return state.with_model(_tokens(state.model(b_id), (ENGAGED + a_id,)))


def part_all(state: State, model_id: str) -> State:
    """No fighter Engaged with ``model_id`` any more (it left, or went Out of Action)."""
    for other in engaged_ids(state.model(model_id)):
        state = state.with_model(_tokens(state.model(other), drop=lambda c: c == ENGAGED + model_id))
    return state.with_model(_tokens(state.model(model_id), drop=lambda c: c.startswith(ENGAGED)))


def check_engaged(state: State, model: ModelState, kind: str) -> None:
    """GANG-CC (DECISION): an Engaged fighter may only Fight, Retreat, Coup de Grace, Reload or
    Stand Up; the actions of close combat need it Engaged (Fight, Retreat) or next to a Seriously
    Injured enemy (Coup de Grace)."""
    foes = holding_foes(state, model)
    if foes and kind not in ENGAGED_MAY:
        raise IllegalPlanError("GANG-CC", f"{model.id} is Engaged with {', '.join(f.id for f in foes)}: it may "
                               "fight, retreat, coup de grace, reload or stand up")
    if not foes and kind in (FIGHT, RETREAT):
        raise IllegalPlanError("GANG-RETREAT" if kind == RETREAT else "GANG-CC",
                               f"{model.id} is not Engaged: only a charge brings fighters into close combat")


# -- GANG-CHARGE -----------------------------------------------------------------------------------

def contact_in(sighting) -> float:
    """Inches between two round bases' centres when they touch (the LOS engine's bases)."""
    return (sighting.viewer_base_in[0] + sighting.target_base_in[0]) / 2


def _pivot(degrees: float) -> str:
    turn = (degrees + 180.0) % 360.0 - 180.0
    return "" if abs(turn) < 0.05 else f"pivot {'left' if turn > 0 else 'right'} {abs(turn):.1f}"


def charge_walk(pose: Pose, target: Pose, contact: float, reach_in: float,
                others: tuple[Pose, ...] = ()) -> tuple[str, int, bool]:
    """GANG-CHARGE: (plan text, whole inches of straight the gap needs, reaches) of a charge from
    ``pose`` at a fighter at ``target`` with ``reach_in`` inches (MVMT + D3). A plan walks whole
    inches, so the straight is the gap's whole inches, set off at the angle that ends it on the
    contact circle (law of cosines; to the left, or to the right when the left end would stand on
    the base of one of the ``others`` and the right would not), then a pivot to face the target;
    short of it, the whole inches of ``reach_in`` straight at it."""
    dx, dy = target.x - pose.x, target.y - pose.y
    gap = math.hypot(dx, dy)
    heading = math.degrees(math.atan2(dy, dx))
    need = max(0, math.ceil(gap - contact - 1e-6))
    if need > reach_in + 1e-9:
        steps = [_pivot(heading - pose.facing_deg), f"straight {math.floor(reach_in + 1e-9)}"]
        return "walk: " + ", ".join(s for s in steps if s), need, False
    if need == 0:
        return "walk: " + (_pivot(heading - pose.facing_deg) or "pivot left 0"), 0, True
    cos_off = (gap * gap + need * need - contact * contact) / (2 * gap * need)
    off = math.degrees(math.acos(max(-1.0, min(1.0, cos_off))))
    walks = []
    for side in (1, -1):
        first = round(heading + side * off - pose.facing_deg, 1)
        setoff = pose.facing_deg + first
        end_x = pose.x + need * math.cos(math.radians(setoff))
        end_y = pose.y + need * math.sin(math.radians(setoff))
        clear = all(math.hypot(o.x - end_x, o.y - end_y) >= contact - 1e-6 for o in others)
        face = math.degrees(math.atan2(target.y - end_y, target.x - end_x))
        walks.append((clear, [_pivot(first), f"straight {need}", _pivot(face - setoff)]))
    steps = walks[0][1] if walks[0][0] or not walks[1][0] else walks[1][1]
    return "walk: " + ", ".join(s for s in steps if s), need, True


def others_of(state: State, *ids: str) -> tuple[Pose, ...]:
    """Where the fighters in play other than ``ids`` stand (a charge ends clear of their bases)."""
    return tuple(m.pose for m in state.models.values() if m.in_play and m.id not in ids)


def check_charge(engine: GangEngine, state: State, model: ModelState, action, table: FigureTable | None):
    """GANG-CHARGE: the charge ``action`` checked: at an enemy in play the charger's eye reaches
    (the nearest such one when it names none), on its level, whose base it could touch with
    MVMT + the D3's best, by a walk the table allows. Returns it with its target and sighting."""
    if table is None:
        raise IllegalPlanError("GANG-CHARGE", "a charge needs the table's line of sight")
    seen = [s for s in table.sightings(state, model.id) if state.model(s.target).in_play
            and state.model(s.target).gang != model.gang and engine.system.in_sight(s)]
    if action.target is not None:
        if action.target not in state.models or state.model(action.target).gang == model.gang:
            raise IllegalPlanError("GANG-CHARGE", f"{action.target!r} is not an enemy of {model.id}")
        seen = [s for s in seen if s.target == action.target]
        if not seen:
            raise IllegalPlanError("GANG-CHARGE", f"{model.id} does not see {action.target}: a charge needs "
                                   "line of sight")
    most = engine.fighters[model.id].move_in + engine.rules.close_combat.charge_die_sides
    refusals = []
    for sighting in sorted(seen, key=lambda s: s.distance_in):
        target = state.model(sighting.target)
        if abs(target.pose.z - model.pose.z) > SAME_LEVEL_IN:
            refusals.append(f"{target.id} is on another level (climbing is not played)")
            continue
        plan, need, reaches = charge_walk(model.pose, target.pose, contact_in(sighting), most,
                                          others_of(state, model.id, target.id))
        if not reaches:
            refusals.append(f"{target.id} is {need}\" from contact: past MVMT + D3 at most, {most:g}\"")
            continue
        try:
            checked_walk(model, plan, most, engine.rules.movement.path_spacing_in, table, "GANG-CHARGE",
                         figure="fighter", noun="charge", who=f"the {most:g}\" of {model.id}'s charge",
                         not_played="climbing and gaps")
        except IllegalPlanError as refused:
            refusals.append(refused.message)
            continue
        return dataclasses.replace(action, target=target.id, sighting=sighting)
    raise IllegalPlanError("GANG-CHARGE", f"{model.id} has no enemy to charge"
                           + (": " + "; ".join(refusals) if refusals else " in line of sight"))


def roll_charge(engine: GangEngine, state: State, model: ModelState, action,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
    """GANG-CHARGE: the D3 rolled; the walk it gives (to the target's base, or MVMT + D3 at it) is
    the move the rules then force on the charger (``forced_move``)."""
    sides = engine.rules.close_combat.charge_die_sides
    die = roll_die(rng, sides)
    rolled = DiceRoll.amount("charge", (die,), sides)  # inches added to MVMT: the reach is the event's figure
    move_in = engine.fighters[model.id].move_in
    target = state.model(action.target)
    plan, need, reaches = charge_walk(model.pose, target.pose, contact_in(action.sighting), move_in + die,
                                      others_of(state, model.id, target.id))
    mark = (CHARGING if reaches else CHARGING_SHORT) + target.id
    state = state.with_model(model.but(forced_move=str(parse_plan(plan)), conditions=model.conditions + (mark,)))
    return state, [Event("condition", model.id, f"charges {target.id}: MVMT {move_in:g}\" + D{sides} {die} = "
                         f"{move_in + die:g}\" against the {need}\" to its base: "
                         + ("reaches it" if reaches else "falls short"), piece=target.id, clauses=("GANG-CHARGE",),
                         rolls=(rolled,),
                         figures={"charge": True, "target": target.id, "die": die, "reach_in": move_in + die,
                                  "need_in": need, "reaches": reaches})]


def charging_at(model: ModelState) -> tuple[str, bool] | None:
    """(target id, reaches) of a charge rolled and not yet walked, else None."""
    for c in model.conditions:
        for mark, reaches in ((CHARGING, True), (CHARGING_SHORT, False)):
            if c.startswith(mark):
                return c[len(mark):], reaches
    return None


def check_charge_walk(engine: GangEngine, model: ModelState, action, table: FigureTable | None):
    """GANG-CHARGE: the charge's forced walk checked against the table (no move when it now refuses)."""
    if model.forced_move is None or action.plan is None or str(action.plan) != model.forced_move:
        raise IllegalPlanError("GANG-CHARGE", f"{model.id} has no charge rolled")
    most = engine.fighters[model.id].move_in + engine.rules.close_combat.charge_die_sides
    try:
        move = checked_walk(model, action.plan, most, engine.rules.movement.path_spacing_in, table, "GANG-CHARGE",
                            figure="fighter", noun="charge", who=f"the {most:g}\" of {model.id}'s charge",
                            not_played="climbing and gaps")
    except IllegalPlanError:
        move = None
    return dataclasses.replace(action, move=move)


def charge_home(engine: GangEngine, state: State, model: ModelState, action, facts,
                rng: np.random.Generator) -> tuple[State, list[Event]]:
    """GANG-CHARGE: the charger stands where its walk ended; when it reached, it and the target
    are Engaged and it makes its free Fight (+1 attack for charging, GANG-CC), or its free Coup de
    Grace at a Seriously Injured target (GANG-COUP)."""
    target_id, reaches = charging_at(model)
    model = _tokens(model, drop=lambda c: c.startswith((CHARGING, CHARGING_SHORT))).but(forced_move=None)
    state = part_all(state.with_model(model), model.id)
    model = state.model(model.id)
    if action.move is None or facts is None:
        return state, [Event("move", model.id, "charges: the way in is blocked, it stays", clauses=("GANG-CHARGE",),
                             figures={"walked": True, "length_in": 0.0, "charge": True})]
    length = float(facts.progress_in)
    state = state.with_model(model.but(pose=facts.end_pose))
    events = [Event("move", model.id, f"charges {length:.1f}\" at {target_id}"
                    + ("" if reaches else ": short, no fight"), found=f"walked {length:.1f}\"",
                    producer=facts.producer, piece=target_id, clauses=("GANG-CHARGE",),
                    figures={"walked": True, "length_in": round(length, 1), "charge": True, "engaged": reaches})]
    target = state.model(target_id)
    if not reaches or not target.in_play:
        return state, events
    state = engage(state, model.id, target_id)
    if SERIOUSLY_INJURED in target.conditions:
        state, found = coup_de_grace(engine, state, model.id, target_id, rng, free="of its charge",
                                     clause="GANG-CHARGE")
    else:
        state, found = fight(engine, state, model.id, target_id, rng, charging=True)
    # the blows land when the walk has ended: seconds into the ride, as the film shows it
    arrived = float(np.asarray(facts.trajectory)[-1, 0]) if len(facts.trajectory) else 0.0
    return state, events + [dataclasses.replace(e, t_s=arrived) for e in found]


# -- GANG-CC ---------------------------------------------------------------------------------------

def check_fight(state: State, model: ModelState, action):
    """GANG-CC: a Fight at an enemy Engaged with the fighter and holding it (the first when it names none)."""
    foes = [f.id for f in holding_foes(state, model)]
    target = action.target or (foes[0] if foes else None)
    if target not in foes:
        raise IllegalPlanError("GANG-CC", f"{model.id} may fight only an enemy Engaged with it and not "
                               f"Seriously Injured: {', '.join(foes) or 'none'}")
    return dataclasses.replace(action, target=target)


def _alone_with(state: State, fighter_id: str, other_id: str, gang: str, friends: bool) -> list[str]:
    """Standing fighters of ``gang`` (``friends``) or not Engaged with ``other_id`` and with no one else."""
    return [m.id for m in state.models.values()
            if m.id != fighter_id and (m.gang == gang) == friends and standing(m) and engaged_ids(m) == [other_id]]


def strike(engine: GangEngine, state: State, attacker_id: str, target_id: str, rng: np.random.Generator,
           charging: bool = False, reaction: bool = False) -> tuple[State, list[Event]]:
    """GANG-CC "Close Combat" 2-7: one fighter's attack dice at one target: facing, weapons, the
    hit dice with their modifiers, then the hits resolved as a shot's (GANG-WOUND, GANG-INJURY; an
    Engaged fighter is not pinned)."""
    rules = engine.rules.close_combat
    attacker, target = state.model(attacker_id), state.model(target_id)
    profile = engine.fighters[attacker_id]
    melee = engine.rules.melee_weapons[profile.melee_weapon]
    gun = engine.rules.weapons[profile.weapon]
    sidearm = gun.sidearm and OUT_OF_AMMO not in attacker.conditions
    dual = sidearm and profile.melee_weapon != UNARMED
    count = profile.attacks + (rules.charge_attacks if charging else 0) + (rules.dual_wield_attacks if dual else 0)
    weapons = ([profile.weapon] if sidearm else []) + [profile.melee_weapon] * (count - (1 if sidearm else 0))
    heading = math.degrees(math.atan2(target.pose.y - attacker.pose.y, target.pose.x - attacker.pose.x))
    turned = not engine.system.in_front_arc(angle_between_deg(attacker.pose.facing_deg, heading))
    if turned:  # "2. Adjust Facing"
        attacker = attacker.but(pose=dataclasses.replace(attacker.pose, facing_deg=heading % 360.0))
        state = state.with_model(attacker)
    friends = _alone_with(state, attacker_id, target_id, attacker.gang, True)
    foes = [f for f in _alone_with(state, attacker_id, attacker_id, attacker.gang, False) if f != target_id]
    base = (rules.friend_engaged_to_hit * len(friends) + rules.foe_engaged_to_hit * len(foes)
            + (rules.facing_to_hit if turned else 0))
    dice_rolled, hits, events, rolls = [], [], [], ()
    for k, name in enumerate(weapons):
        with_sidearm = sidearm and k == 0
        modifier = base + (0 if with_sidearm else melee.accuracy)  # "Sidearm accuracy bonuses are not used"
        needed, improbable = engine.system.roll_needed(profile.weapon_skill, modifier)
        to_hit = engine.system.to_hit_rolls(rng, needed, improbable, profile.weapon_skill, "WS")
        dice, hit = [r.dice[0] for r in to_hit], to_hit[-1].succeeded
        rolls += to_hit
        rolled = {"weapon": name, "dice": dice, "needed": needed, "hit": hit}
        if with_sidearm:  # "Pistols used in combat roll Firepower dice same as always"
            firepower = roll_die(rng)
            rolled["firepower"] = firepower
            shots = (engine.rules.shooting.firepower_hits[firepower - 1] if gun.rapid_fire else 1) if hit else 0
            rolls += (DiceRoll.amount("Firepower", (firepower,), outcome=f"{shots} hit{'s' if shots != 1 else ''}"),)
            hits += [(gun.strength, gun.armour_piercing, gun.damage)] * shots
            state, checked = engine.ammo_check(state, attacker_id, firepower, rng)
            events += checked
        elif hit:
            hits.append((profile.strength + melee.strength_bonus, melee.armour_piercing, melee.damage))
        dice_rolled.append(rolled)
    said = ", ".join(f"{'+'.join(map(str, r['dice']))} ({r['weapon'].replace('_', ' ')}) needing {r['needed']}+"
                     for r in dice_rolled)
    why = ", ".join(w for w, on in (("charging", charging), ("a reaction attack", reaction),
                                    ("turning to face", turned),
                                    (f"{len(friends)} friend(s) Engaged with {target_id}", friends),
                                    (f"{len(foes)} other foe(s) on it", foes)) if on)
    events.insert(0, Event("shot", attacker_id, f"fights {target_id}{f' ({why})' if why else ''}: {len(weapons)} "
                           f"attack dice, rolled {said}: {len(hits)} hit{'s' if len(hits) != 1 else ''}",
                           piece=target_id, clauses=("GANG-CC",) + (("GANG-CHARGE",) if charging else ()), rolls=rolls,
                           figures={"close_combat": True, "verb": "charges" if charging else "fights",
                                    "target": target_id,
                                    "hit": bool(hits), "hits": len(hits), "attack_dice": dice_rolled,
                                    "to_hit_modifier": base, "charging": charging, "reaction": reaction,
                                    "turned": turned}))
    damage, rolls = 0, []
    for strength, armour_piercing, per_hit in hits:
        lost, rolled = engine.wound_rolls(state.model(target_id), strength, armour_piercing, per_hit, 1, rng)
        damage, rolls = damage + lost, rolls + rolled
    if hits:
        state, found = engine.take_damage(state, target_id, damage, rng, attacker_id, rolls)
        events += found
    return state, events


def fight(engine: GangEngine, state: State, attacker_id: str, target_id: str, rng: np.random.Generator,
          charging: bool = False) -> tuple[State, list[Event]]:
    """GANG-CC: the fighter's attacks (:func:`strike`), then "8. Reaction Attacks" of each enemy
    still Standing and Engaged with it (not a Broken one) while it stands, then "9. Consolidate/
    Coup De Grace": with every enemy Engaged with it down, a free Coup de Grace at a Seriously
    Injured one (the fighter otherwise stays where it is)."""
    state, events = strike(engine, state, attacker_id, target_id, rng, charging=charging)
    for foe_id in engaged_ids(state.model(attacker_id)):
        if not standing(state.model(attacker_id)):
            break
        foe = state.model(foe_id)
        if standing(foe) and BROKEN not in foe.conditions:
            state, found = strike(engine, state, foe_id, attacker_id, rng, reaction=True)
            events += found
    attacker = state.model(attacker_id)
    down = [state.model(i) for i in engaged_ids(attacker)]
    injured = [m.id for m in down if m.in_play and SERIOUSLY_INJURED in m.conditions]
    if standing(attacker) and injured and not any(holds(m) for m in down):
        state, found = coup_de_grace(engine, state, attacker_id, injured[0], rng, free="after the fight",
                                     clause="GANG-CC")
        events += found
    return state, events


# -- GANG-COUP -------------------------------------------------------------------------------------

def check_coup(state: State, model: ModelState, action):
    """GANG-COUP: a Seriously Injured enemy Engaged with the fighter (the first when it names none)."""
    down = [i for i in engaged_ids(model) if state.model(i).in_play and SERIOUSLY_INJURED in state.model(i).conditions]
    target = action.target or (down[0] if down else None)
    if target not in down:
        raise IllegalPlanError("GANG-COUP", f"{model.id} has no Seriously Injured enemy next to it "
                               f"(Engaged with it){': ' + target if target else ''}")
    return dataclasses.replace(action, target=target)


def coup_de_grace(engine: GangEngine, state: State, model_id: str, target_id: str, rng: np.random.Generator,
                  free: str = "", clause: str = "") -> tuple[State, list[Event]]:
    """GANG-COUP: the Seriously Injured ``target_id`` goes Out of Action at once (the mission
    scores it, its friends take Nerve tests). ``free``: when it is a free one, which ("of its
    charge", "after the fight"), with the ``clause`` that gives it."""
    target = state.model(target_id).but(status=OUT)
    state = state.with_model(target)
    words = f"free Coup de Grace {free}" if free else "Coup de Grace"
    events = [Event("condition", target_id, f"{model_id}'s {words}: Out of Action", piece=model_id,
                    clauses=("GANG-COUP",) + ((clause,) if clause else ()),
                    figures={"coup_de_grace": True, "by": model_id, "out_of_action": True, "free": bool(free)})]
    state, scored = engine.out_of_action(state, target)
    state, tested = nerve_tests(engine, state, target_id, "Out of Action", rng)
    return state, events + scored + tested


# -- GANG-RETREAT ----------------------------------------------------------------------------------

def init_test(engine: GangEngine, model: ModelState, rng: np.random.Generator) -> DiceRoll:
    """An INIT test: a D6 needing the fighter's INIT."""
    return DiceRoll.against("INIT test", (roll_die(rng),), engine.fighters[model.id].initiative)


def break_away(engine: GangEngine, state: State, model: ModelState, rng: np.random.Generator,
               clause: str) -> tuple[State, list[Event], bool]:
    """The INIT test of an Engaged fighter leaving (GANG-RETREAT; GANG-RUN's "IF Engaged, perform
    INIT to move away else no action if failed"); on a pass each enemy Standing and Engaged with it
    makes an INIT test and strikes a reaction attack on a pass (a Retreat's "Enemies that pass INIT
    check get reactionary attack"); still Standing, it leaves the engagement. (state, events, left)."""
    test = init_test(engine, model, rng)
    die, needed, passed = test.dice[0], test.needed, test.succeeded
    events = [Event("condition", model.id, f"INIT test to leave the fight: {die} needing {needed}+: "
                    + ("breaks away" if passed else "stays Engaged"), clauses=(clause,), rolls=(test,),
                    figures={"init": True, "die": die, "needed": needed, "left": passed})]
    if not passed:
        return state, events, False
    if clause == "GANG-RETREAT":
        for foe in [state.model(i) for i in engaged_ids(model)]:
            if not (standing(foe) and BROKEN not in foe.conditions and standing(state.model(model.id))):
                continue
            foe_test = init_test(engine, foe, rng)
            foe_die, foe_needed, strikes = foe_test.dice[0], foe_test.needed, foe_test.succeeded
            events.append(Event("condition", foe.id, f"INIT test {foe_die} needing {foe_needed}+: "
                                + ("a reaction attack" if strikes else "no reaction attack"), piece=model.id,
                                clauses=(clause,), figures={"init": True, "die": foe_die, "needed": foe_needed},
                                rolls=(foe_test,)))
            if strikes:
                state, found = strike(engine, state, foe.id, model.id, rng, reaction=True)
                events += found
    left = standing(state.model(model.id))
    if left:
        state = part_all(state, model.id)
    return state, events, left


def roll_retreat(engine: GangEngine, state: State, model: ModelState,
                 rng: np.random.Generator) -> tuple[State, list[Event]]:
    """GANG-RETREAT: the INIT test (:func:`break_away`); on leaving, the D6" rolled, walked as the
    forced move the rules then make (the way a Run for Cover takes: away from the enemies)."""
    state, events, left = break_away(engine, state, model, rng, "GANG-RETREAT")
    if not left:
        return state, events
    dice = [roll_die(rng) for _ in range(engine.rules.close_combat.retreat_dice)]
    model = state.model(model.id)
    state = state.with_model(model.but(forced_move=f"walk: straight {sum(dice)}",
                                       conditions=model.conditions + (RETREATING,)))
    events.append(Event("condition", model.id, f"retreats {'+'.join(map(str, dice))} = {sum(dice)}\"",
                        clauses=("GANG-RETREAT",), figures={"retreat_dice": dice, "retreat_in": sum(dice)},
                        rolls=(DiceRoll.amount("inches to retreat", dice),)))
    return state, events
