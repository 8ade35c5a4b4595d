"""The WebGL library a shared page embeds: three.js, read at run time from the installed trimesh.

trimesh (a declared dependency: the scene layer builds every mesh with it) ships a minified
three.js build (MIT licence; r140 in trimesh 5.2) inside ``trimesh/resources/templates/viewer.zip``, so that its
own ``scene_to_html`` pages open offline. We take the core library out of that file as it is,
licence header included, and copy none of it into this repository: a page written by
``entropy3d share`` works with no network, and the library comes with ``pip install``. The page
uses only core three.js (buffer geometry, materials, a perspective camera, the WebGL renderer);
its camera control and timeline are ours (``page.js``).
"""

from __future__ import annotations

import io
import zipfile
from functools import lru_cache

from entropy3d.errors import LibraryUnavailable

#: where trimesh keeps its offline viewer page (a path inside trimesh's ``resources``)
TEMPLATE_ZIP = "templates/viewer.zip"
#: the license header the three.js build starts with, and the statement its UMD wrapper ends with
LIBRARY_START = "/**\n * @license\n * Copyright 2010-"
LIBRARY_END = 'Object.defineProperty(t,"__esModule",{value:!0})}));'


@lru_cache(maxsize=1)
def three_js() -> str:
    """Core three.js (minified; sets the global ``THREE``) as JavaScript text, from trimesh's data."""
    import trimesh
    from trimesh.resources import get_bytes

    def problem(what: str) -> LibraryUnavailable:
        return LibraryUnavailable(f"trimesh {trimesh.__version__}: {what}; `entropy3d share` embeds the three.js "
                                  "build that trimesh ships. Fix: python -m pip install 'trimesh>=4.4,<6'")

    try:
        with zipfile.ZipFile(io.BytesIO(get_bytes(TEMPLATE_ZIP))) as archive:
            page = archive.read(archive.namelist()[0]).decode("utf-8")
    except (OSError, KeyError, IndexError, zipfile.BadZipFile, UnicodeDecodeError) as error:
        raise problem(f"cannot read {TEMPLATE_ZIP} ({error})") from None
    start = page.find(LIBRARY_START)
    end = page.find(LIBRARY_END, start)
    library = page[start:end + len(LIBRARY_END)] if start >= 0 and end >= 0 else ""
    if "WebGLRenderer" not in library:
        raise problem(f"{TEMPLATE_ZIP} no longer holds a three.js build")
    if "</script" in library.lower():
        raise problem("its three.js build contains a closing script tag")
    return library
