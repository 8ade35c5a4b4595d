"""The film's heads-up display for one frame of an action, as a mixin of
:class:`~entropy3d.video.movie.ReplayFilm`: the acting model's line (speed, stress, wounds, status
as the frame shows them), the words the rules said so far, and the score as far as the film has
told it (never a point before the caption that gives it).

Its attributes are the film's (``replay``, ``words``, ``colours``, ``riders``, ``pace``, ``system``,
``options``, ``_score``); nothing here decides a rule: the records say what happened.
"""

from __future__ import annotations

import dataclasses

from entropy3d.game.records import action_events
from entropy3d.systems import words
from entropy3d.video import hud, pacing
from entropy3d.video.pacing import shown_by


class FilmHud:
    """HUD methods of the film (its attributes are set by ``ReplayFilm``)."""

    def _revealed(self, info: hud.HudInfo, i: int) -> hud.HudInfo:
        """``info`` as frame ``i`` of its segment shows it: a system's own game reveals more large
        lines than the HUD keeps one by one (:meth:`SystemPace.revealed`)."""
        if self.pace is None:
            return info
        return dataclasses.replace(info, lines=self.pace.revealed(info.lines, i / self.options.fps,
                                                                  self.options.read_cps))

    def _bike_line(self, bike, speed: int, stress: int, wounds: int, status: str, conditions=()) -> hud.BikeLine:
        if not self.riders:
            status = words.status_words(status, self.system.out_banner)
        return hud.BikeLine(bike.id, self.words.rider_of_gang(bike.id), self.colours.get(bike.gang, "#ffffff"),
                            speed, stress, bike.max_stress, wounds, status, tuple(conditions),
                            figure_only=not self.riders)

    def _skipped_hud(self, activation, bike, heading: str) -> hud.HudInfo:
        now = activation.state_after.model(bike.id)
        said = words.lines(activation.events, self.words) if self.pace is None else self.pace.lines(activation.events)
        lines = tuple(said) or (
            (f"{self.words.rider(bike.id)} skips this activation ({now.status.replace('_', ' ')})", ""),)
        line = self._bike_line(bike, now.speed, now.stress, now.wounds, "skips")
        return hud.HudInfo(heading, line, "", lines, self._score(activation.state_after))

    def _hud(self, activation, action, bike, heading: str, t: float, holding: bool) -> hud.HudInfo:
        state = activation.state_after if holding and action is activation.actions[-1] else activation.state_before
        now = (pacing.seen_model(activation, action, holding) if not self.riders else None) or state.model(bike.id)
        stress = action.stress_after if holding else action.stress_before
        start = activation.events if action is activation.actions[0] else ()
        # by its place in the activation: a forced move or a second attack shares its action's index
        events = action_events(activation, activation.actions.index(action) if action in activation.actions else 0)
        shown = list(events) if holding else shown_by(events, t, start)
        status = "skips" if action.action.kind == "skip" else now.status if holding else (
            "in the air" if bike.air is not None else "riding")
        # an attack or a skip declares no speed: the rider's, as the record leaves it
        speed = action.speed if action.action.plan is not None or action.model_after is None \
            else action.model_after.speed
        line = self._bike_line(bike, speed, stress, now.wounds, status, now.conditions)
        # the replay keeps the activation's final score only: shown once no later action holds a key moment
        later = activation.actions[activation.actions.index(action) + 1:] if action in activation.actions else ()
        settled = holding and not any(words.may_change_score(e) for step in later for e in step.events)
        # before that, plus the points score events already told (never +0 under "+1 VP to Komodo")
        score = self._score(activation.state_after) if settled else self._score(
            pacing.score_base(self.replay, activation), pacing.told_points(activation, action, shown))
        said = words.lines(shown, self.words) if self.pace is None else self.pace.action_lines(shown, action)
        return hud.HudInfo(heading, line, action.plan, tuple(said), score)
