"""Reports and pictures of one activation ridden along the one path
(:mod:`entropy3d.game.step`): :mod:`.report` writes the JSON and text reports and
:mod:`.drawing` the PNG/GIF.
"""
