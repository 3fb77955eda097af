"""What a batched kernel leaves for each of K copies: the poses it finished, and the copies it hands over."""


class Copies:
    """Per copy, the pose a batched kernel found, or that it hands the copy over.

    Attributes
    ----------
    points : ndarray (K, N + 1, 3)
    rotations : ndarray (K, N, 4)
    status : list of str
        As :attr:`ikcore.Solution.status`.
    iterations : ndarray (K,) of int
    error : ndarray (K,)
    handed : ndarray (K,) of bool
        The copies the per-chain reference must solve, from their start; their
        other fields mean nothing.
    """

    __slots__ = ("points", "rotations", "status", "iterations", "error", "handed")

    def __init__(self, points, rotations, status, iterations, error, handed):
        self.points, self.rotations, self.status = points, rotations, status
        self.iterations, self.error, self.handed = iterations, error, handed
