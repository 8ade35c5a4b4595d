"""The interactive viewer: ``entropy3d view SCENE|REPLAY`` (a window; Panda3D is imported only
when it opens). :mod:`.timeline` holds the window-free logic (stepping a replay, overlays)."""

from entropy3d.viewer.app import HELP, DisplayUnavailable, display_problem, run_viewer

__all__ = ["HELP", "DisplayUnavailable", "display_problem", "run_viewer"]
