"""A sweep's report: one offline HTML page of pictures a designer reads at a glance.

Per scene: how often the mission's own objective was reached (a package delivered, the VIP taken
out, the NPC rescued: :mod:`entropy3d.systems.entropy_city.objectives`) and each gang's win rate, each with its
95% Wilson confidence interval (and the draws), what a
game holds on average (takedowns, jumps, crashes, busts, smashes, attacks, air time, drama), and
heat maps of where takedowns, crashes and jumps happened, drawn over the table from above. Over
every scene: how each bike type's riders ended (riding, out, escaped) and what they did per game.
Last, the most dramatic games with the command that plays each one again.

Charts are inline SVG, heat maps PNG (Pillow, over :func:`~entropy3d.activation.overhead.table_image`)
embedded as data URIs, so the page is one file that opens anywhere. Everything is read from the
results folder's SQLite tables (:mod:`entropy3d.sweep.store`); nothing is played again.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: z of a two-sided 95% interval
Z95 = 1.959964
#: heat map: pixels per table inch, the density grid (inches) and its smoothing (inches)
HEAT_PX_PER_IN = 10.0
HEAT_CELL_IN = 0.5
HEAT_SIGMA_IN = 1.5
#: the kinds drawn as heat maps, their colours and titles
HEAT_KINDS = (("takedown", (255, 60, 60), "Takedowns"), ("crash", (255, 170, 0), "Crashes"),
              ("jump", (60, 200, 255), "Jumps (take-off)"))
STATUS_COLOURS = {"riding": "#3aa655", "escaped": "#3b82c4", "out": "#c0392b"}
PALETTE = ("#c0392b", "#27ae60", "#2980b9", "#8e44ad", "#d35400", "#16a085")


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float, float]:
    """(rate, low, high) of ``successes`` in ``trials``: the Wilson score interval, which stays
    inside 0..1 and is sound for few games or rates near 0 or 1."""
    if trials == 0:
        return 0.0, 0.0, 1.0
    p = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return p, max(0.0, centre - half), min(1.0, centre + half)


def _rows(connection, sql: str, args=()) -> list[dict]:
    cursor = connection.execute(sql, args)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def build_report(store) -> str:
    """The report page of ``store`` (a :class:`~entropy3d.sweep.store.ResultStore`) as HTML text."""
    connection = store.connection
    games = _rows(connection, "SELECT * FROM games ORDER BY scene, seed")
    if not games:
        raise ValueError("the sweep has no finished game yet")
    parts = [f"<h1>Sweep report: {len(games)} games</h1>",
             f"<p class=note>{html.escape(str(store.folder.resolve()))} &middot; "
             + ", ".join(sorted({f"{g['producer']} producer, {g['turns']} turns" for g in games}))
             + "</p>"]
    by_scene: dict[str, list[dict]] = defaultdict(list)
    for game in games:
        by_scene[game["scene"]].append(game)
    tables = {scene: _read_scene(store, scene) for scene in by_scene}
    for scene, scene_games in by_scene.items():
        parts.append(_scene_section(connection, scene, scene_games, *tables[scene]))
    parts.append(_bike_section(connection))
    parts.append(_top_section(games, {scene: _gang_names(table) for scene, (table, _) in tables.items()}))
    return PAGE.format(body="\n".join(parts))


def _read_scene(store, scene: str) -> tuple:
    """(the scene's table, None), or (None, why it cannot be read here): the report still shows the
    stored figures, by gang id. The scene is found as the store finds it from any folder
    (:meth:`~entropy3d.sweep.store.ResultStore.scene_file`)."""
    from entropy3d.scene import load_scene

    try:
        return load_scene(store.scene_file(scene)), None
    except (OSError, ValueError) as error:
        return None, str(error)


def _gang_names(table) -> dict[str, str]:
    """Gang id -> the scene's name for the gang (none when the scene cannot be read)."""
    return {g: spec.name for g, spec in table.spec.gangs.items()} if table is not None else {}


def _scene_section(connection, scene: str, games: list[dict], table, error: str | None) -> str:
    name = games[0]["scene_name"]
    if table is None:
        missing = f"<p class=note>no heat map: the scene cannot be read here ({html.escape(error or '')})</p>"
    gangs = list(table.spec.gangs) if table is not None else sorted({g for game in games for g in _score(game)})
    gang_names = _gang_names(table)
    colours = {g: spec.colour for g, spec in table.spec.gangs.items()} if table is not None else {}
    bars = []
    for k, gang in enumerate(gangs):
        wins = sum(1 for g in games if g["winner"] == gang)
        bars.append((gang_names.get(gang, gang), wins, colours.get(gang, PALETTE[k % len(PALETTE)])))
    bars.append(("draw", sum(1 for g in games if not g["winner"]), "#888888"))
    objective = objective_figures(scene, games, table)
    parts = [f"<h2>{html.escape(name)} <span class=note>{html.escape(scene)}, {len(games)} games</span></h2>",
             "<h3>Mission objective (95% confidence interval)</h3>",
             f"<p class=objective>{html.escape(objective.words)}</p>",
             _rate_chart([("reached", objective.reached, "#d4a017")], objective.counted)
             + (f"<p class=note>{objective.unknown} game(s) not counted: their replay could not be read</p>"
                if objective.unknown else ""),
             "<h3>Win rate (95% confidence interval)</h3>", _rate_chart(bars, len(games)),
             "<h3>Per game</h3>", _averages(games)]
    if table is not None:
        parts += ["<h3>Where it happened</h3>", _heat_maps(connection, scene, table)]
    else:
        parts.append(missing)
    return "<section>" + "\n".join(parts) + "</section>"


@dataclass(frozen=True)
class ObjectiveFigures:
    """How often a scene's games reached the mission's own objective: ``reached`` of ``counted``
    games (those whose objective is known; ``unknown`` more had no readable replay), its words."""

    scene: str
    scene_name: str
    words: str
    reached: int
    counted: int
    unknown: int

    @property
    def line(self) -> str:
        """'Jailbreak (scenes/jailbreak.yaml): the prisoner freed and out through a road exit in 12 of
        50 games, 24% (95% interval 14%-37%)'."""
        rate, low, high = wilson(self.reached, self.counted)
        unknown = f"; {self.unknown} game(s) not counted (no readable replay)" if self.unknown else ""
        return (f"{self.scene_name} ({self.scene}): {self.words} in {self.reached} of {self.counted} games, "
                f"{rate:.0%} (95% interval {low:.0%}-{high:.0%}){unknown}")


def objective_figures(scene: str, games: list[dict], table=None) -> ObjectiveFigures:
    """The objective figures of ``scene``'s ``games`` (``games`` rows). The words come from the
    scene's mission (``table``; "the mission's objective" when the scene cannot be read)."""
    from entropy3d.systems.entropy_city.objectives import objective_of

    words = objective_of(table.spec.mission).words if table is not None else "the mission's objective"
    known = [g["objective"] for g in games if g.get("objective") is not None]
    return ObjectiveFigures(scene, games[0]["scene_name"], words, sum(known), len(known), len(games) - len(known))


def scene_objectives(store) -> list[ObjectiveFigures]:
    """Every scene's objective figures in ``store``, in the order of its scenes' names."""
    by_scene: dict[str, list[dict]] = defaultdict(list)
    for game in _rows(store.connection, "SELECT * FROM games ORDER BY scene, seed"):
        by_scene[game["scene"]].append(game)
    return [objective_figures(scene, games, _read_scene(store, scene)[0]) for scene, games in by_scene.items()]


def _score(game: dict) -> dict:
    import json

    return json.loads(game["score"])


def _rate_chart(bars: list[tuple[str, int, str]], trials: int) -> str:
    """Horizontal bars of rates with their Wilson intervals as whiskers (SVG)."""
    width, left, row = 660, 150, 34
    plot = width - left - 120
    svg = [f'<svg width="{width}" height="{row * len(bars) + 30}" class=chart>']
    for x in (0.0, 0.25, 0.5, 0.75, 1.0):
        px = left + x * plot
        svg.append(f'<line x1="{px}" y1="0" x2="{px}" y2="{row * len(bars)}" stroke="#444"/>'
                   f'<text x="{px}" y="{row * len(bars) + 18}" class=axis>{x:.0%}</text>')
    for k, (label, wins, colour) in enumerate(bars):
        rate, low, high = wilson(wins, trials)
        y = k * row + 6
        svg.append(f'<text x="{left - 8}" y="{y + 15}" class=label>{html.escape(label)}</text>'
                   f'<rect x="{left}" y="{y}" width="{rate * plot:.1f}" height="20" fill="{colour}"/>'
                   f'<line x1="{left + low * plot:.1f}" y1="{y + 10}" x2="{left + high * plot:.1f}" y2="{y + 10}" '
                   f'stroke="#eee" stroke-width="2"/>'
                   f'<line x1="{left + low * plot:.1f}" y1="{y + 4}" x2="{left + low * plot:.1f}" y2="{y + 16}" '
                   f'stroke="#eee" stroke-width="2"/>'
                   f'<line x1="{left + high * plot:.1f}" y1="{y + 4}" x2="{left + high * plot:.1f}" y2="{y + 16}" '
                   f'stroke="#eee" stroke-width="2"/>'
                   f'<text x="{left + plot + 8}" y="{y + 15}" class=value>{rate:.0%} ({wins}/{trials})</text>')
    svg.append("</svg>")
    return "".join(svg) + f"<p class=note>whiskers: 95% Wilson interval over {trials} games</p>"


AVERAGED = (("takedowns", "takedowns"), ("jumps", "jumps"), ("air_time_s", "seconds in the air"),
            ("crashes", "crashes"), ("busts", "busts"), ("destructibles_smashed", "destructibles smashed"),
            ("attacks", "attacks"), ("margin", "winning margin (points)"), ("drama", "drama score"))


def _averages(games: list[dict]) -> str:
    rows = []
    for key, label in AVERAGED:
        values = np.array([g[key] for g in games], float)
        rows.append(f"<tr><td>{label}</td><td>{values.mean():.2f}</td><td>{values.std():.2f}</td>"
                    f"<td>{_figure(values.min())}</td><td>{_figure(values.max())}</td></tr>")
    return ("<table><tr><th></th><th>mean</th><th>sd</th><th>min</th><th>max</th></tr>" + "".join(rows)
            + "</table>")


def _heat_maps(connection, scene: str, table) -> str:
    from scipy.ndimage import gaussian_filter

    from entropy3d.activation.overhead import table_image
    from entropy3d.scene.build import build_table_geometry

    geometry = build_table_geometry(table)
    cliffs = [edge for edge, kind in table.spec.table.edges.items() if kind == "cliff"]
    figures = []
    for kind, colour, title in HEAT_KINDS:
        points = np.array(connection.execute("SELECT x_in, y_in FROM moments WHERE scene=? AND kind=?",
                                             (scene, kind)).fetchall(), float).reshape(-1, 2)
        image, canvas = table_image(geometry, {}, HEAT_PX_PER_IN, cliffs)
        image = image.convert("RGB")
        pixels = np.asarray(image, np.float32) * 0.55  # the table dimmed under the heat
        if len(points):
            x0, y0, x1, y1 = canvas.region
            bins = (max(1, int((x1 - x0) / HEAT_CELL_IN)), max(1, int((y1 - y0) / HEAT_CELL_IN)))
            counts, _, _ = np.histogram2d(points[:, 0], points[:, 1], bins=bins, range=[[x0, x1], [y0, y1]])
            density = gaussian_filter(counts, HEAT_SIGMA_IN / HEAT_CELL_IN)
            density = (density / density.max()) ** 0.6
            # histogram rows are x, columns y (up); the image's rows run down from y1
            heat = np.flipud(density.T)
            from PIL import Image

            heat = np.asarray(Image.fromarray((heat * 255).astype(np.uint8)).resize(image.size, Image.BILINEAR),
                              np.float32)[..., None] / 255.0
            pixels = pixels * (1 - 0.85 * heat) + np.array(colour, np.float32) * 0.85 * heat
        picture = _titled(pixels.clip(0, 255).astype(np.uint8), f"{title}: {len(points)}")
        figures.append(f'<img src="data:image/png;base64,{picture}" alt="{html.escape(title)}">')
    return "<div class=heat>" + "".join(figures) + "</div>"


def _titled(pixels: np.ndarray, title: str) -> str:
    """A heat map with its title above it, as base64 PNG."""
    from PIL import Image, ImageDraw

    from entropy3d.fonts import font

    image = Image.fromarray(pixels)
    canvas = Image.new("RGB", (image.width, image.height + 34), (24, 24, 28))
    canvas.paste(image, (0, 34))
    ImageDraw.Draw(canvas).text((8, 6), title, font=font(20, True), fill=(235, 235, 235))
    out = io.BytesIO()
    canvas.save(out, format="PNG", optimize=True)
    return base64.b64encode(out.getvalue()).decode("ascii")


def _figure(value: float) -> str:
    """A count as a whole number, anything else to two decimals ("1.42", not "1.4167")."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.2f}"


def _bike_section(connection) -> str:
    rows = _rows(connection, "SELECT bike_type, status, COUNT(*) AS n, SUM(takedowns) AS takedowns, "
                             "SUM(crashes) AS crashes, SUM(busts) AS busts, SUM(jumps) AS jumps "
                             "FROM riders GROUP BY bike_type, status ORDER BY bike_type, status")
    bikes: dict[str, dict] = defaultdict(lambda: {"n": 0, "takedowns": 0, "crashes": 0, "busts": 0, "jumps": 0,
                                                  "status": {}})
    for row in rows:
        bike = bikes[row["bike_type"]]
        bike["status"][row["status"]] = row["n"]
        for key in ("n", "takedowns", "crashes", "busts", "jumps"):
            bike[key] += row[key]
    width, left, row_h = 620, 150, 34
    plot = width - left - 20
    svg = [f'<svg width="{width}" height="{row_h * len(bikes) + 30}" class=chart>']
    for k, (name, bike) in enumerate(sorted(bikes.items())):
        y, x = k * row_h + 6, float(left)
        svg.append(f'<text x="{left - 8}" y="{y + 15}" class=label>{html.escape(name.replace("_", " "))}</text>')
        for status, colour in STATUS_COLOURS.items():
            share = bike["status"].get(status, 0) / bike["n"]
            if share > 0:
                svg.append(f'<rect x="{x:.1f}" y="{y}" width="{share * plot:.1f}" height="20" fill="{colour}">'
                           f'<title>{status}: {share:.0%}</title></rect>')
                if share >= 0.08:
                    svg.append(f'<text x="{x + 4:.1f}" y="{y + 15}" class=inbar>{share:.0%}</text>')
                x += share * plot
    svg.append("</svg>")
    legend = " ".join(f'<span style="color:{c}">&#9632;</span> {s} at the end' for s, c in STATUS_COLOURS.items())
    table = ["<table><tr><th>bike</th><th>rider-games</th><th>takedowns / game</th><th>crashes / game</th>"
             "<th>busts / game</th><th>jumps / game</th></tr>"]
    for name, bike in sorted(bikes.items()):
        n = bike["n"]
        table.append(f"<tr><td>{html.escape(name.replace('_', ' '))}</td><td>{n}</td>"
                     + "".join(f"<td>{bike[key] / n:.2f}</td>" for key in ("takedowns", "crashes", "busts", "jumps"))
                     + "</tr>")
    table.append("</table>")
    return ("<section><h2>Outcomes per bike type <span class=note>all scenes</span></h2>" + "".join(svg)
            + f"<p class=note>{legend}</p>" + "".join(table) + "</section>")


def _top_section(games: list[dict], gang_names: dict[str, dict[str, str]], count: int = 10) -> str:
    """The ``count`` most dramatic games, winners and points by the gangs' names in their scene
    (``gang_names``: per scene, gang id -> name)."""
    top = sorted(games, key=lambda g: (-g["drama"], g["scene"], g["seed"]))[:count]
    rows = ["<table><tr><th>drama</th><th>scene</th><th>seed</th><th>winner</th><th>score</th><th>takedowns</th>"
            "<th>jumps</th><th>crashes</th><th>replay</th><th>play it again</th></tr>"]
    for g in top:
        names = gang_names.get(g["scene"], {})
        score = ", ".join(f"{names.get(k, k)} {v:+d}" for k, v in _score(g).items())
        command = (f"entropy3d demo {g['scene']} --seed {g['seed']} --turns {g['turns']} "
                   f"--producer {g['producer']}")
        rows.append(f"<tr><td>{g['drama']:.1f}</td><td>{html.escape(g['scene_name'])}</td><td>{g['seed']}</td>"
                    f"<td>{html.escape(names.get(g['winner'], g['winner']) if g['winner'] else 'draw')}</td>"
                    f"<td>{html.escape(score)}</td>"
                    f"<td>{g['takedowns']}</td><td>{g['jumps']}</td><td>{g['crashes']}</td>"
                    f"<td><a href=\"{html.escape(g['replay'])}\">{html.escape(Path(g['replay']).name)}</a></td>"
                    f"<td class=command><code>{html.escape(command)}</code></td></tr>")
    rows.append("</table>")
    return "<section><h2>The most dramatic games</h2>" + "".join(rows) + "</section>"


PAGE = """<!doctype html>
<html lang=en><head><meta charset=utf-8><title>entropy3d sweep report</title>
<style>
body {{ background: #18181c; color: #e8e8e8; font-family: "DejaVu Sans", sans-serif; margin: 2em; }}
h2 {{ border-bottom: 1px solid #444; padding-bottom: .2em; margin-top: 2em; }}
.note {{ color: #999; font-size: 85%; font-weight: normal; }}
table {{ border-collapse: collapse; margin: .5em 0; }}
td, th {{ border: 1px solid #3a3a40; padding: .25em .6em; text-align: right; }}
td:first-child, th:first-child {{ text-align: left; }}
.chart text {{ fill: #ddd; font-size: 13px; }}
.chart .label {{ text-anchor: end; }} .chart .axis {{ text-anchor: middle; fill: #999; }}
.chart .inbar {{ fill: #fff; font-size: 12px; }}
.heat img {{ margin: 0 .6em .6em 0; max-width: 32%; }}
code {{ font-size: 85%; color: #bbb; }} a {{ color: #8ab4f8; }} td.command {{ text-align: left; }}
</style></head><body>
{body}
</body></html>
"""
