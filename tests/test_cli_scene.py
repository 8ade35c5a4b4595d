"""The scene commands as a user runs them: exit codes, messages without tracebacks, JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "entropy3d", *args], capture_output=True, text=True)


def test_validate_ok_and_bad(tmp_path):
    ok = run("validate", str(DATA / "small_table.yaml"))
    assert ok.returncode == 0 and "ok (2 models)" in ok.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nzones:\n  - {id: z, terrain: lava, rect: [0, 0, 1, 1]}\n")
    result = run("validate", str(DATA / "small_table.yaml"), str(bad))
    assert result.returncode == 1
    assert "line 3, zones[0].terrain: unknown terrain 'lava'" in result.stderr
    assert "Traceback" not in result.stderr


def test_info_json_lists_models():
    result = run("info", str(DATA / "small_table.yaml"), "--json")
    assert result.returncode == 0
    summary = json.loads(result.stdout)
    first = summary["models"][0]
    assert first["id"] == "h1" and first["gang"] == "hades" and first["bike"] == "cruiser"
    assert first["position_in"][:2] == [4.0, 11.0] and first["facing_deg"] == 0.0
    assert summary["levels_in"][-1] > 6


def test_info_missing_file_is_one_line_error(tmp_path):
    result = run("info", str(tmp_path / "nope.yaml"))
    assert result.returncode == 1 and "file not found" in result.stderr
    assert "Traceback" not in result.stderr


def test_schema_is_json_schema_with_terrain_enum(tmp_path):
    out = tmp_path / "scene.schema.json"
    assert run("schema", "-o", str(out)).returncode == 0
    document = json.loads(out.read_text())
    assert document["title"] == "entropy3d scene"
    zone = document["$defs"]["Zone"]
    assert "lava" not in zone["properties"]["terrain"]["enum"]
    assert "gravel" in zone["properties"]["terrain"]["enum"]
    assert zone["additionalProperties"] is False


def test_EC_MISSION_PACKAGE_info_says_who_carries_which_package_to_which_edge():
    """Clause: EC-MISSION-PACKAGE. "Package runners must declare which bikes are holding a
    package at the start of the game": `info` says them, and the edge, in words and in its JSON."""
    said = run("info", str(DATA / "package_yard.yaml"))
    assert said.returncode == 0
    assert "packages, for the west edge: k_fast 3 VP, k_lost 1 VP, k_slow 1 VP" in said.stdout
    summary = json.loads(run("info", str(DATA / "package_yard.yaml"), "--json").stdout)
    assert summary["package_run"] == {"to": "west", "carriers": {"k_fast": 3, "k_lost": 1, "k_slow": 1}}
    assert "package_run" not in json.loads(run("info", str(DATA / "small_table.yaml"), "--json").stdout)


def test_EC_MISSION_VIP_info_says_each_gangs_vip():
    """Clause: EC-MISSION-VIP. "Each player publicly declares a VIP": `info` says them, in words and
    in its JSON."""
    said = run("info", str(DATA / "vip_yard.yaml"))
    assert said.returncode == 0 and "VIPs: hades h_vip, komodo k_vip" in said.stdout
    summary = json.loads(run("info", str(DATA / "vip_yard.yaml"), "--json").stdout)
    assert summary["vip_takedown"] == {"vips": {"hades": "h_vip", "komodo": "k_vip"}}
    assert "vip_takedown" not in json.loads(run("info", str(DATA / "small_table.yaml"), "--json").stdout)


def test_EC_MISSION_GRAB_info_says_the_packages_and_each_gangs_exit():
    """Clause: EC-MISSION-GRAB. `info` says where the packages lie and each gang's deployment edge
    (its way home), in words and in its JSON."""
    said = run("info", str(DATA / "grab_yard.yaml"))
    assert said.returncode == 0
    assert "packages: package_1 at (18, 12), package_2 at (15, 21), package_3 at (21, 3)" in said.stdout
    assert "exits: hades west, komodo east" in said.stdout
    summary = json.loads(run("info", str(DATA / "grab_yard.yaml"), "--json").stdout)
    assert summary["grab_n_go"] == {"items": {"package_1": [18.0, 12.0], "package_2": [15.0, 21.0],
                                              "package_3": [21.0, 3.0]}, "exits": {"hades": "west", "komodo": "east"}}


def test_EC_LAW_EC_MISSION_CORNERS_EC_MISSION_HOON_info_says_the_zones_the_circuit_and_the_law():
    """Clauses: EC-MISSION-CORNERS, EC-MISSION-HOON, EC-LAW. `info` says each set-up in words and
    in its JSON: the corners, the checkpoints in order, and when and where the Law enters."""
    said = run("info", str(DATA / "corners_yard.yaml"))
    assert "corners: zone_a [10, 8, 18, 16], zone_b [20, 8, 32, 16]" in said.stdout
    said = run("info", str(DATA / "hoon_yard.yaml"))
    assert "checkpoints: gate_a at (14, 12) r 2, gate_b at (26, 12) r 2, finish at (32, 12) r 2" in said.stdout
    said = run("info", str(DATA / "law_yard.yaml"))
    assert "the Law: enters in turn 2 at one of (18, 2) facing 90" in said.stdout
    assert "law_1        Officer 1      law        police" in said.stdout
    summary = json.loads(run("info", str(DATA / "law_yard.yaml"), "--json").stdout)
    assert summary["law"] == {"from_turn": 2, "enter": [[18.0, 2.0, 90.0]]}
