"""Every error entropy3d raises on purpose.

Each class subclasses a builtin so callers can catch what they expect (``ValueError`` for bad
input). Messages quote the bad input and, for files, name the file and the key path, so the CLI
can print them as they are, without a traceback.
"""

from __future__ import annotations

from pathlib import Path


class EntropyError(Exception):
    """Base class of all entropy3d errors."""


class InputError(EntropyError, ValueError):
    """Bad input in a file: names the file, the key path, the line when known, and the fix.

    ``problems`` is a list of ``(key_path, line, message)``; ``str()`` renders them one per line.
    """

    def __init__(self, source: str | Path, problems: list[tuple[str, int | None, str]]):
        self.source = str(source)
        self.problems = list(problems)
        super().__init__(self.render())

    def render(self, limit: int = 12) -> str:
        lines = [f"{self.source}: {len(self.problems)} problem(s)"]
        for key_path, line, message in self.problems[:limit]:
            where = key_path or "(top level)"
            if line is not None:
                where = f"line {line}, {where}"
            lines.append(f"  {where}: {message}")
        if len(self.problems) > limit:
            lines.append(f"  ... and {len(self.problems) - limit} more")
        return "\n".join(lines)


class SceneError(InputError):
    """A scene YAML file that does not validate."""


class RulesDataError(InputError):
    """A rules data YAML file (``rules/*.yaml``) that does not validate."""


class MeshError(InputError):
    """A mesh file that is missing, unreadable or degenerate."""


class PlanError(EntropyError, ValueError):
    """A move plan that does not parse; ``column`` is 1-based."""

    def __init__(self, text: str, column: int, message: str):
        self.text = text
        self.column = column
        self.message = message
        pointer = " " * (column - 1) + "^"
        super().__init__(f"plan error at column {column}: {message}\n  {text}\n  {pointer}")


class IllegalPlanError(EntropyError, ValueError):
    """A plan that parses but the rules refuse; ``clause`` is the rulebook clause id; ``action``
    which of an activation's plans it is (1-based; None: not said), for the player's message."""

    def __init__(self, clause: str, message: str, action: int | None = None):
        self.clause = clause
        self.message = message
        self.action = action
        super().__init__(f"{message} ({clause})")


class OutputPathError(EntropyError, ValueError):
    """An output path that cannot be written."""


class GeometryError(EntropyError, ValueError):
    """A piece whose shape cannot be built; ``key_path`` names it in the scene (e.g. ``meshes[2]``)."""

    def __init__(self, key_path: str, message: str):
        self.key_path = key_path
        self.message = message
        super().__init__(f"{key_path}: {message}")


class LibraryUnavailable(EntropyError, RuntimeError):
    """The installed trimesh does not carry the three.js build a shared page needs."""


class ReplayError(InputError):
    """A replay file that cannot be read, or whose scene changed since it was written."""


class ScriptError(InputError):
    """A scripted-game YAML file that does not validate or asks for an illegal plan."""


class DisplayUnavailable(EntropyError, RuntimeError):
    """No display to open a window on."""


class ViewerUsageError(EntropyError, ValueError):
    """A viewer option that does not fit what it opens: --select naming no model, --play with a
    replay or a gang the scene does not have."""


class UnknownSystemError(EntropyError, ValueError):
    """No game system is registered under that name; the message lists those that are."""


class ResultsFolderError(EntropyError, ValueError):
    """A results folder that holds no sweep, or that cannot be made."""


class BackendUnavailable(EntropyError, RuntimeError):
    """A display module that cannot make an offscreen buffer on this machine."""
