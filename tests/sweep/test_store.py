"""The results folder (entropy3d.sweep.store): one that cannot be made is refused in a line, before
any game is played (issue 49, item 2: a NotADirectoryError traceback)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from entropy3d.cli import app
from entropy3d.errors import ResultsFolderError
from entropy3d.resources import default_scene
from entropy3d.sweep.store import ResultStore


@pytest.mark.parametrize("under", ["/dev/null", "a file"])
def test_a_results_folder_that_cannot_be_made_is_refused_in_a_line(tmp_path, under):
    parent = tmp_path / "notes.txt" if under == "a file" else Path("/dev/null")
    if under == "a file":
        parent.write_text("not a folder")
    out = parent / "results"
    with pytest.raises(ResultsFolderError, match="cannot be made here .*give --out a folder you can write"):
        ResultStore(out)
    result = CliRunner().invoke(app, ["sweep", str(default_scene()), "--games", "1", "--out", str(out)])
    assert result.exit_code != 0 and "the results folder cannot be made here" in result.output, result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == (["notes.txt"] if under == "a file" else [])
