"""The one accessor for bundled data: ``rules/``, ``scenes/`` and ``models/``.

In a source checkout (and an editable install) they sit beside the package; a wheel carries them
inside the package as ``entropy3d/_bundled/``.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent
_KINDS = ("rules", "scenes", "models")


def bundled_dir(kind: str) -> Path:
    """The folder of bundled ``rules``, ``scenes`` or ``models``."""
    if kind not in _KINDS:
        raise ValueError(f"unknown bundled data kind {kind!r}; use one of {', '.join(_KINDS)}")
    for candidate in (_PACKAGE_DIR.parent / kind, _PACKAGE_DIR / "_bundled" / kind):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bundled {kind}/ folder not found beside {_PACKAGE_DIR}")


def rules_file(name: str = "entropy_city") -> Path:
    """Path of a bundled rules data file, by name without ``.yaml``."""
    return bundled_dir("rules") / f"{name}.yaml"


def default_scene() -> Path:
    """The bundled default scene (``scenes/crossroads.yaml``)."""
    return bundled_dir("scenes") / "crossroads.yaml"
