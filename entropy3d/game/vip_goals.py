"""Playing for the VIP Takedown (issue 45): only a VIP's take-out of the other VIP is the mission.

"Your mission is to have your VIP take out the other either by attacking them or FORCING them to
bust. If a VIP is lost as a result not directly linked to the other the closest friendly
character replaces them immediately" (EC-MISSION-VIP, :mod:`entropy3d.systems.entropy_city.vip`). A sweep of 50
automatic games saw a VIP taken out by the other VIP in 13 (26%); in the first 13 games of it,
8 of the 10 without a take-down lost the Hades VIP (Brakes) to a Komodo rider that is not a VIP:
a sniper's, a pistol's or a shotgun's headshot, a take-out that scores nothing and hands the part
to the nearest Hades rider. So a rider that is not its gang's VIP weighs an attack on the enemy
VIP as any other (softening it for its own VIP: a wound, stress) less :data:`VIP_WASTE` for each
chance in one that the attack takes it out (:func:`wasted_takedown`).

Nothing here decides a rule: the odds are the rules' own (:mod:`entropy3d.systems.entropy_city.attack_odds`),
the weights the automatic players' taste, not rules data.
"""

from __future__ import annotations

from entropy3d.systems.entropy_city.attack_odds import AttackOdds
from entropy3d.systems.entropy_city.attacks import melee_spec
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State
from entropy3d.systems.entropy_city.vip import VIP_TAKEDOWN

#: points (in stress, the unit :meth:`~entropy3d.game.players.AutoPlayer.choose_attack` weighs harm
#: in) a rider that is not its gang's VIP loses for each chance in one that its attack takes the
#: enemy VIP out: more than any hit is worth (a sniper's headshot on a 3-wound VIP is 12), so it
#: takes such a shot only when the take-out is a small part of what the shot may do
VIP_WASTE = 40.0


def hit_wounds(kind: str, ruleset: Ruleset) -> int:
    """Wounds one hit of ``kind`` (a gun or a melee weapon, a kick) deals (EC-WPN, EC-GUN-2)."""
    if kind in ruleset.data("guns"):
        return int(ruleset.data(f"guns.{kind}.wounds"))
    return int(melee_spec(kind, ruleset).get("wounds", 0))


def takeout_chance(target: ModelState, kind: str, odds: AttackOdds, ruleset: Ruleset) -> float:
    """The chance an attack of ``kind`` with ``odds`` takes ``target`` out: a headshot, a hit
    dealing at least the wounds it has left (EC-WOUND), or its own roll busting (EC-DICE-4: a bust
    costs a wound) where that wound may be its last, after a hit (at most: the odds do not say
    whether the bust and the hit come together)."""
    wounds = hit_wounds(kind, ruleset)
    chance = float(odds.hit) if wounds >= target.wounds else float(odds.headshot)
    if target.wounds <= 1 + wounds:
        chance += float(odds.target_bust)
    return min(1.0, chance)


def wasted_takedown(state: State, attacker: ModelState, target: ModelState, kind: str, odds: AttackOdds | None,
                    ruleset: Ruleset) -> float:
    """Points off an attack by ``attacker`` on ``target`` in a VIP Takedown: :data:`VIP_WASTE`
    times the chance it takes the enemy VIP out when ``attacker`` is not a VIP (that take-out is
    no take-down, EC-MISSION-VIP); 0 for any other attack, any other mission, or no odds (chicken)."""
    if (state.mission != VIP_TAKEDOWN or odds is None or attacker.vip or not target.vip
            or target.gang == attacker.gang):
        return 0.0
    return VIP_WASTE * takeout_chance(target, kind, odds, ruleset)


__all__ = ["VIP_WASTE", "hit_wounds", "takeout_chance", "wasted_takedown"]
