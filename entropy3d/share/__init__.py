"""Shared pages: ``entropy3d share SCENE|REPLAY -o game.html`` writes one self-contained HTML file
that anyone can open offline and turn around in (the table, the miniatures, a replay's actions).

:func:`write_share_page` (source, output) -> path; :func:`page_data` / :func:`page_html` build it.
No panda3d, no pybullet: the browser draws (three.js, from the installed trimesh).
"""

from entropy3d.share.page import page_data, page_html, write_share_page

__all__ = ["page_data", "page_html", "write_share_page"]
