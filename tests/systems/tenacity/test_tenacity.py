"""10acity Tactics (seed 002): hard and soft cover (TEN-COVER), size categories by doubling
(TEN-SIZE) and elevation (TEN-ELEV), hand-worked on plain sightings and on the bundled
rooftop skirmish (scenes/systems/rooftop_skirmish.yaml) through ``entropy3d los --all``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from entropy3d.cli import app
from entropy3d.los import LosWorld
from entropy3d.scene import load_scene
from entropy3d.scene.systemrules import system_of
from entropy3d.systems.readings import Sighting
from entropy3d.systems.tenacity import Cover
from entropy3d.table_readings import sightings

SCENE = Path(__file__).parents[3] / "scenes" / "systems" / "rooftop_skirmish.yaml"
BIKE = (75 / 25.4, 42 / 25.4)  # the 75 x 42 mm oval base, inches


def seen(visible: float, blockers=(), surfaces=(), tops=(), viewer_z=0.0, levels=(0, 0),
         viewer_base=BIKE, target_base=BIKE) -> Sighting:
    return Sighting("a", "b", 10.0, 0.0, visible, viewer_z, 0.0, levels[0], levels[1], tuple(blockers),
                    tuple(surfaces), tuple(tops), viewer_base, target_base)


@pytest.mark.parametrize("side,step", [(1, 0), (2, 1), (4, 2), (8, 3), (16, 4)])
def test_TEN_SIZE_steps_double(ten, side, step):
    """Clause: TEN-SIZE. 002 "Size Categories": "For every time a size doubles, then the size
    category increase another step (1x1, 2x2, 4x4, 8x8, 16x16, etc.)": a base filling an n x n
    square of 1" spaces (an ellipse of that length and width)."""
    assert ten.size_step((side, side)) == step


def test_TEN_SIZE_a_bike_base_is_two_by_two(ten):
    """Clause: TEN-SIZE. The 75 x 42 mm oval covers 3.83 sq in, a square of 1.96": 2x2, step 1."""
    assert ten.size_step(BIKE) == 1


def test_TEN_SIZE_attacking_larger_and_smaller(ten):
    """Clause: TEN-SIZE. "When attacking a size category larger than yourself, you gain 1
    advantage die and a +1 to your attack for every step larger they are, but your damage is
    halved and halved again for every additional step"; smaller: "1 disadvantage die and a -1 ...
    your damage is doubled". A 1x1 attacker at a 4x4 target (2 steps larger): +2, 2 advantage
    dice, damage x1/4; the reverse: -2, 2 disadvantage dice, damage x4."""
    up = ten.attack(seen(1.0, viewer_base=(1, 1), target_base=(4, 4)))
    assert (up.size_steps, up.attack_modifier, up.advantage_dice, up.damage_factor) == (2, 2, 2, 0.25)
    down = ten.attack(seen(1.0, viewer_base=(4, 4), target_base=(1, 1)))
    assert (down.size_steps, down.attack_modifier, down.advantage_dice, down.damage_factor) == (-2, -2, -2, 4.0)


def test_TEN_COVER_completely_behind_hard_cover_no_direct_attack(ten):
    """Clause: TEN-COVER. "When completely behind hard cover, you cannot be directly attacked."
    1% seen past a concrete wall."""
    attack = ten.attack(seen(0.01, ["wall"], ["concrete"], [3.0]))
    assert not attack.allowed and attack.blind_on is None


def test_TEN_COVER_completely_behind_soft_cover_only_a_blind_attack(ten):
    """Clause: TEN-COVER. Soft cover: "When completely behind soft cover, you can't be directly
    targeted, but ... The opponent rolls 1d10 and on a six (6) or higher they managed to find you"."""
    attack = ten.attack(seen(0.0, ["crates"], ["wood"], [1.8]))
    assert attack.allowed and attack.blind_on == 6


def test_TEN_COVER_partial_hard_cover_counts_one_size_smaller(ten):
    """Clause: TEN-COVER. "If partially behind the cover, it makes you a smaller target, giving you
    a bonus as if you were a creature one step smaller": two bikes (both 2x2), the target 60% seen
    past metal, counts 1x1 to hit: attack -1, a disadvantage die. The bonus "is an additional
    advantage die and a +1 to skill rolls to defend": its damage stays that of two 2x2 bikes (x1),
    never doubled for being behind cover. A wall the table gives no material is hard."""
    attack = ten.attack(seen(0.6, ["wreck"], ["metal"], [1.0]))
    assert (attack.size_steps, attack.attack_modifier, attack.advantage_dice, attack.damage_factor) == (-1, -1, -1, 1.0)
    assert ten.attack(seen(0.6, ["pillar"], [None], [4.0])).size_steps == -1


def test_TEN_COVER_partial_soft_cover_hides_but_does_not_protect(ten):
    """Clause: TEN-COVER. Soft cover "is too weak to block the attack, but it does prevent visual
    targeting": partly behind wood or another miniature, no size change."""
    assert ten.cover(seen(0.6, ["crates"], ["wood"], [1.8])).extent == "partial"
    assert ten.attack(seen(0.6, ["crates"], ["wood"], [1.8])).size_steps == 0
    assert ten.attack(seen(0.6, ["rider"], ["miniature"], [1.2])).size_steps == 0


def test_TEN_ELEV_the_high_ground_looks_over_low_obstacles(ten):
    """Clause: TEN-ELEV. 002 "Elevation": "when you are higher up, it is more difficult for
    opponents to gain cover in trenches or behind small objects because you can see over the
    objects ... Being in an elevated position gives an advantage die to perception checks and
    helps prevent opponents from taking cover." A viewer on a 4.2" roof (level 2) at a street
    target (level 0) 70% seen past a 1.8" crate stack: no cover, and an advantage die to
    perception; past a 6" wall (above the roof) the cover stands; level with the target, the
    crates are cover."""
    low = seen(0.7, ["crates"], ["wood"], [1.8], viewer_z=4.2, levels=(2, 0))
    assert ten.cover(low).extent == "none" and ten.cover(low).denied == ("crates",)
    assert ten.perception_dice(low) == 1
    tall = seen(0.7, ["wall"], ["concrete"], [6.0], viewer_z=4.2, levels=(2, 0))
    assert ten.cover(tall).extent == "partial" and ten.cover(tall).hard
    level = seen(0.7, ["crates"], ["wood"], [1.8], viewer_z=0.0, levels=(0, 0))
    assert ten.cover(level).extent == "partial" and ten.perception_dice(level) == 0


def test_TEN_ELEV_a_building_is_no_small_object_the_high_ground_looks_over(ten):
    """Clause: TEN-ELEV. 002 "Elevation": the high ground sees over "small objects" and "into the
    trenches". From a 6.3" tower (level 3) at a street target (level 0): a 1.8" crate stack is a
    small object (no cover), but a two-storey block 4.2" tall is not (DECISION: at most one
    storey, 2.1", above the target's ground): the target hidden behind it keeps its cover."""
    crates = seen(0.7, ["crates"], ["wood"], [1.8], viewer_z=6.3, levels=(3, 0))
    assert ten.cover(crates).extent == "none" and ten.cover(crates).denied == ("crates",)
    block = seen(0.3, ["block"], ["concrete"], [4.2], viewer_z=6.3, levels=(3, 0))
    assert ten.cover(block) == Cover("partial", True, ())


@pytest.fixture(scope="module")
def skirmish():
    table = load_scene(SCENE)
    return system_of(table), {(s.viewer, s.target): s for s in sightings(LosWorld(table))}


def test_TEN_COVER_on_the_roof_the_barrier_is_hard_cover_the_crates_soft(skirmish):
    """Clause: TEN-COVER. Guard sees Runner past the concrete barrier on the works' roof: partial
    hard cover, one size smaller; Lookout sees Scout past the crates in the street: partial soft
    cover, no size change."""
    ten, seen_ = skirmish
    runner = seen_[("guard", "runner")]
    assert "roof_barrier" in runner.blockers
    assert ten.cover(runner) == Cover("partial", True, ())
    assert ten.attack(runner).size_steps == -1
    scout = seen_[("lookout", "scout")]
    assert {"crate_1", "crate_2", "crate_3"} & set(scout.blockers)
    assert ten.cover(scout).extent == "partial" and not ten.cover(scout).hard
    assert ten.attack(scout).size_steps == 0


def test_TEN_ELEV_from_the_tower_the_barrier_gives_no_cover(skirmish):
    """Clause: TEN-ELEV. Sniper on the tower (3 storeys) sees Runner (2 storeys) past the same
    barrier, which stands lower than the tower's roof: no cover, and a perception advantage die."""
    ten, seen_ = skirmish
    runner = seen_[("sniper", "runner")]
    assert "roof_barrier" in runner.blockers and runner.viewer_level - runner.target_level == 1
    assert ten.cover(runner).extent == "none" and "roof_barrier" in ten.cover(runner).denied
    assert ten.perception_dice(runner) == 1
    scout = seen_[("sniper", "scout")]  # in the street behind the works: a building, no small object
    assert "works_west" in scout.blockers and ten.cover(scout).hard and not ten.cover(scout).denied


def test_los_all_prints_the_tenacity_verdicts():
    """Clauses: TEN-COVER, TEN-SIZE, TEN-ELEV through the command line, figures and scenery by
    name (Guard, Runner, the roof barrier), not by id."""
    result = CliRunner().invoke(app, ["los", str(SCENE), "--all"])
    assert result.exit_code == 0, result.output
    assert "tenacity_tactics rules" in result.output
    assert ("Guard: line of sight: Runner 79% visible past the roof barrier (concrete, near Runner) -> rules: "
            "partial hard cover: "
            "one size smaller; size -1 step(s): attack -1, 1 disadvantage die, damage x1") in result.output
