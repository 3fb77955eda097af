"""FABRIK's tuning, shared by its free, limited and cone solves: when a stalled solve
restarts and how far it kicks the pose, and when a chain counts as straight.

The free solve (:mod:`~._fabrik_free`) and the limited one (:mod:`~._fabrik_limited`)
read these as module globals; the cone solve (:mod:`~._fabrik_cones`) is handed them
by :func:`~.fabrik.run`, and the vectorised free solve (:mod:`ikcore.batch`) reads them
to stay in step with the free one.
"""

# Stagnation: restart when the best error has not fallen by RATE in WINDOW iterations;
# give up after PATIENCE restarts in a row that brought nothing. A free chain stalls only
# on a dead end (a target nearer than it can fold), so it gives up sooner.
WINDOW = 6
RATE = 0.01
PATIENCE = 5
RATE_FREE = 1e-3
PATIENCE_FREE = 2
# Largest random turn per joint on a restart (radians).
KICK = 0.8
# Chain and target count as collinear within this fraction of the reach.
COLLINEAR = 1e-6
SEED = 20110901
