"""Shared fixtures of the game tests: the small test table and a short scripted game file."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="session")
def small_table_path() -> Path:
    return DATA / "small_table.yaml"
