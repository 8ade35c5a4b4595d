"""Charismatic Energy (EC-TRAIT): a leader takes stress off the followers it sees, onto itself.

The rulebook: "Jeremiah may absorb the stress from his followers, once per turn he may remove 4
stress divided amongst his followers anyway he chooses providing he has line of sight. [Most
definitely a skill that would require activation. For example he may take 4 from character or 1
from 4 characters, meaning they lose this amount and he gains it.]" Played as an action made in
lieu of the leader's attack (the word :data:`INSPIRE`, with the shares its player chooses:
``Action.shares``), so once an activation and so once a turn; the numbers are the rules data's
``traits.charismatic_energy``.
"""

from __future__ import annotations

from typing import Callable, Sequence

from entropy3d.core.event import Event
from entropy3d.errors import IllegalPlanError
from entropy3d.systems.entropy_city.ruleset import Ruleset
from entropy3d.systems.entropy_city.state import ModelState, State

INSPIRE = "charismatic_energy"


def check_shares(state: State, leader_id: str, shares: Sequence[tuple[str, int]], ruleset: Ruleset,
                 sight: Callable[[str], object] | None) -> None:
    """Whether ``leader_id`` may take ``shares`` ((follower id, stress), each at least 1 and at
    most what the follower has) off its followers: it has the trait, each is a friend in the game
    it sees (the bike itself, as a shot would need, EC-LOS-4; ``sight(follower_id)`` asks the
    table; None sees nothing), and they add up to at most ``traits.charismatic_energy.stress``.
    IllegalPlanError naming the trait."""
    leader = state.model(leader_id)
    most = int(ruleset.data("traits.charismatic_energy.stress"))
    if not leader.trait(INSPIRE)[0]:
        raise IllegalPlanError("EC-TRAIT", f"{leader.id} has no charismatic_energy on its card")
    if not shares:
        raise IllegalPlanError("EC-TRAIT", "say whose stress it takes: {h2: 3, h3: 1}")
    if sum(n for _, n in shares) > most:
        raise IllegalPlanError("EC-TRAIT", f"charismatic energy takes {most} stress a turn at most, not "
                                           f"{sum(n for _, n in shares)}")
    for follower_id, stress in shares:
        follower = state.models.get(follower_id)
        if follower is None or follower.gang != leader.gang or follower.id == leader.id or not follower.in_play:
            raise IllegalPlanError("EC-TRAIT", f"{follower_id} is no follower of {leader.id}'s in the game")
        if not 1 <= stress <= follower.stress:
            raise IllegalPlanError("EC-TRAIT", f"{follower_id} has {follower.stress} stress; take 1 to "
                                               f"{follower.stress}, not {stress}")
        seen = sight(follower_id) if sight is not None else None
        if seen is None or not seen.bike_seen:
            raise IllegalPlanError("EC-TRAIT", f"{leader.id} does not see {follower_id}: charismatic energy needs "
                                               "line of sight")


def resolve_shares(state: State, leader_id: str, shares: Sequence[tuple[str, int]]) -> tuple[State, list[Event]]:
    """The followers lose their shares of stress and the leader gains them all."""
    taken = 0
    for follower_id, stress in shares:
        follower = state.model(follower_id)
        state = state.with_model(follower.but(stress=follower.stress - stress))
        taken += stress
    leader = state.model(leader_id)
    state = state.with_model(leader.but(stress=leader.stress + taken))
    said = ", ".join(f"{n} from {who}" for who, n in shares)
    return state, [Event("trait", leader_id, f"charismatic energy: {leader_id} takes {said} (+{taken} stress) "
                                             "(EC-TRAIT)", clauses=("EC-TRAIT",), stress_change=taken,
                         piece=shares[0][0], figures={"weapon": INSPIRE, "shares": dict(shares)})]


def auto_shares(state: State, leader: ModelState, ruleset: Ruleset, seen: Callable[[str], bool]
                ) -> tuple[tuple[str, int], ...]:
    """What the automatic player takes (DECISION): only when a follower it sees is within 3 of its
    max stress (a bust waiting), the most stressed first, up to the trait's stress, while the
    leader itself stays 3 under its own max; () otherwise."""
    most = int(ruleset.data("traits.charismatic_energy.stress"))
    room = min(most, max(0, leader.max_stress - 3 - leader.stress))
    followers = sorted((m for m in state.models.values() if m.gang == leader.gang and m.id != leader.id
                        and m.in_play and m.stress > 0), key=lambda m: -m.stress)
    if not any(m.stress >= m.max_stress - 3 for m in followers):
        return ()
    shares = []
    for follower in followers:
        if room <= 0:
            break
        if not seen(follower.id):
            continue
        take = min(room, follower.stress)
        shares.append((follower.id, take))
        room -= take
    return tuple(shares)
