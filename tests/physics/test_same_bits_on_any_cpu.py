"""A destructible's collision shape, mass and principal frame are the same bits whatever the
CPU: the same seed must play the same game on another machine.

``numpy.linalg.eigh`` and BLAS matrix products round by the kernel OpenBLAS picks for the CPU,
and numpy's sums by the widest vector unit it dispatches to. A bench's hit-or-smash outcome
turned on those bits (an AVX-512 machine smashed what a Haswell kernel only knocked along). The
subprocesses below force the oldest kernels (OpenBLAS's SSE4 ``Nehalem``, numpy's baseline
loops); on the code before this test, all 25 debris shapes of the bundled tables and the proving
ground differed under the first and 1 under the second.
"""

import os
import subprocess
import sys
from pathlib import Path

try:
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
except ImportError:  # numpy 1.x
    from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__

ROOT = Path(__file__).resolve().parents[2]
SCENES = ("tests/physics/data/proving_ground.yaml", "scenes/crossroads.yaml", "scenes/lovers_point.yaml",
          "scenes/ruined_highway.yaml")
DEBRIS_BITS = """
import hashlib, sys
from entropy3d.physics import world
from entropy3d.scene import load_scene
from entropy3d.scene.build import build_table_geometry
for scene in sys.argv[1:]:
    geometry = build_table_geometry(load_scene(scene))
    for piece in geometry.pieces:
        if piece.dynamic:
            shape = world._debris_shape(piece, 1.42)
            print(piece.id, hashlib.sha256(repr((shape.local_m, shape.centre_m.tolist(), shape.axes.tolist(),
                                                  shape.moments, shape.mass)).encode()).hexdigest())
"""


def _debris_bits(**env: str) -> list[str]:
    run = subprocess.run([sys.executable, "-c", DEBRIS_BITS, *SCENES], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT), **env}, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_debris_shapes_are_the_same_bits_under_the_oldest_blas_and_simd_kernels():
    here = _debris_bits()
    assert len(here) >= 20, "every bundled table's debris is compared"
    assert _debris_bits(OPENBLAS_CORETYPE="Nehalem") == here
    dispatched = [feature for feature in __cpu_dispatch__ if __cpu_features__.get(feature)]
    assert _debris_bits(NPY_DISABLE_CPU_FEATURES=" ".join(dispatched)) == here
