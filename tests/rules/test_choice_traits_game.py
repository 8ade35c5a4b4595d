"""EC-STEALTH, EC-TRAIT on a scripted game (tests/data/choice_trait_yard.yaml): the script's attack on a
Stealth rider not seen as the activation began is not made; the next turn, seen, it is, with
Strategist declared in the script's ``use:``."""

from __future__ import annotations

from pathlib import Path

YARD = Path(__file__).resolve().parents[1] / "data" / "choice_trait_yard.yaml"
SCRIPT = """scene: {yard}
turns: 2
fallback: error
activations:
  - {{turn: 1, model: k1, plans: ['s1: straight 8', 's1: right tight 3, straight 4'], attack: h1 with chain}}
  - {{turn: 1, model: h1, plans: ['walk: straight 1', 'walk: straight 1']}}
  - {{turn: 2, model: k1, plans: ['s1: straight 4', 's1: straight 4'], attack: h1 with chain,
     use: {{strategist: [attack]}}}}
  - {{turn: 2, model: h1, plans: ['walk: straight 1', 'walk: straight 1']}}
"""


def play(tmp_path, yard_text: str):
    from entropy3d.game.session import play_game
    from entropy3d.video.ending import game_events

    yard = tmp_path / "yard.yaml"
    yard.write_text(yard_text)
    script = tmp_path / "run.yaml"
    script.write_text(SCRIPT.format(yard=yard))
    replay = play_game(None, seed=1, producer="geometric", script=script)
    return replay, [e for e in game_events(replay) if e.kind == "attack" and "weapon" in e.figures]


def test_EC_STEALTH_EC_TRAIT_a_scripted_game_strikes_the_stealth_rider_only_once_seen(tmp_path):
    """Clauses: EC-STEALTH, EC-TRAIT (Stealth, Strategist (x)). The trait yard, seed 1, geometric.
    Turn 1: Viper (k1, police, chain, Strategist 1) at (4, 18) facing east; Shade (h1, on foot,
    Stealth) at (16, 12) behind the wall's east end (the wall x 8-12, y 8-16: the line from
    (4, 18) to (16, 12) crosses it from x = 8, y = 16 to x = 12, y = 14). Viper rides 8" east to
    (12, 18), then a tight right turn (TN 14 test: 9+2 = 11, pushed 9 = 20, passed) and 4" south
    down to (13.9, 12.1): beside Shade, 2.1" centre to centre, in the chain's 2" reach edge to
    edge. The script's `attack: h1 with chain` is not made: Viper did not see Shade as its
    activation began. The same game with Shade's Stealth left out makes it there.
    Turn 2: Shade walked 2" south to (16, 10); Viper, beside it at its activation's start (sees
    it), rides 4" south and strikes from behind (a surprise, EC-MEL-2: Shade +3 stress, dodge
    only) with Strategist declared: it rolls 4, 4 and 1, keeps 4+4 = 8 (the pairs 4+1 are 5),
    sets the 1 aside, pushes 8 and 2 to 18 against TN 15 (14 + 1 as Shade only moved, EC-MOVE-3);
    Shade's dodge 5+9+3 = 17 is beaten: hit, +2 stress. Its one use is spent."""
    replay, attacks = play(tmp_path, YARD.read_text())
    assert [(a.model, a.figures["tn"], a.figures["hit"]) for a in attacks] == [("k1", 15, True)]
    [swing] = attacks
    assert swing.rolls[0].dice == (4, 4, 8, 2) and swing.rolls[0].discarded == (1,) and swing.rolls[0].total == 18
    assert swing.rolls[1].total == 17 and replay.end.state.model("h1").stress == 5
    assert replay.end.state.model("k1").trait_uses == (("strategist", 1),)
    _, unhidden = play(tmp_path, YARD.read_text().replace("traits: {stealth: null}", "traits: {}"))
    assert len(unhidden) == 2 and unhidden[0].model == "k1"
