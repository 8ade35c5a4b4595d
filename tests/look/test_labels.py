"""Name plates over a picture of the table (entropy3d.look.labels)."""

from __future__ import annotations

import numpy as np
import pytest

from entropy3d.look.labels import draw_plates, plate_boxes


@pytest.mark.parametrize("size", [(360, 640), (720, 1280)])
def test_a_plate_whose_miniature_is_at_or_past_the_frames_edge_stays_inside_it(size):
    """docs/film_lovers_escape.png: Fang rode off the top of the picture and its plate was pressed
    against the frame's top edge (its first row of pixels the plate's). A plate for a point above,
    left of, right of and below the frame is drawn whole, a margin in from every edge: the frame's
    border rows and columns keep the picture, and every plate's box lies inside that margin."""
    height, width = size
    frame = np.full((height, width, 3), 255, np.uint8)
    plates = [(width / 2, -30.0, "Fang", "#27ae60"), (-40.0, height / 2, "Viper", "#27ae60"),
              (width + 40.0, height / 3, "Brakes", "#c0392b"), (width / 3, height + 50.0, "Sgt Kane", "#1f3f8f")]
    drawn = draw_plates(frame, plates)
    border = np.concatenate([drawn[:2].reshape(-1, 3), drawn[-2:].reshape(-1, 3),
                             drawn[:, :2].reshape(-1, 3), drawn[:, -2:].reshape(-1, 3)])
    assert (border == 255).all()
    boxes = plate_boxes(frame.shape, plates)
    assert len(boxes) == 4
    for left, top, right, bottom in boxes:
        assert 2 <= left and 2 <= top and right <= width - 2 and bottom <= height - 2
        assert (drawn[top:bottom, left:right] < 200).mean() > 0.5  # the plate is there, dark
