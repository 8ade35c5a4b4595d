"""Kinds of automatic player by name, so two of them can be set against each other
(``entropy3d duel``, issue 50) and a replay says which kind played each gang.

``basic`` is the automatic player every game has had so far (Entropy City's
:func:`~entropy3d.game.players.demo_players`: a character and a look-ahead ride per gang; another
rulebook's own ``auto`` player). A kind is registered here as ``"module:attribute"`` of what makes
the choosers of every gang of a game, called as ``make(gangs, ruleset, seed_sequence,
lookahead=..., confirm=...)``; a game whose gangs are played by several kinds asks each kind for
its choosers from the same seed and keeps each gang's from its own kind, so a gang's rng stream
does not depend on who plays the other gangs.

A game played by named kinds writes ``kinds:GANG=KIND,...`` as its replay header's ``players``
(:func:`kinds_label`); a game of the default players keeps ``auto``, so its bytes do not change.
"""

from __future__ import annotations

import importlib
from typing import Callable, Mapping, Sequence

import numpy as np

from entropy3d.errors import EntropyError

#: the kind every gang plays unless told otherwise: today's automatic player
BASIC = "basic"
#: kind name -> ``"module:attribute"`` of what makes every gang's chooser (see the module's docstring)
PLAYER_KINDS: dict[str, str] = {BASIC: "entropy3d.game.players:demo_players"}
#: the prefix of a replay header's ``players`` for a game of named kinds
KINDS_PREFIX = "kinds:"


class PlayerKindError(EntropyError):
    """A player kind that is not registered."""


def check_kind(kind: str) -> str:
    """``kind`` when it is registered, else a :class:`PlayerKindError` naming the known kinds."""
    if kind not in PLAYER_KINDS:
        raise PlayerKindError(f"no player kind {kind!r}; the known kinds: {', '.join(sorted(PLAYER_KINDS))}")
    return kind


def kind_maker(kind: str) -> Callable:
    """What makes the choosers of every gang for ``kind`` (see the module's docstring)."""
    module, attribute = PLAYER_KINDS[check_kind(kind)].split(":")
    return getattr(importlib.import_module(module), attribute)


def kinds_choosers(gangs: Sequence[str], kinds: Mapping[str, str], ruleset, seed: np.random.SeedSequence,
                   **options) -> dict:
    """Each gang's chooser, made by its kind (``kinds``: gang -> kind; a gang left out plays
    :data:`BASIC`), every kind made from the same ``seed`` so gang k gets the same rng stream
    whoever plays it. ``options``: passed to each kind's maker (``lookahead``, ``confirm``)."""
    wanted = {gang: check_kind(kinds.get(gang, BASIC)) for gang in gangs}
    made = {kind: kind_maker(kind)(list(gangs), ruleset, _fresh(seed), **options)
            for kind in sorted(set(wanted.values()))}
    return {gang: made[kind][gang] for gang, kind in wanted.items()}


def _fresh(seed: np.random.SeedSequence) -> np.random.SeedSequence:
    """A copy of ``seed`` that has spawned no child yet (spawning counts on the sequence itself,
    so a second kind made from ``seed`` would otherwise get other streams)."""
    return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size,
                                  n_children_spawned=0)


def kinds_label(kinds: Mapping[str, str]) -> str:
    """The replay header's ``players`` for a game of ``kinds`` (gang -> kind), gangs in the given order."""
    return KINDS_PREFIX + ",".join(f"{gang}={kind}" for gang, kind in kinds.items())


def parse_kinds_label(players: str) -> dict[str, str] | None:
    """gang -> kind from a replay header's ``players`` written by :func:`kinds_label`; None for
    another header (``auto``, ``script:...``, ``hand:...``)."""
    if not players.startswith(KINDS_PREFIX):
        return None
    pairs = [item.split("=", 1) for item in players[len(KINDS_PREFIX):].split(",") if item]
    return {gang: kind for gang, kind in pairs}


__all__ = ["BASIC", "KINDS_PREFIX", "PLAYER_KINDS", "PlayerKindError", "check_kind", "kind_maker",
           "kinds_choosers", "kinds_label", "parse_kinds_label"]
