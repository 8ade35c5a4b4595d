"""Whose cover it is (TEN-COVER): a sighting says at which end of it each blocker stands, and a
blind attack out through the attacker's own soft cover is told as that, not as an attack "into
the soft cover around" a target standing in the open (issue 46: the rooftop skirmish's film said
"Scout attacks blindly into the soft cover around Lookout" while the crates stood 3.5" in front
of the Scout and 17" from the Lookout, and its sight line read "in complete soft cover")."""

from __future__ import annotations

from pathlib import Path

import pytest

from entropy3d.game.records import AttackRecord
from entropy3d.geometry import Pose
from entropy3d.los import LosWorld
from entropy3d.scene import load_scene
from entropy3d.scene.systemrules import system_of
from entropy3d.systems.entropy_city.sentences import Names
from entropy3d.table_readings import sightings
from entropy3d.video.fight import fight_view, label_text
from tests.systems.tenacity.conftest import Dice, Table, attack, figure, seen, skirmish

SCENE = Path(__file__).parents[3] / "scenes" / "systems" / "rooftop_skirmish.yaml"


@pytest.fixture(scope="module")
def rooftops():
    table = load_scene(SCENE)
    return table, system_of(table), {(s.viewer, s.target): s for s in sightings(LosWorld(table))}


def test_TEN_COVER_a_sighting_says_the_crates_stand_at_the_scouts_end(rooftops):
    """Clause: TEN-COVER. The crates stand at y 18.5, the scout at y 22 and the lookout at y 1.5:
    from either end the crates are nearer the scout. So the scout's sight of the lookout is
    hidden by the scout's own cover, and the lookout's sight of the scout finds the scout in its
    cover; the roof barrier the runner kneels behind (its middle at x 27: 2.5" from the runner,
    6" from the guard) is the runner's."""
    _, ten, seen_by = rooftops
    out, back = seen_by[("scout", "lookout")], seen_by[("lookout", "scout")]
    assert out.blockers == back.blockers == ("crate_3",)
    assert out.near_viewer("crate_3") and not back.near_viewer("crate_3")
    assert ten.cover(out).at_viewer and not ten.cover(back).at_viewer
    barrier = seen_by[("guard", "runner")]
    assert barrier.blockers == ("roof_barrier",) and not barrier.near_viewer("roof_barrier")
    assert not ten.cover(barrier).at_viewer


def test_TEN_COVER_a_blind_attack_out_of_the_attackers_own_cover_is_told_from_its_end():
    """Clause: TEN-COVER. "When completely behind soft cover, you can't be directly targeted, but
    ... they can still attack through the soft cover blindly": the attacker's own crates hide the
    target (0% seen, the crates nearer the attacker). The rules' words, the film's sentence and
    the sight line's label say the attacker fires out through the cover in front of it; the
    target's own cover keeps the old words."""
    ten = system_of(load_scene(SCENE))
    own = seen(visible=0.0, blockers=("crates",), surfaces=("wood",), tops=(1.8,))
    own = type(own)(**{**own.__dict__, "blocker_near_viewer": (True,)})
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    _, events = attack(engine, state, Table([own]), Dice(3))
    blind, shot = events
    assert blind.rules == "attacks b blindly through the soft cover in front of it: 1d10 3 needing 6+: does not find it"
    assert blind.found == 'b 0% visible, 8.0" away past crates (near r)'
    names = Names({"r": "Scout", "b": "Lookout"})
    assert ten.sentence(blind, names) == (
        "Scout attacks Lookout blindly through the soft cover in front of it: 3 needing 6+ - does not find it")
    assert ten.sentence(shot, names) == (
        "Scout attacks Lookout blindly through the soft cover in front of it: no target found")
    theirs = type(own)(**{**own.__dict__, "blocker_near_viewer": (False,)})
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    _, (blind, _) = attack(engine, state, Table([theirs]), Dice(3))
    assert blind.rules == "attacks blindly into the soft cover around b: 1d10 3 needing 6+: does not find it"
    assert ten.sentence(blind, names) == "Scout attacks blindly into the soft cover around Lookout: 3 needing 6+ - " \
        "does not find it"


def test_TEN_COVER_the_sight_line_label_names_whose_cover_hides_the_target():
    """Clause: TEN-COVER. The film's sight line over a found blind attack out of the attacker's
    own crates reads "hidden by the attacker's soft cover" (0% seen: completely), not "in complete soft cover"
    (which puts the target in the cover)."""
    table = load_scene(SCENE)
    ten = system_of(table)
    own = seen(visible=0.0, blockers=("crates",), surfaces=("wood",), tops=(1.8,))
    own = type(own)(**{**own.__dict__, "blocker_near_viewer": (True,)})
    engine, state = skirmish(ten, [figure("r", "reds"), figure("b", "blues", 8.0)])
    # found (7), then attack 8,2 v defence 3,3 and a d4 of stress
    _, events = attack(engine, state, Table([own]), Dice(7, 8, 2, 3, 3, 1))
    record = AttackRecord("pistol", "r", "b", tuple(events), Pose(0.0, 0.0, 0.0), Pose(8.0, 0.0, 180.0), 0.0)
    view = fight_view(record, table.ruleset, on_foot=("r", "b"), system=ten)
    assert label_text(view) == "0% visible - hidden by the attacker's soft cover, +0 to attack"
    shot = next(e for e in events if e.kind == "shot")
    assert ten.sentence(shot, Names({"r": "Scout", "b": "Lookout"})).startswith(
        "Scout attacks Lookout with the pistol (hidden by Scout's soft cover, +0 to attack)")
