"""Every command's --help at 80 columns: no option name cut, no default lost, no type noise on
flags, square brackets printed as text (issue 13)."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

import entropy3d.cli  # noqa: F401  (registers the commands)
from entropy3d.cli.app import app

COMMANDS = sorted(typer.main.get_command(app).commands.items())


def _is_option(param) -> bool:
    """An option, not an argument (without importing click: newer typer vendors its own)."""
    return getattr(param, "param_type_name", "") == "option"


@pytest.mark.parametrize("name,command", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_help_at_80_columns_keeps_every_name_and_default(name, command):
    result = CliRunner().invoke(app, [name, "--help"], env={"COLUMNS": "80"}, terminal_width=80)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "…" not in text, f"a cut name in `{name} --help`:\n{text}"
    assert "<bool>" not in text, f"type noise on a flag in `{name} --help`"
    assert max(len(line) for line in text.splitlines()) <= 80
    flat = " ".join(text.split())
    for param in command.params:
        if not _is_option(param) or param.name == "help":
            continue
        for opt in param.opts + param.secondary_opts:
            assert opt in text, f"`{name} --help` lost the option name {opt}"
        has_default = param.default is not None and not (param.is_flag and param.default is False)
        if has_default and not param.multiple:
            shown = str(param.default) if not param.is_flag else param.opts[0].lstrip("-")
            assert f"[default: {shown}" in flat or f"default: {shown}" in flat, (
                f"`{name} --help` does not show the default of {param.opts[0]} ({param.default!r}):\n{text}")
    for param in command.params:  # defaults written into help text by hand ("[default: 3, or ...]")
        if _is_option(param) and param.help and "[default:" in param.help:
            assert param.help.split("[default:")[1].split("]")[0].strip() in flat
