"""What the automatic players make of the bundled gang fight, over many seeds (a report, not a test).

``python3.11 benchmarks/report_gang.py [--seeds 20] [--turns 3] [--producer physics]``

Plays ``scenes/systems/gang_fight.yaml`` (the gang battle rules of seed 003) for each seed and
prints, per game and over all: turns played, shots and hits, fighters Out of Action (shot or
fled on a failed Cool check), the gangs that bottled out, and why the game ended. The target of
the demo: a default 3-turn game usually plays all 3 turns with several shots and at least one
fighter Out of Action.
"""

from __future__ import annotations

import argparse
import statistics
import time

SCENE = "scenes/systems/gang_fight.yaml"


def summarise(replay) -> dict:
    """Turns played, shots, hits, fighters Out of Action (of them fled), gangs bottled, the end."""
    shots = hits = fled = 0
    bottled = []
    for activation in replay.activations:
        for event in activation.events:
            fled += bool(event.figures.get("fled"))
        for action in activation.actions:
            if action.attack is not None:
                shots += 1
                hits += any(e.figures.get("hit") for e in action.attack.events)
            for event in action.events:
                if event.kind == "condition" and event.figures.get("bottled"):
                    bottled.append(event.figures["gang"])
    final = replay.end.state
    return {"turns": replay.end.turns_played, "shots": shots, "hits": hits, "fled": fled,
            "out": sum(1 for m in final.models.values() if m.status == "out"), "bottled": bottled,
            "reason": replay.end.reason, "score": dict(final.score)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--producer", default="physics", choices=("physics", "geometric"))
    args = parser.parse_args()

    from entropy3d.game.session import play_game

    rows = []
    start = time.perf_counter()
    for seed in range(args.seeds):
        t0 = time.perf_counter()
        row = summarise(play_game(SCENE, seed=seed, turns=args.turns, producer=args.producer))
        rows.append(row)
        print(f"seed {seed:>3}: {row['turns']} turn(s), {row['shots']} shots ({row['hits']} hit), "
              f"{row['out']} Out of Action ({row['fled']} fled), bottled {row['bottled'] or '-'}, "
              f"score {row['score']}: {row['reason']} ({time.perf_counter() - t0:.1f} s)")
    n = len(rows)
    print(f"\n{n} games of {args.turns} turns, {args.producer} producer, {time.perf_counter() - start:.0f} s")
    print(f"all {args.turns} turns played: {sum(r['turns'] == args.turns for r in rows)} of {n}; "
          f"median turns {statistics.median(r['turns'] for r in rows)}")
    print(f"median shots per game: {statistics.median(r['shots'] for r in rows)} "
          f"(min {min(r['shots'] for r in rows)}); games with at least 3 shots: "
          f"{sum(r['shots'] >= 3 for r in rows)} of {n}")
    print(f"games with a fighter Out of Action: {sum(r['out'] > 0 for r in rows)} of {n}; median Out of "
          f"Action {statistics.median(r['out'] for r in rows)}; fled on Cool checks in all: "
          f"{sum(r['fled'] for r in rows)}")
    print(f"games with all of it (every turn, >= 3 shots, >= 1 Out of Action): "
          f"{sum(r['turns'] == args.turns and r['shots'] >= 3 and r['out'] > 0 for r in rows)} of {n}")


if __name__ == "__main__":
    main()
