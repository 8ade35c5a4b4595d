"""ruff over the whole tree: style, and the layering rule (pybullet only in entropy3d.physics,
panda3d only in entropy3d.render and entropy3d.viewer) through its banned-api setting."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_is_clean_and_engines_stay_in_their_packages():
    if shutil.which("ruff") is None and subprocess.run([sys.executable, "-m", "ruff", "--version"],
                                                       capture_output=True).returncode != 0:
        pytest.fail("ruff is not installed: install the test extra (pip install -e '.[test]')")
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "entropy3d", "tests", "benchmarks", "tools"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
