"""FABRIK's passes on points under twist-free cones (:class:`.points.Cones`), over K copies at once.

The passes of :meth:`.points.Cones.backward` and :meth:`.points.Cones.forward`
on a joint-major array ``P`` ``(N + 1, K, 3)``: before each pass the offset it
corrects is spread along the chain (capped at :data:`.points.SPREAD` of the
reach), then each bone goes toward its old place, its direction ``b`` kept
within the cone of half-angle ``c`` about its neighbour's direction ``a``: a
direction outside goes onto the rim, ``a cos c + o sin c / |o|`` with
``o = b - (b . a) a``.
"""

import numpy as np


#: Least sine of a cone whose rim a met pose may keep (see :class:`ConePasses`).
RIM_SINE = 1e-3


class ConePasses:
    """The cone chain's passes over K copies (see the module docstring), from its :class:`.points.Cones`.

    Attributes
    ----------
    rims_met : bool
        Whether a pose with a bone on its cone's rim is met as the passes
        leave it. The reference measures such a pose after its clamps
        (:func:`ikcore.kinematics.pose_from_points`), which move a bone the passes put
        on the rim by the rounding of its cosine, divided by the cone's sine:
        nothing where every cone's sine is at least :data:`RIM_SINE`; a cone
        almost shut or almost a whole sphere is left to the reference.
    """

    def __init__(self, cones):
        self.rims_met = all(s >= RIM_SINE for *_, c, s, _clear in cones.fore_rows if c > -2.0)
        self.back_rows, self.fore_rows = cones.back_rows, cones.fore_rows
        self.root = np.array(cones.root, dtype=float)
        self.axis = np.array(cones.axis, dtype=float)
        self.cap = cones.cap

    def step(self, p, target):
        """One iteration on the points ``p`` toward ``target`` (K, 3): the effectors, and per copy
        whether every bone keeps inside its cone (by :data:`.points.ROOM`), where the rotations need
        no clamp."""
        self.backward(p, target)
        return self.forward(p)

    def backward(self, p, target):
        """The effector's offset spread, then tip to root under the children's cones."""
        offset = self._capped(target - p[-1])
        x = target.copy()
        p[-1] = target
        a = np.broadcast_to(self.axis, target.shape)
        for i, share, length, c, s in self.back_rows:
            b = _unit(x - (p[i] + share * offset), a)
            b = _within(b, a, c, s)
            x = x - length * b
            p[i] = x
            a = b

    def forward(self, p):
        """The root's offset spread, then root to tip under the joints' cones: the effectors, and
        whether each copy kept every bone inside its cone."""
        offset = self._capped(self.root - p[0])
        x = np.broadcast_to(self.root, offset.shape)
        p[0] = self.root
        a = np.broadcast_to(self.axis, offset.shape)
        inside = np.ones(len(offset), dtype=bool)
        for j, share, length, c, s, clear in self.fore_rows:
            b = _unit((p[j] + share * offset) - x, a)
            inside &= np.einsum("kj,kj->k", b, a) >= clear
            b = _within(b, a, c, s)
            x = x + length * b
            p[j] = x
            a = b
        return x, inside

    def _capped(self, v):
        """Offsets ``v`` no longer than the cap."""
        m = np.sqrt(np.einsum("kj,kj->k", v, v))
        return v * np.where(m > self.cap, self.cap / np.where(m > self.cap, m, 1.0), 1.0)[:, None]


def _unit(v, fallback):
    """``v`` made unit, or ``fallback`` where it is (almost) zero."""
    d = np.sqrt(np.einsum("kj,kj->k", v, v))
    far = d > 1e-300
    return np.where(far[:, None], v / np.where(far, d, 1.0)[:, None], fallback)


def _within(b, a, c, s):
    """Unit ``b`` kept within the cone of cosine ``c`` and sine ``s`` about unit ``a``: onto its rim
    where it falls outside. A direction straight against ``a`` has no way to the rim: NaN (its
    copy is handed over)."""
    k = np.einsum("kj,kj->k", b, a)
    out = k < c
    if not out.any():
        return b
    o = b - k[:, None] * a
    # Once more: near a's opposite, o is a small difference and keeps a trace along a.
    o = o - np.einsum("kj,kj->k", o, a)[:, None] * a
    no = np.sqrt(np.einsum("kj,kj->k", o, o))
    with np.errstate(divide="ignore", invalid="ignore"):
        rim = a * c + o * np.where(no < 1e-12, np.nan, s / no)[:, None]
    return np.where(out[:, None], rim, b)
