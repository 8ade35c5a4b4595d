"""The set-up checks every mission that gives each gang something of its own shares (a VIP, a
deployment edge): one entry per gang the scene has, none for a gang it lacks, two gangs at least."""

from __future__ import annotations

from typing import Callable, Mapping, Sequence


def per_gang_problems(declared: Mapping[str, object], gangs: Sequence[str], key: str, mission: str, clause: str,
                      missing: Callable[[str], str]) -> list[tuple[str, str]]:
    """(scene key path, message) for each entry of ``declared`` (gang -> its VIP, its edge...) at
    ``key`` naming a gang the scene lacks, each gang with no entry (``missing(gang)`` says what to
    add), and a scene of fewer than two gangs (``mission`` is the mission's name in words)."""
    problems = [(f"{key}.{gang}", f"no gang {gang!r} in the scene; its gangs: {', '.join(gangs) or '(none)'} "
                                  f"({clause})") for gang in declared if gang not in gangs]
    problems += [(key, missing(gang)) for gang in gangs if gang not in declared]
    if len(gangs) < 2:
        problems.append(("gangs", f"{mission} is played by two or more gangs; this scene has {len(gangs)} "
                                  f"({clause})"))
    return problems
