"""The short cut: the film a stranger watches (``entropy3d demo``'s default, ``--cut short``).

The full film (:class:`~entropy3d.video.movie.ReplayFilm`, ``--cut full``) shows every action of
the game with its dice and clauses, held until every sentence can be read: 4 min 49 s for the
default 3-turn demo, half of it still pictures. The short cut keeps, within :data:`SHORT_S`:

- an establishing shot of the table (the camera orbits it under the title);
- the activations with the most drama, by the sweep's own moments and weights
  (:func:`entropy3d.sweep.summary.activation_moments`: takedowns, jumps, crashes, smashes, hits,
  busts, air time), then, while the film is shorter than ``SHORT_S[0]``, the longest rides left,
  all in the order they were played, each action one plain line (:func:`caption`) that appears
  when its moment is on screen, never before;
- the end card.

A held shot is never a still picture: the camera keeps drifting round what it looks at
(:data:`HOLD_DRIFT_DEG_S`), so a film has no freeze but its cards' text. It decides nothing:
everything it shows was recorded in the replay.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, Sequence

import numpy as np

from entropy3d.core.event import Event
from entropy3d.game.records import action_events
from entropy3d.game.replay import Replay, scene_file
from entropy3d.look import labels
from entropy3d.sweep.summary import AIR_SECOND, activation_moments
from entropy3d.systems import words
from entropy3d.video import hud, pacing
from entropy3d.video.fall import falling_frames
from entropy3d.video.jumpshot import ride_clock
from entropy3d.video.movie import ReplayFilm, Segment, VideoOptions, filmed_flight, plan_segments, replay_names
from entropy3d.video.npc_tags import PLATE_HEIGHT_IN
from entropy3d.video.pacing import decisive, system_pace

#: the cuts a film can be made in
CUTS = ("short", "full")
#: the short cut's length (seconds, title and end card included): at least, at most; and the
#: length it fills to with plain rides when the dramatic ones come to less
SHORT_S = (60.0, 90.0)
SHORT_AIM_S = 72.0
#: seconds of the establishing shot under the title
ESTABLISHING_S = 4.0
#: a caption's reading speed (characters a second) and the least time it stays up (seconds)
CAPTION_CPS = 15.0
MIN_CAPTION_S = 1.6
#: seconds a plain ride is held after it ends, and a key moment (crash, jump, hit...)
PLAIN_HOLD_S = 0.3
KEY_HOLD_S = 1.0
#: degrees a second the camera drifts round what it looks at while a shot is held
HOLD_DRIFT_DEG_S = 4.0
#: the short cut's picture bit rate cap at 1280x720 (kilobits a second): 90 s of it and of the
#: sound track (:data:`entropy3d.video.sound.AAC_KBPS`, 64) is 9.5 MB, under Discord's 10 MB;
#: another size scales it by the square root of its pixels (1080p: 1,170 kbit/s, 13.9 MB)
SHORT_KBPS_720P = 780
#: which event an action's caption tells, most telling first
_TOLD = ("wreck", "cliff_edge", "left_table", "crash", "bust", "item", "jump", "landing", "destructible", "attack",
         "move")


@dataclass(frozen=True)
class Caption:
    """The one line an action is told in, the ride time (seconds) it may appear at, whether it
    tells of harm (drawn red), and whether it tells an attack, which the film shows once the
    ride has ended (from the move's best point, EC-ACT-ATTACK), so it appears only then."""

    text: str
    t_s: float
    bad: bool = False
    after_ride: bool = False


def _rank(event: Event) -> float:
    if event.kind == "shot":  # a system's own shot (the gang fight): "Lyra shoots Skab: 2 hits"
        return _TOLD.index("crash") - 0.5
    if event.kind == "attack" and any(event.figures.get(k) for k in words.HARM):
        return _TOLD.index("crash")  # a hit tells as much as a crash
    if event.kind == "item" and event.figures.get("did") == "held":
        return len(_TOLD)  # the count of a holder's actions (EC-MISSION-GRAB): the ride tells it
    if event.kind == "score" and event.figures.get("delivered") and "npc" in event.figures:
        return _TOLD.index("item")  # an NPC delivered to its corner (EC-MISSION-RESCUE): the ride's news
    if event.kind == "jump" and not event.figures.get("air_time") and event.piece is None:
        return len(_TOLD)  # a bump off a ramp with no air time: the ride tells it
    ranked_as = words.rulebook_of(event).film_ranks_as(event)  # a rulebook's event telling as another kind
    if ranked_as is not None:
        return _TOLD.index(ranked_as)
    if event.kind == "ruling" and event.figures.get("wounds_lost"):
        return _TOLD.index("crash")  # what a judging rulebook's rulings cost (the cards' damage): a harm
    if event.kind not in _TOLD and decisive(event):
        return _TOLD.index("crash")  # a rulebook's own result (a tag, a fighter fleeing): its own words tell it
    return _TOLD.index(event.kind) if event.kind in _TOLD else len(_TOLD)


def _item_caption(event: Event, who: str, names: words.Names) -> Caption:
    """A package or an NPC picked up, missed, passed or fumbled, or dropped by a holder going down
    (Grab n Go: EC-ACT-PICKUP, EC-ACT-PASS, EC-MISSION-GRAB), an NPC freed from the jail or not
    (EC-MISSION-JAIL), in words without dice."""
    figures = event.figures
    item, did = names.thing(figures.get("item")), figures.get("did")
    to = names.rider(figures.get("to", ""))
    said = {"picked up": (f"{who} grabs {item}", False), "missed": (f"{who} reaches for {item} and misses", False),
            "passed": (f"{who} passes {item} to {to}", False),
            "fumbled": (f"{who} fumbles the pass to {to}: {item} drops", True),
            "busted": (f"{who} loses control passing {item} to {to}: "
                       f"{names.rider(figures.get('crashes', ''))} crashes", True),
            "dropped": (f"{who} drops {item}", True),
            "freed": (f"{who} stops by the jail: {item} gets out and climbs on", False),  # EC-MISSION-JAIL
            "stays locked": (f"{who} stops by the jail: {item} stays locked in", False)}.get(did)
    if said is None:
        return Caption(words.sentence(event, names), event.t_s)
    return Caption(said[0], event.t_s, said[1])


def caption(events: Sequence[Event], names: words.Names) -> Caption | None:
    """The action in one line a stranger follows, no dice and no clauses ("Ash hits the lamp post
    head-on and crashes"): its most telling event (:data:`_TOLD`), at that event's time; None
    for an action with nothing to tell (a skip)."""
    told = sorted((e for e in events if _rank(e) < len(_TOLD)), key=_rank)
    if not told:
        return None
    event = told[0]
    said = _told(event, events, names)
    # an event with no time of its own after one timed later waits for that one (a wreck after
    # the crash that made it): as pacing.shown_by does
    at = max(e.t_s for e in events[:events.index(event) + 1])
    # an attack's words wait for the ride's end, where the film stages it; a wreck too, unless
    # the model's own crash, bust or fall made it
    fell = any(e.kind in ("crash", "bust", "cliff_edge") and e.model == event.model for e in events)
    attack = (any(e.kind in ("attack", "shot") for e in events) and event.kind in ("attack", "shot", "wreck")
              and not fell)
    return Caption(said.text, at, said.bad, attack)


def _told(event: Event, events: Sequence[Event], names: words.Names) -> Caption:
    who, figures = names.rider_of_gang(event.model), event.figures
    kind = event.kind
    # a VIP out (VIP Takedown): the takedown in the rulebook's words, or who takes the part over
    vip = next((e for e in events if e.kind == "score" and "vip" in e.figures
                and event.model in (e.model, e.figures.get("from"))), None)
    then = f": {names.rider(vip.model)} takes over as VIP" if vip is not None and vip.model != event.model else ""
    # a carrier out of the game drops its package (Package Run): the drop's VP said with the fall
    dropped = next((e for e in events if e.kind == "score" and e.model == event.model and "package" in e.figures
                    and "delivered" in e.figures and not e.figures["delivered"]), None)
    if dropped is not None and event.kind != "left_table":
        then += "; " + words.sentence(dropped, names)
    # a holder out of the game drops its package where it went down (Grab n Go)
    fell = next((e for e in events if e.kind == "item" and e.model == event.model
                 and e.figures.get("did") == "dropped"), None)
    if fell is not None and kind != "item":
        then += f"; {names.thing(fell.figures['item'])} drops"
    if kind == "wreck" or (kind == "attack" and figures.get("taken_out")):
        if vip is not None and vip.figures["vip"] == "taken down":
            return Caption(words.sentence(vip, names), event.t_s, True)
        hitter = next((e for e in events if e.model != event.model and words.rolled_an_attack(e)), None)
        by = f" by {names.rider(hitter.model)}" if hitter is not None else ""
        return Caption(f"{who} is taken out{by}{then}", event.t_s, True)
    if kind == "cliff_edge":
        return Caption(f"{who} rides over the edge and falls", event.t_s, True)
    if kind == "left_table":
        # a mission may score the ride off (a package delivered or dropped): the rulebook's words
        scored = next((e for e in events if e.kind == "score" and e.model == event.model
                       and ("delivered" in e.figures or e.figures.get("escaped"))), None)
        if scored is not None:
            return Caption(words.sentence(scored, names), event.t_s, not scored.figures.get("delivered", True))
        lost = next((e for e in events if e.kind == "item" and e.model == event.model
                     and e.figures.get("did") == "lost"), None)
        if lost is not None:  # Grab n Go: off too soon, or by another gang's edge
            return Caption(words.sentence(lost, names), event.t_s, True)
        return Caption(f"{who} rides off the table and escapes{words.escape_points_words(event, names)}{then}",
                       event.t_s)
    own = words.rulebook_of(event).film_caption(event, events, names)  # a rulebook's own line (the chase's ram)
    if own is not None:
        text, bad, as_it_begins = own
        return Caption(text, 0.0 if as_it_begins else event.t_s, bad)
    if kind == "crash":
        how = "head-on" if figures.get("kind") == "head_on" else "side-on"
        after = "and rides it out" if figures.get("survived") else "and crashes"
        return Caption(f"{who} hits {names.thing(event.piece)} {how} {after}", event.t_s, not figures.get("survived"))
    if kind == "bust":
        out = " and is out of the game" if words.bust_out(event) else " and goes down"
        return Caption(f"{who} loses control{out}{then}", event.t_s, True)
    if kind == "item":
        return _item_caption(event, who, names)
    if kind == "score":  # an NPC delivered (EC-MISSION-RESCUE): the rulebook's words
        return Caption(words.sentence(event, names), event.t_s)
    if kind == "jump":
        if event.piece is not None:
            return Caption(f"{who} flies over {names.thing(event.piece)}", event.t_s)
        if "carry_in" in figures:
            return Caption(f"{who} takes off and is still flying", event.t_s)
        # the rules' distance (EC-JUMP-4), which the picture's flight need not match: said so
        return Caption(f"{who} jumps: {figures['landing_in'] - figures['launch_in']:.0f}\" by the rules", event.t_s)
    if kind == "landing":
        return Caption(f"{who} lands the jump", event.t_s)
    if kind == "destructible":
        thing = names.thing(event.piece)
        if not event.rolls:
            return Caption(f"{who} is stopped by {thing}", event.t_s)
        did = "smashes through" if event.rolls[0].succeeded else "is thrown off line by"
        return Caption(f"{who} {did} {thing}", event.t_s)
    if kind == "shot":
        # a close-combat blow's free Coup de Grace (GANG-CC): the fighter it struck is finished
        finished = any(e.figures.get("coup_de_grace") and e.figures.get("by") == event.model for e in events)
        # a bottled gang's fighters that failed their Cool check at the turn's start (GANG-BOTTLE):
        # they leave the table unseen, so the line says so (issue 46: the gang fight's score rose
        # for a fighter that vanished without a word)
        fled = [names.rider(e.model) for e in events if e.figures.get("fled") and e.model != event.model]
        # its injury dice's worst short of Out of Action (GANG-INJURY): the target left down in the picture
        hurt = any(e.model == figures.get("target") and "serious_injury" in e.figures.get("results", ())
                   and not e.figures.get("out_of_action") for e in events)
        return Caption(words.headline(event, names) + (", Seriously Injured" if hurt and not finished else "")
                       + (", then a Coup de Grace: OUT OF ACTION" if finished else "")
                       + "".join(f"; {who_fled} flees the battlefield" for who_fled in fled),
                       event.t_s, bool(figures.get("hit")) or bool(fled))
    if kind == "attack":
        return _attack_caption(event, events, names)
    if kind == "ruling" and figures.get("applied"):
        # what a judging rulebook's rulings did (the cards' damage and Move), in its own terms:
        # the fall or collision that did it, not only the wounds it cost
        rulings = [e for e in events if e.kind == "ruling" and not e.figures.get("applied")]
        return Caption(words.rulebook_of(event).ruling_headline(event, rulings, names), event.t_s,
                       bool(figures.get("wounds_lost")))
    if kind not in _TOLD:  # ranked by decisive(): its rulebook's sentence, red when someone is taken out
        return Caption(words.sentence(event, names), event.t_s, any(figures.get(k) for k in words.HARM))
    if figures.get("run") or figures.get("charge"):  # a move the rules force for a reason of their own
        # (GANG-RUN, GANG-CHARGE): its rulebook's words
        return Caption(words.sentence(event, names), 0.0)
    walked = figures.get("walked")
    length = figures.get("length_in", 0)
    # a Seriously Injured or Prone fighter's crawl (GANG-MOVE), a figure, a vehicle, a bike
    verb = "crawls" if figures.get("crawled") else "walks" if walked else "drives" if figures.get("driven") else "rides"
    return Caption(f"{who} {verb} {length:.0f}\"" if length >= 0.5 else f"{who} turns on the spot", 0.0)


def _attack_caption(event: Event, events: Sequence[Event], names: words.Names) -> Caption:
    """An attack told from the attacker's side: who attacks whom with what, and what came of it."""
    attacker = next((e for e in events if e.kind == "attack" and "weapon" in e.figures), None)
    if attacker is None:
        return Caption(words.sentence(event, names), event.t_s, bool(event.figures.get("hit")))
    target = names.rider(attacker.piece) if attacker.piece else "a rival"
    weapon = str(attacker.figures["weapon"]).replace("_", " ")
    hurt = next((e for e in events if e.kind == "attack" and e.figures.get("wounds_lost")), None)
    result = (f"{target} loses {hurt.figures['wounds_lost']} wound{'s' if hurt.figures['wounds_lost'] != 1 else ''}"
              if hurt is not None else "hits" if attacker.figures.get("hit") else "misses")
    verb = f"attacks {target} with the {weapon}"
    return Caption(f"{names.rider(attacker.model)} {verb}: {result}", attacker.t_s, hurt is not None)


def caption_reading_s(said: Caption | None) -> float:
    """Seconds a caption stays up to be read at :data:`CAPTION_CPS` (0 for none)."""
    return 0.0 if said is None else max(MIN_CAPTION_S, len(said.text) / CAPTION_CPS)


def action_segment(replay: Replay, k: int, j: int, options: VideoOptions, names: words.Names) -> Segment | None:
    """Action ``j`` of activation ``k`` as the short cut plays it: its ride (a key moment in slow
    motion, a jump's flight slower still), then held until its caption has been up long enough
    to read; None for an action with nothing to show (no ride, no attack, nothing told)."""
    activation = replay.activations[k]
    action = activation.actions[j]
    events = action_events(activation, j)
    said = caption(events, names)
    ridden = len(action.trajectory) > 1 and float(action.trajectory[-1, 0]) > 0
    if not ridden and said is None:
        return None
    fps = options.fps
    key = any(words.is_key_moment(e) for e in events)
    rate = options.key_rate if key else 1.0
    ride_s = min(float(action.trajectory[-1, 0]), options.max_action_s) if len(action.trajectory) else 0.0
    flight = filmed_flight(action, events, ride_s)
    clock = ride_clock(ride_s, rate, flight, options.flight_rate, fps)
    ride_frames = len(clock)
    appears = (int(np.searchsorted(clock, said.t_s)) if said is not None and len(clock) and not said.after_ride
               else ride_frames)
    hold = KEY_HOLD_S if key else PLAIN_HOLD_S
    falling = falling_frames(action, events, rate, fps)  # a crashed bike's fall, after the ride
    frames = max(ride_frames + falling + round(hold * fps), appears + round(caption_reading_s(said) * fps), 1)
    return Segment("action", frames, k, j, activation.turn, ride_frames, rate, flight)


def short_segments(replay: Replay, options: VideoOptions, names: words.Names) -> list[Segment]:
    """The short cut's segments: the establishing shot, the chosen actions in play order, the end
    card (see the module docstring)."""
    fps = options.fps
    title, end = Segment("title", round(ESTABLISHING_S * fps)), Segment("end", round(options.end_s * fps))
    room = SHORT_S[1] * fps - title.frames - end.frames
    wanted = SHORT_AIM_S * fps - title.frames - end.frames
    shown: dict[int, list[Segment]] = {}
    drama: dict[int, float] = {}
    for k, activation in enumerate(replay.activations):
        segments = [s for j in range(len(activation.actions))
                    if (s := action_segment(replay, k, j, options, names)) is not None]
        if segments:
            shown[k] = segments
            moments, _, air = activation_moments(k, activation)
            drama[k] = sum(m.drama for m in moments) + AIR_SECOND * air
    length = {k: sum(s.frames for s in segments) for k, segments in shown.items()}
    ride = {k: sum(s.ride_frames for s in segments) for k, segments in shown.items()}
    chosen: set[int] = set()
    used = 0
    for k in sorted((k for k in shown if drama[k] > 0), key=lambda k: (-drama[k], k)):
        if used + length[k] <= room:
            chosen.add(k)
            used += length[k]
    for k in sorted((k for k in shown if k not in chosen), key=lambda k: (-ride[k], k)):
        if used >= wanted:
            break
        if used + length[k] <= room:
            chosen.add(k)
            used += length[k]
    return [title, *(s for k in sorted(chosen) for s in shown[k]), end]


class ShortFilm(ReplayFilm):
    """A replay's short cut (see the module docstring): the full film's cameras, rides and fight
    staging over the chosen actions, one caption line in place of the full HUD's panels, and a
    camera that drifts while a shot is held."""

    hold_drift_deg_s = HOLD_DRIFT_DEG_S

    def __init__(self, replay: Replay, options: VideoOptions = VideoOptions(), table=None, geometry=None):
        super().__init__(replay, options, table, geometry)
        self.segments = short_segments(replay, options, self.words)
        #: each action's caption, by (activation, action): the HUD asks for it every frame
        self._captions: dict[tuple[int, int], Caption | None] = {}

    def _caption(self, activation, action) -> Caption | None:
        # by its place in the activation: a forced move or a later gung-ho attack shares its action's index
        index = activation.actions.index(action) if action in activation.actions else 0
        key = (id(activation), index)
        if key not in self._captions:
            self._captions[key] = caption(action_events(activation, index), self.words)
        return self._captions[key]

    def _title(self, segment: Segment, state) -> Iterator[np.ndarray]:
        from entropy3d.systems import find_system, played_system

        header = self.replay.header
        mission = header.initial.mission
        lines = (" vs ".join(self.gang_names[g] for g in self.scorers),
                 f"{played_system(self.table.spec.system).mission_title(mission)}  -  {header.turns} turns",
                 f"{find_system(self.table.spec.system).title}  |  entropy3d")
        frames = segment.frames
        for i, frame in enumerate(self._overview_frames(frames, 40.0)):
            # the table alone first, then the title over it
            yield frame if i < frames // 3 else hud.card_frame(frame, header.scene_name, lines, darken=0.35)

    def _hud(self, activation, action, bike, heading: str, t: float, holding: bool) -> hud.HudInfo:
        said = self._caption(activation, action)
        shown = said is not None and (holding or (t >= said.t_s and not said.after_ride))
        index = activation.actions.index(action) if action in activation.actions else 0
        # a move the rules make for a reason of their own (a charge, GANG-CHARGE) says so while it is walked
        own = next((e for e in action_events(activation, index) if e.kind == "move" and e.figures.get("charge")), None)
        if said is not None and (said.after_ride or own is not None) and not shown and len(action.trajectory) > 1:
            # the ride an attack is made from: who it is, until the attack is shown
            moved = next((e for e in action_events(activation, index) if e.kind == "move"), None)
            length = moved.figures.get("length_in", 0) if moved is not None else 0
            said = Caption(words.sentence(own, self.words) if own is not None else
                           f"{self.words.rider_of_gang(activation.model_id)} "
                           f"{'walks' if activation.model_id in self.on_foot else 'rides'}"
                           + (f" {length:.0f}\"" if length >= 0.5 else ""), t)
            shown = True
        if self._scored(activation, action, holding):
            score = self._score(activation.state_after)
        else:  # the score before, plus the points score events already told (a VIP takedown's +1)
            events = action_events(activation, index)
            score = self._score(pacing.score_base(self.replay, activation), pacing.told_points(
                activation, action, events if holding else pacing.shown_by(events, t)))
        return hud.HudInfo(f"Turn {activation.turn} of {self.replay.header.turns}", None, score=score,
                           caption=said.text if shown else "", caption_bad=shown and said.bad)

    def _plate_name(self, model) -> str:
        """The model's name, and what its mission has it carry in the rulebook's word ("Viper, package")."""
        note = self.played.plate_note(model)
        return f"{self.names.get(model.id, model.id)}{', ' + note if note else ''}"

    def _named(self, activation, fight) -> frozenset[str]:
        """The acting model and, while an attack is shown, its target: :meth:`_plates` names them."""
        return frozenset([activation.model_id] + ([fight.target] if fight is not None else []))

    def _plates(self, frame: np.ndarray, activation, at: np.ndarray, fight) -> np.ndarray:
        """A name plate over the acting model (at ``at``, inches) and, while an attack is shown,
        over its target: who is who, without the full cut's panels."""
        shown = self._plates_shown(activation, at, fight)
        return labels.draw_plates(frame, shown) if shown else frame

    def _plate_boxes(self, frame: np.ndarray, activation, at: np.ndarray, fight) -> list:
        """The boxes (pixels) :meth:`_plates` fills on ``frame``: the attack's label keeps clear."""
        return labels.plate_boxes(frame.shape, self._plates_shown(activation, at, fight))

    def _plates_shown(self, activation, at: np.ndarray, fight) -> list[tuple[float, float, str, str]]:
        """The plates of :meth:`_plates`: (column, row, name, gang colour) each."""
        plates = [(at, activation.model_id)]
        if fight is not None and fight.target in activation.state_before.models:
            target = activation.state_before.model(fight.target).pose
            plates.append((np.array([target.x, target.y, target.z]), fight.target))
        points = np.array([point + [0.0, 0.0, PLATE_HEIGHT_IN] for point, _ in plates])
        pixels = self.renderer.project(points)
        return [(float(px), float(py), self._plate_name(activation.state_before.model(model)),
                 self.colours.get(activation.state_before.model(model).gang, "#ffffff"))
                for (px, py), (_, model) in zip(pixels, plates) if np.isfinite(px) and np.isfinite(py)]

    @staticmethod
    def _scored(activation, action, holding: bool) -> bool:
        """Whether the activation's score change is on screen by ``action`` (after it when
        ``holding``): the replay keeps the activation's final score only, shown from the end of
        its last action with a key moment (a takedown, a bust...) and kept for the actions after
        it, so the scoreboard changes once (the full cut's showed the old score again while a
        later action rode: Hades -1, +0, -1)."""
        keys = [j for j, step in enumerate(activation.actions)
                if any(words.may_change_score(e) or e.kind in ("score", "shot") for e in action_events(activation, j))]
        index = activation.actions.index(action) if action in activation.actions else 0
        last = keys[-1] if keys else -1
        return index > last or (index == last and holding)


def short_kbps(size: tuple[int, int]) -> int:
    """The short cut's bit rate cap for frames of ``size`` pixels (see :data:`SHORT_KBPS_720P`)."""
    return round(SHORT_KBPS_720P * math.sqrt(size[0] * size[1] / (1280 * 720)))


def film_of(replay: Replay, options: VideoOptions, table=None, geometry=None) -> ReplayFilm:
    """The film of ``replay`` in the options' cut (one of :data:`CUTS`)."""
    if options.cut not in CUTS:
        raise ValueError(f"cut must be one of {', '.join(CUTS)}, got {options.cut!r}")
    return (ShortFilm if options.cut == "short" else ReplayFilm)(replay, options, table, geometry)


def count_frames(replay: Replay, options: VideoOptions, names: words.Names | None = None) -> int:
    """Frames of the film of ``replay`` in ``options``' cut (short: :func:`short_segments`; full:
    every action)."""
    from entropy3d.scene import load_scene

    table = load_scene(scene_file(replay))
    names = names if names is not None else replay_names(replay, table)
    if options.cut == "short":
        return sum(s.frames for s in short_segments(replay, options, names))
    return sum(s.frames for s in plan_segments(replay, options, names, system_pace(replay, table)))


def video_duration_s(replay: Replay, options: VideoOptions) -> float:
    """Seconds of video the replay makes."""
    return count_frames(replay, options) / options.fps
