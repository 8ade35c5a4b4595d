"""``entropy3d attack``: can this rider attack that one from where they stand, and at what odds?"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Optional

import typer

from entropy3d.cli.app import app, clean_errors, fail


@app.command()
@clean_errors
def attack(
    scene: Path = typer.Argument(..., help="scene YAML file"),
    attacker: str = typer.Option(..., "--attacker", help="id of the attacking model"),
    target: str = typer.Option(..., "--target", help="id of the model attacked"),
    weapon: Optional[str] = typer.Option(None, "--weapon",
                                         help="chicken, kick, a melee weapon or a gun (default: the attacker's gun "
                                              "if it has one, else its melee weapon)"),
    png: Optional[Path] = typer.Option(None, "--png", help="also draw the attack from above: both riders, the "
                                                           "reach or the sight line with the share visible, the "
                                                           "verdict, TN and odds"),
) -> None:
    """Check an attack from where the models stand in the scene: reach and half-base for melee
    (EC-MEL-1), line of sight and range for a gun (EC-COVER-1, EC-GUN-2); its TN and the exact odds
    of making it; or the refusal with its clause (exit 1, after drawing it with --png)."""
    import dataclasses

    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.tableview import TableView
    from entropy3d.outputs import check_output_path
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry
    from entropy3d.systems.entropy_city.attack_chances import ALONG_THE_MOVE
    from entropy3d.systems.entropy_city.attack_odds import melee_odds, shot_odds
    from entropy3d.systems.entropy_city.attacks import DODGE, weapon_kind
    from entropy3d.systems.entropy_city.combat import gun_range_in
    from entropy3d.systems.entropy_city.odds import exact_odds
    from entropy3d.systems.entropy_city.transition import Action, check
    from entropy3d.systems.words import Names

    if png is not None:
        check_output_path(png, (".png",))
    table = load_scene(scene)
    geometry = build_table_geometry(table)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    for who in (attacker, target):
        if who not in state.models:
            raise fail(f"error: {scene}: {table.no_model(who)}")
    # the question is whether it may attack having ridden to where it stands (EC-ACT-ATTACK)
    raider = state.model(attacker).but(attack_chance=ALONG_THE_MOVE)
    state = state.with_model(raider)
    weapon = weapon or raider.gun or raider.weapon
    ruleset = table.ruleset
    try:
        kind = weapon_kind(weapon, ruleset)
    except ValueError as error:
        raise fail(f"error: --weapon: {error}") from None
    names = Names.of_table(table)
    called = names.rider_and_id

    view = TableView(table, geometry)
    refusal = None
    try:
        check(state, Action.attack(attacker, target, weapon), ruleset, view)
    except IllegalPlanError as refused:
        refusal = f"{called(attacker)} cannot attack {called(target)} with {weapon}: {names.named(str(refused))}"
    lines = [f"{called(attacker)} can attack {called(target)} with {weapon} ({kind})"]
    sight = view.sight(state, attacker, target, raider.pose) if kind == "gun" else None
    if sight is not None:
        need = float(ruleset.data("shooting.min_visible_fraction"))
        cover = (", too little to shoot (EC-COVER-1)" if sight.visible_fraction < need - 1e-9
                 else ", in cover (EC-COVER-1)" if sight.visible_fraction < 1.0 - 1e-6 else "")
        reach = gun_range_in(weapon, ruleset)
        in_range = "unlimited" if math.isinf(reach) else f"{reach:.1f}\""
        lines.append(f"  sight     {sight.visible_fraction:.0%} of {names.rider(target)} visible, "
                     f"{sight.distance_in:.1f}\" away (range {in_range}){cover}")
    if kind == "chicken" and refusal is None:
        tn = int(ruleset.data("chicken.tn"))
        odds = exact_odds(tn, raider.stress, ruleset, max_stress=raider.max_stress)
        lines += [f"  TN        {tn}",
                  f"  odds      {float(odds.success):.1%} to make the TN ({float(odds.bust):.1%} to bust)"]
    elif refusal is None:
        odds = (shot_odds(state, attacker, target, weapon, ruleset) if kind == "gun"
                else melee_odds(state, attacker, target, weapon, DODGE, ruleset))
        lines += [f"  TN        {odds.tn}",
                  f"  odds      {float(odds.hit):.1%} to hit against {names.rider(target)}'s dodge (EC-DICE-2), "
                  f"{float(odds.headshot):.1%} a headshot; {float(odds.attacker_bust):.1%} to bust"]
    if png is not None:
        shown = [refusal] + lines[1:] if refusal is not None else lines
        _draw(png, table, geometry, state, view, attacker, target, weapon, kind, shown, refusal is None, names)
    if refusal is not None:
        raise fail(refusal)
    for line in lines:
        typer.echo(line)
    if png is not None:
        typer.echo(f"wrote {png}")


def _draw(png: Path, table, geometry, state, view, attacker: str, target: str, weapon: str, kind: str,
          lines: list[str], allowed: bool, names) -> None:
    """Draw the attack (:mod:`entropy3d.activation.attack_picture`) and write it atomically."""
    import io

    from entropy3d.activation.attack_picture import AttackScene, draw_attack
    from entropy3d.game.tableview import sight_poses
    from entropy3d.outputs import write_atomic
    from entropy3d.systems.entropy_city.combat import gun_range_in, weapon_reach_in

    ruleset = table.ruleset

    def who(model_id: str):
        model = state.model(model_id)
        return (names.rider(model_id), model.pose, ruleset.base_for(model.bike_type), table.gang_colour(model.gang))

    reach = rays = visible = None
    if kind == "melee":
        reach = weapon_reach_in(weapon, ruleset)
    elif kind == "gun":
        reach = gun_range_in(weapon, ruleset)
        reach = None if math.isinf(reach) else reach  # the sniper rifle's unlimited range: no circle
        result = view.los.line_of_sight(attacker, target, sight_poses(state))
        visible = float(result.true_los.visible_fraction)
        rays = (result.geometry.ray_ends, result.geometry.rays_visible)
    others = tuple((names.rider(m.id), m.pose, ruleset.base_for(m.bike_type)) for m in state.models.values()
                   if m.in_play and m.id not in (attacker, target))
    picture = draw_attack(geometry, state.scenery, AttackScene(
        who(attacker), who(target), others, weapon, kind, reach, visible, rays, allowed, tuple(lines)),
        float(ruleset.data("shooting.min_visible_fraction")))
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    write_atomic(png, buffer.getvalue())
