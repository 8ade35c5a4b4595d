"""Seeded sweeps: many automatic games played headless on Dask distributed, each stored as its
replay and summary rows (:mod:`entropy3d.sweep.store`), then the best of them found, shown and
counted. Heavy imports (Dask, the game engine) wait until a sweep runs."""
