"""The typer application object and the shared error handling of every command."""

from __future__ import annotations

import functools
import gc
import importlib
import sys

import typer

from entropy3d.errors import EntropyError
from entropy3d.stops import stop_requested

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


def activation_seed(table, scene, model: str, seed: int | None) -> int:
    """For a command that activates ``model`` on ``table`` (read from ``scene``): the dice seed
    (``seed``, else a fresh one the command prints); a model the scene lacks is the usage error."""
    try:
        table.model(model)
    except KeyError as error:
        raise fail(f"error: {scene}: --model: {error.args[0]}") from None
    if seed is not None:
        return seed
    import numpy as np

    return int(np.random.SeedSequence().entropy % (2**31))


def clean_errors(handler):
    """Turn entropy3d's own errors and missing files into one message and exit code 1."""

    @functools.wraps(handler)
    def wrapper(*args, **kwargs):
        try:
            return handler(*args, **kwargs)
        except (EntropyError, FileNotFoundError, IsADirectoryError, PermissionError) as error:
            stop = stop_requested()
            if stop is not None:  # a stop a library turned into an error of ours (pydantic-core reports
                raise stop from None  # the exception raised inside its validation as a failed match)
            raise fail(f"error: {error}") from None

    return wrapper


#: what a command that reads a scene's geometry imports: the scene layer, trimesh, scipy, shapely
SCENE_GEOMETRY_MODULES = ("entropy3d.scene.loading", "entropy3d.scene.meshes", "entropy3d.scene.build",
                          "entropy3d.scene.plausibility")


def import_for_command(*modules: str) -> None:
    """Import ``modules`` (dotted names) with the cyclic garbage collector paused, then freeze
    what is alive out of later collections (:func:`gc.freeze`).

    Importing trimesh, scipy and the scene layer makes ~100,000 long-lived objects (modules,
    classes, functions) and next to no garbage, yet every collection on the way scans them again:
    about a tenth of a short command's wall time (``validate``, ``los``; issue 17). Frozen, later
    collections skip them too. Garbage already there is collected first (a few milliseconds at a
    command's start), so none of it is frozen for good in a longer-lived caller's process. Nothing
    happens when all are imported already, so a batch of files freezes once."""
    missing = [name for name in modules if name not in sys.modules]
    if not missing or not gc.isenabled():
        for name in missing:
            importlib.import_module(name)
        return
    gc.collect()
    gc.disable()
    try:
        for name in missing:
            importlib.import_module(name)
    finally:
        gc.freeze()
        gc.enable()
