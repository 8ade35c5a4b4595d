"""Rules commands: ``odds`` (exact test probabilities) and ``plan`` (check a move plan)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from entropy3d.cli.app import SCENE_GEOMETRY_MODULES, app, clean_errors, fail, import_for_command

POLICY_HELP = "push-your-luck policy: sit-at-tn (push while below the TN), risk-aware, never"


@app.command()
@clean_errors
def odds(
    target: Optional[int] = typer.Argument(None, metavar="TN", help="target number of the test (or --tn)"),
    tn: Optional[int] = typer.Option(None, "--tn", help="target number of the test"),
    stress: int = typer.Option(0, "--stress", min=0, help="the rider's current stress"),
    policy: str = typer.Option("sit-at-tn", "--policy", help=POLICY_HELP),
    max_stress: Optional[int] = typer.Option(None, "--max-stress", min=1, max=21, help="the rider's max stress "
                                             "(default: the rules' value)"),
    rules: Optional[Path] = typer.Option(None, "--rules", help="rules data file (default: bundled)"),
    exact: bool = typer.Option(False, "--exact", help="also print each probability as an exact fraction"),
    against_stress: Optional[int] = typer.Option(None, "--against-stress", min=0,
                                                 help="an opposed test (EC-DICE-2): the defender's stress"),
    against_tn: int = typer.Option(0, "--against-tn", min=0, help="a TN the defender must make too (attacking "
                                   "back, chicken); 0: it only has to beat the attacker"),
    kind: str = typer.Option("melee", "--kind", help="opposed test kind, which decides ties: melee, dodge or gun"),
    against_policy: str = typer.Option("sit-at-tn", "--against-policy", help="the defender's " + POLICY_HELP),
) -> None:
    """Exact probabilities of one test, in percent: success (crits included), crit, fail and bust.
    With --against-stress, of an opposed test (EC-DICE-2, EC-DICE-5): the attacker must make its TN
    and beat the defender, both pushing their luck as the game rolls them."""
    from entropy3d.scene import load_ruleset
    from entropy3d.systems.entropy_city.dice import POLICY_NAMES, DiceRules, policy_named
    from entropy3d.systems.entropy_city.odds import exact_odds

    if tn is None and target is None:
        raise fail("error: give the target number: `entropy3d odds 14` or `entropy3d odds --tn 14`", 2)
    if tn is not None and target is not None and tn != target:
        raise fail(f"error: two target numbers ({target} and --tn {tn}); give one", 2)
    tn = tn if tn is not None else target
    for name, value in (("--policy", policy), ("--against-policy", against_policy)):
        if value not in POLICY_NAMES:
            raise fail(f"error: unknown {name} {value!r}; use one of {', '.join(POLICY_NAMES)}", 2)
    ruleset = load_ruleset(rules)
    if against_stress is not None:
        return _opposed_odds(tn, stress, max_stress, policy, against_stress, against_tn, kind, against_policy,
                             ruleset, exact)
    result = exact_odds(tn, stress, ruleset, policy_named(policy, ruleset), max_stress)
    limit = DiceRules.from_ruleset(ruleset).max_stress if max_stress is None else max_stress
    note = f" (at max stress {limit}: TN 21, a fail busts)" if stress >= limit else ""
    typer.echo(f"TN {tn}, stress {stress}, policy {policy}{note}")
    for name in ("success", "crit", "fail", "bust"):
        p = getattr(result, name)
        typer.echo(f"  {name:<8} {float(p):8.2%}" + (f"   {p.numerator}/{p.denominator}" if exact else ""))
    typer.echo("  (success includes crits; success + fail + bust = 1)")


def _opposed_odds(tn, stress, max_stress, policy, against_stress, against_tn, kind, against_policy, ruleset,
                  exact) -> None:
    from fractions import Fraction

    from entropy3d.systems.entropy_city.dice import Outcome, policy_named
    from entropy3d.systems.entropy_city.odds import Side, exact_opposed
    from entropy3d.systems.entropy_city.opposed import decide

    kinds = tuple(ruleset.data("dice.ties_to"))
    if kind not in kinds:
        raise fail(f"error: unknown --kind {kind!r}; use one of {', '.join(kinds)}", 2)
    ends = exact_opposed(kind, Side(tn, stress, policy_named(policy, ruleset), max_stress),
                         Side(against_tn, against_stress, policy_named(against_policy, ruleset)), ruleset)
    rows = {"attacker wins": sum((p for p, a, d in ends if decide(kind, a, d, ruleset).attacker_wins), Fraction(0)),
            "attacker busts": sum((p for p, a, _ in ends if a.outcome is Outcome.BUST), Fraction(0)),
            "defender busts": sum((p for p, _, d in ends if d.outcome is Outcome.BUST), Fraction(0))}
    if against_tn:
        rows["defender makes its TN"] = sum((p for p, _, d in ends if d.succeeded), Fraction(0))
    typer.echo(f"opposed {kind} test: attacker TN {tn}, stress {stress}, {policy}; defender stress {against_stress}"
               + (f", TN {against_tn}" if against_tn else "") + f", {against_policy}")
    for name, p in rows.items():
        typer.echo(f"  {name:<22} {float(p):8.2%}" + (f"   {p.numerator}/{p.denominator}" if exact else ""))
    typer.echo("  (ties go to the " + ruleset.data("dice.ties_to")[kind] + "; a dodge stat is added by the attack "
               "command, not here)")


#: a base passing this close (inches) to something solid gets a warning from ``plan``
TIGHT_IN = 0.5


@app.command()
@clean_errors
def plan(
    scene: Path = typer.Argument(..., help="scene YAML file"),
    plan_text: str = typer.Argument(..., metavar="PLAN", help='e.g. "s3: straight 6, right wide 7"'),
    model: str = typer.Option(..., "--model", "-m", help="id of the model that moves"),
    action_index: int = typer.Option(0, "--action", min=0, max=1, help="0: first action, 1: second"),
    first_action: bool = typer.Option(False, "--first-action-of-game",
                                      help="the first action of turn 1 (speed 1 only)"),
    terrain: bool = typer.Option(True, "--terrain/--no-terrain",
                                 help="ask the scene for terrain, curbs and buildings along the path"),
) -> None:
    """Check a move plan for a model of a scene, the rules' check of the one path (nothing is
    ridden): path length, end pose, stress and tests, or the refusal with its rule clause (exit 1)."""
    import dataclasses

    import_for_command(*SCENE_GEOMETRY_MODULES, "entropy3d.scene.probe")
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.systems.entropy_city.transition import Action, check

    table = load_scene(scene)
    try:
        mini = table.model(model)
    except KeyError as error:
        raise fail(f"error: {error.args[0]}") from None
    geometry = build_table_geometry(table)
    probe = None
    if terrain:
        from entropy3d.scene.probe import SceneProbe

        probe = SceneProbe.from_table(table, geometry)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=1 if first_action else 2)
    state = state.with_model(state.model(mini.id).but(actions_taken=action_index))
    start = state.model(mini.id).pose
    move = check(state, Action.ride(mini.id, plan_text), table.ruleset, probe).move
    end = move.end_pose
    who = mini.rider.name or mini.id
    typer.echo(f"{who} ({mini.id}, {mini.bike_type}, speed {mini.speed} -> {move.speed}): {move.plan}")
    typer.echo(f"  start     x={start.x:.2f}\" y={start.y:.2f}\" facing {start.facing_deg:.1f} deg")
    typer.echo(f"  length    {move.length_in:g}\" (allowed {move.band.min:g}-{move.band.max:g}\")")
    typer.echo(f"  end       x={end.x:.2f}\" y={end.y:.2f}\" facing {end.facing_deg:.1f} deg")
    typer.echo(f"  stress    {move.stress:+d} now")
    if move.tests:
        for test in move.tests:
            typer.echo(f"  test      TN {test.tn}, +{test.stress_on_fail} stress on fail "
                       f"({test.clause}: {test.reason})")
    else:
        typer.echo("  tests     none")
    flags = [name for name, on in (("stopped", move.stopped), ("skips next activation",
             move.skips_next_activation), ("airborne", move.airborne)) if on]
    if move.next_action_speed is not None:
        flags.append(f"next action at speed {move.next_action_speed}")
    if flags:
        typer.echo(f"  then      {', '.join(flags)}")
    typer.echo(f"  clauses   {', '.join(dict.fromkeys(move.clauses))}")
    if probe is not None:
        base = table.ruleset.base_for(mini.bike_type)
        near = probe.closest_solid(move.path, start.z, within=0.5 * base.width)
        if near is not None and near[1] < 0.5 * base.width:
            typer.echo(f"  blocked   the path runs into '{near[0]}' {near[2]:.1f}\" along it: a ride crashes "
                       "there (EC-COL-1)")
        elif near is not None and near[1] < 0.5 * base.width + TIGHT_IN:
            typer.echo(f"  tight     {near[1] - 0.5 * base.width:.1f}\" from '{near[0]}' at {near[2]:.1f}\" "
                       "along the path: the ride may meet it")
        typer.echo("  (terrain, curbs and buildings from the scene)")
