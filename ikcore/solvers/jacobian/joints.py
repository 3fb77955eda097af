"""The geometric Jacobian, joint by joint, and the error it acts on.

Turning joint ``j`` (at the world point ``p_j``) by a small world rotation
vector ``w_j`` moves the end effector ``e`` by ``w_j x r_j``, with ``r_j = e -
p_j`` the joint's *lever*, and turns the last bone by ``w_j``. So the Jacobian
maps the joints' turns to the motion of the end::

    J w = sum_j [ w_j x r_j ]      (position rows)
                [   c w_j   ]      (orientation rows, with an orientation target)

``c`` (a length, :attr:`ikcore.problem.Problem.orientation_weight`) weighs
radians against distance. A joint turns about the axes of a subspace: a hinge
about its own, ``h_j = R_{j-1} a_j`` in the world, any other joint about any
axis, less the directions its limits block (:mod:`.limits`). An orthonormal
basis of that subspace gives the classic Jacobian's columns, one per axis ``a``,
``[a x r_j; c a]``; ``P_j``, the projector onto it, gives the products the
methods need without them:

- ``J^T y``, the joints' turns for ``y = [y_p; y_o]``: ``w_j = P_j (r_j x y_p + c y_o)``;
- ``J J^T = sum_j M_j P_j M_j^T`` with ``M_j = [-[r_j]x; c I]``.

For a joint that turns about any axis (``P_j = I``) the three columns sum in
closed form, ``[|r|^2 I - r r^T, -c [r]x; c [r]x, c^2 I]``, which is linear in
``r`` and ``r r^T``: all such joints together cost one sum of their levers and
one of their squares.

A hinge has one column, ``[u_j; c h_j]`` with ``u_j = h_j x r_j``: it is worked
out once per pose and serves ``J J^T``, ``J^T y`` (the hinge turns by ``(u_j .
y_p + c h_j . y_o) h_j``) and ``J w`` alike; a hinge blocked by its limit takes
its column's share ``[u; c h] [u; c h]^T`` out of ``J J^T`` rather than summing
it again. Its angle comes with the pose when the step that made the pose set it
(:func:`.turning.turned_pose`), else from its rotation.

A slider (:class:`~ikcore.Slider`) moves everything after it along its world
axis ``s_j = R_{j-1} a_j`` and turns nothing: its column is ``[s_j; 0]``. It is
kept as a hinge's is, with ``u = s_j`` and no turn, so ``J J^T`` and blocking
take it as they are; its share of ``J^T y`` is the displacement ``s_j . y_p``,
handed on as the vector along ``s_j``, and its share of ``J w`` that vector itself.
"""

from math import atan2, sqrt

from ... import rotation as rot
from ...plan import HINGE, SLIDER, hinge_angle
from ...rotation import rotate


def residual(problem, frames, c):
    """The error the step should undo, ``m`` floats: ``t - e``, then ``c w`` with ``w`` the world
    rotation vector from the last bone's rotation to the asked one (orientation targets)."""
    t, e = problem.target, frames.points[-1]
    out = [t[0] - e[0], t[1] - e[1], t[2] - e[2]]
    if problem.orientation is not None:
        w, x, y, z = rot.multiply(problem.orientation, rot.conjugate(frames.worlds[-1]))
        if w < 0.0:
            w, x, y, z = -w, -x, -y, -z
        s = sqrt(x * x + y * y + z * z)
        k = c * 2.0 * atan2(s, w) / s if s > 0.0 else 0.0
        out += [k * x, k * y, k * z]
    return out


class JointJacobian:
    """The Jacobian of one pose, joint by joint (see the module docstring).

    Attributes
    ----------
    m : int
        Rows: 3, or 6 with orientation rows.
    c : float
        The orientation rows' weight.
    levers : list of (x, y, z)
        ``r_j = e - p_j``.
    bases : list
        Per joint, ``None`` when it turns about any axis, else a tuple of
        orthonormal world axes it turns about (a hinge's own, or what its limits
        leave; empty when they leave none).
    hinges : list
        Per joint its column ``(u, h)`` while it is a hinge that turns (``u = h x
        r``, ``h`` its world axis), else ``None``.
    angles : list
        Per hinge its angle (:func:`ikcore.plan.hinge_angle`), per slider its displacement,
        ``None`` for other joints: read once for the limits and the step.
    sliders : tuple of int
        The sliders' indices (see the module docstring).
    """

    __slots__ = ("m", "c", "levers", "bases", "hinges", "angles", "sliders", "_gram")

    def __init__(self, chain, frames, c, oriented, angles=None):
        """The Jacobian of ``frames``; ``angles``: its hinges' angles when known (else read from
        the rotations)."""
        self.m = 6 if oriented else 3
        self.c = c if oriented else 0.0
        ex, ey, ez = frames.points[-1]
        worlds = frames.worlds
        self.levers = levers = [(ex - x, ey - y, ez - z) for x, y, z in frames.points[:-1]]
        self.bases = []
        self.hinges = []
        self.angles = [] if angles is None else angles
        for j, joint in enumerate(chain.plan.joints):
            if joint.kind == HINGE:
                h = rotate(worlds[j - 1], joint.axis) if j else joint.axis
                rx, ry, rz = levers[j]
                self.bases.append((h,))
                self.hinges.append(((h[1] * rz - h[2] * ry, h[2] * rx - h[0] * rz, h[0] * ry - h[1] * rx), h))
                if angles is None:
                    self.angles.append(hinge_angle(joint, frames.rotations[j]))
            elif joint.kind == SLIDER:
                # Its column [s; 0], kept as a hinge's with u = s and no turn.
                slide = rotate(worlds[j - 1], joint.axis) if j else joint.axis
                self.bases.append((slide,))
                self.hinges.append((slide, (0.0, 0.0, 0.0)))
                if angles is None:
                    self.angles.append(frames.slides[j])
            else:
                self.bases.append(None)
                self.hinges.append(None)
                if angles is None:
                    self.angles.append(None)
        self.sliders = chain.plan.sliders
        self._gram = None

    def block(self, j, d):
        """Joint ``j`` no longer turns about the unit world direction ``d``: its basis keeps only
        what is orthogonal to ``d`` (a hinge, which has one axis, keeps none, and its column leaves
        ``J J^T``)."""
        basis = self.bases[j]
        if basis is not None and len(basis) == 1:
            self.bases[j] = ()
            column = self.hinges[j]
            self.hinges[j] = None
            if column is None:
                self._gram = None
            elif self._gram is not None:
                self._gram = self._without(self._gram, column)
            return
        self._gram = None
        kept = []
        for a in basis if basis is not None else ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)):
            # Orthogonal to d and to the axes kept so far (Gram-Schmidt); what vanishes goes.
            for k in (d, *kept):
                t = a[0] * k[0] + a[1] * k[1] + a[2] * k[2]
                a = (a[0] - t * k[0], a[1] - t * k[1], a[2] - t * k[2])
            n = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
            if n > 1e-6:
                kept.append((a[0] / n, a[1] / n, a[2] / n))
        self.bases[j] = tuple(kept)

    def _without(self, gram, column):
        """``gram`` less the share ``v v^T`` of one column ``v = [u; c h]``."""
        u, h = column
        c = self.c
        v = (*u, c * h[0], c * h[1], c * h[2]) if self.m == 6 else u
        return [[g - a * b for g, b in zip(row, v)] for row, a in zip(gram, v)]

    def gram(self):
        """``J J^T`` as ``m`` rows of ``m`` floats (kept until an axis is blocked)."""
        if self._gram is None:
            self._gram = self._sum_gram()
        return self._gram

    def _sum_gram(self):
        # Joints free to turn about any axis: the sums of their levers and of their squares.
        fx = fy = fz = fxx = fxy = fxz = fyy = fyz = fzz = 0.0
        free = 0
        # Single axes a (hinges, and what limits leave of other joints): sums of u u^T, u a^T and a a^T
        # with u = a x r.
        uxx = uxy = uxz = uyy = uyz = uzz = 0.0
        vxx = vxy = vxz = vyx = vyy = vyz = vzx = vzy = vzz = 0.0
        axx = axy = axz = ayy = ayz = azz = 0.0
        for (rx, ry, rz), basis, hinge in zip(self.levers, self.bases, self.hinges):
            if hinge is not None:
                # A hinge's column [u; c h], summed below like any single axis.
                axes = ((hinge[1], hinge[0]),)
            elif basis is None:
                free += 1
                fx += rx
                fy += ry
                fz += rz
                fxx += rx * rx
                fxy += rx * ry
                fxz += rx * rz
                fyy += ry * ry
                fyz += ry * rz
                fzz += rz * rz
                continue
            else:
                axes = [(a, (a[1] * rz - a[2] * ry, a[2] * rx - a[0] * rz, a[0] * ry - a[1] * rx)) for a in basis]
            for (ax, ay, az), (ux, uy, uz) in axes:
                uxx += ux * ux
                uxy += ux * uy
                uxz += ux * uz
                uyy += uy * uy
                uyz += uy * uz
                uzz += uz * uz
                vxx += ux * ax
                vxy += ux * ay
                vxz += ux * az
                vyx += uy * ax
                vyy += uy * ay
                vyz += uy * az
                vzx += uz * ax
                vzy += uz * ay
                vzz += uz * az
                axx += ax * ax
                axy += ax * ay
                axz += ax * az
                ayy += ay * ay
                ayz += ay * az
                azz += az * az
        # Position block: sum u u^T, plus |r|^2 I - r r^T for the free joints.
        square = fxx + fyy + fzz
        pp = [[uxx + square - fxx, uxy - fxy, uxz - fxz],
              [uxy - fxy, uyy + square - fyy, uyz - fyz],
              [uxz - fxz, uyz - fyz, uzz + square - fzz]]
        if self.m == 3:
            return pp
        # Orientation blocks: c sum u a^T - c [f]x, and c^2 (sum a a^T + free I).
        c = self.c
        po = [[c * vxx, c * (vxy + fz), c * (vxz - fy)],
              [c * (vyx - fz), c * vyy, c * (vyz + fx)],
              [c * (vzx + fy), c * (vzy - fx), c * vzz]]
        cc = c * c
        oo = [[cc * (axx + free), cc * axy, cc * axz],
              [cc * axy, cc * (ayy + free), cc * ayz],
              [cc * axz, cc * ayz, cc * (azz + free)]]
        return [pp[0] + po[0], pp[1] + po[1], pp[2] + po[2],
                [po[0][0], po[1][0], po[2][0], *oo[0]],
                [po[0][1], po[1][1], po[2][1], *oo[1]],
                [po[0][2], po[1][2], po[2][2], *oo[2]]]

    def transpose(self, y):
        """``J^T y``: per joint its world turn ``P_j (r_j x y_p + c y_o)`` (``None`` for a joint that
        turns about no axis)."""
        px, py, pz = y[0], y[1], y[2]
        if self.m == 6:
            c = self.c
            ox, oy, oz = c * y[3], c * y[4], c * y[5]
        else:
            ox = oy = oz = 0.0
        turns = []
        for (rx, ry, rz), basis, hinge in zip(self.levers, self.bases, self.hinges):
            if hinge is not None:
                # The hinge's column against y: u . y_p + c h . y_o, along h.
                (ux, uy, uz), h = hinge
                t = ux * px + uy * py + uz * pz + h[0] * ox + h[1] * oy + h[2] * oz
                turns.append((t * h[0], t * h[1], t * h[2]))
                continue
            g = (ry * pz - rz * py + ox, rz * px - rx * pz + oy, rx * py - ry * px + oz)
            turns.append(g if basis is None else project(basis, g))
        for j in self.sliders:
            if self.hinges[j] is not None:
                # A slider's share: its displacement s . y_p, along s.
                s = self.hinges[j][0]
                t = s[0] * px + s[1] * py + s[2] * pz
                turns[j] = (t * s[0], t * s[1], t * s[2])
        return turns

    def apply(self, turns):
        """``J w``: the effector's motion (and the last bone's turn, weighed by ``c``) for the joints'
        world turns (``None`` for none)."""
        x = y = z = wx = wy = wz = 0.0
        sliders = self.sliders
        for j, ((rx, ry, rz), w) in enumerate(zip(self.levers, turns)):
            if w is None:
                continue
            a, b, d = w
            if sliders and j in sliders:
                # A slider's motion moves the effector by itself and turns nothing.
                x += a
                y += b
                z += d
                continue
            x += b * rz - d * ry
            y += d * rx - a * rz
            z += a * ry - b * rx
            wx += a
            wy += b
            wz += d
        if self.m == 3:
            return [x, y, z]
        c = self.c
        return [x, y, z, c * wx, c * wy, c * wz]

    def project(self, vectors):
        """``P_j v_j`` for each joint's world vector (``None`` for none)."""
        return [v if basis is None or v is None else project(basis, v) for v, basis in zip(vectors, self.bases)]


def project(basis, v):
    """``v`` projected onto the span of ``basis`` (orthonormal axes); ``None`` for an empty one."""
    if not basis:
        return None
    x = y = z = 0.0
    for a in basis:
        t = a[0] * v[0] + a[1] * v[1] + a[2] * v[2]
        x += t * a[0]
        y += t * a[1]
        z += t * a[2]
    return (x, y, z)
