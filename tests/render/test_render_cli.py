"""``entropy3d render`` as a user runs it, the PNG writing and the backend choice."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from entropy3d.render import parse_size, resolve_backend, write_png_atomic
from tests.render.conftest import SMALL_TABLE


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "entropy3d", "render", *args], capture_output=True,
                          text=True, cwd=cwd)


def test_render_command_writes_a_png_of_the_asked_size(tmp_path):
    output = tmp_path / "table.png"
    result = run(str(SMALL_TABLE), "-o", str(output), "--size", "320x200", "--camera", "overview", "--no-grid")
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout and "tiny renderer" in result.stdout
    with Image.open(output) as image:
        assert image.size == (320, 200) and image.mode == "RGB"
        assert np.asarray(image).std() > 20
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.png"], "temporary file left behind"


@pytest.mark.parametrize("size, message", [
    ("12x", "not WIDTHxHEIGHT"), ("0x100", "width 0 must be 16 to 4096"),
    ("5000x100", "width 5000 must be 16 to 4096"), ("640*480", "not WIDTHxHEIGHT"),
])
def test_bad_size_is_one_clear_line(size, message):
    result = run(str(SMALL_TABLE), "--size", size)
    assert result.returncode == 1
    assert message in result.stderr and "Traceback" not in result.stderr


def test_bad_camera_output_folder_and_suffix(tmp_path):
    camera = run(str(SMALL_TABLE), "-o", str(tmp_path / "x.png"), "--camera", "drone")
    assert camera.returncode == 1 and "use one of: iso, overview, low" in camera.stderr
    folder = run(str(SMALL_TABLE), "-o", str(tmp_path / "missing" / "x.png"))
    assert folder.returncode == 1 and "does not exist" in folder.stderr
    suffix = run(str(SMALL_TABLE), "-o", str(tmp_path / "x.jpg"))
    assert suffix.returncode == 1 and "ending in .png" in suffix.stderr
    assert list(tmp_path.iterdir()) == []
    for result in (camera, folder, suffix):
        assert "Traceback" not in result.stderr


def test_named_scene_camera_and_unknown_scene(tmp_path):
    scene = tmp_path / "cams.yaml"
    gate = "cameras:\n  gate: {position: [12, -6, 5], look_at: [12, 12, 0], fov: 60}\n"
    scene.write_text(SMALL_TABLE.read_text() + gate)
    result = run(str(scene), "-o", str(tmp_path / "gate.png"), "--camera", "gate", "--size", "160x120")
    assert result.returncode == 0, result.stderr
    missing = run(str(tmp_path / "nope.yaml"))
    assert missing.returncode == 1 and "file not found" in missing.stderr


def test_parse_size():
    assert parse_size("1280x720") == (1280, 720)
    assert parse_size(" 64 X 48 ") == (64, 48)
    with pytest.raises(ValueError, match="height 4097"):
        parse_size("100x4097")


def test_png_write_is_atomic(tmp_path):
    image = np.zeros((20, 30, 3), np.uint8)
    image[:, :15] = 200
    path = write_png_atomic(image, tmp_path / "a.png")
    assert np.array_equal(np.asarray(Image.open(path)), image)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        write_png_atomic(image, tmp_path / "no" / "a.png")
    with pytest.raises(TypeError):  # PIL cannot write float pixels: the failure must leave nothing
        write_png_atomic(np.zeros((4, 4, 3)), tmp_path / "b.png")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.png"]


def test_backend_choice(monkeypatch):
    monkeypatch.delenv("ENTROPY3D_RENDER_BACKEND", raising=False)
    assert resolve_backend(None) == "tiny"
    monkeypatch.setenv("ENTROPY3D_RENDER_BACKEND", "TINY")
    assert resolve_backend(None) == "tiny"
    assert resolve_backend("auto") in ("tiny", "gl")
    with pytest.raises(ValueError, match="tiny, gl, auto"):
        resolve_backend("vulkan")


def test_auto_falls_back_to_software_when_the_gl_probe_fails(monkeypatch):
    from entropy3d.render import backend

    monkeypatch.setattr(backend, "gl_works", lambda: False)
    assert backend.resolve_backend("auto") == "tiny"
    monkeypatch.setattr(backend, "gl_works", lambda: True)
    assert backend.resolve_backend("auto") == "gl"


def test_gl_frame_matches_the_software_frame(small_table):
    """Both backends draw the same scene graph; when headless GL works here they must agree."""
    from entropy3d.render import TableRenderer
    from entropy3d.render.backend import gl_works

    if not gl_works():
        pytest.skip("no headless GL (EGL) on this machine; the software path is tested everywhere")
    frames = {}
    for backend in ("tiny", "gl"):
        with TableRenderer(small_table, (200, 140), backend=backend, camera="overview") as renderer:
            frames[backend] = renderer.render_to_array().astype(int)
    assert np.abs(frames["tiny"] - frames["gl"]).mean() < 8
