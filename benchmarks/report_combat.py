"""What the automatic players make of the default demo, over many seeds (a report, not a test).

``python3.11 benchmarks/report_combat.py [--seeds 20] [--turns 3] [--producer physics] [--detail]``

Plays the default demo (crossroads) for each seed and prints, per game and over all: attacks
(melee, gun, chicken), riders taken out, busts, crashes into static scenery and into models,
and the activations, then the medians and the activations ending in a crash into static scenery,
split into the avoidable ones (issue 11's target: at most 1 in 20 activations) and the cornered
ones. An activation's static crash is *avoidable* when a straight or a template plan within the
rules (:func:`~entropy3d.game.candidates.candidate_plans` at the speeds the rider could declare,
legal by the rules' ``check`` against the table) ridden through the game's own producer from the
same state meets nothing (:func:`~entropy3d.game.players.ride_meets`): the report decides no rule.
``--detail`` prints each avoidable crash: who, which plan, what it hit, what the geometric
look-ahead made of the plan, and the clear plan the player could have ridden and its rank in the
player's own scoring (past ``looks``: the player never looked at it).
"""

from __future__ import annotations

import argparse
import statistics
import time


class RecordingPlayer:
    """A player that remembers the view of every plan it chose this activation (by action
    index), so the report can ride the alternatives from the same state; all else is the
    wrapped player's."""

    def __init__(self, player):
        self.player = player
        self.views: dict = {}

    def __getattr__(self, name):
        return getattr(self.player, name)

    def choose_plan(self, view):
        self.views[(view.model.id, view.action_index)] = view
        return self.player.choose_plan(view)


def summarise(replay, ruleset) -> dict:
    melee = guns = chicken = crashes_static = crashes_wrecks = crashes_models = busts = 0
    wrecks = {w.id for w in replay.end.state.wrecks}
    guns_named = set(ruleset.data("guns"))
    for activation in replay.activations:
        for action in activation.actions:
            if action.attack is not None:
                kind = action.attack.kind
                chicken += kind == "chicken"
                guns += kind in guns_named
                melee += kind not in guns_named and kind != "chicken"
            for event in action.events:
                guns += bool(event.figures.get("overwatch"))  # a shot from overwatch, in the ride it saw
                if event.kind == "crash":
                    if event.piece in replay.header.initial.models:
                        crashes_models += 1
                    else:
                        crashes_static += 1
                        crashes_wrecks += event.piece in wrecks
                busts += event.kind == "bust"
    final = replay.end.state
    out = sum(1 for m in final.models.values() if m.status == "out")
    return {"activations": len(replay.activations), "attacks": melee + guns + chicken, "melee": melee, "guns": guns,
            "chicken": chicken, "taken_out": out, "busts": busts, "crashes_static": crashes_static,
            "crashes_wrecks": crashes_wrecks,
            "crashes_models": crashes_models, "score": dict(final.score)}


def static_crash(activation, models) -> tuple[int, object] | None:
    """(action index, crash event) of the first crash into static scenery in ``activation``."""
    for action in activation.actions:
        for event in action.events:
            if event.kind == "crash" and event.piece not in models:
                return action.index, event
    return None


def classify(view, producer, player) -> dict:
    """Whether the crash of the plan chosen from ``view`` was avoidable: the legal straight and
    template plans (:func:`candidate_plans`) ridden through ``producer``; the first clear one in the
    player's own order of scores (no random variety), its rank, and how many plans ranked above it
    the player's geometric look-ahead finds clear (the physics confirmations they would take)."""
    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.candidates import candidate_plans, check_plans
    from entropy3d.game.players import ride_meets

    moves = check_plans(view, candidate_plans(view))
    ranked = sorted(moves, key=lambda m: -player.score(view, m))
    geometric_clear_above = 0
    for rank, move in enumerate(ranked):
        try:
            action = view.checked(move.plan)
        except IllegalPlanError:
            continue
        clear = ride_meets(view, action, move, producer) is None
        if clear:
            return {"avoidable": True, "clear_plan": str(move.plan), "rank": rank, "legal": len(ranked),
                    "geometric_clear_above": geometric_clear_above}
        if player.lookahead is not None and ride_meets(view, action, move, player.lookahead) is None:
            geometric_clear_above += 1
    return {"avoidable": False, "legal": len(ranked)}


def look_ahead(view, plan: str, player) -> str:
    """What the player's geometric look-ahead makes of ``plan`` from ``view``."""
    from entropy3d.errors import IllegalPlanError
    from entropy3d.game.players import ride_meets

    if player.lookahead is None:
        return "none"
    try:
        action = view.checked(plan)
    except IllegalPlanError as error:
        return f"refused by the table ({error.clause}), ridden as unavoidable"
    met = ride_meets(view, action, action.move, player.lookahead)
    return "clear" if met is None else f"met at {met:.1f}\""


def play(seed: int, turns: int, producer_name: str, detail: bool) -> tuple[dict, list[dict]]:
    """Play one game; its summary and one row per activation ending in a static crash."""
    from entropy3d.game.records import ActivationRecord, EndRecord, TurnRecord
    from entropy3d.game.replay import Replay
    from entropy3d.game.session import make_producer, setup_game

    game, header = setup_game(None, seed=seed, turns=turns, producer=producer_name)
    recorders = {gang: RecordingPlayer(p) for gang, p in game.players.items()}
    game.players = recorders
    judge = make_producer(producer_name, game.table, game.producer.geometry)
    turns_, activations, end, crashes, judging_s = [], [], None, [], 0.0
    try:
        for record in game.play():
            if isinstance(record, TurnRecord):
                turns_.append(record)
            elif isinstance(record, EndRecord):
                end = record
            elif isinstance(record, ActivationRecord):
                activations.append(record)
                recorder = recorders[record.gang]
                found = static_crash(record, header.initial.models)
                if found is not None:
                    index, event = found
                    view = recorder.views[(record.model_id, index)]
                    t0 = time.perf_counter()
                    row = classify(view, judge, recorder.player)
                    chosen = next(a for a in record.actions if a.index == index)
                    row.update(seed=seed, turn=record.turn, model=record.model_id, index=index, plan=chosen.plan,
                               piece=event.piece, event=event.text if detail else "",
                               geometric=look_ahead(view, chosen.plan, recorder.player))
                    judging_s += time.perf_counter() - t0
                    crashes.append(row)
                recorder.views.clear()
    finally:
        game.producer.close()
        judge.close()
    replay = Replay(header, tuple(turns_), tuple(activations), end)
    return {**summarise(replay, game.ruleset), "judging_s": judging_s}, crashes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--producer", default="physics", choices=("physics", "geometric"))
    parser.add_argument("--detail", action="store_true", help="print every avoidable crash")
    args = parser.parse_args()

    rows, crashes = [], []
    start = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        t0 = time.perf_counter()
        row, found = play(seed, args.turns, args.producer, args.detail)
        row["game_s"] = time.perf_counter() - t0 - row["judging_s"]
        rows.append(row)
        crashes += found
        avoidable = sum(c["avoidable"] for c in found)
        print(f"seed {seed:>3}: {row['attacks']} attacks ({row['melee']} melee, {row['guns']} gun, "
              f"{row['chicken']} chicken), {row['taken_out']} taken out, {row['busts']} busts, crashes "
              f"{row['crashes_static']} static / {row['crashes_models']} models in {row['activations']} "
              f"activations ({avoidable} avoidable), score {row['score']} ({row['game_s']:.1f} s "
              f"+ {row['judging_s']:.1f} s judging)",
              flush=True)
        if args.detail:
            for c in found:
                if c["avoidable"]:
                    print(f"    avoidable: turn {c['turn']} {c['model']} action {c['index']} '{c['plan']}' "
                          f"-> {c['piece']} (look-ahead: {c['geometric']}); clear: '{c['clear_plan']}' "
                          f"rank {c['rank']} of {c['legal']}, {c['geometric_clear_above']} geometric-clear "
                          f"above it\n      {c['event']}")
    activations = sum(r["activations"] for r in rows)
    static = sum(r["crashes_static"] for r in rows)
    avoidable = sum(c["avoidable"] for c in crashes)
    print(f"\n{args.seeds} games, {args.producer} producer, {time.perf_counter() - start:.0f} s "
          "(the crash judging included)")
    print(f"seconds per game (play only): median {statistics.median(r['game_s'] for r in rows):.1f}, "
          f"total {sum(r['game_s'] for r in rows):.0f}")
    print(f"median attacks per game: {statistics.median(r['attacks'] for r in rows)}")
    print(f"games with melee: {sum(r['melee'] > 0 for r in rows)}, "
          f"with gun attacks: {sum(r['guns'] > 0 for r in rows)}")
    print(f"games with a rider taken out: {sum(r['taken_out'] > 0 for r in rows)} of {len(rows)}")
    print(f"crash events into static scenery: {static}, {sum(r['crashes_wrecks'] for r in rows)} of them into wrecks")
    print(f"activations ending in a static crash: {len(crashes)} in {activations}: {avoidable} avoidable "
          f"(1 in {activations / max(avoidable, 1):.0f}; target: at most 1 in 20), "
          f"{len(crashes) - avoidable} unavoidable (cornered: no legal straight or template rides clear)")


if __name__ == "__main__":
    main()
