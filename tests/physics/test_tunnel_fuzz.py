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
    """Clause: EC-TER-BUILDING, EC-COL-HEAD: 60 fast rides (speed 3 and gung-ho doubles) at the
    table's solids."""
    totals = tunnel.run(60, seed=7, tables=(table,))
    assert totals["rides"] == 60
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
