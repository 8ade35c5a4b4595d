"""What the automatic players make of the default demo, over many seeds (a report, not a test).

``python3.11 benchmarks/report_combat.py [--seeds 20] [--turns 3] [--producer physics]``

Plays the default demo (crossroads) for each seed and prints, per game and over all: attacks
(melee, gun, chicken), riders taken out, busts, crashes into static scenery and into models,
and the activations, then the medians and the share of activations ending in a crash into static
scenery (issue 11's target: at most 1 in 20).
"""

from __future__ import annotations

import argparse
import statistics
import time


def summarise(replay, ruleset) -> dict:
    melee = guns = chicken = crashes_static = crashes_wrecks = crashes_models = busts = 0
    wrecks = {w.id for w in replay.end.state.wrecks}
    guns_named = set(ruleset.data("guns"))
    for activation in replay.activations:
        for action in activation.actions:
            if action.attack is not None:
                kind = action.attack["kind"]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--producer", default="physics", choices=("physics", "geometric"))
    args = parser.parse_args()

    from entropy3d.game.session import play_game
    from entropy3d.scene.rulesfile import load_ruleset

    ruleset = load_ruleset()
    rows = []
    start = time.perf_counter()
    for seed in range(args.seeds):
        t0 = time.perf_counter()
        row = summarise(play_game(None, seed=seed, turns=args.turns, producer=args.producer), ruleset)
        rows.append(row)
        print(f"seed {seed:>3}: {row['attacks']} attacks ({row['melee']} melee, {row['guns']} gun, "
              f"{row['chicken']} chicken), {row['taken_out']} taken out, {row['busts']} busts, crashes "
              f"{row['crashes_static']} static / {row['crashes_models']} models in {row['activations']} "
              f"activations, score {row['score']} ({time.perf_counter() - t0:.1f} s)")
    activations = sum(r["activations"] for r in rows)
    static = sum(r["crashes_static"] for r in rows)
    print(f"\n{args.seeds} games, {args.producer} producer, {time.perf_counter() - start:.0f} s")
    print(f"median attacks per game: {statistics.median(r['attacks'] for r in rows)}")
    print(f"games with melee: {sum(r['melee'] > 0 for r in rows)}, "
          f"with gun attacks: {sum(r['guns'] > 0 for r in rows)}")
    print(f"games with a rider taken out: {sum(r['taken_out'] > 0 for r in rows)} of {len(rows)}")
    print(f"crashes into static scenery: {static} in {activations} activations "
          f"(1 in {activations / max(static, 1):.0f}; target: at most 1 in 20), "
          f"{sum(r['crashes_wrecks'] for r in rows)} of them into wrecks")


if __name__ == "__main__":
    main()
