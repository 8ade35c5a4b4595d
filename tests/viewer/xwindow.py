"""A real X window for the viewer tests and benchmark: Xvfb on a free display of the process's
own range (:class:`Xvfb`), `entropy3d view` started on it, xdotool's synthetic clicks and keys,
and screenshots of the X screen (Pillow's ImageGrab over XCB).

:class:`ViewerWindow` also reads the viewer's ``--state-file`` (what the window shows, written
after every change) so a test can wait for a click's effect and aim at a model or a table point.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from entropy3d.viewer.marks import pixel_of_point

#: the displays Xvfb is started on: process k (its pid modulo DISPLAY_RANGES) tries its own
#: DISPLAYS_PER_PROCESS numbers from FIRST_DISPLAY + k * DISPLAYS_PER_PROCESS
FIRST_DISPLAY, DISPLAY_RANGES, DISPLAYS_PER_PROCESS = 100, 1000, 8
#: seconds to wait for Xvfb, the window, or a change to show
TIMEOUT_S = 120.0


def missing_tools() -> list[str]:
    return [tool for tool in ("Xvfb", "xdotool") if shutil.which(tool) is None]


class Xvfb:
    """An X server in memory on a display of this process's own range; stopped on exit.

    Not ``-displayfd`` alone, which takes the lowest free display: two test workers then take
    turns on the same number, and one worker's server, exiting, can remove the socket of the
    next server on that number (seen once in CI: "Could not open display :0"). Each process
    starts from a number of its own and goes on past displays that are taken (Xvfb refuses a
    display whose server is running, and says nothing on ``-displayfd``)."""

    def __init__(self, size: str = "1280x720x24"):
        first = FIRST_DISPLAY + (os.getpid() % DISPLAY_RANGES) * DISPLAYS_PER_PROCESS
        for number in range(first, first + DISPLAYS_PER_PROCESS):
            read, write = os.pipe()
            process = subprocess.Popen(["Xvfb", f":{number}", "-displayfd", str(write), "-screen", "0", size,
                                        "-nolisten", "tcp"],
                                       pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os.close(write)
            with os.fdopen(read) as answer:
                said = answer.readline().strip()
            if said:
                self.process, self.display = process, f":{said}"
                return
            process.wait(timeout=TIMEOUT_S)
        raise RuntimeError(f"Xvfb did not start on any of displays :{first} to :{first + DISPLAYS_PER_PROCESS - 1}")

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


class ViewerWindow:
    """`entropy3d view SOURCE` in a real window on ``xvfb``, driven as a person would."""

    def __init__(self, xvfb: Xvfb, state_file: Path, source: str | None = None, extra: tuple[str, ...] = ()):
        self.display, self.state_file = xvfb.display, Path(state_file)
        self.env = {**os.environ, "DISPLAY": xvfb.display}
        self.state_file.unlink(missing_ok=True)
        command = [sys.executable, "-m", "entropy3d", "view", *([source] if source else []),
                   "--state-file", str(state_file), *extra]
        # started in the state file's folder: what the window saves (s) lands there, not in the checkout
        self.process = subprocess.Popen(command, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        cwd=self.state_file.parent)
        self.window = self._wait_for_window()
        self.state = self.wait(lambda s: s["frames_drawn"] > 0)

    def _wait_for_window(self) -> str:
        deadline = time.monotonic() + TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the viewer ended: {self.process.stderr.read().decode()[-2000:]}")
            found = subprocess.run(["xdotool", "search", "--name", "entropy3d"], env=self.env,
                                   capture_output=True, text=True)
            if found.returncode == 0 and found.stdout.strip() and self.state_file.exists():
                return found.stdout.split()[0]
            time.sleep(0.2)
        raise TimeoutError("no viewer window appeared")

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, capture_output=True)

    def read(self) -> dict:
        return json.loads(self.state_file.read_text())

    def wait(self, condition, timeout: float = TIMEOUT_S, poll: float = 0.05) -> dict:
        """The shown state once ``condition(state)`` holds (TimeoutError after ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                state = self.read()
            except (FileNotFoundError, json.JSONDecodeError):
                state = None
            if state is not None and condition(state):
                self.state = state
                return state
            if self.process.poll() is not None:
                raise RuntimeError(f"the viewer ended: {self.process.stderr.read().decode()[-2000:]}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the window did not show the change; last state: {state}")
            time.sleep(poll)

    def settle(self, quiet_s: float = 1.0, timeout: float = TIMEOUT_S) -> dict:
        """The shown state once no frame has been drawn for ``quiet_s`` seconds: what an earlier
        input set going (a resize, a relayout of the labels) has finished. A window that keeps
        drawing never settles (TimeoutError after ``timeout`` s)."""
        deadline = time.monotonic() + timeout
        last, since = None, time.monotonic()
        while time.monotonic() < deadline:
            try:
                state = self.read()
            except (FileNotFoundError, json.JSONDecodeError):
                state = None
            drawn = None if state is None else state["frames_drawn"]
            if drawn != last:
                last, since = drawn, time.monotonic()
            elif drawn is not None and time.monotonic() - since >= quiet_s:
                self.state = state
                return state
            time.sleep(0.05)
        raise TimeoutError(f"the window kept drawing for {timeout} s; last frames_drawn: {last}")

    def pixel_of(self, point) -> tuple[int, int]:
        """Window pixel where the table point (inches) is drawn now."""
        x, y = pixel_of_point(self.state["table_to_clip"], self.state["window"], point)
        return int(round(x)), int(round(y))

    def pixel_of_model(self, model_id: str) -> tuple[int, int]:
        x, y = self.state["pixels"][model_id]
        return int(round(x)), int(round(y))

    def click(self, pixel, button: int = 1) -> None:
        self.xdotool("mousemove", "--window", self.window, str(pixel[0]), str(pixel[1]))
        time.sleep(0.1)
        self.xdotool("click", str(button))

    def drag(self, start, end, steps: int = 8) -> None:
        """Press at ``start``, move in ``steps`` straight steps to ``end``, release (pixels)."""
        self.xdotool("mousemove", "--window", self.window, str(start[0]), str(start[1]))
        time.sleep(0.1)
        self.xdotool("mousedown", "1")
        time.sleep(0.15)  # the press is read where the mouse is when the window next looks
        for k in range(1, steps + 1):
            x, y = np.asarray(start) + (np.asarray(end) - np.asarray(start)) * k / steps
            self.xdotool("mousemove", "--window", self.window, str(int(round(x))), str(int(round(y))))
            time.sleep(0.15)
        self.xdotool("mouseup", "1")

    def key(self, name: str) -> None:
        self.xdotool("key", "--window", self.window, name)

    def screenshot(self, path: Path | None = None) -> np.ndarray:
        """The X screen as it is now, (H, W, 3) uint8; saved as PNG at ``path`` when given."""
        from PIL import ImageGrab

        image = ImageGrab.grab(xdisplay=self.display).convert("RGB")
        if path is not None:
            image.save(path)
        return np.asarray(image)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
