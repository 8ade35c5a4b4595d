"""Tunnelling fuzz (issue 18, part 7): fast physics rides straight at solids through the one path:
0 pass-throughs, 0 bases left inside a solid, 0 floating rests. ``tools/tunnel_fuzz.py --rides
10000`` runs the same rides at scale."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tools_module import load_tool

tunnel = load_tool("tunnel_fuzz")


@pytest.mark.parametrize("table", tunnel.TABLES)
def test_fast_rides_at_solids_never_tunnel_snap_in_or_float(table):
    """Clause: EC-TER-BUILDING, EC-COL-HEAD: 25 fast rides (speed 3 and gung-ho doubles) at the
    table's solids."""
    totals = tunnel.run(25, seed=7, tables=(table,))
    assert totals["rides"] == 25
    assert totals["crashes"] > 10, "the rides were not aimed at anything"
    assert {fault: totals[fault] for fault in tunnel.FAULTS} == dict.fromkeys(tunnel.FAULTS, 0), totals["examples"]


def test_fast_rides_at_trees_never_end_in_a_trunk_unreported():
    """Clause: EC-COL-HEAD. Issue 49, item 7: physics rides were said to end 0.36" and 0.54" inside
    a park tree with no contact. 20 fast rides at the trees of Crossroads and Lovers Point: none
    ends with the base over a trunk's material without the facts reporting that tree (an overlap
    with a reported tree is the base being larger than the bike; the rules put it clear)."""
    aimed = {f.piece_id for f in tunnel.Table(tunnel.ROOT / "scenes" / "crossroads.yaml", "tree").targets}
    assert aimed == {f"park_tree_{k}" for k in range(1, 6)}  # the word, not street_car_wreck's letters
    totals = tunnel.run(20, seed=11, tables=("scenes/crossroads.yaml", "scenes/lovers_point.yaml"), aim_at="tree")
    assert totals["rides"] == 20 and totals["crashes"] > 5
    assert {fault: totals[fault] for fault in tunnel.FAULTS} == dict.fromkeys(tunnel.FAULTS, 0), totals["examples"]


def test_the_silent_overlap_check_can_fail():
    """A ride that physics left with the base centred on park_tree_1's trunk at (44, 40) and no
    contact is a silent overlap with that tree, deeper than a third of an inch (the base is about
    1" wide and the trunk's section fills its middle); reporting the contact clears it, and so does
    ending 2.5" east of the trunk, clear of it."""
    from entropy3d.core.facts import Contact, Facts
    from entropy3d.geometry import Pose

    crossroads = tunnel.Table(tunnel.ROOT / "scenes" / "crossroads.yaml")
    base = crossroads.table.ruleset.base_for(crossroads.state.model(crossroads.rider).bike_type)

    def ended_at(x, contacts=()):
        return Facts("physics", 4.0, 4.0, True, np.zeros((1, 5)), contacts=contacts, end_pose=Pose(x, 40.0, 90.0, 0.0))

    hit = Contact("park_tree_1", "mesh", 3.0, 0.3, 90.0, 0.0, (44.0, 40.0, 0.5))
    found = crossroads.silent_overlap(ended_at(44.0), base)
    assert found is not None and found[0] == "park_tree_1" and found[1] > 0.33
    assert crossroads.silent_overlap(ended_at(44.0, (hit,)), base) is None
    assert crossroads.silent_overlap(ended_at(48.0 - 1.5), base) is None


def test_the_pass_through_check_can_fail():
    """A trajectory straight through the proving ground's bank counts as a pass-through; one beside it does not."""
    ground = tunnel.Table(tunnel.ROOT / tunnel.TABLES[-1])
    xs = np.linspace(26.0, 44.0, 80)
    through = np.column_stack([np.zeros(80), xs, np.full(80, 8.0), np.zeros(80), np.zeros(80)])
    beside = through.copy()
    beside[:, 2] = 2.0
    assert ground.passes_through(through) and not ground.passes_through(beside)


def test_riding_under_a_tree_canopy_beside_the_trunk_is_no_pass_through():
    """park_tree_1's plan outline is the hull of its canopy (1.3" round its trunk at (44, 40)), but
    under the canopy's rim there is nothing solid below 2.4": a bike there rode beside the trunk
    (the pass-through the fuzz reported on Crossroads). Through the trunk itself is one."""
    crossroads = tunnel.Table(tunnel.ROOT / "scenes" / "crossroads.yaml")
    under = np.array([[0.65, 43.06, 40.49, 0.0, 53.4], [0.67, 43.18, 40.65, 0.0, 53.4], [0.68, 43.3, 40.81, 0.0, 53.4]])
    xs = np.linspace(42.5, 45.5, 31)
    trunk = np.column_stack([np.zeros(31), xs, np.full(31, 40.0), np.zeros(31), np.zeros(31)])
    assert not crossroads.passes_through(under)
    assert crossroads.passes_through(trunk)
