"""The answers of a line-of-sight query: small immutable values with readable reprs."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class TopDownVerdict:
    """Top-down LOS (EC-LOS-1..3): thin lines from base edge to base edge, seen from above."""

    visible: bool
    """True when at least one line is clear."""
    clear_lines: int
    """How many of the drawn lines no piece blocks."""
    lines: int
    """How many lines were drawn: front-half viewer edge points x target edge points that lie
    in front of the viewer (0 when the target is wholly behind it, EC-LOS-2)."""
    blockers: tuple[str, ...]
    """Ids of the pieces and miniatures that block at least one line, sorted."""

    def __repr__(self) -> str:
        verdict = "visible" if self.visible else "blocked"
        return (f"TopDownVerdict({verdict}, {self.clear_lines}/{self.lines} lines clear"
                + (f", blockers={list(self.blockers)})" if self.blockers else ")"))


@dataclass(frozen=True)
class TrueVerdict:
    """True LOS (EC-LOS-4, EC-COVER-1): from the rider's eye to the target's bike and rider."""

    visible_fraction: float
    """Visible share of the target's bike-and-rider silhouette, 0-1 (out of the front half only)."""
    bike_fraction: float
    """Visible share of the bike's own silhouette, 0-1 (EC-LOS-4: the bike, not a limb)."""
    bike_seen: bool
    """The bike itself is seen (``bike_fraction`` at least ``bike_seen_min`` of rules/los.yaml)."""
    cover: bool
    """Partly visible: seen, but at least ``cover_min_hidden`` of it hidden (EC-COVER-1)."""
    rays: int
    """Rays that sampled the target's silhouette."""
    blockers: tuple[str, ...]
    """Ids of the pieces and miniatures that stop at least one ray, sorted."""
    rays_behind: int = 0
    """Of ``rays``, those to points behind the viewer's base centre line, which see nothing
    (EC-LOS-2: no sight out of the back half of the base): why a target in plain view from the
    eye can be 0% visible."""

    def behind_words(self, viewer: str) -> str:
        """How many rays end behind the viewer's front half: "all behind Brakes's front half,
        EC-LOS-2", "362 of them behind ..." (``viewer``: how to call the viewer)."""
        share = "all" if self.rays_behind == self.rays else f"{self.rays_behind} of them"
        return f"{share} behind {viewer}'s front half, EC-LOS-2"

    def __repr__(self) -> str:
        flags = [name for name, on in (("bike seen", self.bike_seen), ("cover", self.cover)) if on]
        return (f"TrueVerdict({100 * self.visible_fraction:.0f}% visible" + "".join(f", {f}" for f in flags)
                + (f", blockers={list(self.blockers)})" if self.blockers else ")"))


@dataclass(frozen=True, eq=False)
class SightGeometry:
    """The lines and rays behind a verdict, table inches, for drawing (not compared)."""

    lines: np.ndarray = field(repr=False)
    """(L, 2, 2) top-down lines, start and end (x, y)."""
    lines_clear: np.ndarray = field(repr=False)
    """(L,) True where the top-down line is clear."""
    eye: np.ndarray = field(repr=False)
    """(3,) the viewer's eye."""
    ray_ends: np.ndarray = field(repr=False)
    """(R, 3) where each silhouette ray meets the target."""
    rays_visible: np.ndarray = field(repr=False)
    """(R,) True where the ray reaches the target unblocked and out of the front half."""


@dataclass(frozen=True)
class LosResult:
    """Both verdicts for one viewer looking at one target."""

    viewer: str
    """Model id of the viewer."""
    target: str
    """Model id of the target."""
    top_down: TopDownVerdict
    """The top-down verdict (EC-LOS-1..3)."""
    true_los: TrueVerdict
    """The true-LOS verdict (EC-LOS-4, EC-COVER-1)."""
    geometry: SightGeometry = field(repr=False, compare=False)
    """Lines and rays for drawing."""

    def to_dict(self) -> dict:
        """Plain data for ``--json``."""
        td, tl = self.top_down, self.true_los
        return {
            "viewer": self.viewer, "target": self.target,
            "top_down": {"visible": td.visible, "clear_lines": td.clear_lines, "lines": td.lines,
                         "blockers": list(td.blockers)},
            "true_los": {"visible_percent": round(100 * tl.visible_fraction, 1),
                         "bike_visible_percent": round(100 * tl.bike_fraction, 1),
                         "bike_seen": tl.bike_seen, "cover": tl.cover,
                         "rays": tl.rays, "rays_behind_viewer": tl.rays_behind, "blockers": list(tl.blockers)},
        }

