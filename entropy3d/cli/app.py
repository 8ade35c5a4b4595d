"""The typer application object and the shared error handling of every command."""

from __future__ import annotations

import functools
import sys

import typer

from entropy3d.errors import EntropyError

app = typer.Typer(
    name="entropy3d",
    help="A 3D, physics-backed table visualiser for Entropy City.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain click help: square brackets stay text, no type column, names never cut
    context_settings={"max_content_width": 100},
)


def fail(message: str, code: int = 1) -> "typer.Exit":
    """Print ``message`` to stderr and return the Exit to raise."""
    print(message, file=sys.stderr)
    return typer.Exit(code)


def clean_errors(handler):
    """Turn entropy3d's own errors and missing files into one message and exit code 1."""

    @functools.wraps(handler)
    def wrapper(*args, **kwargs):
        try:
            return handler(*args, **kwargs)
        except (EntropyError, FileNotFoundError, IsADirectoryError, PermissionError) as error:
            raise fail(f"error: {error}") from None

    return wrapper
