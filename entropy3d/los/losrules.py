"""The line-of-sight rules data (``rules/los.yaml``) as a validated, immutable value.

Every threshold the LOS code uses comes from here, never from a constant in code; the YAML file
explains how elevation and size classes combine and why.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from entropy3d.errors import RulesDataError
from entropy3d.resources import rules_file
from entropy3d.scene.rulesfile import read_rules_mapping


@dataclass(frozen=True)
class LosRules:
    """Validated line-of-sight data."""

    level_height_in: float
    """Height of one level (storey), inches."""
    sees_over: Mapping[int, float | None]
    """Size class -> levels the higher model must stand above a piece's top to look over it
    top-down (None: never). TEN-ELEV with EC-LOS-3."""
    miniature_size_class: int
    """Size class other miniatures block as (EC-LOS-3: bikes are class 1)."""
    viewer_edge_samples: int
    """Points along the front half of the viewer's base edge (EC-LOS-2)."""
    target_edge_samples: int
    """Points around the target's base edge (EC-LOS-1)."""
    eye_below_rider_top_in: float
    """The eye sits this far below the top of the rider solid, inches (EC-LOS-4)."""
    silhouette_grid: int
    """The target silhouette is sampled by a grid x grid bundle of rays."""
    min_visible_to_shoot: float
    """Visible fraction of bike and rider needed to shoot (EC-COVER-1: 0.25)."""
    cover_min_hidden: float
    """Hidden fraction from which a target counts as in cover (EC-COVER-1)."""
    bike_seen_min: float
    """Visible fraction of the bike's own silhouette for the bike to count as seen (EC-LOS-4)."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<los rules>") -> "LosRules":
        """Validate the mapping of ``rules/los.yaml``; RulesDataError names every bad key."""
        problems: list[tuple[str, int | None, str]] = []

        def get(path: str, kind: type, low: float | None = None, high: float | None = None):
            node: Any = data
            for key in path.split("."):
                if not isinstance(node, Mapping) or key not in node:
                    problems.append((path, None, "is required"))
                    return kind(1)
                node = node[key]
            if isinstance(node, bool) or not isinstance(node, (int, float)) or (
                    kind is int and not float(node).is_integer()):
                problems.append((path, None, f"must be {'an integer' if kind is int else 'a number'}, "
                                             f"got {node!r}"))
                return kind(1)
            if (low is not None and node < low) or (high is not None and node > high):
                problems.append((path, None, f"must be between {low} and {high}, got {node!r}"))
            return kind(node)

        sees_over_raw = data.get("sees_over") if isinstance(data, Mapping) else None
        sees_over: dict[int, float | None] = {}
        if not isinstance(sees_over_raw, Mapping):
            problems.append(("sees_over", None, "is required: a mapping size class -> levels or null"))
        else:
            for size_class in (1, 2, 3):
                if size_class not in sees_over_raw:
                    problems.append((f"sees_over.{size_class}", None, "is required (levels, or null: never)"))
                    continue
                value = sees_over_raw[size_class]
                if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                          or value < 0):
                    problems.append((f"sees_over.{size_class}", None,
                                     f"must be a number of levels >= 0 or null (never), got {value!r}"))
                    continue
                sees_over[size_class] = None if value is None else float(value)

        rules = dict(
            level_height_in=get("level_height_in", float, 0.01, 100.0),
            sees_over=MappingProxyType(sees_over),
            miniature_size_class=get("miniature_size_class", int, 0, 3),
            viewer_edge_samples=get("top_down.viewer_edge_samples", int, 2, 500),
            target_edge_samples=get("top_down.target_edge_samples", int, 3, 500),
            eye_below_rider_top_in=get("true_los.eye_below_rider_top_in", float, 0.0, 2.0),
            silhouette_grid=get("true_los.silhouette_grid", int, 4, 256),
            min_visible_to_shoot=get("true_los.min_visible_to_shoot", float, 0.0, 1.0),
            cover_min_hidden=get("true_los.cover_min_hidden", float, 0.0, 1.0),
            bike_seen_min=get("true_los.bike_seen_min", float, 0.0, 1.0),
        )
        if problems:
            raise RulesDataError(source, problems)
        return cls(**rules)


@functools.lru_cache(maxsize=4)
def _load_cached(path: str) -> LosRules:
    return LosRules.from_mapping(read_rules_mapping(Path(path)), path)


def load_los_rules(path: str | Path | None = None) -> LosRules:
    """Load and validate a LOS rules data file; the bundled ``rules/los.yaml`` by default."""
    return _load_cached(str(Path(path).resolve() if path else rules_file("los")))
