"""Tag: the smallest rulebook that plays on the shared table, the example of
``docs/new-rulebook.md``.

Two sides of runners (miniatures on foot) take turns one runner at a time. A runner walks up to
its move, or tags an enemy within reach on a die roll; a tagged runner is out and the tagger's
side scores. The game ends when a side has no runner left or the turns run out; most points wins.

This folder is the whole rulebook: the system (here: its name, clauses, rules-data schema and
where its engine, player and words live), :mod:`.engine` (check and resolve, the turn's phases,
the mission), :mod:`.player` (its automatic player) and :mod:`.sentences` (its words). Its rules
data is ``rules/tag.yaml``; its one registration line is in :data:`entropy3d.systems.SYSTEMS`.
"""

from __future__ import annotations

from typing import ClassVar, Mapping

from pydantic import Field

from entropy3d.systems.base import GameSystem, Imported, SystemRules


class TagRules(SystemRules):
    """``rules/tag.yaml``: how far a runner walks, how near it must be to tag, the roll a tag needs."""

    move_in: float = Field(gt=0, description="the longest walk of a runner, inches (TAG-MOVE)")
    reach_in: float = Field(gt=0, description="a tag reaches an enemy whose base centre is this near, inches (TAG-TAG)")
    tag_on: int = Field(ge=1, description="the die's result (or more) that tags (TAG-TAG)")
    die_sides: int = Field(ge=2, description="faces of the die rolled for a tag and for going first (TAG-TURN)")
    points_per_tag: int = Field(ge=0, description="what a side scores for each enemy it tags (TAG-END)")
    path_spacing_in: float = Field(gt=0, description="a walk is checked against the table this often, inches")
    mission: str = Field(description="the mission's name in the replay and on the end card")


class Tag(GameSystem):
    """Tag on the shared table (see the module)."""

    name = "tag"
    title = "Tag (the example rulebook)"
    seed = "none: docs/new-rulebook.md"
    clause_prefix = "TAG-"
    clauses = ("TAG-TURN", "TAG-MOVE", "TAG-TAG", "TAG-END")
    turn_clauses = ("TAG-TURN",)
    rules_file = "tag"
    rules_schema = TagRules
    rules: TagRules
    first_roll_words = "roll for first"
    modifier_words = "to tag"
    out_banner = "TAGGED"
    sentence = Imported("entropy3d.systems.tag.sentences:sentence")
    ENGINE = "entropy3d.systems.tag.engine:TagEngine"
    action_examples = ("walk: straight 3", "tag RUNNER")
    PLAYERS: ClassVar[Mapping[str, str]] = {"auto": "entropy3d.systems.tag.player:TagPlayer"}
