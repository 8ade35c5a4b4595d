"""The one colour key the panels of an activation picture share, and the legend it draws.

Every mark a panel draws takes its colour from :data:`KEY` through :meth:`ColourKey.colour`,
which records the entry as used; the legend lists exactly the entries used, so a colour never
appears in a picture without a line saying what it means. Colours are exact RGB triples (drawn
without anti-aliasing in the 2D panels), so a test can find each mark by its colour.
"""

from __future__ import annotations

from PIL import ImageDraw

from entropy3d.fonts import font

#: name -> (RGB, what it means), in legend order; ``{producer}`` names who rode it (physics or geometric)
KEY: dict[str, tuple[tuple[int, int, int], str]] = {
    "template": ((70, 110, 170), "turning template (the plan, a base wide)"),
    "planned": ((235, 235, 235), "planned path (dashed)"),
    "ridden": ((40, 150, 255), "ridden on the wheels"),
    "flight": ((255, 130, 20), "in the air ({producer})"),
    "take-off": ((0, 170, 90), "take-off"),
    "peak": ((230, 60, 230), "peak of the flight"),
    "touchdown": ((0, 225, 235), "touchdown ({producer})"),
    "rules landing": ((255, 215, 0), "rules' landing, EC-JUMP-4 distance"),
    "snap": ((255, 240, 150), "snap from {producer} to the rules' place"),
    "end": ((120, 255, 60), "end: where the rules leave the bike"),
    "contact": ((255, 40, 80), "contact: ran into something solid"),
    "smashed": ((180, 120, 255), "went through a destructible"),
    "section": ((120, 112, 100), "table under the path (cut through)"),
    "lower": ((175, 165, 150), "lower surface under the path"),
    "other": ((200, 200, 210), "other bikes"),
    "cliff": ((230, 0, 50), "cliff edge of the table"),
}


class ColourKey:
    """Hands out the key's colours and remembers which were used, in legend order; ``producer``
    (the facts' ``physics`` or ``geometric``) is named where a meaning says who found it."""

    def __init__(self, producer: str = "physics"):
        self.producer = producer
        self.used: list[str] = []

    def colour(self, name: str) -> tuple[int, int, int]:
        if name not in KEY:
            raise KeyError(f"no colour {name!r} in the key; entries: {', '.join(KEY)}")
        if name not in self.used:
            self.used.append(name)
        return KEY[name][0]

    def entries(self) -> list[tuple[str, tuple[int, int, int], str]]:
        """(name, colour, meaning) of every entry used, in :data:`KEY` order."""
        return [(name, KEY[name][0], KEY[name][1].format(producer=self.producer)) for name in KEY if name in self.used]

    def draw_legend(self, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text=(235, 235, 235)) -> int:
        """Swatch and meaning of every entry used, in columns filling ``box`` (left, top, right,
        bottom) pixels; returns the bottom row used."""
        left, top, right, bottom = box
        face = font(14)
        row_h, swatch = 22, 16
        column_w = 365
        columns = max(1, (right - left) // column_w)
        entries = self.entries()
        rows = -(-len(entries) // columns)
        for k, (_, rgb, meaning) in enumerate(entries):
            x = left + (k // rows) * column_w
            y = top + (k % rows) * row_h
            draw.rectangle([x, y + 2, x + swatch, y + 2 + swatch], fill=rgb, outline=(0, 0, 0))
            draw.text((x + swatch + 8, y + 1), meaning, fill=text, font=face)
        return top + rows * row_h
