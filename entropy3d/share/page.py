"""One self-contained HTML page of a table or a replay: three.js, the data and our viewer inlined.

The page fetches nothing when it opens (no server, no network): the library is the three.js
build trimesh ships (:mod:`.library`), the table (painted as the film paints it, its images as
JPEG data), the miniatures and the replay's actions are a JSON block (:mod:`.payload`,
:mod:`.steps`), and ``page.js`` draws them: beside the words on a wide window, in one column on a
phone held upright (``page.html``). Written atomically.
"""

from __future__ import annotations

import json
from pathlib import Path

from entropy3d.look.npc_marks import npc_marks
from entropy3d.outputs import write_atomic
from entropy3d.share.library import three_js
from entropy3d.share.payload import MeshPacker, light_payload, miniatures_payload, pose_list, table_payload
from entropy3d.systems.words import Names

HERE = Path(__file__).parent


def page_data(table, geometry, replay=None) -> dict:
    """Everything the page draws, as JSON-able data (see :mod:`entropy3d.share.payload`)."""
    from entropy3d.share.steps import replay_end, replay_steps, template_lines

    packer = MeshPacker.for_table(geometry)
    start = replay.header.initial if replay is not None else table.initial_state()
    name = table.name + (f" - replay, seed {replay.header.seed}" if replay is not None else "")
    return {"name": name, "q": packer.q, "table": table_payload(table, geometry, packer), "light": light_payload(),
            "miniatures": miniatures_payload(table, packer),
            "names": {m.id: m.rider.name or m.id for m in table.models},
            "start": {m.id: pose_list(m.pose) for m in start.models.values() if m.in_play},
            "npcs": [mark.to_json() for mark in npc_marks(start, table.spec, Names.of_table(table), geometry)],
            "templates": template_lines(table),
            "steps": replay_steps(replay, table, geometry) if replay is not None else [],
            "end": replay_end(replay, table) if replay is not None else None}


def page_html(data: dict) -> str:
    """The whole page: the template with the library, the data and the viewer put in."""
    text = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    template = (HERE / "page.html").read_text(encoding="utf-8")
    parts = {"@TITLE@": _escape(data["name"]), "@LIBRARY@": three_js(), "@DATA@": text,
             "@APP@": (HERE / "page.js").read_text(encoding="utf-8")}
    for marker, value in parts.items():
        head, _, tail = template.partition(marker)
        template = head + value + tail  # one replacement each, never inside what was put in
    return template


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_share_page(source: str | Path | None, output: str | Path, on_replay=None) -> Path:
    """Write the page of a scene YAML or a replay .jsonl (None: the bundled scene) to ``output``.
    on_replay: called with the replay read (None for a scene) before the page is made."""
    from entropy3d.game.replay import load_source

    table, geometry, replay = load_source(source)
    if on_replay is not None:
        on_replay(replay)
    return write_atomic(output, page_html(page_data(table, geometry, replay)).encode("utf-8"))
