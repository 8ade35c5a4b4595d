"""Builds the C modules when pip installs the package: the ride's loop
(``entropy3d/physics/_rideloop.c``), the top-down LOS lines' tests (``entropy3d/los/_toplines.c``)
and true LOS's ray grids (``entropy3d/los/_silhouettes.c``).

Hatchling runs this hook for the wheel and for ``pip install -e .``; setuptools' ``build_ext``
compiles each file in place beside its source with the interpreter's own compiler settings, so an
editable checkout imports it from the source tree and a wheel carries it as an artifact. A C
compiler and the Python headers are needed (``gcc`` and, on Debian, ``python3.11-dev``).

``-ffp-contract=off``: each module must give the bits the Python it replaced gave (replays, the
golden transforms and the LOS verdicts rest on them), and a fused multiply-add rounds once where Python rounds twice;
GCC contracts by default on machines with FMA in their base instruction set (aarch64).
"""

from __future__ import annotations

from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: (module, source, headers it includes) of each C module
MODULES = (("entropy3d.physics._rideloop", "entropy3d/physics/_rideloop.c", []),
           ("entropy3d.los._toplines", "entropy3d/los/_toplines.c", ["entropy3d/los/_numpy_rules.h"]),
           ("entropy3d.los._silhouettes", "entropy3d/los/_silhouettes.c", ["entropy3d/los/_numpy_rules.h"]))
FLAGS = ["-O2", "-ffp-contract=off", "-fno-fast-math", "-std=c99", "-Wall"]


class CModulesBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        from setuptools import Distribution, Extension
        from setuptools.command.build_ext import build_ext

        root = Path(self.root)
        extensions = [Extension(module, [source], depends=headers, extra_compile_args=FLAGS)
                      for module, source, headers in MODULES]
        distribution = Distribution({"name": "entropy3d", "ext_modules": extensions})
        distribution.src_root = str(root)
        command = build_ext(distribution)
        command.inplace = True
        command.build_temp = str(root / "build" / "c")
        command.ensure_finalized()
        command.run()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for module, _, _ in MODULES:
            built = Path(command.get_ext_fullpath(module)).resolve().relative_to(root)
            build_data["artifacts"].append(built.as_posix())
