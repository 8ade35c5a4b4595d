"""The film tags a mission's NPCs (entropy3d.video.npc_tags, entropy3d.look.npc_marks): the films
of jailbreak and rescue_survive (seed 1) never showed the prisoner or the contacts, not even
as a marker on their holder. The rescue yard's scripted game (tests/systems/entropy_city/test_rescue.py): Ash
picks up Komodo's NPC in turn 1 and delivers it in turn 2; Hades MC's NPC waits at (6, 4)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from entropy3d.look.labels import rgb
from entropy3d.video.npc_tags import PLATE_HEIGHT_IN, STANDING_TAG_IN, draw_npc_tags

YARD = Path(__file__).resolve().parents[1] / "data" / "rescue_yard.yaml"
SIZE = (320, 180)
GREY = 128


@pytest.fixture(scope="module")
def film(tmp_path_factory):
    from entropy3d.game.session import play_game
    from entropy3d.video.cut import ShortFilm
    from entropy3d.video.movie import VideoOptions

    script = tmp_path_factory.mktemp("rescue") / "run.yaml"
    script.write_text(f"scene: {YARD}\nturns: 2\nfallback: error\nactivations:\n"
                      "  - {turn: 1, model: h1, plans: ['s1: straight 10', 's1: straight 10']}\n"
                      "  - {turn: 1, model: k1, plans: ['s1: straight 6', 's1: straight 10']}\n"
                      "  - {turn: 2, model: h1, plans: ['s1: straight 10', 's1: straight 3']}\n")
    replay = play_game(None, seed=1, producer="geometric", script=script)
    shown = ShortFilm(replay, VideoOptions(size=SIZE, cut="short"))
    shown.renderer.set_camera("overview")
    yield shown
    shown.renderer.close()


def colour_near(frame: np.ndarray, point, colour: str, reach: int) -> int:
    """How many pixels within ``reach`` of ``point`` (column, row) are ``colour`` (within 30)."""
    column, row = (int(round(v)) for v in point)
    box = frame[max(row - reach, 0):row + reach, max(column - reach, 0):column + reach].astype(int)
    return int((np.abs(box - rgb(colour)).max(axis=2) < 30).sum())


def tagged(film, activation_index: int, action: int, after: bool, named=frozenset()):
    activation = film.replay.activations[activation_index]
    pose = activation.state_before.model(activation.model_id).pose
    blank = np.full((SIZE[1], SIZE[0], 3), GREY, np.uint8)
    return activation, draw_npc_tags(film, blank, activation, action, np.array([pose.x, pose.y, pose.z]), after,
                                     named)


def test_EC_MISSION_RESCUE_a_waiting_npc_is_tagged_where_it_stands_with_a_dot_of_its_gangs_colour(film):
    """Clause: EC-MISSION-RESCUE. Before Ash's first ride both NPCs wait: a dot of Hades MC's red at
    Hades MC's NPC's feet (6, 4) and Komodo's green at Komodo's (30, 20), each under its plate."""
    _, frame = tagged(film, 0, 0, False)
    for (x, y), colour in (((6.0, 4.0), "#c0392b"), ((30.0, 20.0), "#27ae60")):
        foot, top = film.renderer.project([(x, y, 0.0), (x, y, STANDING_TAG_IN)])
        assert colour_near(frame, foot, colour, 4) >= 6, (x, y)
        assert colour_near(frame, top, colour, 6) >= 6, (x, y)  # the plate's colour bar
    assert (frame != GREY).any(axis=2).sum() > 400  # two plates with their words


def test_EC_MISSION_RESCUE_a_carried_npc_rides_over_its_holder_above_its_name_plate(film):
    """Clauses: EC-MISSION-RESCUE, EC-ACT-PICKUP. In turn 2 Ash carries Komodo's NPC: its tag
    (Komodo's green bar) stands over Ash's base, no dot at its old spot; with Ash's own plate shown
    (the short cut names the acting model) it stands a plate higher."""
    activation, frame = tagged(film, 2, 0, False)
    pose = activation.state_before.model("h1").pose
    over = film.renderer.project([(pose.x, pose.y, pose.z + PLATE_HEIGHT_IN)])[0]
    assert colour_near(frame, over, "#27ae60", 6) >= 6
    old_spot = film.renderer.project([(30.0, 20.0, 0.0)])[0]
    assert colour_near(frame, old_spot, "#27ae60", 4) == 0
    _, named = tagged(film, 2, 0, False, frozenset({"h1"}))
    rows = np.nonzero((np.abs(named.astype(int) - rgb("#27ae60")).max(axis=2) < 30).any(axis=1))[0]
    assert rows.max() < over[1] - 5  # lifted over Ash's plate


def test_EC_MISSION_RESCUE_a_delivered_npc_is_no_longer_tagged(film):
    """Clause: EC-MISSION-RESCUE. Once Ash's turn-2 ride has delivered Komodo's NPC, only Hades
    MC's, still waiting, is tagged: no green left on the frame."""
    _, frame = tagged(film, 2, 1, True)
    assert colour_near(frame, (SIZE[0] / 2, SIZE[1] / 2), "#27ae60", max(SIZE)) == 0
    assert colour_near(frame, film.renderer.project([(6.0, 4.0, 0.0)])[0], "#c0392b", 4) >= 6


def test_EC_MISSION_RESCUE_an_npc_out_of_the_shot_is_not_tagged_at_the_frames_edge(film):
    """Clause: EC-MISSION-RESCUE. In the film of rescue_survive (seed 1) the contacts' tags, out of
    the shot, were kept at the frame's edge as the acting model's name plate is, and piled up in
    its corners: with the camera on Hades MC's NPC's corner only, Komodo's NPC (30, 20) is off the
    frame and its green is nowhere."""
    from entropy3d.render.cameras import CameraView

    film.renderer.set_camera(CameraView((6.0, -2.0, 6.0), (6.0, 4.0, 0.0), 30.0))
    try:
        assert not (0 <= film.renderer.project([(30.0, 20.0, 0.0)])[0][0] < SIZE[0])
        _, frame = tagged(film, 0, 0, False)
        assert colour_near(frame, (SIZE[0] / 2, SIZE[1] / 2), "#27ae60", max(SIZE)) == 0
        assert colour_near(frame, film.renderer.project([(6.0, 4.0, 0.0)])[0], "#c0392b", 6) >= 6
    finally:
        film.renderer.set_camera("overview")


def test_EC_MISSION_RESCUE_an_npc_standing_by_a_named_model_stands_its_tag_over_the_models_plate(film):
    """Clause: EC-MISSION-RESCUE. In jailbreak's film (seed 1) the prisoner dropped by Brakes, taken
    out, stood its tag where Brakes's plate was, covering it: a standing NPC's tag near a model the
    frame names steps up over that model's plate, as a carried one does."""
    activation = film.replay.activations[0]
    pose = activation.state_before.model("h1").pose
    film.renderer.place_model("h1", type(pose)(6.0, 5.0, pose.z, pose.facing_deg))
    try:
        _, alone = tagged(film, 0, 0, False)
        _, named = tagged(film, 0, 0, False, frozenset({"h1"}))
        red = [np.nonzero((np.abs(f.astype(int) - rgb("#c0392b")).max(axis=2) < 30).any(axis=1))[0].min()
               for f in (alone, named)]
        assert red[1] < red[0] - 5  # the plate's bar moved up
    finally:
        film.renderer.place_model("h1", pose)
