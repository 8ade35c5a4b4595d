"""True line of sight (EC-LOS-4, EC-COVER-1): how much of the target the rider's eye can see.

The target's bike and rider are convex solids. Seen from the eye they cover a patch of the view;
a grid of rays over that patch's bounding box finds the silhouette (the rays that hit the
target) and which target part each ray meets first. The caller then casts the same rays against
everything else on the table; the share that arrives unblocked is the visible fraction.
Sampling the silhouette (not the surface) makes an open view exactly 100% visible.
"""

from __future__ import annotations

import numpy as np

from entropy3d.los.losrules import LosRules
from entropy3d.los.rays import segment_convex_entry

BIKE, RIDER = 0, 1


def view_frame(eye: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """(3, 3) rows: forward (eye to centre), right, up; orthonormal."""
    forward = centre - eye
    forward = forward / np.linalg.norm(forward)
    up = np.array([0.0, 0.0, 1.0]) if abs(forward[2]) < 0.999 else np.array([0.0, 1.0, 0.0])
    right = np.cross(forward, up)
    right /= np.linalg.norm(right)
    return np.stack([forward, right, np.cross(right, forward)])


def silhouette_rays(eye: np.ndarray, parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                    grid: int) -> tuple[np.ndarray, np.ndarray]:
    """Rays from ``eye`` through a grid x grid bundle over the target's angular bounding box.

    ``parts`` are the target's convex solids as (vertices, plane normals, plane offsets), bike
    first. Returns ``(ends, part)``: for every ray that hits the target, the point where it first
    meets it (R, 3) and which part that is (R,).
    """
    vertices = np.concatenate([v for v, _, _ in parts])
    frame = view_frame(eye, vertices.mean(axis=0))
    relative = (vertices - eye) @ frame.T
    depth = relative[:, 0]
    if np.any(depth <= 1e-6):
        return np.zeros((0, 3)), np.zeros(0, dtype=np.int64)
    slope = relative[:, 1:] / depth[:, None]
    low, high = slope.min(axis=0), slope.max(axis=0)
    cells = (np.arange(grid) + 0.5) / grid
    a = low[0] + cells * (high[0] - low[0])
    b = low[1] + cells * (high[1] - low[1])
    aa, bb = np.meshgrid(a, b, indexing="ij")
    directions = frame[0] + aa.reshape(-1, 1) * frame[1] + bb.reshape(-1, 1) * frame[2]
    deltas = directions * (1.01 * depth.max())
    starts = np.broadcast_to(eye, deltas.shape)
    entry = np.stack([segment_convex_entry(starts, deltas, normals, offsets) for _, normals, offsets in parts],
                     axis=1)
    part = np.argmin(entry, axis=1)
    t = entry[np.arange(len(entry)), part]
    hit = np.isfinite(t)
    return eye + t[hit, None] * deltas[hit], part[hit]


def true_verdict_numbers(part: np.ndarray, visible: np.ndarray, rules: LosRules) -> dict:
    """The numbers of a :class:`~entropy3d.los.results.TrueVerdict` from per-ray outcomes."""
    rays = len(part)
    fraction = float(visible.sum() / rays) if rays else 0.0
    on_bike = part == BIKE
    bike_fraction = float(visible[on_bike].sum() / on_bike.sum()) if on_bike.any() else 0.0
    bike_seen = bike_fraction >= rules.bike_seen_min and bike_fraction > 0.0
    return {
        "visible_fraction": fraction,
        "bike_fraction": bike_fraction,
        "bike_seen": bike_seen,
        "cover": fraction > 0.0 and (1.0 - fraction) >= rules.cover_min_hidden,
        "can_shoot": bike_seen and fraction >= rules.min_visible_to_shoot,
        "rays": rays,
    }
