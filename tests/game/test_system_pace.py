"""The pace of a video of a system that plays its own game (issue 12): a gang turn is held for what
a stranger must read (each shot's headline and sight line label, every Out of Action, the end
card) at the house's 12 characters a second, and for nothing else, so 3 turns no longer run 6
minutes. Read off the timeline the video builds (:func:`plan_segments`), never timed."""

from __future__ import annotations

from pathlib import Path

import pytest

from entropy3d.core.event import Event
from entropy3d.game.session import play_game
from entropy3d.scene import load_scene
from entropy3d.systems import words
from entropy3d.systems.words import Names, headline
from entropy3d.video import VideoOptions
from entropy3d.video.ending import result_card
from entropy3d.video.movie import action_events, plan_segments, replay_names, system_pace
from entropy3d.video.pacing import QUIET_RATE, SystemPace

ROOT = Path(__file__).parents[2]
SCENE = ROOT / "scenes" / "systems" / "gang_fight.yaml"
NORMAL = VideoOptions().paced("normal")


@pytest.fixture(scope="module")
def game():
    """Seed 7's first turn: 10 shots (Harl's takes Vex Out of Action), a reload, a stand-up, two
    walks and the End Phase where the Eschers bottle out."""
    replay = play_game(SCENE, seed=7, turns=1, producer="geometric")
    table = load_scene(SCENE)
    return replay, replay_names(replay, table), system_pace(replay, table)


def seconds(segments, kinds=("action", "skipped")) -> float:
    return sum(s.frames for s in segments if s.kind in kinds) / NORMAL.fps


def test_GANG_SHOOT_a_gang_turn_is_held_for_its_large_print_only(game):
    """Clause: GANG-SHOOT, GANG-INJURY. At the default pace the turn's actions fit in 90 s (they
    took 159 s when every sentence, down to each ammo check and injury die, was waited for), and
    no action is held longer than its large print, its sight line's label, its ride and its
    pause need: the small print is never waited for."""
    replay, names, pace = game
    segments = plan_segments(replay, NORMAL, names, pace)
    every_sentence = plan_segments(replay, NORMAL, names)  # Entropy City's pacing of the same turn
    assert seconds(segments) <= 90.0, f"a gang turn runs {seconds(segments):.0f} s of actions"
    assert seconds(segments) <= 0.6 * seconds(every_sentence)
    for segment in segments:
        if segment.kind != "action":
            continue
        activation = replay.activations[segment.activation]
        action = activation.actions[segment.action]
        lines = pace.action_lines(action_events(activation, segment.action), action)
        large = sum(len(sentence) for sentence, _ in lines) + len(pace.label(action))
        ride_and_pause = segment.ride_frames / NORMAL.fps + NORMAL.hold_s + NORMAL.key_hold_s
        longest = max(NORMAL.min_read_s, large / NORMAL.read_cps, ride_and_pause) + 1.0 / NORMAL.fps
        assert segment.frames / NORMAL.fps <= longest, f"{action.action.kind} of {activation.model_id} waits too long"


def test_GANG_SHOOT_every_shot_its_label_and_every_out_of_action_can_be_read_at_12_cps(game):
    """Clause: GANG-SHOOT, GANG-INJURY, GANG-BOTTLE. Every shot's segment lasts while its headline
    (shooter, target, result) and its sight line's label are read at 12 characters a second;
    every Out of Action and the gang bottling out are large print, read in time, and among the
    last three lines the HUD keeps; the end card is held until read."""
    replay, names, pace = game
    segments = plan_segments(replay, NORMAL, names, pace)
    shots = outs = 0
    for segment in (s for s in segments if s.kind == "action"):
        activation = replay.activations[segment.activation]
        action = activation.actions[segment.action]
        events = action_events(activation, segment.action)
        lines = pace.action_lines(events, action)
        large = [sentence for sentence, _ in lines if sentence]
        held = segment.frames / NORMAL.fps
        if action.attack:
            shots += 1
            shot = next(e for e in events if e.kind == "shot")
            said = headline(shot, names)
            assert said in large and names.rider(shot.figures["target"]) in said
            label = pace.label(action)
            assert "% visible - in " in label
            assert held >= (len(said) + len(label)) / 12.0 - 1.0 / NORMAL.fps
        for event in events:
            if event.figures.get("out_of_action") or event.figures.get("taken_out") or event.figures.get("bottled"):
                outs += 1
                shown = [s for s, _ in lines[-3:] if names.rider(event.model) in s or "BOTTLE OUT" in s]
                assert shown, f"{event.rules!r} is not in the HUD's large print"
                assert held >= sum(map(len, large)) / 12.0 - 1.0 / NORMAL.fps
    assert shots >= 8 and outs >= 2
    title, card, _ = result_card(replay, load_scene(SCENE), names)
    assert card[0] == "Gang Fight"  # the rulebook's mission, named
    assert segments[-1].frames / NORMAL.fps >= sum(map(len, (title, *card))) / 12.0 - 1.0 / NORMAL.fps


def test_GANG_MOVE_a_quiet_walk_plays_fast_with_one_line(game):
    """Clause: GANG-MOVE. A walk with nothing decisive plays at twice its speed, says one line
    ("Krug walks 5\" on foot") and is held no more than that line's reading."""
    replay, names, pace = game
    walks = [s for s in plan_segments(replay, NORMAL, names, pace) if s.kind == "action"
             and replay.activations[s.activation].actions[s.action].action.kind == "move"]
    assert walks
    for segment in walks:
        activation = replay.activations[segment.activation]
        action = activation.actions[segment.action]
        lines = pace.action_lines(action_events(activation, segment.action), action)
        (said,) = [s for s, _ in lines if s]
        assert said.startswith(names.rider(activation.model_id) + " walks")
        assert segment.rate == QUIET_RATE
        assert segment.frames / NORMAL.fps <= max(1.0, len(said) / NORMAL.read_cps,
                                                  segment.ride_frames / NORMAL.fps + NORMAL.hold_s) + 0.05


def test_GANG_BOTTLE_every_fighter_fleeing_stays_in_the_hud_and_the_rest_is_small_print():
    """Clause: GANG-BOTTLE. A bottled gang's Cool checks: the three who flee Out of Action are the
    HUD's three large lines, the one who holds and the points scored go in one line of small
    print before them (the HUD keeps the newest three, so the small print gives way first)."""
    names = Names({"e1": "Lyra", "e2": "Nyx", "e3": "Kyra", "e4": "Sable"}, {"orlock": "Orlocks", "escher": "Eschers"})

    def cool(model: str, fled: bool) -> Event:
        return Event("condition", model, "Cool check", clauses=("GANG-BOTTLE",),
                     figures={"dice": [1, 2], "needed": 7, "fled": fled, "out_of_action": fled})

    def score(model: str) -> Event:
        # as the gang engine scores a fighter gone Out of Action (GangEngine._score_out_of_action)
        return Event("score", model, "score", clauses=("GANG-INJURY",), figures={"gang": "orlock", "points": 1})

    pace = SystemPace(names, None)
    lines = pace.lines([cool("e1", True), score("e1"), cool("e2", False), cool("e3", True), score("e3"),
                        cool("e4", True), score("e4")])
    assert [s.split(":")[0] for s, _ in lines[-3:]] == ["Lyra", "Kyra", "Sable"]
    assert all(s.endswith("OUT OF ACTION") for s, _ in lines[-3:])
    assert lines[0][0] == "" and "Nyx" in lines[0][1] and "Orlocks score 1 for Sable" in lines[0][1]
    assert pace.reading_s(lines, "", 12.0, 2.0) == pytest.approx(sum(len(s) for s, _ in lines) / 12.0)


def test_GANG_BOTTLE_more_fighters_fleeing_than_the_hud_keeps_are_shown_one_by_one_each_long_enough():
    """Clause: GANG-BOTTLE. Five fighters flee at once, more than the HUD's newest three lines: the
    lines come one by one, each once those before it are read, so every one of them is among the
    newest three for at least its own reading at 12 characters a second within the segment."""
    from entropy3d.video.hud import HUD_LINES

    riders = {f"e{k}": name for k, name in enumerate(("Lyra", "Nyx", "Kyra", "Sable", "Vex"))}
    names = Names(riders, {"escher": "Eschers"})
    pace = SystemPace(names, None)
    lines = pace.lines([Event("condition", model, "Cool check", clauses=("GANG-BOTTLE",),
                              figures={"dice": [1, 1], "needed": 7, "fled": True, "out_of_action": True})
                        for model in riders])
    total = pace.reading_s(lines, "", 12.0, 2.0)
    step = 1.0 / 30
    seen: dict[str, float] = {}
    for frame in range(int(total / step) + 1):
        for sentence, _ in pace.revealed(lines, frame * step, 12.0)[-HUD_LINES:]:
            seen[sentence] = seen.get(sentence, 0.0) + step
    assert set(seen) == {sentence for sentence, _ in lines}
    assert all(shown >= len(sentence) / 12.0 - step for sentence, shown in seen.items())
    few = pace.lines([Event("condition", "e0", "Cool check", figures={"dice": [1, 1], "needed": 7, "fled": True,
                                                                        "out_of_action": True})])
    assert pace.revealed(few, 0.0, 12.0) == few  # three or fewer large lines: all at once


def test_SW_CHASE_points_scored_are_large_print_once_per_model():
    """Clause: SW-CHASE, GANG-INJURY. A car getting away scores: its points are large print (the
    move's own words are the system's and only small print); points scored for a fighter already
    said to be Out of Action are not said again."""
    names = Names({"runner": "Runner", "e1": "Vex"}, {"runners": "Runners", "orlock": "Orlocks"})
    pace = SystemPace(names, None)
    gets_away = Event("move", "runner", "off the table: it gets away", clauses=("SW-CHASE",))
    scored = Event("score", "runner", "runners scores 1 for runner getting away", clauses=("SW-CHASE",),
                   figures={"gang": "runners", "points": 1})
    away = pace.lines([gets_away, scored])
    assert [s for s, _ in away if s] == [words.sentence(scored, names)]
    assert away[0] == ("", words.sentence(gets_away, names))
    out = pace.lines([Event("attack", "e1", "takes 1 wound", clauses=("GANG-WOUND",),
                            figures={"wounds_lost": 1, "taken_out": True}),
                      Event("score", "e1", "orlock scores 1", clauses=("GANG-INJURY",),
                            figures={"gang": "orlock", "points": 1})])
    assert [s for s, _ in out if s] == ["Vex is hit by a rival: -1 wound, OUT OF ACTION"]
    assert "Orlocks score 1 for Vex" in out[0][1]


def test_TEN_ATTACK_a_skirmish_is_paced_by_the_same_rules_with_its_own_label_words():
    """Clause: TEN-ATTACK, TEN-COVER. The 10acity skirmish's video is paced the same way: each
    attack is held while its headline and its sight line's label, in 10acity's words ("to
    attack"), are read at 12 characters a second; the turn's actions take at most 0.7 of the
    every-sentence pacing."""
    scene = ROOT / "scenes" / "systems" / "rooftop_skirmish.yaml"
    replay = play_game(scene, seed=7, turns=1, producer="geometric")
    table = load_scene(scene)
    names, pace = replay_names(replay, table), system_pace(replay, table)
    segments = plan_segments(replay, NORMAL, names, pace)
    attacks = 0
    for segment in (s for s in segments if s.kind == "action"):
        activation = replay.activations[segment.activation]
        action = activation.actions[segment.action]
        label = pace.label(action)
        if not label:
            continue
        attacks += 1
        assert label.endswith("to attack")
        large = [s for s, _ in pace.action_lines(action_events(activation, segment.action), action) if s]
        assert segment.frames / NORMAL.fps >= (sum(map(len, large)) + len(label)) / 12.0 - 1.0 / NORMAL.fps
    assert attacks >= 3
    assert seconds(segments) <= 0.7 * seconds(plan_segments(replay, NORMAL, names))


def test_an_entropy_city_game_keeps_its_every_sentence_pacing():
    """Entropy City's video is paced as before: it has no system pace, so every sentence is read."""
    assert system_pace(None, load_scene(ROOT / "scenes" / "crossroads.yaml")) is None


def test_SW_RAM_what_came_of_a_ram_is_not_told_before_the_ram_is_seen():
    """Clauses: SW-RAM, SW-DMG. The chase's ram is timed at the contact (1.1 s into the ride);
    the damage, the Wound and the maneuvering roll it calls carry no time of their own. The HUD
    showed them from the ride's first frame, the van's Wound before the interceptor reached it;
    now they wait for the ram. The maneuvering roll of the drive itself (a test, untimed, before
    the ram) shows at once, as does the activation's start."""
    from entropy3d.video.pacing import shown_by

    start = Event("test", "interceptor", "lead roll", clauses=("SW-TURN",))
    drive = Event("test", "interceptor", "over 12\": maneuvering roll", clauses=("SW-VEH-1",))
    ram = Event("crash", "interceptor", "ram: interceptor deals 4d6, van deals 2d6", clauses=("SW-RAM",), t_s=1.1)
    damage = Event("attack", "van", "takes 12 damage from interceptor", clauses=("SW-DMG",))
    wound = Event("condition", "van", "1 Wound: 2 left", clauses=("SW-DMG",))
    control = Event("test", "van", "damage equals its Toughness or more: maneuvering roll", clauses=("SW-DMG",))
    events = (start, drive, ram, damage, wound, control)
    assert shown_by(events, 0.0, (start,)) == [start, drive]
    assert shown_by(events, 1.0, (start,)) == [start, drive]
    assert shown_by(events, 1.1, (start,)) == list(events)


def test_SW_CHASE_the_end_card_reads_a_dark_gang_colour():
    """Clause: SW-CHASE. The chase's end card gives each side's points in its gang colour; the
    Highway Patrol's #2c3e50 on the darkened panel was all but invisible ("Highway Patrol +0
    VP"). A dark gang colour is lifted towards white (its hue kept); a bright one is left."""
    import numpy as np

    from entropy3d.look.labels import text_rgb
    from entropy3d.video.hud import draw_card

    assert text_rgb("#e67e22") == (0xE6, 0x7E, 0x22)
    lifted = text_rgb("#2c3e50")
    assert 0.299 * lifted[0] + 0.587 * lifted[1] + 0.114 * lifted[2] >= 0.55 * 255 - 1
    assert lifted[0] < lifted[1] < lifted[2]  # still a blue
    card = draw_card(np.zeros((360, 640, 3), np.uint8), "Runners win", ("Highway Patrol  +0 VP",), ("#2c3e50",))
    line = card[int(360 * 0.34 + 96 * 0.5):int(360 * 0.34 + 96 * 0.5 + 20)]
    assert line.max(axis=2).max() >= 140, "the line's brightest ink"


def test_SW_DMG_a_system_figures_panel_counts_wounds_left():
    """Clause: SW-DMG. A chase vehicle's panel after "1 Wound: 2 left" reads "2 wounds left", not
    "wounds 2" (two Wounds taken, to a chase player); an Entropy City bike keeps its speed line."""
    from entropy3d.video.hud import BikeLine, vitals_words

    van = BikeLine("van", "Van (Runners)", "#e67e22", 0, 0, 0, 2, "in play", (), figure_only=True)
    assert vitals_words(van) == "2 wounds left"
    assert vitals_words(BikeLine("van", "Van", "#e67e22", 0, 0, 0, 1, "in play", (), figure_only=True)) == (
        "1 wound left")
    bike = BikeLine("h1", "Ash (Hades MC)", "#c0392b", 2, 1, 6, 3, "riding", ())
    assert vitals_words(bike) == "speed 2   wounds 3"
