"""A gang played by a person: the game loop asks, a window (or any front end) answers.

The one loop (:class:`~entropy3d.game.loop.Game`) asks its players synchronously. A person answers
from another thread (the viewer's window keeps drawing meanwhile): :class:`HandSeat` is the bridge,
one per gang played by hand. The loop's thread calls :meth:`HandSeat.ask`, which posts a
:class:`Question` and waits; the window reads :attr:`HandSeat.question`, shows it, checks what is
typed with the rules' own ``check`` and calls :meth:`HandSeat.answer`. :meth:`HandSeat.close`
ends a game a person walks away from: the waiting question is answered by :class:`GameLeft`.

Entropy City's rider is played by :class:`HandChooser`, a chooser of
:class:`~entropy3d.game.entropy_city_player.EntropyCityPlayer` as the automatic and the scripted
ones are: the plan of each action, which of the attacks the rules offer (or none), and whether
to remain on overwatch. Any other rulebook's model is played by :class:`HandPlayer`: each action
typed in its rulebook's words. Neither decides a rule: the engine refuses what is not allowed,
and a refused answer is asked again with the refusal.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import Sequence

from entropy3d.errors import EntropyError, IllegalPlanError
from entropy3d.systems.entropy_city.state import State


class GameLeft(EntropyError):
    """The person playing a gang closed the game before it ended."""


@dataclass(frozen=True)
class Question:
    """What the game asks the person playing a gang.

    kind: ``plan`` (the plan of the model's action ``index``, 0-based), ``action`` (any rulebook's
    next action of the model, in that rulebook's words, or none to end its activation), ``attack``
    (one of ``options``, or none), ``overwatch`` (remain on it, yes or no) or ``defence`` (a melee
    attack on the model, ``options`` saying whose: dodge or attack back, EC-MEL-DEF). model_id:
    whose. state: the game as it stands when asked (a plan is checked against it). refusal: why
    the last answer was refused ("" for none). examples: for an ``action``, a few actions as they
    are typed in its rulebook's words."""

    kind: str
    model_id: str
    index: int
    state: State = field(repr=False)
    options: tuple[str, ...] = ()
    refusal: str = ""
    examples: tuple[str, ...] = ()

    def prompt(self, rider: str) -> str:
        """The question in words (``rider``: the model's name)."""
        said = {"plan": f"{rider}, action {self.index + 1}: type a plan (e.g. s2: straight 8), Enter rides it",
                "action": f"{rider}, action {self.index + 1}: type an action (e.g. "
                          + " or ".join(f'"{example}"' for example in self.examples or ("walk: straight 3",))
                          + "), Enter takes it; Enter on nothing ends its activation",
                "attack": f"{rider} may attack: type 1-{len(self.options)}, or TARGET with WEAPON (pistol x2, "
                          "kick own push 2), or Enter for none",
                "overwatch": f"{rider} is on overwatch: y remains on it, n rides",
                "defence": f"{rider} is attacked ({', '.join(self.options)}): a attacks back, d or Enter "
                           "dodges"}[self.kind]
        return f"{said}  (refused: {self.refusal})" if self.refusal else said


class HandSeat:
    """The questions of one gang's person, asked from the game's thread and answered from another."""

    def __init__(self, gang: str):
        self.gang = gang
        self._question: Question | None = None
        self._answers: queue.Queue[str | None] = queue.Queue()
        self._lock = threading.Lock()
        #: questions asked so far (a front end tells a new question from the last by it)
        self.asked = 0

    @property
    def question(self) -> Question | None:
        """What waits for an answer now (None: nothing)."""
        with self._lock:
            return self._question

    def ask(self, question: Question) -> str:
        """Post ``question`` and wait for its answer (GameLeft when the seat is closed)."""
        with self._lock:
            self._question = question
            self.asked += 1
        answer = self._answers.get()
        if answer is None:
            raise GameLeft(f"the person playing {self.gang} left the game")
        return answer

    def answer(self, text: str) -> bool:
        """Answer the question that waits (from the window's thread); False when none does. The
        question is taken down at once, so a window looking again before the game's thread has
        read the answer does not answer it twice."""
        with self._lock:
            if self._question is None:
                return False
            self._question = None
            self._answers.put(str(text))
        return True

    def close(self) -> None:
        """End the game for a question waiting now or asked later."""
        self._answers.put(None)


class HandChooser:
    """Entropy City's chooser for a gang played through ``seat``: the plan of each action, checked
    by the rules (with the table) before the game takes it, and asked again with the refusal; a
    rider every one of whose paths the table refuses is cornered, and the plan typed is ridden
    into what stops it (EC-COL-1), as the automatic player's is. It pushes its luck at the TN
    (``sit-at-tn``, EC-DICE-5), makes no kick, and the melee defence is the rules' default; the
    attacks offered are those the rules allow, by number, and Enter makes none."""

    #: a person is offered every attack the rules allow: kicks and taunts too (EC-MEL-KICK, EC-TRAIT)
    considers_kicks = True
    push = "sit-at-tn"

    def __init__(self, seat: HandSeat):
        self.seat = seat
        #: the plan just chosen is ridden into what the table refuses (EC-COL-1): every path is blocked
        self.may_be_cornered = False

    def choose_plan(self, view) -> str:
        refusal = ""
        while True:
            asked = Question("plan", view.model.id, view.action_index, view.state, refusal=refusal)
            text = self.seat.ask(asked).strip()
            try:
                view.check(text)
            except (IllegalPlanError, EntropyError) as refused:
                if self._cornered(view, text):
                    self.may_be_cornered = True
                    return text
                refusal = str(refused).splitlines()[0]
                continue
            self.may_be_cornered = False
            return text

    @staticmethod
    def _cornered(view, text: str) -> bool:
        """``text`` passes the rules but the table refuses it, and so does every plan worth
        considering (:func:`~entropy3d.game.candidates.candidate_plans`): no path is clear."""
        from entropy3d.game.candidates import candidate_plans

        try:
            view.check(text, table=False)
        except (IllegalPlanError, EntropyError):
            return False
        for plan in candidate_plans(view):
            try:
                view.check(plan)
            except (IllegalPlanError, EntropyError):
                continue
            return False
        return True

    def choose_attack(self, view, options: Sequence) -> object | None:
        """The attack typed: an option's number, or its words as a script writes them (``k1 with
        pistol x2``, ``k1 with kick own push 2``; :func:`~entropy3d.game.attack_words.option_named`),
        Enter for none; anything else is asked again with why."""
        from entropy3d.game.attack_words import option_named

        if not options:
            return None
        words = tuple(f"{option.kind} at {option.target}" + (f", TN {option.tn}" if option.tn else "")
                      + (f", {float(option.odds.hit):.0%} to hit" if getattr(option.odds, "hit", None) is not None
                         else "") for option in options)
        refusal = ""
        while True:
            asked = Question("attack", view.model.id, view.action_index, view.state, words, refusal)
            text = self.seat.ask(asked).strip()
            if not text:
                return None
            if text.isdigit() and 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            try:
                chosen = option_named(options, text) if " with " in text else None
            except (IllegalPlanError, ValueError) as refused:
                refusal = str(refused).splitlines()[0]
                continue
            if chosen is not None:
                return chosen
            refusal = f"{text!r} is not one of 1-{len(options)}, nor TARGET with WEAPON of those offered"

    def choose_defence(self, view, attacker_id: str, weapon: str) -> str:
        """How the person's rider answers a melee attack the rules let it answer either way
        (EC-MEL-DEF): ``a`` (attack back) or ``d`` / Enter (dodge); asked again otherwise."""
        from entropy3d.systems.entropy_city.attacks import ATTACK_BACK, DODGE

        refusal = ""
        while True:
            asked = Question("defence", view.model.id, view.action_index, view.state,
                             (f"{attacker_id} with {weapon}",), refusal)
            text = self.seat.ask(asked).strip().lower()
            if text in ("a", "attack", "attack back", "back"):
                return ATTACK_BACK
            if text in ("", "d", "dodge"):
                return DODGE
            refusal = f"{text!r}: answer a (attack back) or d (dodge)"

    def remain_on_overwatch(self, view) -> bool:
        refusal = ""
        while True:
            asked = Question("overwatch", view.model.id, view.action_index, view.state, refusal=refusal)
            text = self.seat.ask(asked).strip().lower()
            if text in ("y", "yes", "n", "no"):
                return text.startswith("y")
            refusal = f"{text!r}: answer y or n"


class HandPlayer:
    """Any rulebook's gang played through ``seat``: each action of a model is typed in its
    rulebook's words (``walk: straight 3``, ``shoot``, ``drive: straight 12``: the engine's
    ``parse_action``), checked by its engine against the table, and asked again with the refusal;
    nothing typed ends the model's activation. ``examples``: actions to show in the question, each
    as it is typed.
    DECISION: the order its ready models activate in is its rulebook's automatic player's
    (``auto``): a person picks each action, not the order (no rulebook here makes that order a
    tactical choice the automatic players get wrong)."""

    def __init__(self, seat: HandSeat, auto, examples: Sequence[str] = ("walk: straight 3",)):
        self.seat, self.auto, self.examples = seat, auto, tuple(examples)
        self.gang = seat.gang

    def order(self, state: State, ready: Sequence[str], table) -> list[str]:
        return self.auto.order(state, ready, table)

    def choose_action(self, view):
        """The action typed for ``view.model``, checked against ``view.table`` (None: end it)."""
        refusal = ""
        index = view.model.actions_taken  # its actions so far (a forced walk after a retreat is none)
        while True:
            asked = Question("action", view.model.id, index, view.state, refusal=refusal, examples=self.examples)
            text = self.seat.ask(asked).strip()
            if not text:
                return None
            try:
                action = view.engine.parse_action(view.model.id, text)
                view.engine.check(view.state, action, view.table)
            except EntropyError as refused:  # IllegalPlanError names the clause; PlanError the notation
                refusal = str(refused).splitlines()[0]
                continue
            return action
