"""Two pens with one set of strokes, in points on a page: a PDF page (reportlab) and an SVG
document (written as text, standard library). :mod:`entropy3d.export.sheet` draws the table plan
with either; both take page points (1/72 inch), y up from the bottom of the page.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

import numpy as np
from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

FONT = "Helvetica"
#: white box around label text, points
HALO_PT = 1.2
LEADING = 1.15


def text_width(text: str, size_pt: float) -> float:
    """Width of ``text`` in points in the labels' font (Helvetica's metrics)."""
    return stringWidth(text, FONT, size_pt)


def arrow_head(points: np.ndarray, width_pt: float) -> np.ndarray:
    """The triangle at the end of a polyline (points), sized by its line width."""
    tip, before = points[-1], points[-2]
    direction = tip - before
    length = float(np.hypot(*direction)) or 1.0
    forward = direction / length
    side = np.array([-forward[1], forward[0]])
    size = max(4.0, 4.0 * width_pt)
    return np.array([tip, tip - forward * size + side * size * 0.45, tip - forward * size - side * size * 0.45])


def text_box(x: float, y: float, lines: tuple[str, ...], size_pt: float) -> tuple[float, float, float, float]:
    """(left, bottom, width, height) of label ``lines`` centred at (x, y), halo included."""
    width = max(text_width(line, size_pt) for line in lines) + 2 * HALO_PT
    height = len(lines) * size_pt * LEADING + 2 * HALO_PT
    return x - width / 2, y - height / 2, width, height


def text_baselines(y: float, lines: tuple[str, ...], size_pt: float) -> list[float]:
    """Baseline heights of label lines centred at ``y``, first line on top."""
    top = y + len(lines) * size_pt * LEADING / 2
    return [top - (k + 1) * size_pt * LEADING + 0.22 * size_pt for k in range(len(lines))]


class PdfPen:
    """Draws on the current page of a reportlab canvas."""

    def __init__(self, canvas):
        self.canvas = canvas

    def _style(self, fill, stroke, width_pt, dash):
        c = self.canvas
        if fill is not None:
            c.setFillColor(HexColor(fill))
        if stroke is not None:
            c.setStrokeColor(HexColor(stroke))
            c.setLineWidth(width_pt)
            c.setDash(list(dash) if dash else [])

    def area(self, points, fill=None, stroke=None, width_pt=0.5, dash=()):
        self._style(fill, stroke, width_pt, dash)
        path = self.canvas.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
        self.canvas.drawPath(path, fill=int(fill is not None), stroke=int(stroke is not None))

    def line(self, points, stroke="#000000", width_pt=0.5, dash=()):
        self._style(None, stroke, width_pt, dash)
        path = self.canvas.beginPath()
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        self.canvas.drawPath(path, fill=0, stroke=1)

    def segments(self, pairs, stroke="#000000", width_pt=0.5, dash=()):
        """Separate straight strokes (hatch lines), each a pair of points, as one path."""
        if not len(pairs):
            return
        self._style(None, stroke, width_pt, dash)
        path = self.canvas.beginPath()
        for start, end in pairs:
            path.moveTo(*start)
            path.lineTo(*end)
        self.canvas.drawPath(path, fill=0, stroke=1)

    def text(self, x, y, lines, size_pt=7.0, colour="#000000", halo=True, anchor="middle"):
        left, bottom, width, height = text_box(x, y, lines, size_pt)
        if halo:
            self.canvas.setFillColor(HexColor("#ffffff"), alpha=0.8)
            self.canvas.rect(left, bottom, width, height, stroke=0, fill=1)
        self.canvas.setFillColor(HexColor(colour))
        self.canvas.setFont(FONT, size_pt)
        for line, baseline in zip(lines, text_baselines(y, lines, size_pt)):
            if anchor == "start":
                self.canvas.drawString(x, baseline, line)
            else:
                self.canvas.drawCentredString(x, baseline, line)

    def clip(self, left, bottom, width, height):
        """Clip what follows to a rectangle until :meth:`unclip`."""
        self.canvas.saveState()
        path = self.canvas.beginPath()
        path.rect(left, bottom, width, height)
        self.canvas.clipPath(path, stroke=0, fill=0)

    def unclip(self):
        self.canvas.restoreState()


class SvgPen:
    """Collects SVG elements for a page ``width_pt`` x ``height_pt`` (one user unit = 1 pt)."""

    def __init__(self, width_pt: float, height_pt: float):
        self.width_pt, self.height_pt = width_pt, height_pt
        self.elements: list[str] = []
        self._clips = 0

    def _xy(self, points) -> str:
        points = np.asarray(points, float)
        return " ".join(f"{x:.2f},{self.height_pt - y:.2f}" for x, y in points)

    @staticmethod
    def _stroke(stroke, width_pt, dash) -> str:
        if stroke is None:
            return ' stroke="none"'
        dashes = f' stroke-dasharray="{" ".join(f"{d:g}" for d in dash)}"' if dash else ""
        return f' stroke="{stroke}" stroke-width="{width_pt:g}" stroke-linejoin="round"{dashes}'

    def area(self, points, fill=None, stroke=None, width_pt=0.5, dash=()):
        self.elements.append(f'<polygon points="{self._xy(points)}" fill="{fill or "none"}"'
                             f'{self._stroke(stroke, width_pt, dash)}/>')

    def line(self, points, stroke="#000000", width_pt=0.5, dash=()):
        self.elements.append(f'<polyline points="{self._xy(points)}" fill="none"'
                             f'{self._stroke(stroke, width_pt, dash)}/>')

    def segments(self, pairs, stroke="#000000", width_pt=0.5, dash=()):
        if not len(pairs):
            return
        moves = " ".join(f"M{self._xy(start[None])}L{self._xy(end[None])}" for start, end in np.asarray(pairs, float))
        self.elements.append(f'<path d="{moves}" fill="none"{self._stroke(stroke, width_pt, dash)}/>')

    def text(self, x, y, lines, size_pt=7.0, colour="#000000", halo=True, anchor="middle"):
        left, bottom, width, height = text_box(x, y, lines, size_pt)
        if halo:
            self.elements.append(f'<rect x="{left:.2f}" y="{self.height_pt - bottom - height:.2f}" '
                                 f'width="{width:.2f}" height="{height:.2f}" fill="#ffffff" fill-opacity="0.8"/>')
        for line, baseline in zip(lines, text_baselines(y, lines, size_pt)):
            self.elements.append(f'<text x="{x:.2f}" y="{self.height_pt - baseline:.2f}" font-family="{FONT}, Arial, '
                                 f'sans-serif" font-size="{size_pt:g}" fill="{colour}" text-anchor="{anchor}">'
                                 f'{escape(line)}</text>')

    def clip(self, left, bottom, width, height):
        self._clips += 1
        name = f"clip{self._clips}"
        self.elements.append(f'<clipPath id="{name}"><rect x="{left:.2f}" y="{self.height_pt - bottom - height:.2f}" '
                             f'width="{width:.2f}" height="{height:.2f}"/></clipPath><g clip-path="url(#{name})">')

    def unclip(self):
        self.elements.append("</g>")

    def document(self, title: str) -> str:
        """The whole SVG; its size is in inches, so it prints and imports at 1:1."""
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width_pt / 72:g}in" '
                f'height="{self.height_pt / 72:g}in" viewBox="0 0 {self.width_pt:g} {self.height_pt:g}">\n'
                f'<title>{escape(title)}</title>\n' + "\n".join(self.elements) + "\n</svg>\n")

