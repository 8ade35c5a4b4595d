"""The one place pybullet is imported, quietly: its C module prints its build time on stderr at
import, which would land in the middle of every command's output and error message."""

from __future__ import annotations

import os
import sys


def _import_quietly():
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no real stderr (an embedded interpreter): import as is
        import pybullet

        return pybullet
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        import pybullet
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
    return pybullet


pybullet = _import_quietly()
