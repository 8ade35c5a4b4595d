"""Writing output files so that an error or Ctrl-C never leaves half a file behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from entropy3d.errors import EntropyError


class OutputPathError(EntropyError, ValueError):
    """An output path that cannot be written."""


def check_output_path(path: Path, suffixes: tuple[str, ...]) -> Path:
    """Validate an output path before any work: suffix allowed and parent folder present."""
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        raise OutputPathError(f"output {str(path)!r} must end in {' or '.join(suffixes)}")
    if not path.parent.resolve().is_dir():
        raise OutputPathError(f"output folder {str(path.parent)!r} does not exist; create it first")
    return path


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it into place."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent.resolve(), prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
