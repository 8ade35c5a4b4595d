"""Move plans as text and as values.

Notation (one action)::

    [ACTION ]s<speed>: SEGMENT[, SEGMENT...]
    [ACTION ]walk: SEGMENT[, SEGMENT...]          (a model on foot: straights and pivots)
    drive: SEGMENT[, SEGMENT...]                  (a vehicle of the chase rules: straights and turns)

ACTION is move (default), focus, chicane, gungho, stoppie, stop, overwatch, reload, jump, laytrap or
stunt (overwatch and reload are a stop with a gun, EC-GUN-STOPPED). SEGMENT is
``straight <inches>``, ``left|right tight|medium|wide <inches along the arc>``,
``weave left|right [<inches>]`` (default 1) or ``pivot left|right <degrees>`` (a stoppie's, or a
model on foot turning where it stands).
Inches are whole numbers except for weaves; errors are :class:`~entropy3d.errors.PlanError` with
the 1-based column. ``str(parse_plan(t))`` is the canonical text and parses back to an equal plan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from entropy3d.errors import PlanError

ACTIONS = ("move", "focus", "chicane", "gungho", "stoppie", "stop", "overwatch", "reload", "jump", "laytrap",
           "stunt")
#: the actions that stop the bike at its minimum distance for the rest of the activation and the next
#: (EC-ACT-STOP, EC-STOPPED): recovering, or a stopped action with a gun (EC-GUN-STOPPED)
STOPS = ("stop", "overwatch", "reload")
#: plans that spend the whole activation whatever the dice: the stops (EC-ACT-STOP, EC-GUN-STOPPED)
#: and gung-ho (EC-ACT-GUNGHO); :func:`entropy3d.systems.entropy_city.riding.resolve_move` spends it for them
SPENDS_THE_ACTIVATION = STOPS + ("gungho",)
SIDES = ("left", "right")
TEMPLATES = ("tight", "medium", "wide")
WALK = "walk"  #: written in place of the speed: the model walks on foot (:attr:`Plan.walking`)
#: written in place of the speed: a vehicle of a game system drives the path (:attr:`Plan.driven`);
#: how far and how fast is that system's rule, not a speed band's
DRIVE = "drive"


@dataclass(frozen=True)
class Straight:
    """Ride straight ahead ``inches`` (whole inches)."""

    inches: float

    def __str__(self) -> str:
        return f"straight {self.inches:g}"


@dataclass(frozen=True)
class Turn:
    """Ride ``inches`` along a turning template (EC-TMPL-1).

    side: left or right. template: tight, medium or wide. inches: distance along the arc.
    """

    side: str
    template: str
    inches: float

    def __str__(self) -> str:
        return f"{self.side} {self.template} {self.inches:g}"


@dataclass(frozen=True)
class Weave:
    """Shift ``inches`` sideways (left or right) during straight movement (EC-WEAVE-1)."""

    side: str
    inches: float = 1.0

    def __str__(self) -> str:
        return f"weave {self.side} {self.inches:g}"


@dataclass(frozen=True)
class Pivot:
    """Pivot ``degrees`` left or right on the front of the base (EC-ACT-STOPPIE)."""

    side: str
    degrees: float

    def __str__(self) -> str:
        return f"pivot {self.side} {self.degrees:g}"


Segment = Straight | Turn | Weave | Pivot


@dataclass(frozen=True)
class Plan:
    """One action's plan.

    action: one of :data:`ACTIONS`.
    speed: the speed declared for the action (EC-SPD-1); 0 for a walk on foot (``walk:``) or a
    drive (``drive:``).
    segments: the path, in order.
    driven: a vehicle's drive (``drive:``), its speed its system's to decide.
    """

    action: str
    speed: int
    segments: tuple[Segment, ...]
    driven: bool = False

    @property
    def walking(self) -> bool:
        """A walk of a model on foot (written ``walk:`` in place of a speed)."""
        return self.speed == 0 and not self.driven

    def __str__(self) -> str:
        pace = DRIVE if self.driven else WALK if self.walking else f"s{self.speed}"
        head = pace if self.action == "move" else f"{self.action} {pace}"
        return f"{head}: " + ", ".join(str(s) for s in self.segments)

    def __repr__(self) -> str:
        return f"Plan({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "Plan":
        """Same as :func:`parse_plan`."""
        return parse_plan(text)


_TOKEN = re.compile(r"\s*(?:(?P<speed>[sS]\d+(?![\w.]))|(?P<word>[A-Za-z]+)|(?P<num>-?\d+(?:\.\d+)?)"
                    r"|(?P<punct>[:,])|(?P<bad>\S))")


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    col: int  # 1-based


def _tokens(text: str) -> list[_Tok]:
    toks = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        kind = m.lastgroup
        if kind is None:  # trailing whitespace
            break
        toks.append(_Tok(kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()
    return toks


#: the largest number a plan may hold: a table is a few feet and a turn a few hundred degrees, and
#: far larger numbers would be taken as paths of billions of points
MAX_PLAN_NUMBER = 10_000


def parse_plan(text: str) -> Plan:
    """Parse one action's plan; raise PlanError(column) on bad input."""
    toks = _tokens(text)
    end_col = len(text.rstrip()) + 1
    i = 0

    def peek() -> _Tok | None:
        return toks[i] if i < len(toks) else None

    def take(expect: str, what: str) -> _Tok:
        nonlocal i
        tok = peek()
        if tok is None:
            raise PlanError(text, end_col, f"expected {what}, got the end of the plan")
        if tok.kind == "bad":
            raise PlanError(text, tok.col, f"unexpected character {tok.text!r}")
        if tok.kind != expect:
            raise PlanError(text, tok.col, f"expected {what}, got {tok.text!r}")
        i += 1
        return tok

    def choice(options: tuple[str, ...], what: str, hint: str = "") -> str:
        tok = peek()
        if tok is not None and tok.kind != "bad" and (tok.kind != "word" or tok.text.lower() not in options):
            raise PlanError(text, tok.col, f"expected {what} ({'|'.join(options)}), got {tok.text!r}{hint}")
        return take("word", f"{what} ({'|'.join(options)})").text.lower()

    def number(what: str, whole: bool) -> float:
        tok = take("num", what)
        value = float(tok.text)
        if value <= 0:
            raise PlanError(text, tok.col, f"{what} must be > 0, got {tok.text}")
        if value > MAX_PLAN_NUMBER:
            raise PlanError(text, tok.col, f"{what} must be at most {MAX_PLAN_NUMBER:,}, got {tok.text}: "
                                           "a plan's numbers are inches or degrees")
        if whole and not value.is_integer():
            raise PlanError(text, tok.col, f"{what} must be whole inches, got {tok.text}")
        return value

    if not toks:
        raise PlanError(text, 1, "empty plan; write e.g. 's1: straight 6'")
    def paced(word: str) -> bool:
        tok = peek()
        return tok is not None and tok.kind == "word" and tok.text.lower() == word

    action, driven = "move", False
    if peek().kind == "word" and not paced(WALK) and not paced(DRIVE):
        action = choice(ACTIONS, "an action")
    if paced(WALK) or (action == "move" and paced(DRIVE)):
        driven = paced(DRIVE)
        take("word", DRIVE if driven else WALK)
        speed = 0
    else:
        speed_tok = take("speed", "a speed like s1, s2 or s3 (or walk, on foot)")
        speed = int(speed_tok.text[1:])
        if not 1 <= speed <= 3:
            raise PlanError(text, speed_tok.col, f"speed must be s1, s2 or s3 (EC-SPD-2), got {speed_tok.text!r}")
    take("punct", "':' after the speed")
    if toks[i - 1].text != ":":
        _raise_expected(text, toks[i - 1], "':' after the speed")

    segments: list[Segment] = []
    while True:
        kind = choice(("straight", "left", "right", "weave", "pivot"), "a segment")
        if kind == "straight":
            segments.append(Straight(number("straight inches", whole=True)))
        elif kind in SIDES:
            template = choice(TEMPLATES, "a template",
                              f"; a turn is whole inches along a template (EC-TMPL-1), e.g. '{kind} wide 6'"
                              f"; a turn by degrees is a stoppie's 'pivot {kind} 90' (EC-ACT-STOPPIE)")
            segments.append(Turn(kind, template, number("inches along the template", whole=True)))
        elif kind == "weave":
            side = choice(SIDES, "a side")
            nxt = peek()
            segments.append(Weave(side, number("weave inches", whole=False))
                            if nxt is not None and nxt.kind == "num" else Weave(side))
        else:
            side = choice(SIDES, "a side")
            segments.append(Pivot(side, number("pivot degrees", whole=False)))
        tok = peek()
        if tok is None:
            break
        if tok.text != ",":
            _raise_expected(text, tok, "',' or the end of the plan")
        i += 1
    return Plan(action, speed, tuple(segments), driven)


def _raise_expected(text: str, tok: _Tok, what: str):
    raise PlanError(text, tok.col, f"expected {what}, got {tok.text!r}")
