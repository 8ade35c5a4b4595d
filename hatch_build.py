"""Builds the ride's C loop (``entropy3d/physics/_rideloop.c``) when pip installs the package.

Hatchling runs this hook for the wheel and for ``pip install -e .``; setuptools' ``build_ext``
compiles the file in place beside its source with the interpreter's own compiler settings, so an
editable checkout imports it from the source tree and a wheel carries it as an artifact. A C
compiler and the Python headers are needed (``gcc`` and, on Debian, ``python3.11-dev``).

``-ffp-contract=off``: the loop must give the bits the Python it replaced gave (replays and the
golden transforms rest on them), and a fused multiply-add rounds once where Python rounds twice;
GCC contracts by default on machines with FMA in their base instruction set (aarch64).
"""

from __future__ import annotations

from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = "entropy3d/physics/_rideloop.c"
MODULE = "entropy3d.physics._rideloop"
FLAGS = ["-O2", "-ffp-contract=off", "-fno-fast-math", "-std=c99", "-Wall"]


class RideLoopBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        from setuptools import Distribution, Extension
        from setuptools.command.build_ext import build_ext

        root = Path(self.root)
        extension = Extension(MODULE, [SOURCE], extra_compile_args=FLAGS)
        distribution = Distribution({"name": "entropy3d", "ext_modules": [extension]})
        distribution.src_root = str(root)
        command = build_ext(distribution)
        command.inplace = True
        command.build_temp = str(root / "build" / "rideloop")
        command.ensure_finalized()
        command.run()
        built = Path(command.get_ext_fullpath(MODULE)).resolve().relative_to(root)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        build_data["artifacts"].append(built.as_posix())
