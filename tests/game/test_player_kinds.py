"""Kinds of automatic player by name (issue 50): ``basic`` is today's player, a game of named
kinds says in its replay header which kind played each gang and plays again byte for byte."""

from __future__ import annotations

import pytest

from entropy3d.game.player_kinds import PlayerKindError, kinds_label, parse_kinds_label
from entropy3d.game.session import play_game, replay_bytes, resimulate, setup_game


def test_basic_at_every_gang_plays_todays_game_and_its_header_says_who_played(small_table_path, tmp_path):
    replay_path = tmp_path / "kinds.jsonl"
    kinds = play_game(small_table_path, seed=7, turns=1, producer="geometric",
                      kinds={"komodo": "basic", "hades": "basic"}, replay_path=replay_path)
    today = play_game(small_table_path, seed=7, turns=1, producer="geometric")
    assert kinds.header.players == "kinds:komodo=basic,hades=basic"
    assert today.header.players == "auto"
    # everything past the header's first line is the same game move for move
    assert replay_bytes(kinds).split(b"\n", 1)[1] == replay_bytes(today).split(b"\n", 1)[1]
    identical, _ = resimulate(replay_path)  # played again from its header's kinds
    assert identical


def test_an_unknown_kind_names_the_known_kinds(small_table_path):
    with pytest.raises(PlayerKindError, match=r"no player kind 'deep'; the known kinds: basic"):
        setup_game(small_table_path, seed=0, turns=1, producer="geometric", kinds={"hades": "deep"})
    with pytest.raises(ValueError, match="no gang police"):
        setup_game(small_table_path, seed=0, turns=1, producer="geometric", kinds={"police": "basic"})


def test_the_kinds_label_reads_back():
    assert parse_kinds_label(kinds_label({"hades": "basic", "komodo": "basic"})) == {"hades": "basic",
                                                                                   "komodo": "basic"}
    assert parse_kinds_label("auto") is None and parse_kinds_label("script:x.yaml") is None
