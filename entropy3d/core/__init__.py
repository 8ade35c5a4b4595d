"""The types no rulebook shapes, below every rulebook: the one event (:mod:`.event`) with a
generic roll (:mod:`.roll`), what a producer found on the table (:mod:`.facts`), where a piece of
scenery stands (:mod:`.scenery`), and the schema helpers every rulebook's rules data uses
(:mod:`.specbase`, :mod:`.keypaths`). Pure Python + numpy (+ pydantic for the schema helpers);
nothing here imports a rulebook.

Still to come down here (issue 44): the game state's common part, the action, and the engine
protocol, which live with Entropy City (:mod:`entropy3d.systems.entropy_city`) until their
per-rulebook parts move out.
"""
