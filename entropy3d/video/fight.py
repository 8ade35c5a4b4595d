"""The fight on screen: an attack's sight line (or reach) with the share of the target the
shooter saw, a camera framing both riders, and a takedown's moment with the wreck it leaves.

Everything comes from the replay: the attack record (:func:`entropy3d.game.loop.action_record`
keeps where both stood and, for a shot, the LOS engine's visible share) and its events (the
``wreck`` event says where the opponent placed the wreck, EC-WOUND). Pure numpy and Pillow;
the frame is drawn by :class:`~entropy3d.render.renderer.TableRenderer`. Lengths are inches,
pixels are the frame's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Collection, Sequence

import numpy as np
from PIL import Image, ImageDraw

from entropy3d.fonts import covered_by, font
from entropy3d.geometry import Pose, pose_at
from entropy3d.look.labels import text_unit
from entropy3d.render.cameras import blocked
from entropy3d.scene.miniature import BASE_THICKNESS_IN, SADDLE_FRACTION
from entropy3d.systems.base import GameSystem
from entropy3d.systems.entropy_city.state import pose_from_json
from entropy3d.video.director import project, shot_fails

#: the sight line's colour when the shot is clear (half or more visible) and when in cover: apart
#: from every gang colour and the ride's yellow plan
CLEAR_COLOUR, COVER_COLOUR = "#5fd9ff", "#ffb020"
#: a melee attack's line between the two riders
MELEE_COLOUR = "#ff5a4a"
#: the takedown's banner colour
TAKEDOWN_RGB = (255, 90, 74)
#: the frame's band (fractions of its height) a label may sit in: under the heading, over the HUD panels
LABEL_BAND = (0.24, 0.62)
#: the fight camera's field of view (degrees)
FIGHT_FOV_DEG = 45.0
#: the camera looks this far (degrees) under the riders, so they stand above the HUD's panels
LOOK_BELOW_DEG = 7.0
#: where both riders must show in the frame (y from -1 at the bottom to 1 at the top): over the
#: HUD's bottom panels, under the heading and the takedown banner
CLEAR_BAND_Y = (-0.38, 0.62)
#: the share of the hold the sight line is shown alone before a takedown's wreck and banner
TAKEDOWN_AFTER = 0.4


@dataclass(frozen=True)
class FightView:
    """One attack as the video shows it.

    attacker, target: model ids. weapon: what it attacked with; gun: it was a shot. shooter, aim:
    (3,) the attacker's eye and the target's centre, inches. visible: the share of the target the
    shooter saw (a shot), else None. hit: any hit. wreck: where the target's wreck was placed when
    the attack took it out (EC-WOUND), else None; taken_out: it was taken out.
    """

    attacker: str
    target: str
    weapon: str
    gun: bool
    shooter: np.ndarray
    aim: np.ndarray
    visible: float | None
    hit: bool
    taken_out: bool
    wreck: Pose | None
    #: a game system's own words for the shot's cover ("in partial cover, -1 to hit"; "" when its
    #: events give none: an Entropy City shot) and for a takedown's banner
    cover_words: str = ""
    banner: str = "TAKEN OUT"
    #: the cover the system's rules found ("none", "partial", "full"), or "" (the share decides)
    cover: str = ""
    #: the attacker's own wreck when it busted in the attack and was taken out (EC-DICE-4, EC-WOUND),
    #: placed with the target's at the takedown; None when it rides on
    attacker_wreck: Pose | None = None
    #: a landed kick (EC-MEL-KICK): the bike kicked, where it stood and where it slid to; None
    kicked: tuple[str, Pose, Pose] | None = None
    #: the target, standing before the attack, lies down after it, still in play (a fighter
    #: Seriously Injured or pinned: GameSystem.lies_down): it falls where it stands at the takedown
    downed: bool = False


def eye_and_middle(ruleset, on_foot: bool) -> tuple[float, float]:
    """Heights above the surface (inches) of a miniature's eye, where a sight line starts, and of
    its middle, where one aims: a rider on its bike's saddle, or a figure standing on its base
    (its eye just under the top of its head, as the LOS engine puts it)."""
    if on_foot:
        height = float(ruleset.figure_height_in)
        return BASE_THICKNESS_IN + height - 0.08, BASE_THICKNESS_IN + 0.5 * height
    bike, rider = float(ruleset.bike_height_in), float(ruleset.rider_height_in)
    return (BASE_THICKNESS_IN + SADDLE_FRACTION * bike + rider - 0.08,
            BASE_THICKNESS_IN + 0.5 * (bike + SADDLE_FRACTION * bike + rider))


def fight_view(attack, ruleset, on_foot: Collection[str] = (), system=None) -> FightView | None:
    """The :class:`FightView` of an action record's ``attack`` (a
    :class:`~entropy3d.game.records.AttackRecord`; None when there is none, or it
    is a game of chicken, or the replay predates the poses being recorded). ``on_foot``: ids of
    the models on foot (their eye and middle are a standing figure's, not a rider's). ``system``:
    the game system playing (:class:`~entropy3d.systems.base.GameSystem`), for its words."""
    if attack is None or attack.from_pose is None or attack.target_pose is None or attack.kind == "chicken":
        return None
    events = list(attack.events)
    shooter, target = attack.from_pose, attack.target_pose
    eye = eye_and_middle(ruleset, attack.attacker in on_foot)[0]
    middle = eye_and_middle(ruleset, attack.target in on_foot)[1]
    wreck = next((e for e in events if e.kind == "wreck" and e.model == attack.target and "wreck" in e.figures),
                 None)
    shot = next((e for e in events if "cover" in e.figures and "to_hit_modifier" in e.figures), None)
    cover = "" if shot is None else str(shot.figures["cover"])
    words = "" if shot is None else ((system or GameSystem).cover_words(shot.figures)
                                     + f", {int(shot.figures['to_hit_modifier']):+d} "
                                     + (system.modifier_words if system is not None else "to hit"))
    out_of_action = any(bool(e.figures.get("out_of_action")) for e in events)
    own = next((e for e in events if e.kind == "wreck" and e.model == attack.attacker and "wreck" in e.figures),
               None)
    kick = next((e for e in events if e.kind == "kick" and "to_pose" in e.figures), None)
    kicked = None if kick is None else (kick.model, pose_from_json(kick.figures["from_pose"]),
                                        pose_from_json(kick.figures["to_pose"]))
    return FightView(
        attack.attacker, attack.target, str(attack.kind), attack.visible is not None,
        np.array([shooter.x, shooter.y, shooter.z + eye]), np.array([target.x, target.y, target.z + middle]),
        attack.visible,
        any(bool(e.figures.get("hit")) for e in events),
        any(bool(e.figures.get("taken_out")) for e in events) or wreck is not None or out_of_action,
        None if wreck is None else Pose(float(wreck.figures["x"]), float(wreck.figures["y"]),
                                        float(wreck.figures["facing_deg"]), float(wreck.figures["z"])),
        words, (system.out_banner if system is not None else "OUT OF ACTION") if out_of_action else "TAKEN OUT",
        cover, None if own is None else Pose(float(own.figures["x"]), float(own.figures["y"]),
                                             float(own.figures["facing_deg"]), float(own.figures["z"])),
        kicked)


def overwatch_view(activation, action, ruleset, on_foot: Collection[str] = ()) -> FightView | None:
    """The :class:`FightView` of the overwatch shot fired at the model riding ``action`` of
    ``activation`` (EC-GUN-STOPPED: a stopped rider on overwatch shoots the first enemy that comes
    into range and sight), from where the watcher waits to where the rider was when it came into
    sight; None when no overwatch shot was fired at it. The replay keeps no share seen for it:
    its label names the overwatch instead (:func:`label_text`)."""
    events = list(action.events)
    trigger = next((e for e in events if e.kind == "attack" and e.figures.get("overwatch")), None)
    if trigger is None or trigger.model not in activation.state_before.models:
        return None
    after = events[events.index(trigger) + 1:]
    shot = next((e for e in after if e.kind == "attack" and e.model == trigger.model and "weapon" in e.figures), None)
    if shot is None:
        return None
    watcher, mover = activation.state_before.model(trigger.model), activation.model_id
    ridden = np.asarray(action.trajectory, float)
    if len(ridden):
        x, y, z, _ = pose_at(ridden, trigger.t_s)
    else:  # it did not move: where the action left it
        stood = (action.model_after or activation.state_before.model(mover)).pose
        x, y, z = stood.x, stood.y, stood.z
    wreck = next((e for e in after if e.kind == "wreck" and e.model == mover and "wreck" in e.figures), None)
    return FightView(
        watcher.id, mover, str(shot.figures["weapon"]), True,
        np.array([watcher.pose.x, watcher.pose.y, watcher.pose.z + eye_and_middle(ruleset, watcher.id in on_foot)[0]]),
        np.array([x, y, z + eye_and_middle(ruleset, mover in on_foot)[1]]), None, bool(shot.figures.get("hit")),
        any(e.model == mover and bool(e.figures.get("taken_out")) for e in after) or wreck is not None,
        None if wreck is None else Pose(float(wreck.figures["x"]), float(wreck.figures["y"]),
                                        float(wreck.figures["facing_deg"]), float(wreck.figures["z"])),
        cover_words="on overwatch")


def line_colour(view: FightView) -> str:
    """Melee red; a shot clear of cover blue, in cover amber (by the system's own cover when it
    names one, else by the share seen; an overwatch shot, whose share the replay does not keep,
    blue)."""
    if not view.gun:
        return MELEE_COLOUR
    if view.cover:
        return CLEAR_COLOUR if view.cover == "none" else COVER_COLOUR
    if view.visible is None:
        return CLEAR_COLOUR
    return CLEAR_COLOUR if view.visible >= 0.5 else COVER_COLOUR


def label_text(view: FightView) -> str:
    """"pistol: 63% visible - in cover" for a shot ("63% visible - in partial cover, -1 to hit" in a
    system that names its cover: its headline and small print name the weapon, and every word on
    the line is read before the video moves on), "chain: in reach" for a melee attack. A weapon
    is named in words ("sniper rifle"), not by its rules-data id."""
    weapon = view.weapon.replace("_", " ")
    if view.gun:
        if view.visible is None:  # an overwatch shot (:func:`overwatch_view`)
            return f"{weapon}: {view.cover_words}"
        share = view.visible
        if view.cover_words:
            return f"{share:.0%} visible - {view.cover_words}"
        return f"{weapon}: {share:.0%} visible" + (" - in cover" if share < 1.0 - 1e-6 else "")
    return f"{weapon}: in reach"


#: how much of the frame may show the void beyond the table, as shares of the director's limit
#: (:func:`~entropy3d.video.director.shot_fails`), in the order tried: a fight with a figure at
#: the table's edge (1.5" in) passed no shot at the usual share, and the ride's own camera then
#: left the target out of frame; a little more void beats a fight half off the screen
VOID_HEADROOMS = (0.75, 2.5)
#: the fight camera's heights, as shares of its reach, in the order tried: riders from the usual
#: heights; figures on foot, smaller and upright, from lower first (seen from high up they shrink)
RIDER_LIFTS, FIGURE_LIFTS = (0.8, 1.15, 1.6, 2.4, 3.5), (0.45, 0.6, 0.8, 1.15, 1.6, 2.4, 3.5)


def fight_camera(view: FightView, table_size: tuple[float, float], occluders=None, keep=(),
                 lifts: tuple[float, ...] = RIDER_LIFTS, feet=()) -> tuple[np.ndarray, np.ndarray, float] | None:
    """(eye, look, fov) framing both riders and the line between them, raised so the line reads;
    None when no candidate passes the framing rule (the ride's own camera films the hold then).

    Candidates go round the line's middle from its side over the table's middle, at the heights
    of ``lifts`` (shares of the reach, in the order tried) and four distances. A candidate must
    keep both riders in frame with little void beyond the table (:func:`shot_fails`) and between
    the HUD's panels (:data:`CLEAR_BAND_Y`), with ``feet`` (more points: where figures stand, so
    a figure seen from low down is over the panels whole), and ``keep``
    (more points, inches: where the attacker ended its move) in frame too; of those, the
    first that sees both riders and the whole line past the buildings (:func:`blocked`) wins,
    else the one that sees most of it.
    """
    a, b = view.shooter, view.aim
    look = 0.5 * (a + b)
    along = b[:2] - a[:2]
    span = float(np.hypot(*along))
    side = np.array([-along[1], along[0]]) / max(span, 1e-9) if span > 1e-9 else np.array([0.0, -1.0])
    if np.dot(0.5 * np.asarray(table_size, float) - look[:2], side) < 0:
        side = -side  # first from the side over the table's middle, not off its edge
    line = sight_polyline(view, 7)
    seen = np.vstack([line, *[np.asarray(point, float)[None, :] for point in keep]])
    for headroom in VOID_HEADROOMS:
        best, best_score = None, math.inf
        for scale in (1.0, 1.35, 0.75, 0.6):
            reach = max(9.0, 0.95 * span) * scale
            for lift in lifts:
                for turn_deg in (0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0, 180.0, 150.0, -150.0, 120.0, -120.0):
                    turn = math.radians(turn_deg)
                    offset = np.array([side[0] * math.cos(turn) - side[1] * math.sin(turn),
                                       side[0] * math.sin(turn) + side[1] * math.cos(turn)]) * reach
                    eye = np.array([look[0] + offset[0], look[1] + offset[1], look[2] + lift * reach])
                    aim = look - [0.0, 0.0, math.tan(math.radians(LOOK_BELOW_DEG)) * reach * (1.0 + lift * lift)]
                    heights = project(eye, aim, FIGHT_FOV_DEG, np.array([a, b, *feet]))[:, 1]
                    if (not np.all((heights > CLEAR_BAND_Y[0]) & (heights < CLEAR_BAND_Y[1]))
                            or any(shot_fails(eye, aim, FIGHT_FOV_DEG, point, table_size, occluders, headroom)
                                   for point in (a, b, *keep))):
                        continue
                    hidden = blocked(occluders, np.repeat(eye[None, :], len(seen), axis=0), seen)
                    score = 10.0 * (hidden[0] + hidden[len(line) - 1]) + hidden.sum()
                    if score == 0:
                        return eye, aim, FIGHT_FOV_DEG
                    if score < best_score:
                        best, best_score = (eye, aim, FIGHT_FOV_DEG), score
        if best is not None:
            return best
    return None


def fight_of(action, ruleset, table_size: tuple[float, float], occluders=None, on_foot: Collection[str] = (),
             system=None, activation=None):
    """(:class:`FightView`, its :func:`fight_camera` keeping in frame where the attacker ended its
    ride and the wreck of a takedown) of a replay's action record; (None, None) when it made no
    attack to show. ``on_foot``: ids of the models on foot. ``system``: the game system, for its
    words. ``activation``: the action's activation record, to show an overwatch shot fired at
    the rider when it made no attack of its own (:func:`overwatch_view`)."""
    view = fight_view(action.attack, ruleset, on_foot, system)
    if view is None and activation is not None:  # no attack of its own: a shot at it from overwatch
        view = overwatch_view(activation, action, ruleset, on_foot)
    if view is None:
        return None, None
    if system is not None and activation is not None and not view.taken_out:
        target = (activation.state_before.model(view.target), activation.state_after.model(view.target))
        view = replace(view, downed=system.lies_down(target[1]) and not system.lies_down(target[0]))
    after, ridden = action.model_after, np.asarray(action.trajectory, float)
    held = (() if after is None and len(ridden) == 0 else  # a shot from where it stood: the line's start
            (ridden[-1, 1:4],) if after is None else (np.array([after.pose.x, after.pose.y, after.pose.z]),))
    wreck = () if view.wreck is None else (np.array([view.wreck.x, view.wreck.y, view.wreck.z + 0.5]),)
    if view.kicked is not None:  # where the kicked bike slides to stays in frame too
        to = view.kicked[2]
        wreck += (np.array([to.x, to.y, to.z + 0.5]),)
    if {view.attacker, view.target} <= set(on_foot):  # figures: from low down, whole over the panels
        eye, middle = eye_and_middle(ruleset, True)
        feet = (view.shooter - [0.0, 0.0, eye], view.aim - [0.0, 0.0, middle])
        return view, fight_camera(view, table_size, occluders, (*held, *wreck), FIGURE_LIFTS, feet)
    return view, fight_camera(view, table_size, occluders, (*held, *wreck))


def sight_polyline(view: FightView, samples: int = 24) -> np.ndarray:
    """(N, 3) points of the line from the attacker's eye to the target's centre."""
    t = np.linspace(0.0, 1.0, samples)[:, None]
    return view.shooter[None, :] * (1.0 - t) + view.aim[None, :] * t


#: frames a taken-out figure on foot takes to fall over (0.4 s at 30 fps)
FALL_FRAMES = 12
#: frames a kicked bike takes to slide where the kick sent it (0.6 s at 30 fps)
KICK_FRAMES = 18


def kicked_pose(start: Pose, end: Pose, share: float) -> Pose:
    """The kicked bike ``share`` (0-1) of the way through its slide: fast at first, slowing as it
    scrapes to a stop (ease-out), turning as it goes."""
    eased = 1.0 - (1.0 - min(max(share, 0.0), 1.0)) ** 2
    turn = (end.facing_deg - start.facing_deg + 180.0) % 360.0 - 180.0
    return Pose(start.x + (end.x - start.x) * eased, start.y + (end.y - start.y) * eased,
                (start.facing_deg + turn * eased) % 360.0, start.z + (end.z - start.z) * eased)


def stage_fight(renderer, view: FightView, i: int, start: int, takedown: int) -> bool:
    """Set the table for frame ``i`` of an attack's hold (from ``start``): the sight line (or
    reach) drawn, then from ``takedown`` the target's wreck where it was placed (EC-WOUND), or
    the target lying where it stood when it leaves none, or a kicked bike sliding where the kick
    sent it (EC-MEL-KICK); True when the picture changed."""
    changed = False
    if i == start:
        renderer.clear_overlays()  # the ride's plan and trail give way to the attack's line
        renderer.add_polyline(sight_polyline(view), colour=line_colour(view), width=0.07, name="sight")
        changed = True
    # the takedown may fall on the hold's first frame (a short hold): the line and the wreck both
    if i == takedown and (view.wreck is not None or view.attacker_wreck is not None):
        if view.wreck is not None:
            renderer.place_wreck(view.target, view.wreck)
        if view.attacker_wreck is not None:  # it busted in its own attack and is out: its wreck too
            renderer.place_wreck(view.attacker, view.attacker_wreck)
        changed = True
    if view.kicked is not None and view.hit and 0 <= takedown <= i < takedown + KICK_FRAMES:
        # the kick lands at the takedown's moment: the bike slides where it went, and the reach
        # line, which ended where it stood, goes with the contact
        if i == takedown:
            renderer.clear_overlays()
        model, start, end = view.kicked
        renderer.place_model(model, kicked_pose(start, end, (i - takedown + 1) / KICK_FRAMES))
        changed = True
    if view.taken_out and view.wreck is None and 0 <= takedown <= i < takedown + FALL_FRAMES:
        # no wreck (a figure on foot): it falls where it stood, faster as it goes
        renderer.lay_down(view.target, ((i - takedown + 1) / FALL_FRAMES) ** 2)
        changed = True
    if view.downed and 0 <= takedown <= i < takedown + FALL_FRAMES:
        # down but in play (GANG-INJURY's Seriously Injured, GANG-PIN): it falls and lies there
        renderer.lay_down(view.target, ((i - takedown + 1) / FALL_FRAMES) ** 2, out=False)
        changed = True
    return changed


def draw_fight(frame: np.ndarray, view: FightView, pixels_of, takedown: bool, avoid=None,
               keep_clear: Sequence[tuple[float, float, float, float]] = ()) -> np.ndarray:
    """``frame`` with the attack's label beside the line's middle (``pixels_of``: table points (N,
    3) to pixel (column, row), the renderer's ``project``) and, for a takedown, its banner.
    avoid: (left, top, width, height) of a box the label and the banner must not cover (a jump's
    inset). keep_clear: boxes (left, top, right, bottom) the label must not cover, the name plates
    drawn after it: over a short line the label's place above its middle is the target's plate
    ("snip Scale e: 100% visible" in the default demo's short cut), so it goes under the line."""
    height, width = frame.shape[:2]
    unit = text_unit(width, height)
    image = Image.fromarray(np.asarray(frame, dtype=np.uint8))
    draw = ImageDraw.Draw(image, "RGBA")
    face = font(int(24 * unit), True)
    text = label_text(view)
    middle = pixels_of(np.array([0.5 * (view.shooter + view.aim)]))[0]
    label = None  # the label's box, which the wreck's tag keeps clear of
    if np.all(np.isfinite(middle)):
        text_w = draw.textlength(text, font=face)
        pad = int(10 * unit)
        x = float(np.clip(middle[0] - text_w / 2, pad, width - text_w - 3 * pad))
        y = float(np.clip(middle[1] - int(60 * unit), LABEL_BAND[0] * height, LABEL_BAND[1] * height))
        if avoid is not None and x + text_w + pad > avoid[0] and y - pad < avoid[1] + avoid[3]:
            x = min(x, avoid[0] - text_w - 2 * pad)  # beside the inset, not under it
        def box_at(top: float) -> tuple[float, float, float, float]:
            return (x - pad, top - pad * 0.6, x + text_w + pad, top + int(30 * unit))

        def clear(top: float) -> bool:
            return covered_by(box_at(top), keep_clear) is None

        if not clear(y):  # under the line's middle, else above the plates in the way
            lowest = height - int(30 * unit) - pad
            tries = [min(middle[1] + int(40 * unit), lowest),
                     min(b[1] for b in keep_clear) - int(30 * unit) - pad]
            y = next((float(top) for top in tries if pad <= top <= lowest and clear(top)), y)
        colour = tuple(int(line_colour(view)[k:k + 2], 16) for k in (1, 3, 5))
        label = box_at(y)
        draw.rounded_rectangle(label, radius=pad, fill=(12, 14, 18, 200), outline=colour + (255,),
                               width=max(1, int(2 * unit)))
        draw.text((x, y), text, font=face, fill=colour)
    if view.gun:
        ends = pixels_of(np.array([view.shooter, view.aim]))
        _mark_firing_point(draw, ends[0], line_colour(view), unit, label, away_left=bool(ends[1][0] > ends[0][0]))
    if takedown and view.wreck is not None:
        spot = pixels_of(np.array([[view.wreck.x, view.wreck.y, view.wreck.z + 0.6]]))[0]
        if np.all(np.isfinite(spot)):
            small = font(int(18 * unit), True)
            words = "wreck: scenery now"
            r = int(26 * unit)
            draw.ellipse((spot[0] - r, spot[1] - r, spot[0] + r, spot[1] + r), outline=TAKEDOWN_RGB + (255,),
                         width=max(2, int(3 * unit)))
            words_w, words_h = draw.textlength(words, font=small), int(22 * unit)
            places = [(spot[0] + r + 6, spot[1] - r), (spot[0] - r - 6 - words_w, spot[1] - r),
                      (spot[0] - words_w / 2, spot[1] + r + 4), (spot[0] - words_w / 2, spot[1] - r - words_h - 4)]
            for tx, ty in places:  # the first place clear of the label and inside the frame
                inside = 0 <= tx and tx + words_w <= width and 0 <= ty and ty + words_h <= height
                clear = label is None or (tx + words_w < label[0] or tx > label[2] or ty + words_h < label[1]
                                          or ty > label[3])
                if inside and clear:
                    break
            draw.text((tx, ty), words, font=small, fill=TAKEDOWN_RGB, stroke_width=2, stroke_fill=(12, 14, 18))
    if takedown:
        big = font(int(58 * unit), True)
        words = view.banner
        text_w = draw.textlength(words, font=big)
        y = int(0.095 * height)
        band = (y - int(8 * unit), y + int(70 * unit))
        x = (width - text_w) / 2
        if avoid is not None and avoid[1] < band[1] and avoid[1] + avoid[3] > band[0]:
            x = min(x, max(int(10 * unit), (avoid[0] - text_w) / 2))  # centred left of the inset
        draw.rectangle((0, band[0], width, band[1]), fill=(12, 14, 18, 150))
        draw.text((x, y), words, font=big, fill=TAKEDOWN_RGB)
    return np.asarray(image)


def _mark_firing_point(draw: ImageDraw.ImageDraw, spot: np.ndarray, colour: str, unit: float, label,
                       away_left: bool = True) -> None:
    """A ring where the shooter stood when it fired, tagged "fired here": the attack may come from
    any point of the move (EC-ACT-ATTACK), so by the time the picture holds the shooter has often
    ridden on and the line would start from an empty road. The tag goes beside the ring on the side
    away from the target (``away_left``: the target lies to the right of it in the frame)."""
    if not np.all(np.isfinite(spot)):
        return
    rgb = tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))
    r = int(9 * unit)
    draw.ellipse((spot[0] - r, spot[1] - r, spot[0] + r, spot[1] + r), outline=rgb + (255,),
                 width=max(2, int(3 * unit)))
    small = font(int(17 * unit), True)
    words = "fired here"
    words_w, words_h = draw.textlength(words, font=small), int(20 * unit)
    width, height = draw.im.size
    # beside the ring away from the line first: under it the tag would cover the shooter's miniature
    left, right = (spot[0] - r - 5 - words_w, spot[1] - words_h / 2), (spot[0] + r + 5, spot[1] - words_h / 2)
    for tx, ty in ((left, right) if away_left else (right, left)) + (
            (spot[0] - words_w / 2, spot[1] - r - words_h - 3), (spot[0] - words_w / 2, spot[1] + r + 3)):
        inside = 0 <= tx and tx + words_w <= width and 0 <= ty and ty + words_h <= height
        clear = label is None or (tx + words_w < label[0] or tx > label[2] or ty + words_h < label[1] or ty > label[3])
        if inside and clear:
            draw.text((tx, ty), words, font=small, fill=rgb, stroke_width=2, stroke_fill=(12, 14, 18))
            return
