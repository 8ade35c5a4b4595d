"""A game played in the viewer, headless: a person's gang answered from another thread, the
automatic player at the other, the game written as a replay the share page reads."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from entropy3d.cli import app
from entropy3d.game.replay import ReplayError, read_replay
from entropy3d.game.session import resimulate
from entropy3d.viewer.playing import LiveGame

SMALL_TABLE = Path(__file__).resolve().parents[1] / "data" / "small_table.yaml"


def answer_all(live: LiveGame, plans: list[str], seen: list) -> None:
    """Answer every question until the game ends: the plans (or a rulebook's actions) in turn,
    then a 1" plan (no action: the activation ends), no attack, a dodge, no overwatch."""
    deadline = time.monotonic() + 300
    while not live.done and time.monotonic() < deadline:
        asked = live.question()
        if asked is None:
            time.sleep(0.01)
            continue
        _, question = asked
        seen.append(question)
        if question.kind in ("plan", "action"):
            live.answer(plans.pop(0) if plans else "s1: straight 1" if question.kind == "plan" else "")
        else:
            live.answer("" if question.kind in ("attack", "defence") else "n")
    assert live.done


def test_EC_TURN_4_a_hand_played_gang_is_asked_its_plans_and_a_refused_plan_again(tmp_path):
    """Clauses EC-TURN-4, EC-TER-BUILDING, EC-DICE-4 (issue 47: play a game in the viewer, one
    side by hand). On the small table Hades' cruiser (h1, at (4, 11) facing east) is played by
    hand for 2 turns, Komodo by the automatic player (seed 3, the geometric producer: the same
    game every time). Its first plan, at speed 3 on the game's first action, is refused (EC-TURN-4:
    speed 1) and asked again with the refusal; turn 1 rides 5" twice. In turn 2 a right turn into
    the L-shaped building is refused (EC-TER-BUILDING) and asked again; the 5" ridden instead hits
    Komodo's quad, a bust, and the remount skips its second action (EC-DICE-4): no question. The
    replay says who played, holds the plans typed, and is read by `share`."""
    live = LiveGame(SMALL_TABLE, ["hades"], seed=3, turns=2, folder=tmp_path)
    seen: list = []
    answer_all(live, ["s3: straight 12", "s1: straight 5", "s1: straight 5", "s1: right tight 3, straight 2",
                      "s1: straight 5"], seen)
    assert not live.error, live.error
    plans = [q for q in seen if q.kind == "plan"]
    assert [(q.model_id, q.index) for q in plans] == [("h1", 0), ("h1", 0), ("h1", 1), ("h1", 0), ("h1", 0)]
    assert [q.refusal.split("(")[-1] for q in plans if q.refusal] == ["EC-TURN-4)", "EC-TER-BUILDING)"]
    replay = read_replay(live.replay_path)
    assert live.replay_path == tmp_path / "small_table-played-3.jsonl"
    assert replay.header.players == "hand:hades" and replay.end is not None
    ridden = [(activation.turn, action.action.kind, str(action.plan or "")) for activation in replay.activations
              if activation.model_id == "h1" for action in activation.actions]
    assert ridden == [(1, "move", "s1: straight 5"), (1, "move", "s1: straight 5"), (2, "move", "s1: straight 5"),
                      (2, "skip", "")]
    with pytest.raises(ReplayError, match="played by hand"):
        resimulate(live.replay_path)
    page = tmp_path / "played.html"
    result = CliRunner().invoke(app, ["share", str(live.replay_path), "-o", str(page)])
    assert result.exit_code == 0, result.output
    assert page.stat().st_size > 10_000


def test_a_game_left_before_its_end_is_written_cut_short(tmp_path):
    """Closing the window while a question waits ends the game: what was played is a replay cut
    short (no end record), which the share page reads and says so."""
    live = LiveGame(SMALL_TABLE, ["komodo", "hades"], seed=1, turns=3, folder=tmp_path)
    deadline = time.monotonic() + 120
    while live.question() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    first = live.question()[1]
    assert live.answer("s1: straight 5") and not live.answer("s1: straight 5")  # taken down once answered
    while (live.question() is None or live.question()[1] is first) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert live.question() is not None and not live.done
    live.close()
    assert live.done and not live.error, live.error
    replay = read_replay(live.replay_path)
    assert replay.end is None and replay.header.players == "hand:komodo,hades"


def test_GANG_TURN_any_rulebook_is_played_by_hand_in_its_own_words(tmp_path):
    """Clause GANG-TURN (issue 44: --play for every rulebook, through the one protocol). The gang
    fight (scenes/systems/gang_fight.yaml, seed 0, 1 turn) with the Orlocks played by hand: each
    action is asked in the gang battle's words; "fly away" is refused with the rulebook's list of
    actions (GANG-TURN) and asked again; "walk: straight 2" and "shoot" are taken; nothing typed
    ends the activation (and every later one). The replay holds those two actions of the first
    Orlock asked and says who played. The toy rulebook (Tag) is asked in its words too."""
    scene = Path(__file__).resolve().parents[2] / "scenes" / "systems" / "gang_fight.yaml"
    live = LiveGame(scene, ["orlock"], seed=0, turns=1, folder=tmp_path)
    seen: list = []
    answer_all(live, ["fly away", "walk: straight 2", "shoot"], seen)
    assert not live.error, live.error
    first = seen[0].model_id
    assert {q.kind for q in seen} == {"action"} and first.startswith("orlock_")
    assert [(q.model_id, q.index) for q in seen[:4]] == [(first, 0), (first, 0), (first, 1), (first, 2)]
    assert seen[1].refusal.startswith("unknown action 'fly away'") and seen[1].refusal.endswith("(GANG-TURN)")
    assert 'e.g. "walk: straight 3" or "shoot" or "charge TARGET"' in seen[0].prompt("Orlock")
    replay = read_replay(live.replay_path)
    assert replay.header.players == "hand:orlock"
    taken = [action.action.kind for activation in replay.activations if activation.model_id == first
             for action in activation.actions]
    assert taken[:2] == ["move", "attack"], taken  # the gang battle's shot is an attack action
    tag = LiveGame(SMALL_TABLE.parent / "tag_yard.yaml", ["reds"], folder=tmp_path)
    deadline = time.monotonic() + 120
    while tag.question() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert tag.question()[1].kind == "action" and "tag RUNNER" in tag.question()[1].prompt("Red")
    tag.close()


def test_a_game_that_cannot_be_played_by_hand_is_refused_clearly(tmp_path):
    """--play of a gang the scene does not have is refused with the reason; `view` refuses --play
    of a replay and --seed without --play before anything loads."""
    with pytest.raises(ValueError, match="no gang nobody in .*small_table.yaml; its gangs: hades, komodo"):
        LiveGame(SMALL_TABLE, ["nobody"], folder=tmp_path)
    runner = CliRunner()
    replay = tmp_path / "game.jsonl"
    replay.write_text("{}\n")
    refused = runner.invoke(app, ["view", str(replay), "--play", "hades"])
    assert refused.exit_code == 1 and "--play plays a game of a scene" in refused.output
    seeded = runner.invoke(app, ["view", str(SMALL_TABLE), "--seed", "3"])
    assert seeded.exit_code == 1 and "give --play GANG too" in seeded.output
    assert list(tmp_path.glob("*-played-*.jsonl")) == []


def _typed(chooser, view, options, answers: list[str]):
    """The attack a person types in the viewer (``answers`` in turn, each to the question the
    game's thread posts) and the questions it was asked."""
    import threading

    chosen, asked = [], []
    thread = threading.Thread(target=lambda: chosen.append(chooser.choose_attack(view, options)), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while answers and time.monotonic() < deadline:
        question = chooser.seat.question
        if question is None:
            time.sleep(0.005)
            continue
        asked.append(question)
        chooser.seat.answer(answers.pop(0))
    thread.join(30)
    assert chosen, f"the viewer still asks: {chooser.seat.question}"
    return chosen[0], asked


def test_EC_MEL_KICK_EC_GUN_SPLIT_a_hand_played_rider_types_a_kick_or_a_split_shot():
    """Clauses EC-MEL-KICK, EC-GUN-SPLIT (issue 45: every declarable action from the viewer too).
    Viper (k1: chain, pistol, 5 shots) base to base beside Ash (h1) after its move, played by
    hand: the attacks offered are the chain, the pistol and a kick (a person is offered kicks, as a
    script is; no chicken from the side). Typed as a script writes them: "h1 with pistol x2" is
    the pistol's two shots, split; "h1 with kick own push 2" kicks its own bike 2" away; "h1 with
    pistol x0" is refused with the fix and asked again, and Enter makes no attack."""
    from entropy3d.core.facts import Sight
    from entropy3d.game.action_view import ActionView
    from entropy3d.game.entropy_city_player import EntropyCityPlayer
    from entropy3d.game.hand import HandChooser, HandSeat
    from entropy3d.systems.entropy_city.engine import EntropyCityEngine
    from entropy3d.systems.entropy_city.kick import KickPlan
    from tests.systems.entropy_city.conftest import load_rules
    from tests.systems.entropy_city.test_attacks import Table, armed, side_by_side

    class OpenTable(Table):
        """A flat open table that sees everything: nothing in a kicked bike's way."""

        def solid_under_base(self, outline, z):
            return None

        def rest_level(self, xy, z):
            return z

    rules = load_rules()
    table = OpenTable(Sight(1.0, True, 3.0))
    state = armed(side_by_side(0.0, weapon="chain", gun="pistol", ammo=5), "k1")
    chooser = HandChooser(HandSeat("komodo"))
    player = EntropyCityPlayer("komodo", EntropyCityEngine(rules, table), chooser, {"hades": "sit-at-tn"})
    view = ActionView(state, state.model("k1"), 0, table, rules)
    options = player.attack_options(view)
    assert sorted(o.kind for o in options) == ["chain", "kick", "pistol"]
    shot, asked = _typed(chooser, view, options, ["h1 with pistol x2"])
    assert (shot.kind, shot.target, shot.shots) == ("pistol", "h1", 2) and not asked[0].refusal
    assert "TARGET with WEAPON" in asked[0].prompt("Viper")
    kick, _ = _typed(chooser, view, options, ["h1 with kick own push 2"])
    assert (kick.kind, kick.kick) == ("kick", KickPlan(own=True, push_in=2.0))
    none, asked = _typed(chooser, view, options, ["h1 with pistol x0", ""])
    assert none is None and "say a gun's shots as x2" in asked[1].refusal


def test_EC_MEL_DEF_a_hand_played_rider_attacked_in_melee_chooses_to_attack_back():
    """Clause EC-MEL-DEF (issue 45: the defensive attack from the viewer too). Viper (k1, played
    by the game: it strikes Ash with its chain) attacks Ash (h1, lead pipe, played by hand in the
    viewer), which is armed, not surprised (side on) and not stopped: the rules leave Ash the
    choice, so Ash's person is asked ("Ash is attacked (k1 with chain): a attacks back, d or Enter
    dodges"); "x" is asked again, "a" makes the attack one met by an attack back, Enter a dodge.
    Where the rules leave no choice (a kick, no weapon back) nobody is asked: a dodge."""
    import threading

    from entropy3d.core.facts import Sight
    from entropy3d.game.action_view import ActionView
    from entropy3d.game.entropy_city_player import entropy_city_players
    from entropy3d.game.hand import HandChooser, HandSeat
    from entropy3d.systems.entropy_city.attacks import ATTACK_BACK, DODGE
    from entropy3d.systems.entropy_city.engine import EntropyCityEngine
    from tests.systems.entropy_city.conftest import load_rules
    from tests.systems.entropy_city.test_attacks import Table, armed, side_by_side

    class Striker:
        """The game's chooser for Viper: its chain on the first target offered."""

        push, considers_kicks = "sit-at-tn", False

        def choose_attack(self, view, options):
            return next(o for o in options if o.kind == "chain")

    rules = load_rules()
    table = Table(Sight(1.0, True, 3.0))
    state = armed(side_by_side(0.3, weapon="chain"), "k1")
    state = state.with_model(state.model("h1").but(weapon="leadpipe"))
    seat = HandSeat("hades")
    players = entropy_city_players(EntropyCityEngine(rules, table), {"komodo": Striker(), "hades": HandChooser(seat)})
    view = ActionView(state, state.model("k1"), 0, table, rules)

    def attack(answers: list[str]):
        made, asked = [], []
        thread = threading.Thread(target=lambda: made.append(players["komodo"]._attack(view, None)))
        thread.start()
        while thread.is_alive():
            question = seat.question
            if question is not None and answers:
                asked.append(question)
                seat.answer(answers.pop(0))
            time.sleep(0.005)
        return made[0], asked

    back, asked = attack(["x", "a"])
    assert back.defence == ATTACK_BACK and [q.kind for q in asked] == ["defence", "defence"]
    assert asked[0].prompt("Ash") == "Ash is attacked (k1 with chain): a attacks back, d or Enter dodges"
    assert "answer a (attack back) or d (dodge)" in asked[1].refusal
    dodge, _ = attack([""])
    assert dodge.defence == DODGE
    unarmed = state.with_model(state.model("h1").but(weapon=None))
    view = ActionView(unarmed, unarmed.model("k1"), 0, table, rules)
    plain, asked = attack([])
    assert plain.defence == DODGE and asked == []


def test_EC_ACT_PASS_a_hand_played_holder_types_its_pass_by_name():
    """Clause EC-ACT-PASS (issue 45: pickup and pass from the viewer too). Grab n Go: Viper (k1)
    holds package_1 after its move, Hawk (k2, its gang's) rides base to base beside it: the rules
    offer the pass in lieu of its attack (a holder makes no attack), and the person types it as a
    script writes it, "k2 with pass" (or its number); a pass to a rider not offered, "h1 with
    pass", is asked again."""
    import dataclasses

    from entropy3d.core.facts import Sight
    from entropy3d.game.action_view import ActionView
    from entropy3d.game.entropy_city_player import EntropyCityPlayer
    from entropy3d.game.hand import HandChooser, HandSeat
    from entropy3d.geometry import Pose
    from entropy3d.systems.entropy_city.engine import EntropyCityEngine
    from entropy3d.systems.entropy_city.state import Item
    from tests.systems.entropy_city.conftest import load_rules
    from tests.systems.entropy_city.test_attacks import Table, armed, side_by_side

    rules = load_rules()
    table = Table(Sight(1.0, True, 3.0))
    state = armed(side_by_side(0.3, weapon="chain"), "k1")
    viper = state.model("k1")
    hawk = viper.but(id="k2", pose=Pose(viper.pose.x, viper.pose.y + 42 / 25.4 + 0.3, 0))
    state = state.with_model(hawk)
    state = dataclasses.replace(state, mission="grab_n_go", exits={"komodo": "east", "hades": "west"},
                                items=(Item("package_1", viper.pose.x, viper.pose.y, carrier="k1", held=0),))
    chooser = HandChooser(HandSeat("komodo"))
    player = EntropyCityPlayer("komodo", EntropyCityEngine(rules, table), chooser, {"hades": "sit-at-tn"})
    view = ActionView(state, state.model("k1"), 0, table, rules)
    options = player.attack_options(view)
    assert [(o.kind, o.target) for o in options] == [("pass", "k2")]
    passed, asked = _typed(chooser, view, options, ["h1 with pass", "k2 with pass"])
    assert (passed.kind, passed.target) == ("pass", "k2")
    assert "nor TARGET with WEAPON of those offered" in asked[1].refusal
