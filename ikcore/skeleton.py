"""A skeleton: a tree of nodes with local transforms, and chains that hang from it.

Each node has a parent (or none), a local translation ``t`` and a local
rotation ``q`` (``(w, x, y, z)``), both in its parent's frame. Its world
transform follows from the parent's::

    W_node = W_parent q            (world rotation)
    P_node = P_parent + W_parent t (world position)

World transforms are cached. Changing a node marks it and its subtree dirty;
a world transform is recomputed only when asked for (or by :meth:`Skeleton.update`),
and only along the dirty part of the tree, so moving one leg does not touch the
others, and moving the body refreshes everything that hangs from it.

A :class:`BoundChain` is an :class:`ikcore.Chain` whose points are given in a
parent node's frame. It owns one node per point: node ``i`` (``i < N``) carries
the chain's local rotation ``q_i`` and the rest offset ``rest[i] - rest[i-1]``
(``rest[0]`` for the first), the last node marks the end effector. Since the
rest pose is expressed in the parent's frame, the chain convention of
:mod:`ikcore.rotation` holds inside that frame unchanged, and::

    world point i = P_parent + W_parent (chain.forward(q)[i])

Solving a bound chain moves the world target into the parent's frame, solves
there with :func:`ikcore.solve` (warm-started from the chain's current
rotations) and writes the solved rotations back into the nodes. The chain's
root therefore follows its parent node wherever it goes.
"""

from operator import attrgetter, is_

from . import rotation as rot
from .chain import Chain
from .checks import check_point, check_quaternion, check_rotations
from .errors import IKError
from .solve import make_settings as _make_settings
from .solve import solve as _solve
from .solve import solve_warm as _solve_warm
from .tracker import Tracker

_rotation_of = attrgetter("rotation")


class Node:
    """One node of a :class:`Skeleton`; create with :meth:`Skeleton.add_node`.

    Attributes
    ----------
    name : str
    parent : Node or None
    children : list of Node
    translation : (x, y, z)
        Local translation, in the parent's frame.
    rotation : (w, x, y, z)
        Local rotation, in the parent's frame.
    """

    __slots__ = ("name", "index", "parent", "children", "translation", "rotation", "skeleton", "chain",
                 "_p", "_q", "_dirty")

    def __init__(self, skeleton, name, index, parent, translation, rotation):
        self.skeleton = skeleton
        self.name = name
        self.index = index
        self.parent = parent
        self.children = []
        self.translation = translation
        self.rotation = rotation
        self.chain = None  # the BoundChain this node belongs to, if any
        self._p = (0.0, 0.0, 0.0)
        self._q = rot.IDENTITY
        self._dirty = True

    def __repr__(self):
        parent = None if self.parent is None else self.parent.name
        return f"Node({self.name!r}, parent={parent!r})"

    def set_local(self, translation=None, rotation=None):
        """Set the local translation and/or rotation (validated; ``None`` keeps it).

        Raises
        ------
        IKError
            A non-finite or wrongly shaped translation, or a zero or non-finite
            rotation (any other quaternion is normalised).
        """
        if translation is not None and self.chain is not None:
            raise IKError(f"node {self.name!r} belongs to chain {self.chain.name!r}: its translation is the "
                          f"chain's rest offset and cannot be set")
        t = None if translation is None else check_point(translation, f"node {self.name!r} translation")
        q = None if rotation is None else check_quaternion(rotation, f"node {self.name!r} rotation")
        if t is not None:
            self.translation = t
        if q is not None:
            self.rotation = q
        self._touch()

    def _set(self, translation, rotation):
        # Trusted values (computed by ikcore itself): no validation. None keeps a value.
        if translation is not None:
            self.translation = translation
        if rotation is not None:
            self.rotation = rotation
        if not self._dirty:
            self._touch()

    def _place(self, rotation, position, world_rotation):
        # Trusted, as _set: a new local rotation with the world transform it gives, which the caller
        # worked out from the current world transform of the parent (as _compute would, to rounding).
        # The nodes below are stale.
        self.rotation = rotation
        if not self._dirty:
            self._touch()
        self._p = position
        self._q = world_rotation
        self._dirty = False

    def _touch(self):
        # Invariant: a dirty node's whole subtree is dirty, so the walk stops at
        # dirty nodes and marking costs only what was clean.
        self._dirty = True
        stack = [self]
        pop, push = stack.pop, stack.append
        while stack:
            for c in pop().children:
                if not c._dirty:
                    c._dirty = True
                    push(c)

    @property
    def world_position(self):
        """World position ``(x, y, z)``."""
        if self._dirty:
            self.skeleton._refresh(self)
        return self._p

    @property
    def world_rotation(self):
        """World rotation ``(w, x, y, z)``."""
        if self._dirty:
            self.skeleton._refresh(self)
        return self._q


class Skeleton:
    """A scene graph of nodes; chains hang from it (see the module docstring).

    Examples
    --------
    >>> sk = Skeleton()
    >>> body = sk.add_node("body", translation=(0, 1, 0))
    >>> leg = sk.add_chain("leg", "body", [(0.3, 0, 0), (0.8, 0.3, 0), (1.2, -1, 0)])
    >>> sol = leg.solve((1.2, 0.2, 0.3), method="fabrik")
    """

    def __init__(self):
        self._nodes = []
        self._by_name = {}
        self._chains = {}
        self.recomputed = 0  # world transforms recomputed so far (for tests and profiling)

    def __len__(self):
        return len(self._nodes)

    def __iter__(self):
        return iter(self._nodes)

    def __contains__(self, name):
        return name in self._by_name

    @property
    def chains(self):
        """The bound chains, by name, in the order they were added."""
        return dict(self._chains)

    def node(self, name):
        """The node called ``name`` (a :class:`Node` is returned as is)."""
        if isinstance(name, Node):
            if name.skeleton is not self:
                raise IKError(f"node {name.name!r} belongs to another skeleton")
            return name
        node = self._by_name.get(name) if isinstance(name, str) else None
        if node is None:
            raise IKError(f"skeleton has no node {name!r}")
        return node

    def chain(self, name):
        """The bound chain called ``name``."""
        found = self._chains.get(name) if isinstance(name, str) else None
        if found is None:
            raise IKError(f"skeleton has no chain {name!r}")
        return found

    def add_node(self, name, parent=None, translation=(0.0, 0.0, 0.0), rotation=rot.IDENTITY):
        """Add a node and return it.

        Parameters
        ----------
        name : str
            Unique, non-empty.
        parent : str or Node or None
            An existing node (``None``: a root, whose parent frame is the world).
        translation : (x, y, z)
            In the parent's frame.
        rotation : (w, x, y, z)
            In the parent's frame; normalised.

        Raises
        ------
        IKError
            Empty or duplicate name, unknown parent, bad translation or rotation.
        """
        if not isinstance(name, str) or not name:
            raise IKError(f"node name must be a non-empty string, got {name!r}")
        if name in self._by_name:
            raise IKError(f"skeleton already has a node {name!r}")
        parent_node = None if parent is None else self.node(parent)
        t = check_point(translation, f"node {name!r} translation")
        q = check_quaternion(rotation, f"node {name!r} rotation")
        node = Node(self, name, len(self._nodes), parent_node, t, q)
        if parent_node is not None:
            parent_node.children.append(node)
        self._nodes.append(node)
        self._by_name[name] = node
        return node

    def add_chain(self, name, parent, points, joints=None, node_names=None):
        """Hang a chain from node ``parent`` and return its :class:`BoundChain`.

        Parameters
        ----------
        name : str
            The chain's name, unique among chains.
        parent : str or Node or None
            The node the chain's root follows (``None``: the world).
        points : sequence of (x, y, z)
            Rest points in the parent's frame, root first.
        joints : None or sequence of N constraints
            Limits, expressed in the parent's frame at rest (see :class:`ikcore.Chain`).
        node_names : sequence of N + 1 str, optional
            Names of the chain's nodes (default ``"<name>.0"`` ... ``"<name>.N"``).

        Raises
        ------
        IKError
            Duplicate chain or node names, unknown parent, or anything
            :class:`ikcore.Chain` refuses.
        """
        if not isinstance(name, str) or not name:
            raise IKError(f"chain name must be a non-empty string, got {name!r}")
        if name in self._chains:
            raise IKError(f"skeleton already has a chain {name!r}")
        parent_node = None if parent is None else self.node(parent)
        limited = Chain(points, joints)
        count = limited.size + 1
        if node_names is None:
            node_names = [f"{name}.{i}" for i in range(count)]
        else:
            node_names = list(node_names)
            if len(node_names) != count:
                raise IKError(f"chain {name!r} needs {count} node names, got {len(node_names)}")
        for n in node_names:
            if n in self._by_name:
                raise IKError(f"skeleton already has a node {n!r}")
        if len(set(node_names)) != count:
            raise IKError(f"chain {name!r} node names must be distinct")
        nodes = []
        up = parent_node
        prev = (0.0, 0.0, 0.0)
        for n, p in zip(node_names, limited.points):
            up = self.add_node(n, up, (p[0] - prev[0], p[1] - prev[1], p[2] - prev[2]))
            nodes.append(up)
            prev = p
        bound = BoundChain(self, name, parent_node, nodes, limited)
        self._chains[name] = bound
        return bound

    def world_position(self, name):
        """World position of node ``name``."""
        return self.node(name).world_position

    def world_rotation(self, name):
        """World rotation of node ``name``."""
        return self.node(name).world_rotation

    def to_world(self, name, point):
        """A point given in node ``name``'s frame, in world coordinates."""
        node = self.node(name)
        x, y, z = check_point(point, "point")
        px, py, pz = node.world_position
        rx, ry, rz = rot.rotate(node._q, (x, y, z))
        return (px + rx, py + ry, pz + rz)

    def to_local(self, name, point):
        """A world point in node ``name``'s frame."""
        node = self.node(name)
        x, y, z = check_point(point, "point")
        px, py, pz = node.world_position
        return rot.rotate(rot.conjugate(node._q), (x - px, y - py, z - pz))

    def update(self):
        """Recompute every dirty world transform (parents before children)."""
        compute = self._compute
        for node in self._nodes:
            if node._dirty:
                compute(node)

    def _refresh(self, node):
        # Recompute the dirty ancestors of node, top down, then node itself.
        parent = node.parent
        if parent is None or not parent._dirty:
            # The common case (a node set under a current parent): no path to gather.
            self._compute(node)
            return
        path = []
        while node is not None and node._dirty:
            path.append(node)
            node = node.parent
        for n in reversed(path):
            self._compute(n)

    def _compute(self, node):
        parent = node.parent
        qw, qx, qy, qz = node.rotation
        vx, vy, vz = node.translation
        if parent is None:
            node._q = (qw, qx, qy, qz)
            node._p = (vx, vy, vz)
        else:
            rw, rx, ry, rz = parent._q
            px, py, pz = parent._p
            node._q = (rw * qw - rx * qx - ry * qy - rz * qz,
                       rw * qx + rx * qw + ry * qz - rz * qy,
                       rw * qy - rx * qz + ry * qw + rz * qx,
                       rw * qz + rx * qy - ry * qx + rz * qw)
            # p = parent + R_parent t, with t' = t + 2w (u x t) + 2 u x (u x t).
            tx = 2.0 * (ry * vz - rz * vy)
            ty = 2.0 * (rz * vx - rx * vz)
            tz = 2.0 * (rx * vy - ry * vx)
            node._p = (px + vx + rw * tx + (ry * tz - rz * ty),
                       py + vy + rw * ty + (rz * tx - rx * tz),
                       pz + vz + rw * tz + (rx * ty - ry * tx))
        node._dirty = False
        self.recomputed += 1


class BoundChain:
    """A chain hanging from a skeleton node; create with :meth:`Skeleton.add_chain`.

    Attributes
    ----------
    name : str
    parent : Node or None
        The node whose frame the chain lives in (``None``: the world).
    nodes : list of Node
        One per point; ``nodes[i].rotation`` is the chain's ``q_i``.
    chain : Chain
        The chain being solved: with its limits when :attr:`constrained`,
        without them otherwise.
    solution : Solution or None
        The last solve's result, positions in world coordinates.
    """

    def __init__(self, skeleton, name, parent, nodes, chain):
        self.skeleton = skeleton
        self.name = name
        self.parent = parent
        self.nodes = nodes
        self._limited = chain
        self._free = Chain(chain.points) if chain.limited else chain
        self.chain = chain
        self.solution = None
        # (chain, rotations, frames) of the last solve's verdict, written into the nodes: a warm
        # start from them needs no checks, nor forward kinematics when the verdict kept its
        # frames (see solve()).
        self._judged = None
        # (options, Settings) of the last warm solve: the options they were made from (see solve()).
        self._settings = None
        # (rotations, frames) that local_frames() computed last, for a pose no verdict framed.
        self._computed = None
        for node in nodes:
            node.chain = self

    def __repr__(self):
        parent = None if self.parent is None else self.parent.name
        return f"BoundChain({self.name!r}, parent={parent!r}, bones={self.chain.size})"

    @property
    def rotations(self):
        """The current local rotations, read from the nodes (the warm start of the next solve)."""
        return [n.rotation for n in self.nodes[:-1]]

    @property
    def limited_chain(self):
        """The chain with its joint limits, whether or not they are in use."""
        return self._limited

    @property
    def constrained(self):
        """Whether solves respect the joint limits (default True)."""
        return self.chain is self._limited

    @constrained.setter
    def constrained(self, value):
        if not isinstance(value, bool):
            raise IKError(f"constrained must be True or False, got {value!r}")
        self.chain = self._limited if value else self._free
        if value and self._limited.limited:
            self._write(self._limited.clamp(self.rotations))

    def parent_transform(self):
        """The parent's world ``(position, rotation)`` (the world's identity for none)."""
        if self.parent is None:
            return (0.0, 0.0, 0.0), rot.IDENTITY
        return self.parent.world_position, self.parent._q

    def to_local(self, point):
        """A world point in the chain's (parent's) frame."""
        (px, py, pz), q = self.parent_transform()
        x, y, z = check_point(point, "point")
        return rot.rotate(rot.conjugate(q), (x - px, y - py, z - pz))

    def solve(self, target, method="fabrik", *, orientation=None, pole=None, start=None, local=False,
              **options):
        """Solve for a target and write the rotations back into the nodes.

        Parameters
        ----------
        target : (x, y, z)
            World position for the end effector (parent frame if ``local``).
        method : str
            One of :data:`ikcore.METHODS`.
        orientation : (w, x, y, z), optional
            Asked world rotation of the last bone (parent frame if ``local``).
        pole : (x, y, z), optional
            World point hinting the bend plane (parent frame if ``local``).
        start : list of N (w, x, y, z), optional
            Rotations to start from; default the chain's current rotations (a
            warm start: tracking a moving target costs few iterations).
        local : bool
            Whether ``target``, ``orientation`` and ``pole`` are already in the
            parent's frame.
        **options
            ``tolerance``, ``max_iterations``, ``orientation_tolerance`` and the
            method's options, passed to :func:`ikcore.solve`.

        Returns
        -------
        Solution
            As from :func:`ikcore.solve`, but with ``positions`` in world
            coordinates; ``rotations`` are the chain's local rotations.

        Raises
        ------
        IKError
            Any invalid input; the chain keeps its pose.
        """
        frame = None
        if not local:
            # Local values are checked by the solve itself, under the same names.
            target = check_point(target, "target")
            if orientation is not None:
                orientation = check_quaternion(orientation, "orientation")
            if pole is not None:
                pole = check_point(pole, "pole")
            frame = (px, py, pz), (qw, qx, qy, qz) = self.parent_transform()
            inv = (qw, -qx, -qy, -qz)
            target = rot.rotate(inv, (target[0] - px, target[1] - py, target[2] - pz))
            if pole is not None:
                pole = rot.rotate(inv, (pole[0] - px, pole[1] - py, pole[2] - pz))
            if orientation is not None:
                orientation = rot.multiply(inv, orientation)
        chain = self.chain
        last = None if start is not None else self._held_verdict()
        if last is not None:
            # A warm start straight from the last verdict on this chain: unit and within the limits;
            # the settings are checked once for as long as the method and options stay the same.
            oriented = orientation is not None
            kept = self._settings
            settings = None if kept is None else kept[1]
            if settings is None or settings.chain is not chain or settings.method != method \
                    or settings.oriented is not oriented or kept[0] != options:
                settings = _make_settings(chain, method, oriented, **options)
                self._settings = (options, settings)
            sol = _solve_warm(settings, target, orientation, pole, last[1], last[2])
        else:
            sol = _solve(chain, target, method, start=self.rotations if start is None else start,
                         orientation=orientation, pole=pole, **options)
        self._adopt(sol, frame)
        return sol

    def tracker(self, method="fabrik", *, pole=None, local=False, **options):
        """A :class:`~ikcore.tracker.Tracker`: :meth:`solve` with these arguments for each target it
        is called with, checked once.

        Raises
        ------
        IKError
            A bad method, option or pole (as :meth:`solve` would on its first call).
        """
        return Tracker(self, method, pole, local, **options)

    def _adopt(self, sol, frame):
        # A verdict's own Solution (no one else holds it) becomes the chain's pose, its positions in
        # world coordinates (from its own frames: when read, see Solution.positions). ``frame`` is
        # the parent's world transform when the caller has it.
        rotations = sol.rotations
        if sol.frames is None:
            sol.positions = self._pose(rotations, frame)
        else:
            # The rotations go into the nodes; their world transforms are left to be recomputed when
            # read. The page draws the chain from its own frame (Scene.write reads local_frames()), so
            # a chain solved every frame does no forward kinematics in the world.
            nodes = self.nodes
            for node, q in zip(nodes, rotations):
                node.rotation = q
            first = nodes[0]
            if not first._dirty:
                first._touch()
            sol._frame = frame or self.parent_transform()
        self._judged = (self.chain, tuple(rotations), sol.frames)
        self.solution = sol

    def set_rotations(self, rotations):
        """Set the pose directly (validated; clamped to the limits when constrained)."""
        qs = check_rotations(rotations, self.chain.size, f"chain {self.name!r} rotations")
        if self.chain.limited:
            qs = self.chain.clamp(qs)
        self._write(qs)

    def reset(self):
        """Back to the rest pose."""
        self._write([rot.IDENTITY] * self.chain.size)
        self.solution = None

    def _pose(self, rotations, frame=None):
        # Write the rotations and refresh the chain's world transforms in one pass,
        # root to tip (the parent is clean: parent_transform() refreshes it, unless
        # the caller did and passes its ``frame``). Nodes hanging from the chain's
        # nodes but not part of it are marked dirty. Returns the world points.
        (px, py, pz), (rw, rx, ry, rz) = frame or self.parent_transform()
        out = []
        nodes = self.nodes
        last = len(nodes) - 1
        for i, node in enumerate(nodes):
            vx, vy, vz = node.translation
            tx = 2.0 * (ry * vz - rz * vy)
            ty = 2.0 * (rz * vx - rx * vz)
            tz = 2.0 * (rx * vy - ry * vx)
            px += vx + rw * tx + (ry * tz - rz * ty)
            py += vy + rw * ty + (rz * tx - rx * tz)
            pz += vz + rw * tz + (rx * ty - ry * tx)
            if i < last:
                node.rotation = q = rotations[i]
            else:
                q = node.rotation
            qw, qx, qy, qz = q
            rw, rx, ry, rz = (rw * qw - rx * qx - ry * qy - rz * qz,
                              rw * qx + rx * qw + ry * qz - rz * qy,
                              rw * qy - rx * qz + ry * qw + rz * qx,
                              rw * qz + rx * qy - ry * qx + rz * qw)
            p = (px, py, pz)
            node._p = p
            node._q = (rw, rx, ry, rz)
            node._dirty = False
            out.append(p)
            if len(node.children) > (i < last):
                self._touch_hanging(node)
        self.skeleton.recomputed += len(nodes)
        return out

    def local_frames(self):
        """The current pose in the chain's own (parent's) frame: ``(worlds, points)``.

        ``worlds`` holds each bone's rotation ``R_i = q_0 ... q_i`` and ``points``
        the ``N + 1`` points (forward kinematics in the parent's frame; see
        :mod:`ikcore.rotation`). After a warm solve these are the verdict's own,
        at no cost; otherwise they are computed from the nodes' rotations.
        """
        last = self._judged
        if last is not None and last[2] is not None and self._unchanged(last[1]):
            return last[2]
        # Otherwise computed once for as long as the nodes keep these rotations (a pose that stays,
        # such as a race lane's after its cold solve, is drawn every frame).
        last = self._computed
        if last is not None and self._unchanged(last[0]):
            return last[1]
        rotations = self.rotations
        worlds = []
        points = self.chain._settle(rotations, worlds)[1]
        self._computed = (rotations, (worlds, points))
        return worlds, points

    def _held_verdict(self):
        # The last verdict on the current chain (its _judged record) while the nodes still hold its
        # rotations, else None: what a warm start starts from (solve, and a Tracker).
        last = self._judged
        if last is not None and last[0] is self.chain and self._unchanged(last[1]):
            return last
        return None

    def _unchanged(self, rotations):
        # Whether the nodes still hold these very rotation objects (nothing set them since): an
        # identity test a node, looped in C.
        return all(map(is_, map(_rotation_of, self.nodes), rotations))

    def _touch_hanging(self, node):
        # The nodes hanging from one of the chain's nodes but not part of the chain: stale now.
        for child in node.children:
            if child.chain is not self:
                child._touch()

    def _write(self, rotations):
        for node, q in zip(self.nodes, rotations):
            node.rotation = q
        if not self.nodes[0]._dirty:
            self.nodes[0]._touch()

    def local_points(self):
        """The chain's points in its parent's frame (forward kinematics)."""
        return self.chain._forward(self.rotations)

    def world_points(self):
        """The chain's ``N + 1`` points in world coordinates."""
        position, rotation = self.parent_transform()
        return rot.transform_points(self.chain._forward(self.rotations), position, rotation)

    def effector(self):
        """The end effector's world position."""
        return self.nodes[-1].world_position

