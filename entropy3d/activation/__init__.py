"""Activations: a plan checked by the rules, ridden through physics, snapped back to the rules.

:func:`activate` / :func:`ride_action` run it; :class:`GameState` is the state between them;
:mod:`.report` writes the JSON and text reports and :mod:`.drawing` the PNG/GIF.
"""

from entropy3d.activation.activate import ActionResult, activate, ride_action
from entropy3d.activation.snap import RuleEvent, Snapped, snap_ride
from entropy3d.activation.state import AirTime, GameState, initial_state

__all__ = ["ActionResult", "AirTime", "GameState", "RuleEvent", "Snapped", "activate", "initial_state",
           "ride_action", "snap_ride"]
