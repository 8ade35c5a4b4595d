"""The rules engine: pure Python + numpy, no pybullet, panda3d, trimesh, YAML or file I/O.

Rules data arrives as a plain mapping (read from ``rules/*.yaml`` by :mod:`entropy3d.scene`) and
is validated against the schema of :mod:`.rulesdata` (pydantic, every key declared) into a
:class:`~entropy3d.rules.ruleset.Ruleset`.

Modules: :mod:`.roll` (a roll of any rulebook's dice), :mod:`.dice` (tests, pushing, busts),
:mod:`.opposed` (opposed tests), :mod:`.odds` (exact probabilities), :mod:`.speeds` (distances,
speed changes, turn order), :mod:`.plan` (plan notation), :mod:`.planner` (plans -> paths, stress
and tests), :mod:`.events` (crashes, destructibles, jumps, the cliff edge), :mod:`.combat` (melee
geometry, chicken, attack TNs), :mod:`.missions` (scoring), and the one path of a move:
:mod:`.state` (the one game state), :mod:`.facts` (what a producer found on the table),
:mod:`.event` (the one event type) and :mod:`.transition` (``check`` apart from ``resolve``;
:mod:`.riding` resolves a ridden move).
"""

import importlib

#: each public name -> the module that defines it; imported on first use (PEP 562), so that a
#: command needing only the ruleset (``validate``, ``los``) does not import the whole engine
_HOMES = {
    "Outcome": "dice", "PushState": "dice", "TestRoll": "dice", "judge": "dice", "resolve_bust": "dice",
    "roll_test": "dice", "Odds": "odds", "exact_odds": "odds", "OpposedResult": "opposed",
    "opposed_test": "opposed", "Plan": "plan", "parse_plan": "plan", "PlannedMove": "planner",
    "RequiredTest": "planner", "TableProbe": "planner", "plan_move": "planner", "Ruleset": "ruleset",
    "activation_order": "speeds", "check_speed_change": "speeds", "distance_band": "speeds",
    "ModelState": "state", "State": "state", "Action": "transition", "check": "transition",
    "resolve": "transition", "DiceRoll": "roll", "Roll": "roll",
}


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


__all__ = [
    "Action", "DiceRoll", "ModelState", "Odds", "OpposedResult", "Outcome", "Plan", "PlannedMove", "PushState",
    "RequiredTest", "Roll", "Ruleset", "State", "TableProbe", "TestRoll", "activation_order", "check",
    "check_speed_change", "distance_band", "exact_odds", "judge", "opposed_test", "parse_plan", "plan_move",
    "resolve", "resolve_bust", "roll_test",
]
