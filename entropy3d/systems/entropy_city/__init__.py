"""Entropy City (seed 000), the first rulebook: its engine, rules data schema, missions and words.

Pure Python + numpy: no pybullet, panda3d, trimesh, YAML or file I/O. Rules data arrives as a
plain mapping (read from ``rules/entropy_city.yaml`` by :mod:`entropy3d.scene`) and is validated
against the schema of :mod:`.rulesdata` (pydantic, every key declared) into a
:class:`~entropy3d.systems.entropy_city.ruleset.Ruleset`. :mod:`.system` registers it
(:class:`~entropy3d.systems.entropy_city.system.EntropyCity`) beside the other rulebooks.

Modules: :mod:`.dice` (tests, pushing, busts), :mod:`.opposed` (opposed tests), :mod:`.odds`
(exact probabilities), :mod:`.speeds` (distances, speed changes, turn order), :mod:`.plan` (plan
notation), :mod:`.planner` (plans -> paths, stress and tests), :mod:`.events` (crashes,
destructibles, jumps, the cliff edge), :mod:`.combat` (melee geometry, chicken, attack TNs),
:mod:`.missions` (scoring), :mod:`.state` (the game state, still shared with the other rulebooks
until its per-rulebook part moves out) and :mod:`.transition` (``check`` apart from ``resolve``;
:mod:`.riding` resolves a ridden move). The types no rulebook shapes (the event, the roll, the
facts) are in :mod:`entropy3d.core`.
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
    "resolve": "transition",
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
    "Action", "ModelState", "Odds", "OpposedResult", "Outcome", "Plan", "PlannedMove", "PushState",
    "RequiredTest", "Ruleset", "State", "TableProbe", "TestRoll", "activation_order", "check",
    "check_speed_change", "distance_band", "exact_odds", "judge", "opposed_test", "parse_plan", "plan_move",
    "resolve", "resolve_bust", "roll_test",
]
