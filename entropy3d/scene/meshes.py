"""Mesh files (STL, OBJ, glTF/GLB, PLY, OFF) read with trimesh and placed on the table in inches.

STL and OBJ carry no units and trimesh's guess is wrong for small printed parts, so every mesh
piece declares ``units:``; the conversion to inches happens here, once.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import trimesh
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from entropy3d.errors import MeshError
from entropy3d.geometry import matrix_product, transform_points
from entropy3d.scene.schema import MeshPiece
from entropy3d.units import INCHES_PER_UNIT

_Y_UP_SUFFIXES = {".gltf", ".glb"}
# glTF is Y-up; turn it Z-up (x stays, y -> z, z -> -y)
_Y_UP_TO_Z_UP = trimesh.transformations.rotation_matrix(np.pi / 2, [1, 0, 0])


#: formats that load, by suffix, and how the messages name them
FORMATS = {".stl": "STL", ".obj": "OBJ", ".gltf": "glTF", ".glb": "GLB", ".ply": "PLY", ".off": "OFF"}
#: triangles a mesh file may hold: about 100 MB of geometry, far more than any printed terrain piece
MAX_TRIANGLES = 2_000_000
#: bytes a mesh file may hold: MAX_TRIANGLES in the most verbose format that loads (an ASCII STL
#: writes about 260 bytes a triangle); a larger file is refused before any of it is read
MAX_MESH_BYTES = 300 * MAX_TRIANGLES
#: a binary STL: an 80-byte header, the triangle count (uint32), then 50 bytes a triangle
_STL_HEADER_BYTES, _STL_TRIANGLE_BYTES = 84, 50
#: a component thinner than this fraction of its size is flat (a sheet, not a solid)
FLAT_RATIO = 1e-6
#: mesh files kept read in this process (a batch of scenes, a reloaded scene share their meshes)
CACHED_FILES = 32
#: only meshes up to this many triangles are kept (so the cache holds at most ~100 MB)
CACHED_TRIANGLES = 100_000
_read_cache: dict[tuple, tuple[trimesh.Trimesh, tuple[str, ...]]] = {}


def read_mesh_file(path: Path, notes: list[str] | None = None) -> trimesh.Trimesh:
    """A mesh file read by :func:`_read_mesh_file`, from a small cache while the file is unchanged
    (same size and modification time): the caller gets its own copy and the same notes."""
    if path.suffix.lower() not in FORMATS:
        return _read_mesh_file(path, notes if notes is not None else [])
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _read_cache:
        said: list[str] = []
        mesh = _read_mesh_file(path, said)
        if len(mesh.faces) > CACHED_TRIANGLES:
            if notes is not None:
                notes.extend(said)
            return mesh
        if len(_read_cache) >= CACHED_FILES:
            _read_cache.pop(next(iter(_read_cache)))
        _read_cache[key] = (mesh, tuple(said))
    mesh, said = _read_cache[key]
    if notes is not None:
        notes.extend(said)
    return mesh.copy()


def _read_mesh_file(path: Path, notes: list[str]) -> trimesh.Trimesh:
    """Read every triangle of a mesh file into one Trimesh in the file's own units and axes.

    Uses ``trimesh.load_scene`` (glTF/OBJ may hold many nodes), bakes the node transforms and
    keeps the geometry only: textures and materials are never copied (a textured multi-part GLB
    would be copied into every part). Stray components (fewer than 4 vertices, or flat) are dropped
    and said so in ``notes``; a mesh that is all flat, empty or over MAX_TRIANGLES is refused.
    """
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        kind = "has no extension" if not suffix else f"ends in {path.suffix!r}, a format that does not load"
        raise MeshError(path, [("", None, f"mesh file {str(path)!r} {kind}; give a file in one of "
                                          f"{', '.join(sorted(set(FORMATS.values())))} "
                                          f"({', '.join(sorted(FORMATS))})")])
    too_big = size_problem(path, suffix)
    if too_big:
        raise MeshError(path, [("", None, too_big)])
    try:
        options = {"skip_materials": True} if suffix in (".glb", ".gltf") else {}
        if suffix == ".stl":
            options = {"process": False}  # welded below, as trimesh would, faster
        scene = trimesh.load_scene(str(path), **options)
        vertices, faces, count = [], [], 0
        for node in scene.graph.nodes_geometry:
            transform, name = scene.graph[node]
            geometry = scene.geometry.get(name)
            if isinstance(geometry, trimesh.Trimesh) and suffix == ".stl":
                geometry = welded(geometry)
            if not isinstance(geometry, trimesh.Trimesh) or len(geometry.faces) == 0:
                continue
            if sum(len(f) for f in faces) + len(geometry.faces) > MAX_TRIANGLES:
                raise MeshError(path, [("", None, f"mesh file {path.name!r} holds more than {MAX_TRIANGLES:,} "
                                                  "triangles (the limit); decimate it in a mesh editor first")])
            vertices.append(transform_points(geometry.vertices, transform))
            faces.append(np.asarray(geometry.faces) + count)
            count += len(geometry.vertices)
    except MeshError:
        raise
    except Exception as error:  # trimesh raises many kinds on a broken file
        raise MeshError(path, [("", None, f"mesh file {path.name!r} does not parse: "
                                          f"{type(error).__name__}: {error}")]) from None
    if not faces:
        raise MeshError(path, [("", None, f"mesh file {path.name!r} holds no triangles; export the solid "
                                          "as a triangle mesh (points and lines do not load)")])
    mesh = trimesh.Trimesh(np.vstack(vertices), np.vstack(faces), process=False)
    if not np.all(np.isfinite(mesh.vertices)):
        raise MeshError(path, [("", None, f"mesh file {path.name!r} has non-finite vertices")])
    if suffix != ".stl":  # corners kept apart for a UV seam or a face's own normal are one point of
        mesh = welded(mesh)  # the solid: unwelded, every triangle was a flat part of its own (issue 49)
    return _solid_components(mesh, path, notes)


def size_problem(path: Path, suffix: str) -> str | None:
    """Why the mesh file at ``path`` is too big to read, judged from its size and, for an STL, its
    header, before anything is allocated; None when it may be read. A 2 GB binary STL whose header
    claimed 42.9 million triangles, or 2 GB of zeros named .stl (read as ASCII, as trimesh reads
    an STL whose size does not match its header), ran for minutes with no answer (issue 49)."""
    size = path.stat().st_size
    if suffix == ".stl" and size >= _STL_HEADER_BYTES:
        with open(path, "rb") as stream:
            head = stream.read(_STL_HEADER_BYTES)
        count = int.from_bytes(head[80:84], "little")
        binary_size = _STL_HEADER_BYTES + _STL_TRIANGLE_BYTES * count
        if size == binary_size and count > MAX_TRIANGLES:
            return (f"mesh file {path.name!r} is a binary STL of {count:,} triangles, more than the "
                    f"{MAX_TRIANGLES:,} a mesh may hold; decimate it in a mesh editor first")
        if size != binary_size and not head.lstrip().lower().startswith(b"solid"):
            return (f"mesh file {path.name!r} is no STL: not a binary one (its header says {count:,} triangles, "
                    f"{binary_size:,} bytes, and the file holds {size:,}) nor an ASCII one (it does not start "
                    "with 'solid'); export the piece again as STL")
    if size > MAX_MESH_BYTES:
        return (f"mesh file {path.name!r} holds {size:,} bytes, more than the {MAX_MESH_BYTES:,} a mesh file may "
                f"(about {MAX_TRIANGLES:,} triangles); decimate it in a mesh editor first")
    return None


def welded(mesh: trimesh.Trimesh) -> trimesh.Trimesh:
    """A mesh's triangles with corners at one place made one vertex: an STL file's read
    unprocessed (every corner of every triangle its own vertex), or any file's whose exporter kept
    corners apart for UV seams or per-face normals, processed as ``trimesh.Trimesh(process=True)``
    does it: faces with a non-finite corner dropped, then corners at the same place (to trimesh's
    ``tol.merge``) made one vertex, kept in order of first use. The same vertices and faces to the
    bit, with trimesh's grouping of rows replaced by :func:`unique_rows_in_order`: trimesh sorting
    those 24-byte rows was 0.28 s of the 0.30 s read of a 200k-triangle print."""
    vertices, faces = np.asarray(mesh.vertices), np.asarray(mesh.faces)
    finite = np.isfinite(vertices).all(axis=1)
    if not finite.all():
        faces = faces[finite[faces].all(axis=1)]
    referenced = np.zeros(len(vertices), dtype=bool)
    referenced[faces] = True
    digits = trimesh.util.decimal_to_digits(trimesh.tol.merge)
    first, inverse_of_referenced = unique_rows_in_order((vertices[referenced] * 10**digits).round().astype(np.int64))
    inverse = np.zeros(len(vertices), dtype=np.int64)
    inverse[referenced] = inverse_of_referenced
    return trimesh.Trimesh(vertices[np.flatnonzero(referenced)[first]], inverse[faces], process=False)


def _mixed(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser over uint64 ``values``: every input bit moves every output bit."""
    values = (values ^ (values >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    values = (values ^ (values >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return values ^ (values >> np.uint64(31))


def unique_rows_in_order(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index of each distinct row's first occurrence, in order; for each row, its distinct row's
    position in that list): ``trimesh.grouping.unique_rows(rows, keep_order=True)`` for (N, K)
    int64 ``rows``, found by sorting one 64-bit hash per row. Rows that share a hash but differ
    (a chance of ~3e-8 at a million rows) are caught, and trimesh's own grouping answers."""
    as_bits = np.ascontiguousarray(rows).view(np.uint64)
    hashes = _mixed(as_bits[:, 0])
    for column in range(1, as_bits.shape[1]):
        hashes = _mixed(hashes ^ as_bits[:, column])
    _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
    if not np.array_equal(rows[first][inverse], rows):
        return trimesh.grouping.unique_rows(rows, keep_order=True)
    order = np.argsort(first)
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return first[order], rank[inverse.reshape(-1)]


def _is_flat(vertices: np.ndarray) -> bool:
    """True when the points lie in a plane or on a line (no volume)."""
    centred = vertices - vertices.mean(axis=0)
    size = float(np.abs(centred).max())
    if size == 0:
        return True
    try:
        thickness = np.linalg.svd(centred / size, compute_uv=False)
    except np.linalg.LinAlgError:
        return True
    return bool(thickness[-1] <= FLAT_RATIO * max(thickness[0], 1e-300) or len(vertices) < 4)


def face_components(faces: np.ndarray, vertex_count: int) -> np.ndarray:
    """A component label per face: faces joined through edges that exactly two faces share, as
    ``trimesh.graph.connected_component_labels(mesh.face_adjacency)`` groups them (an edge of three
    or more faces joins none of them). Edges are found by sorting one int64 key per edge, not
    trimesh's rows of vertex pairs: 0.01 s instead of 0.09 s on a 200k-triangle print."""
    ends = np.sort(faces[:, [0, 1, 1, 2, 2, 0]].reshape(-1, 2), axis=1).astype(np.int64)
    keys = ends[:, 0] * vertex_count + ends[:, 1]
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    shared_by_two = starts[np.diff(np.r_[starts, len(keys)]) == 2]
    first, second = order[shared_by_two] // 3, order[shared_by_two + 1] // 3
    graph = coo_matrix((np.ones(len(first), bool), (first, second)), shape=(len(faces), len(faces)))
    return connected_components(graph, directed=False)[1]


def _solid_components(mesh: trimesh.Trimesh, path: Path, notes: list[str] | None) -> trimesh.Trimesh:
    """``mesh`` without its stray components (fewer than 4 vertices, or flat); refused if none is left.

    Two solids of one file that touch (a wall's boxes side by side) leave a pair of faces back to
    back between them: welded, each face of the pair is a flat component of its own (its edges are
    shared by four faces, so they join nothing). They are dropped too, but are no stray part to
    tell of: the bundled ruined wall warned of "2 stray parts" on every validate."""
    labels = face_components(np.asarray(mesh.faces), len(mesh.vertices))
    keep = np.zeros(len(mesh.faces), bool)
    dropped: list[tuple[int, ...]] = []
    for label in np.unique(labels):
        chosen = labels == label
        used = np.unique(mesh.faces[chosen])
        if len(used) >= 4 and not _is_flat(np.asarray(mesh.vertices)[used]):
            keep |= chosen
        else:
            dropped.append(tuple(used))
    if not keep.any():
        raise MeshError(path, [("", None, f"mesh file {path.name!r} is flat (no part of it has volume), so it "
                                          "cannot be a solid on the table; give it thickness in a mesh editor "
                                          "(e.g. solidify or extrude it)")])
    if dropped:
        stray = sum(count for count in Counter(dropped).values() if count == 1)
        if stray and notes is not None:
            notes.append(f"mesh file {path.name!r}: dropped {stray} stray part(s) with no volume (fewer than 4 "
                         "points, or flat); the rest is used")
        mesh = trimesh.Trimesh(mesh.vertices, mesh.faces[keep], process=False)
        mesh.remove_unreferenced_vertices()
    return mesh


def placement_matrix(piece: MeshPiece, up: str) -> np.ndarray:
    """4x4 transform from file coordinates to table inches: axes, units, scale, rotation, position."""
    matrix = np.eye(4)
    if up == "y":
        matrix = matrix_product(_Y_UP_TO_Z_UP, matrix)
    scale = np.broadcast_to(np.asarray(piece.scale, dtype=float), (3,)) * INCHES_PER_UNIT[piece.units]
    matrix = matrix_product(np.diag([*scale, 1.0]), matrix)
    rx, ry, rz = np.radians(piece.rotation)
    rotation = trimesh.transformations.euler_matrix(rx, ry, rz, axes="sxyz")
    matrix = matrix_product(rotation, matrix)
    matrix[:3, 3] += np.asarray(piece.position, dtype=float)
    return matrix


def load_mesh_piece(piece: MeshPiece, path: Path, notes: list[str] | None = None) -> trimesh.Trimesh:
    """Read ``path`` and place it as the scene's ``piece`` says, in table inches (z up); repairs
    made on the way (stray parts dropped) are appended to ``notes``."""
    mesh = read_mesh_file(path, notes)
    up = piece.up or ("y" if path.suffix.lower() in _Y_UP_SUFFIXES else "z")
    matrix = placement_matrix(piece, up)
    mirrored = np.linalg.det(matrix[:3, :3]) < 0  # a mirroring scale turns the faces inside out
    mesh = trimesh.Trimesh(transform_points(mesh.vertices, matrix),
                           np.ascontiguousarray(np.fliplr(mesh.faces)) if mirrored else mesh.faces, process=False)
    extents = mesh.extents
    if np.any(extents <= 0) and np.count_nonzero(extents) < 2:
        raise MeshError(path, [("", None, f"mesh file {path.name!r} is degenerate (extents {extents})")])
    return mesh
