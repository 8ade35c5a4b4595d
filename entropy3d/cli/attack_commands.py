"""``entropy3d attack``: can this rider attack that one from where they stand, and at what odds?"""

from __future__ import annotations

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
                                         help="chicken, a melee weapon or a gun (default: the attacker's gun if it "
                                              "has one, else its melee weapon)"),
) -> None:
    """Check an attack from where the models stand in the scene: reach and half-base for melee
    (EC-MEL-1), line of sight and range for a gun (EC-COVER-1, EC-GUN-2); its TN and the exact odds
    of making it; or the refusal with its clause (exit 1)."""
    import dataclasses

    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.tableview import TableView
    from entropy3d.rules.attack_odds import melee_odds, shot_odds
    from entropy3d.rules.attacks import DODGE, weapon_kind
    from entropy3d.rules.odds import exact_odds
    from entropy3d.rules.transition import Action, check
    from entropy3d.scene import load_scene
    from entropy3d.scene.build import build_table_geometry

    table = load_scene(scene)
    geometry = build_table_geometry(table)
    state = dataclasses.replace(table.initial_state(geometry.surface_height), turn=2)
    for who in (attacker, target):
        if who not in state.models:
            raise fail(f"error: {scene}: no model {who!r}; models: {', '.join(state.models)}")
    raider = state.model(attacker)
    weapon = weapon or raider.gun or raider.weapon
    ruleset = table.ruleset
    try:
        kind = weapon_kind(weapon, ruleset)
    except ValueError as error:
        raise fail(f"error: --weapon: {error}") from None
    view = TableView(table, geometry)
    try:
        check(state, Action.attack(attacker, target, weapon), ruleset, view)
    except IllegalPlanError as refusal:
        raise fail(f"{attacker} cannot attack {target} with {weapon}: {refusal}") from None
    typer.echo(f"{attacker} can attack {target} with {weapon} ({kind})")
    if kind == "chicken":
        tn = int(ruleset.data("chicken.tn"))
        odds = exact_odds(tn, raider.stress, ruleset, max_stress=raider.max_stress)
        typer.echo(f"  TN        {tn}")
        typer.echo(f"  odds      {float(odds.success):.1%} to make the TN ({float(odds.bust):.1%} to bust)")
        return
    if kind == "gun":
        sight = view.sight(state, attacker, target, raider.pose)
        typer.echo(f"  sight     {sight.visible_fraction:.0%} of {target} visible, {sight.distance_in:.1f}\" away")
        odds = shot_odds(state, attacker, target, weapon, ruleset)
    else:
        odds = melee_odds(state, attacker, target, weapon, DODGE, ruleset)
    typer.echo(f"  TN        {odds.tn}")
    typer.echo(f"  odds      {float(odds.hit):.1%} to hit against {target}'s dodge (EC-DICE-2), "
               f"{float(odds.headshot):.1%} a headshot; {float(odds.attacker_bust):.1%} to bust")
