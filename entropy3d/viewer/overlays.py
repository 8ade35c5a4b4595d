"""What the viewer draws over the table and tells about it, as a mixin of
:class:`~entropy3d.viewer.app.Viewer`: the selection's ring, panel and sight of every enemy
(labels coloured by can-shoot), the target's ray fan, the measure with its ruler, the replay's
active-model ring, and the plain-data account of the window (``shown``, the ``--state-file``).

Every number comes from :class:`~entropy3d.viewer.questions.TableQuestions`; nothing is decided
here. Lines are gathered in the viewer's :class:`~entropy3d.viewer.marks.LineBatch`.
"""

from __future__ import annotations

import json
import re

import numpy as np

from entropy3d.geometry import Pose


class ViewerOverlays:
    """Drawing and reporting methods of the viewer (its attributes are set by ``Viewer``)."""

    @staticmethod
    def _set_text(widget, text: str) -> None:
        if widget.getText() != text:  # a text made again costs a slower frame
            widget.setText(text)

    def _ring(self, model_id: str, pose: Pose, colour, margin: float = 0.35) -> None:
        """A ring around a model's base on the ground under it, ``margin`` inches out."""
        from entropy3d.viewer.marks import ring_points

        base = self.table.base_of(self.table.model(model_id))
        self.lines.add([ring_points((pose.x, pose.y, pose.z), base.radius + margin)], colour, 4.0)

    def _draw_overlays(self, poses: dict[str, Pose], focus: str) -> None:
        from entropy3d.game.timeline import ruler_polyline, template_polylines
        from entropy3d.viewer.marks import RULER, shot_colour

        pose = poses[focus]
        if self.show["t"] and self.rules.system.turns_on_templates:
            shade = {"tight": (1, 0.4, 0.3, 1), "medium": (1, 0.8, 0.2, 1), "wide": (0.4, 0.9, 1, 1)}
            for name, points in template_polylines(pose, self.table.ruleset):
                self.lines.add([points], shade[name.split("-")[0]], 2.0, top=False)
        if self.show["r"]:
            self.lines.add(ruler_polyline(pose), RULER, 2.0)
        if self.show["l"] and self.selected is None:
            labels, _ = self.questions.sight(focus, poses, self.game_state())
            for label in labels:
                self._sight_line(poses[focus], poses[label.target], shot_colour(label.can_shoot))

    def _draw_tries(self, poses: dict[str, Pose]) -> None:
        """Each tried model's start ghosted (a grey ring and a line to where it is tried) and,
        where it cannot stand, a red ring and the reason (:attr:`standing`)."""
        from entropy3d.viewer.marks import GHOST, NO_SHOT

        start = self.start_poses()
        tried = [model_id for model_id in self.what_if if model_id in poses and model_id in start]
        self.standing = self.questions.standing_problems(poses, tried)
        for model_id in tried:
            was, now = start[model_id], poses[model_id]
            self._ring(model_id, was, GHOST)
            self.lines.add([np.array([[was.x, was.y, was.z + 0.2], [now.x, now.y, now.z + 0.2]])], GHOST, 2.0)
            if model_id in self.standing:  # the reason in full is in the panel and the state file
                self._ring(model_id, now, NO_SHOT, margin=0.8)
                # any rulebook's clause ids ("(EC-TER-BUILDING)", "(GANG-MOVE)", "(SW-VEH-1)")
                clauses = re.findall(r"\(([A-Z]+(?:-[A-Z0-9]+)+)\)", self.standing[model_id])
                self.labels.add("cannot stand here" + (f" ({', '.join(clauses)})" if clauses else ""),
                                (now.x, now.y, now.z + 3.4), NO_SHOT)

    def moved_words(self, model_id: str) -> str:
        """How far a tried model is from its start: "moved 7.2\" (level 0.0\" -> 6.4\")"."""
        was, now = self.start_poses()[model_id], self.poses()[model_id]
        flat = float(np.hypot(now.x - was.x, now.y - was.y))
        level = f" (level {was.z:.1f}\" -> {now.z:.1f}\")" if abs(now.z - was.z) > 0.05 else ""
        return f"moved {flat:.1f}\" from its start{level}, turned to {now.facing_deg:.0f} deg"

    def _sight_line(self, a: Pose, b: Pose, colour, thickness: float = 3.0) -> None:
        self.lines.add([np.array([[a.x, a.y, a.z + 1.0], [b.x, b.y, b.z + 1.0]])], colour, thickness)

    def _draw_selection(self, poses: dict[str, Pose]) -> None:
        """The selected model's ring, panel and sight of every enemy; the target's ray fan."""
        from entropy3d.viewer.marks import (
            CAN_SHOOT,
            FRONT_ARC,
            NO_SHOT,
            SELECTED,
            TARGETED,
            front_half_points,
            shot_colour,
        )

        self.sight_labels, self.sight_results = [], {}
        if self.selected is None:
            self._set_text(self.panel, "click a model to select it" if self.measuring is None else "")
            return
        pose = poses[self.selected]
        self._ring(self.selected, pose, SELECTED)
        self.lines.add([front_half_points(pose)], FRONT_ARC, 2.0, top=False)  # what it sees out of (EC-LOS-2)
        self.sight_labels, self.sight_results = self.questions.sight(self.selected, poses, self.game_state())
        names = self.questions.names
        lines = [self.questions.panel(self.game_state().models[self.selected], self.table.model(self.selected).rider,
                                      self.rules.system, self.rules.engine.condition_words)]
        lines.append(f"at ({pose.x:.1f}, {pose.y:.1f})\", level {pose.z:.1f}\", facing {pose.facing_deg:.0f} deg")
        if self.selected in self.what_if and self.selected in self.start_poses():
            lines.append(self.moved_words(self.selected))
        if self.selected in self.standing:
            lines.append(f"cannot stand here: {self.standing[self.selected]}")
        seen = [label for label in self.sight_labels if label.can_shoot]
        if any(label.can_shoot is not None for label in self.sight_labels):  # a rulebook with shots
            lines.append(f"can shoot: {', '.join(names.rider(s.target) for s in seen) or 'nobody'}")
        for label in self.sight_labels:
            colour = shot_colour(label.can_shoot)
            target_pose = poses[label.target]
            self._sight_line(pose, target_pose, colour, 4.0 if label.target == self.target else 2.5)
            self.labels.add(label.text(names.rider(label.target)),
                            (target_pose.x, target_pose.y, target_pose.z + 2.2), colour)
        if self.target is not None and self.target in self.sight_results:
            result = self.sight_results[self.target]
            self._ring(self.target, poses[self.target], TARGETED)
            # the ray fan, hidden where the scenery stands in front (a ray through a wall is not
            # drawn past it), blocked rays drawn after the clear ones; the target's seen part dotted
            geometry = result.geometry
            step = max(1, len(geometry.ray_ends) // 200)
            ends, seen = geometry.ray_ends[::step], np.asarray(geometry.rays_visible[::step], bool)
            segments = np.stack([np.broadcast_to(geometry.eye, ends.shape), ends], axis=1)
            self.lines.add_segments(segments[seen], [CAN_SHOOT] * int(seen.sum()), 2.0, top=False)
            self.lines.add_segments(segments[~seen], [NO_SHOT] * int((~seen).sum()), 2.5, top=False)
            dots = np.concatenate([np.stack([ends[seen] - offset, ends[seen] + offset], axis=1)
                                   for offset in np.eye(3) * 0.08]) if seen.any() else np.zeros((0, 2, 3))
            self.lines.add_segments(dots, [CAN_SHOOT] * len(dots), 3.0)
            label = next(s for s in self.sight_labels if s.target == self.target)
            lines.append(f"{names.rider(self.target)}: {label.visible_percent:.0f}% visible, "
                         f"cover {'yes' if label.cover else 'no'}"
                         + ("" if label.can_shoot is None else f", can shoot {'yes' if label.can_shoot else 'no'}")
                         + (f" ({result.true_los.behind_words(names.rider(self.selected))})"
                            if result.true_los.rays_behind else ""))
            if label.no_shot:
                lines.append(f"no shot: {label.no_shot}")
            lines.append(f"in the way: {', '.join(names.thing(b) for b in label.blockers) or 'nothing'}")
        self._set_text(self.panel, "\n".join(lines))

    def _draw_measure(self) -> None:
        from entropy3d.viewer.marks import RULER, pixels_of, ruler_ticks

        if self.measuring is not None:
            self._set_text(self.panel, f"measure: click {'the first' if not self.measuring else 'the second'} point"
                               " (a model or the table)")
            for name, point in zip("AB", self.measuring):
                self.labels.add(name, point + [0, 0, 0.6], RULER)
        if self.measure is None:
            return
        measure = self.measure
        self.lines.add([measure.profile + [0, 0, 0.1]], (1.0, 0.75, 0.2, 1.0), 2.0)
        ticks, numbers = ruler_ticks(measure.start, measure.end)
        self.lines.add(ticks, RULER, 3.0)
        if len(numbers) > 1:
            inch = float(np.linalg.norm(np.diff(pixels_of(self.base, [numbers[0][1], numbers[1][1]]), axis=0)))
            every = next((k for k in (1, 2, 3, 6, 12) if k * inch >= 24), 24)  # numbers 24 px apart at least
            for number, point in numbers:
                if number % every == 0:
                    self.labels.add(str(number), point, RULER, scale=0.03, give_way=False)
        self._set_text(self.panel, self.panel.getText() + "\n" + measure.text() if self.selected else measure.text())

    def _draw_plan(self, poses: dict[str, Pose]) -> None:
        """The typed plan's path and end (a ghost ring), and the rules' answer in the panel."""
        from entropy3d.viewer.marks import TARGETED
        from entropy3d.viewer.typing_line import TYPED

        if self.plan_entry is None or self.selected is None:
            return
        preview = self.plan_preview
        asked = self.live.question() if self.live is not None else None
        if asked is not None and asked[1].kind not in TYPED:
            # the attacks offered are typed by number; a defence's option (who attacks) is in its prompt
            options = [f"  {k}. {option}" for k, option in enumerate(asked[1].options, start=1)
                       if asked[1].kind == "attack"]
            self._set_text(self.panel, "\n".join([self.panel.getText(), asked[1].prompt(
                self.questions.names.rider(asked[1].model_id)), *options]))
            return
        if preview is None:
            self._set_text(self.panel, self.panel.getText() + "\n" + self.rules.hint())
            return
        if preview.refused_path is not None:  # where the plan would run into what refused it
            from entropy3d.viewer.marks import NO_SHOT

            path = np.asarray(preview.refused_path, float)
            self.lines.add([np.column_stack([path, np.full(len(path), poses[self.selected].z + 0.15)])], NO_SHOT, 3.0)
        if preview.move is not None:
            z = poses[self.selected].z + 0.15
            path = np.column_stack([preview.move.path, np.full(len(preview.move.path), z)])
            self.lines.add([path], TARGETED, 3.0)
            end = preview.move.end_pose
            self._ring(self.selected, Pose(end.x, end.y, end.facing_deg, z), TARGETED)
        # the engine names figures by id; the user knows them by name
        told = self.questions.names.named_all("\n".join(preview.lines()))
        self._set_text(self.panel, self.panel.getText() + "\n" + told)

    # -- output ----------------------------------------------------------------------------------

    def shown(self) -> dict:
        """What the window shows, as plain data (the ``state_file``)."""
        from entropy3d.viewer.marks import pixels_of, table_to_pixels_matrix

        poses = self.poses()
        ids = list(poses)
        centres = [(poses[i].x, poses[i].y, poses[i].z + 0.8) for i in ids]
        pixels = pixels_of(self.base, centres) if ids else np.zeros((0, 2))
        return {
            "selected": self.selected, "target": self.target,
            "poses": {i: [round(p.x, 4), round(p.y, 4), round(p.z, 4), round(p.facing_deg, 4)]
                      for i, p in poses.items()},
            "what_if": sorted(self.what_if),
            "dragging": self._drag is not None,  # a drag's pose is final only once it is released
            "standing": dict(self.standing),
            "saved": [str(path) for path in self.saved], "save_refused": self.save_refused,
            "notice": self.notice,
            "live": self._live_shown(),
            "moved": {i: self.moved_words(i) for i in sorted(self.what_if) if i in poses and i in self.start_poses()},
            "labels": [label.to_dict() for label in self.sight_labels],
            "screen_labels": self.labels.pixels(),
            "measure": self.measure.to_dict() if self.measure is not None else None,
            "measuring": len(self.measuring) if self.measuring is not None else None,
            "plan": self.plan_preview.to_dict() if self.plan_preview is not None else None,
            "plan_open": self.plan_entry is not None,
            "ridden": [events for _, events in self.ridden],
            "pixels": {i: [float(x), float(y)] for i, (x, y) in zip(ids, pixels)},
            "window": [self.base.win.getXSize(), self.base.win.getYSize()],
            "table_to_clip": table_to_pixels_matrix(self.base).tolist(),
            "help_shown": not self.help.isHidden(),
            "step": self.timeline.index, "steps": len(self.timeline.steps),
            "playing": self.playing, "follow": self.follow, "speed": self.speed,
            "camera": {"distance": self.distance, "pitch": self.pitch, "yaw": self.yaw},
            "frames_drawn": self.frames_drawn,
            "response_ms": self.last_response_ms,
        }

    def _live_shown(self) -> dict | None:
        """A game played here, as plain data: the question waiting, how far it is, its replay."""
        if self.live is None:
            return None
        asked = self.live.question()
        question = None if asked is None else {
            "gang": asked[0], "kind": asked[1].kind, "model": asked[1].model_id, "index": asked[1].index,
            "options": list(asked[1].options), "refusal": asked[1].refusal}
        return {"question": question, "answered": self.live.answered, "records": len(self.live.records),
                "done": self.live.done,
                "replay": str(self.live.replay_path) if self.live.replay_path else None, "error": self.live.error,
                "words": self.live_words()}

    def _write_state(self) -> None:
        if self.state_file is not None:
            from entropy3d.outputs import write_atomic

            write_atomic(self.state_file, json.dumps(self.shown()).encode())
