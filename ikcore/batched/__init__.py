"""Pieces the batched kernels share: numpy arrays over K copies of one chain.

numpy is optional: these modules import it, and only :func:`ikcore.solve_batch`
imports them, once it has found numpy. Each piece is the array form of one
piece of the per-chain reference, held to it by tests:

- :mod:`.watch`: the stall watch (:class:`ikcore.solvers.restarts.StallWatch`)
  over K searches, up to each one's first stall;
- :mod:`.quaternions`: Hamilton products and the shortest arcs that turn a
  pose's bones onto new points (:func:`ikcore.kinematics.rotations_along`);
- :mod:`.hinges`: a hinge's signed angle, its range's clamp and its rotations;
- :mod:`.copies`: what a kernel leaves for each copy, and the copies it hands
  over to the per-chain reference;
- :mod:`.turning`: the joint-major state of copies whose joints a kernel turns
  (CCD's sweeps, FABRIK's passes with frames), and the loop of their iterations.
"""
