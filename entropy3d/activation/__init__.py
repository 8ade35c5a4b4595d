"""Reports and pictures of one activation ridden along the one path
(:mod:`entropy3d.game.step`): :mod:`.report` writes the JSON and text reports; :mod:`.picture`
draws one ride (from a live run or a replay's record, read by :mod:`.story`) as a 3D still, the
:mod:`.profile` and the :mod:`.topdown` panel sharing the colour :mod:`.key`; :mod:`.drawing`
draws the table from above and the GIF.
"""
