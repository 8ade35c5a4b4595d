"""The rules engine: pure Python + numpy, no pybullet, panda3d, trimesh, YAML or file I/O.

Rules data arrives as a plain mapping (read from ``rules/*.yaml`` by :mod:`entropy3d.scene`) and
is validated against the schema of :mod:`.rulesdata` (pydantic, every key declared) into a
:class:`~entropy3d.rules.ruleset.Ruleset`.

Modules: :mod:`.dice` (tests, pushing, busts), :mod:`.opposed` (opposed tests), :mod:`.odds`
(exact probabilities), :mod:`.speeds` (distances, speed changes, turn order), :mod:`.plan`
(plan notation), :mod:`.planner` (plans -> paths, stress and tests), :mod:`.events` (crashes,
destructibles, jumps, the cliff edge), :mod:`.combat` (melee geometry, chicken, attack TNs),
:mod:`.missions` (scoring), and the one path of a move: :mod:`.state` (the one game state),
:mod:`.facts` (what a producer found on the table), :mod:`.event` (the one event type) and
:mod:`.transition` (``check`` apart from ``resolve``; :mod:`.riding` resolves a ridden move).
"""

from entropy3d.rules.dice import Outcome, PushState, TestRoll, judge, resolve_bust, roll_test
from entropy3d.rules.odds import Odds, exact_odds
from entropy3d.rules.opposed import OpposedResult, opposed_test
from entropy3d.rules.plan import Plan, parse_plan
from entropy3d.rules.planner import PlannedMove, RequiredTest, TableProbe, plan_move
from entropy3d.rules.ruleset import Ruleset
from entropy3d.rules.speeds import activation_order, check_speed_change, distance_band
from entropy3d.rules.state import ModelState, State
from entropy3d.rules.transition import Action, check, resolve

__all__ = [
    "Action", "ModelState", "Odds", "OpposedResult", "Outcome", "Plan", "PlannedMove", "PushState", "RequiredTest",
    "Ruleset", "State", "TableProbe", "TestRoll", "activation_order", "check", "check_speed_change",
    "distance_band", "exact_odds", "judge", "opposed_test", "parse_plan", "plan_move", "resolve", "resolve_bust",
    "roll_test",
]
