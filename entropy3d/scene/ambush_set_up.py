"""The set-up of an ambusher (trait ``ambush``, EC-TRAIT-AMBUSH) checked as a scene is loaded.

"you set up a place for a rider who is off the table to come on later in the game, you have 3
tokens only one of which is the real location": the rider's ``ambush:`` gives the false tokens
(``decoys``, the rules data's ``traits.ambush.tokens`` less the true one, the model's position),
each on the table (inches), and the enemies its player springs it on (``reveal_on``).
"""

from __future__ import annotations

from entropy3d.scene.schema import SceneSpec
from entropy3d.scene.yamlsource import line_of
from entropy3d.systems.entropy_city.ambush import AMBUSH
from entropy3d.systems.entropy_city.ruleset import Ruleset

Problem = tuple[str, "int | None", str]


def ambush_problems(spec: SceneSpec, ruleset: Ruleset, lines: dict[str, int]) -> list[Problem]:
    """What is wrong with the scene's ambushers, each with its key path, line and fix: the trait
    without its tokens or tokens without the trait, the wrong number of decoys, a decoy off the
    table, a ``reveal_on`` that names no enemy model."""
    problems: list[Problem] = []
    tokens = int(ruleset.data(f"traits.{AMBUSH}.tokens") or 0)
    gang_of = {model.id: model.gang for model in spec.models}

    def report(path: str, message: str) -> None:
        problems.append((path, line_of(lines, path), message))

    for i, model in enumerate(spec.models):
        trait, set_up, where = AMBUSH in model.rider.traits, model.rider.ambush, f"models[{i}].rider"
        if trait and set_up is None:
            report(f"{where}.traits.{AMBUSH}", f"an ambusher needs its tokens: add `ambush: {{decoys: "
                   f"{[[0, 0]] * (tokens - 1)}}}` to {model.id}'s rider, its position the true token (EC-TRAIT-AMBUSH)")
        if set_up is None:
            continue
        if not trait:
            report(f"{where}.ambush", f"`ambush:` sets up the trait ambush: add `{AMBUSH}: null` to {model.id}'s "
                                      "traits, or remove it (EC-TRAIT-AMBUSH)")
        if len(set_up.decoys) != tokens - 1:
            report(f"{where}.ambush.decoys", f"{len(set_up.decoys)} decoys: an ambush has {tokens} tokens, the true "
                                             f"one the model's position, so give {tokens - 1} (EC-TRAIT-AMBUSH)")
        for k, (x, y) in enumerate(set_up.decoys):
            if not (0 <= x <= spec.table.width and 0 <= y <= spec.table.depth):
                report(f"{where}.ambush.decoys[{k}]", f"({x}, {y}) is off the {spec.table.width}x{spec.table.depth} "
                                                      "inch table: put the token on it")
        for k, enemy in enumerate(set_up.reveal_on):
            if gang_of.get(enemy, model.gang) == model.gang:
                enemies = ", ".join(m for m, g in gang_of.items() if g != model.gang) or "(none)"
                report(f"{where}.ambush.reveal_on[{k}]", f"{enemy!r} is no enemy model of {model.id}'s; its enemies: "
                                                         f"{enemies}")
    return problems
