"""EC-STEALTH, EC-TRAIT on a scripted game (tests/data/choice_trait_yard.yaml): the script's attack on a
Stealth rider not seen as the activation began is not made; the next turn, seen, it is, with
Strategist declared in the script's ``use:``."""

from __future__ import annotations

from pathlib import Path

YARD = Path(__file__).resolve().parents[2] / "data" / "choice_trait_yard.yaml"
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


REACH_SCRIPT = """scene: {yard}
turns: 1
fallback: error
activations:
  - {{turn: 1, model: k1, plans: ['s1: straight 8', 's1: right tight 3, straight 4'], attack: h1 with chain,
     defence: attack}}
  - {{turn: 1, model: h1, plans: ['walk: straight 1', 'walk: straight 1']}}
"""


def test_EC_TRAIT_EC_MEL_DEF_a_script_has_the_target_attack_back_and_reach_advantage_strikes_first(tmp_path):
    """Clauses: EC-MEL-DEF, EC-TRAIT (Reach Advantage). The trait yard with Shade facing north and
    carrying a lead pipe, Viper with Reach Advantage, seed 1, 1 turn. Viper rides as in the Stealth
    game (the tight turn's test: 9+2, pushed 9 = 20) and comes down on Shade from its front; the
    script's `defence: attack` has Shade attack back. Viper strikes first: chain TN 14, 7+6, pushed
    4 = 17, a hit: Shade +2 stress. Then Shade tests with that stress: lead pipe TN 13+1 (Viper only
    moved, EC-MOVE-3) = 14, 4+1, pushed 5 and 9, + stress 2 = 21: a hit, Viper +3. Without the trait
    both roll at once and Shade's test is at stress 0."""
    from entropy3d.game.session import play_game
    from entropy3d.video.ending import game_events

    text = YARD.read_text().replace("rider: {name: Shade, traits: {stealth: null}}",
                                    "rider: {name: Shade, weapon: leadpipe}")
    text = text.replace("position: [16, 12], facing: 270,", "position: [16, 12], facing: 90,")
    stress_at_the_answer = []
    for traits in ("{reach_advantage: null}", "{}"):
        yard = tmp_path / "yard.yaml"
        yard.write_text(text.replace("traits: {strategist: 1}", f"traits: {traits}"))
        script = tmp_path / "run.yaml"
        script.write_text(REACH_SCRIPT.format(yard=yard))
        replay = play_game(None, seed=1, producer="geometric", script=script)
        events = [e for e in game_events(replay) if e.kind in ("attack", "trait")]
        answer = next(e for e in events if "attacks back" in e.rules)  # its roll is the last of the event's
        stress_at_the_answer.append(answer.rolls[-1].stress)
        if traits != "{}":
            assert [e.kind for e in events[:2]] == ["trait", "attack"] and "k1 strikes first" in events[0].rules
            assert answer.rolls[-1].dice == (4, 1, 5, 9) and answer.rolls[-1].total == 21
            assert {m.id: m.stress for m in replay.end.state.models.values()} == {"k1": 3, "h1": 2}
    assert stress_at_the_answer == [2, 0]
