"""A skeleton: a tree of nodes with local transforms, and chains that hang from it.

Each node has a parent (or none), a local translation ``t`` and a local
rotation ``q`` (``(w, x, y, z)``), both in its parent's frame. Its world
transform follows from the parent's::

    W_node = W_parent q            (world rotation)
    P_node = P_parent + W_parent t (world position)

World transforms are cached. Setting a node's ``translation`` or ``rotation``
marks it and its subtree dirty; a world transform is recomputed only when
asked for (or by :meth:`Skeleton.update`), and only along the dirty part of
the tree, so moving one leg does not touch the others, and moving the body
refreshes everything that hangs from it.

Chains hang from nodes: :meth:`Skeleton.add_chain` gives a
:class:`~ikcore.bound.BoundChain`.
"""

from collections.abc import Sequence

from . import rotation as rot
from .bound import BoundChain
from .chain import Chain
from .checks import check_point, check_quaternion
from .constraints import Constraint
from .errors import IKError
from .hints import Point, Quaternion, Vector3
from .rotation import multiply, rotate


class Node:
    """One node of a :class:`Skeleton`; create with :meth:`Skeleton.add_node`.

    Attributes
    ----------
    name : str
    parent : Node or None
    children : list of Node
    translation : (x, y, z)
        Local translation, in the parent's frame. Setting it (checked) marks the
        subtree dirty.
    rotation : (w, x, y, z)
        Local rotation, in the parent's frame. Setting it (checked, normalised)
        marks the subtree dirty.
    chain : BoundChain or None
        The chain this node belongs to, if any.

    Examples
    --------
    >>> import ikcore
    >>> skeleton = ikcore.Skeleton()
    >>> body = skeleton.add_node("body", translation=(0, 1, 0))
    >>> leg = skeleton.add_chain("leg", "body", [(0.3, 0, 0), (0.8, 0.3, 0), (1.2, -1, 0)])
    >>> body, body.world_position, body.children
    (Node('body', parent=None), (0.0, 1.0, 0.0), [Node('leg.0', parent='body')])
    """

    __slots__ = ("name", "index", "parent", "children", "_translation", "_rotation", "skeleton", "chain",
                 "_p", "_q", "_dirty")

    def __init__(self, skeleton, name, index, parent, translation, rotation):
        self.skeleton = skeleton
        self.name = name
        self.index = index
        self.parent = parent
        self.children = []
        self._translation = translation
        self._rotation = rotation
        self.chain = None
        self._p = (0.0, 0.0, 0.0)
        self._q = rot.IDENTITY
        self._dirty = True

    def __repr__(self):
        parent = None if self.parent is None else self.parent.name
        return f"Node({self.name!r}, parent={parent!r})"

    @property
    def translation(self):
        return self._translation

    @translation.setter
    def translation(self, value):
        if self.chain is not None:
            raise IKError(f"node {self.name!r} belongs to chain {self.chain.name!r}: its translation is the "
                          f"chain's rest offset and cannot be set")
        self._translation = check_point(value, f"node {self.name!r} translation")
        self.touch()

    @property
    def rotation(self):
        return self._rotation

    @rotation.setter
    def rotation(self, value):
        self._rotation = check_quaternion(value, f"node {self.name!r} rotation")
        self.touch()

    def set_local(self, translation=None, rotation=None):
        """Set the local translation and/or rotation (checked; ``None`` keeps it).

        Raises
        ------
        IKError
            A non-finite or wrongly shaped translation, a zero or non-finite
            rotation (any other quaternion is normalised), or a translation for
            a node of a chain. Nothing changes then.
        """
        t = None if translation is None else check_point(translation, f"node {self.name!r} translation")
        q = None if rotation is None else check_quaternion(rotation, f"node {self.name!r} rotation")
        if t is not None:
            self.translation = t
        if q is not None:
            self._rotation = q
            self.touch()

    def place(self, rotation, world_position, world_rotation):
        """Set the local ``rotation`` (trusted: unit) together with the world transform it gives,
        worked out by the caller from the parent's current one: nothing is recomputed for this
        node. The nodes below it are marked dirty."""
        self._rotation = rotation
        self.touch()
        self._p = world_position
        self._q = world_rotation
        self._dirty = False

    def touch(self):
        """Mark this node and its subtree dirty."""
        # Invariant: a dirty node's whole subtree is dirty, so the walk stops at dirty nodes.
        self._dirty = True
        stack = [self]
        while stack:
            for child in stack.pop().children:
                if not child._dirty:
                    child._dirty = True
                    stack.append(child)

    @property
    def world_position(self):
        """World position ``(x, y, z)``."""
        if self._dirty:
            self.skeleton.refresh(self)
        return self._p

    @property
    def world_rotation(self):
        """World rotation ``(w, x, y, z)``."""
        if self._dirty:
            self.skeleton.refresh(self)
        return self._q


class Skeleton:
    """A scene graph of nodes; chains hang from it (see the module docstring).

    Examples
    --------
    >>> sk = Skeleton()
    >>> body = sk.add_node("body", translation=(0, 1, 0))
    >>> leg = sk.add_chain("leg", "body", [(0.3, 0, 0), (0.8, 0.3, 0), (1.2, -1, 0)])
    >>> sol = leg.solve((1.2, 0.2, 0.3), method="fabrik")
    >>> sol.status, [round(c, 6) for c in sol.positions[0]]  # the leg's root, in the world
    ('converged', [0.3, 1.0, 0.0])
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

    def node(self, name: str) -> Node:
        """The node called ``name`` (a :class:`Node` is returned as is)."""
        if isinstance(name, Node):
            if name.skeleton is not self:
                raise IKError(f"node {name.name!r} belongs to another skeleton")
            return name
        node = self._by_name.get(name) if isinstance(name, str) else None
        if node is None:
            raise IKError(f"skeleton has no node {name!r}")
        return node

    def chain(self, name: str) -> BoundChain:
        """The bound chain called ``name``."""
        found = self._chains.get(name) if isinstance(name, str) else None
        if found is None:
            raise IKError(f"skeleton has no chain {name!r}")
        return found

    def add_node(self, name: str, parent: str | None = None, translation: Vector3 = (0.0, 0.0, 0.0),
                 rotation: Quaternion = rot.IDENTITY) -> Node:
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

    def add_chain(self, name: str, parent: str | None, points: Sequence[Vector3],
                  joints: Sequence[Constraint | None] | None = None,
                  node_names: Sequence[str] | None = None) -> BoundChain:
        """Hang a chain from node ``parent`` and return its :class:`~ikcore.bound.BoundChain`.

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
        chain = Chain(points, joints)
        count = chain.size + 1
        node_names = [f"{name}.{i}" for i in range(count)] if node_names is None else list(node_names)
        if len(node_names) != count:
            raise IKError(f"chain {name!r} needs {count} node names, got {len(node_names)}")
        if len(set(node_names)) != count:
            raise IKError(f"chain {name!r} node names must be distinct")
        for n in node_names:
            if n in self._by_name:
                raise IKError(f"skeleton already has a node {n!r}")
        nodes = []
        up, prev = parent_node, (0.0, 0.0, 0.0)
        for n, p in zip(node_names, chain.points):
            up = self.add_node(n, up, (p[0] - prev[0], p[1] - prev[1], p[2] - prev[2]))
            nodes.append(up)
            prev = p
        bound = BoundChain(self, name, parent_node, nodes, chain)
        self._chains[name] = bound
        return bound

    def world_position(self, name: str) -> Point:
        """World position of node ``name``."""
        return self.node(name).world_position

    def world_rotation(self, name: str) -> tuple[float, float, float, float]:
        """World rotation of node ``name``."""
        return self.node(name).world_rotation

    def to_world(self, name: str, point: Vector3) -> Point:
        """A point given in node ``name``'s frame, in world coordinates."""
        node = self.node(name)
        point = check_point(point, "point")
        p = node.world_position
        return tuple(a + b for a, b in zip(p, rotate(node._q, point)))

    def to_local(self, name: str, point: Vector3) -> Point:
        """A world point in node ``name``'s frame."""
        node = self.node(name)
        point = check_point(point, "point")
        p = node.world_position
        return rotate(rot.conjugate(node._q), tuple(a - b for a, b in zip(point, p)))

    def update(self) -> None:
        """Recompute every dirty world transform (parents before children)."""
        for node in self._nodes:
            if node._dirty:
                self._compute(node)

    def refresh(self, node):
        """Recompute ``node``'s world transform and those of its dirty ancestors, top down."""
        path = []
        while node is not None and node._dirty:
            path.append(node)
            node = node.parent
        for n in reversed(path):
            self._compute(n)

    def _compute(self, node):
        parent = node.parent
        if parent is None:
            node._q, node._p = node._rotation, node._translation
        else:
            node._q = multiply(parent._q, node._rotation)
            node._p = tuple(a + b for a, b in zip(parent._p, rotate(parent._q, node._translation)))
        node._dirty = False
        self.recomputed += 1
