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
    assert (totals["pass_throughs"], totals["snaps_into_solids"], totals["floating_rests"]) == (0, 0, 0), \
        totals["examples"]


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
