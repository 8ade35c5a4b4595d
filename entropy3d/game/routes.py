"""How far a bike rides along open ground to a goal: the automatic players' sense of the way.

A straight line to a table edge or a package says nothing of the buildings, containers and
wrecks in between: a rider pulled along it rides into a chicane's dead end or down the wrong
street. :class:`RouteMap` lays a grid of :data:`CELL_IN` inch cells over the table, keeps the
cells a bike's base clears at ground level (:meth:`~entropy3d.scene.probe.SceneProbe.blocked`,
destructibles ridden through), and measures, by Dijkstra's shortest paths over the eight
neighbours of each cell, the inches from every cell to a goal: a table edge or a few points.
Distances only: the plans a player rides are still the rules' (the players' look-ahead rides
each of them). Lengths in inches.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.ndimage import distance_transform_edt
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

#: the grid's cell side, inches: finer than a bike's half width, coarse enough to build at once
CELL_IN = 0.5
#: inches a point with no way to the goal (walled in) counts as: longer than any way on a table
NO_WAY_IN = 500.0


class RouteMap:
    """Inches along open ground from any point of ``probe``'s table to a goal, for a bike whose
    base keeps ``clearance_in`` inches from anything solid (its half width and a margin)."""

    def __init__(self, probe, clearance_in: float):
        self.probe = probe
        self.columns = int(math.ceil(probe.width / CELL_IN))
        self.rows = int(math.ceil(probe.depth / CELL_IN))
        xs = (np.arange(self.columns) + 0.5) * CELL_IN
        ys = (np.arange(self.rows) + 0.5) * CELL_IN
        grid_x, grid_y = np.meshgrid(xs, ys)  # rows are y, columns x
        self.centres = np.column_stack([grid_x.ravel(), grid_y.ravel()])
        blocked = probe.blocked(self.centres, 0.0, kinds_ignored=("destructible",), clearance=clearance_in)
        self.open = ~blocked.reshape(self.rows, self.columns)
        # a point in a cell too near a wall is measured from the nearest open cell (a rider beside a wall)
        self._nearest = distance_transform_edt(~self.open, return_distances=False, return_indices=True)
        self._graph = self._neighbours()
        self._fields: dict = {}

    def _neighbours(self):
        """The open cells' graph: each joined to its open neighbours (diagonals too), weighted in inches."""
        index = np.arange(self.rows * self.columns).reshape(self.rows, self.columns)
        sources, targets, weights = [], [], []
        for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
            rows = slice(0, self.rows - d_row)
            cols = slice(max(0, -d_col), self.columns - max(0, d_col))
            there_rows = slice(d_row, self.rows)
            there_cols = slice(max(0, d_col), self.columns - max(0, -d_col))
            both = self.open[rows, cols] & self.open[there_rows, there_cols]
            sources.append(index[rows, cols][both])
            targets.append(index[there_rows, there_cols][both])
            weights.append(np.full(int(both.sum()), CELL_IN * math.hypot(d_row, d_col)))
        size = self.rows * self.columns
        sources, targets, weights = np.concatenate(sources), np.concatenate(targets), np.concatenate(weights)
        return coo_matrix((weights, (sources, targets)), shape=(size, size)).tocsr()

    def _field(self, key, goal_cells: np.ndarray) -> np.ndarray:
        """Inches from every cell to the nearest of ``goal_cells`` (flat indices; open ones kept),
        cached under ``key``."""
        if key not in self._fields:
            goals = goal_cells[self.open.ravel()[goal_cells]]
            if goals.size == 0:
                self._fields[key] = np.full(self.rows * self.columns, NO_WAY_IN)
            else:
                found = dijkstra(self._graph, directed=False, indices=goals, min_only=True)
                self._fields[key] = np.where(np.isfinite(found), found, NO_WAY_IN)
        return self._fields[key]

    def _cells_at(self, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The (row, column) of the cells under ``xy`` (n x 2 inches), clamped to the table."""
        col = np.clip((xy[:, 0] / CELL_IN).astype(int), 0, self.columns - 1)
        row = np.clip((xy[:, 1] / CELL_IN).astype(int), 0, self.rows - 1)
        return row, col

    def _measure(self, field: np.ndarray, xy) -> float:
        """The field at ``xy`` (inches): its cell's, or, in a cell too near a wall, the nearest open
        cell's plus the way to that cell's centre."""
        point = np.atleast_2d(np.asarray(xy, float))[:, :2]
        row, col = self._cells_at(point)
        near_row, near_col = self._nearest[0][row, col], self._nearest[1][row, col]
        cell = near_row * self.columns + near_col
        aside = 0.0 if self.open[row, col][0] else float(np.hypot(*(point - self.centres[cell]).T)[0])
        return float(field[cell][0]) + aside

    def to_edge(self, edge: str, xy) -> float:
        """Inches along open ground from ``xy`` to the table edge ``edge`` (north, south, east,
        west); :data:`NO_WAY_IN` when none is open from there."""
        index = np.arange(self.rows * self.columns).reshape(self.rows, self.columns)
        cells = {"west": index[:, 0], "east": index[:, -1], "south": index[0, :], "north": index[-1, :]}[edge]
        return self._measure(self._field(("edge", edge), cells), xy) + 0.5 * CELL_IN

    def to_points(self, points, xy) -> float:
        """Inches along open ground from ``xy`` to the nearest of ``points`` ((x, y) pairs,
        inches); :data:`NO_WAY_IN` when none can be reached."""
        spots = np.asarray(points, float).reshape(-1, 2)
        row, col = self._cells_at(spots)
        near_row, near_col = self._nearest[0][row, col], self._nearest[1][row, col]  # a point on a wall's edge
        key = ("points",) + tuple(sorted((round(float(x), 2), round(float(y), 2)) for x, y in spots))
        return self._measure(self._field(key, near_row * self.columns + near_col), xy)


__all__ = ["CELL_IN", "NO_WAY_IN", "RouteMap"]
