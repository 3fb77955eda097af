"""How :meth:`Scene.write <ikcore.rigs.scene.Scene.write>` fills the page's buffer each frame.

What a frame costs
------------------
The buffer (its contract is in :mod:`ikcore.rigs.scene`) is a few hundred
to a few thousand floats, rewritten every frame. In CPython each float handled
by a generic loop costs a hundred-odd machine instructions, so the way the
floats reach the buffer decides the cost:

- ``array("d", floats)`` converts each float with ``PyArg_Parse``: several
  hundred instructions a float, most of a frame's writing when the records
  were gathered in a list and copied in with it;
- building each record as a tuple (``(*p, *q, r, kind)``) and extending a
  list with it costs a few Python operations a record;
- flattening tuples with ``itertools.chain``, gathering with
  ``operator.itemgetter`` or copying strided slices between arrays all cost
  tens to hundreds of instructions a float too (measured with callgrind).

The cheapest path found is one :meth:`struct.Struct.pack_into` call (a plain
``PyFloat_AsDouble`` a float, written in place) whose arguments the
interpreter builds itself: in ``pack(buf, 0, *n0._p, *n1._p, 0.06, 0.0, ...)``
each ``*n._p`` extends the argument list with a tuple in one bytecode and each
constant is one cheap append. The records' order is fixed for a scene's
layout, so a :class:`Writer` writes that call out once as the text of a small
function and compiles it; each frame calls it. For chain nodes ``n0, n1, ...``
(all chains' points, root first, in buffer order), a bone from ``ni`` to
``nj`` reads ``*ni._p, *nj._p, radius, kind`` and a joint ``*ni._p, radius,
*f._q``, where ``f`` is the joint's parent node (the previous point, or the
node the chain hangs from: ``F[k]``) and ``*I`` (the identity) stands for
none; radii and kinds are written as float literals (``repr`` reads back as
exactly the same float), ``S[k]`` for one that is not finite. Extra bones,
targets and the chains' results come in as two lists, ``*extras`` and
``*tail``.

The text holds only these names, literals and indices; the values are the
nodes' current ``_p`` and ``_q`` (fresh after ``skeleton.update()``). Every
float of the buffer, the static radii and kinds too, is written on every
call, so a fresh buffer comes out whole from one ``write``; what the function
fixes is the layout (the limbs, their radii, the number of extra bones and of
tail floats), and the scene makes a new Writer when that changes.
"""

import math
import struct

from .. import rotation as rot

#: Up to this many chain nodes, write() unpacks them into locals (a name is cheaper to read than an item of a
#: tuple). Each local is a slot of every call's frame, and a frame too big for the interpreter's current stack
#: chunk allocates (and frees) a chunk of its own each call, so larger layouts read the nodes from their tuple.
MAX_LOCALS = 256


class Writer:
    """One scene layout's compiled write (see the module docstring).

    Parameters
    ----------
    limbs : list of Limb
        The scene's limbs, in buffer order; their ``bone_tails`` and
        ``joint_radii`` are read here, once.
    extra_count : int
        How many extra bones (:meth:`Scene.extra_bones`) follow the chains' bones.
    tail : int
        Floats after the joints (targets and chains' results).

    ``write(buf, extras, tail)`` then writes the chains' bones, ``extras``
    (``8 x extra_count`` floats), the chains' joints and ``tail`` into
    ``buf`` from its start; ``size`` is the number of floats it writes.
    """

    __slots__ = ("extra_count", "tail", "size", "write")

    def __init__(self, limbs, extra_count, tail):
        nodes = [node for limb in limbs for node in limb.bound.nodes]
        index = {node: i for i, node in enumerate(nodes)}
        local = len(nodes) <= MAX_LOCALS
        others = {}  # frame nodes that are no chain node (the nodes chains hang from) -> k of F[k]
        statics = []  # static floats without an exact literal (not finite): S[k]

        def node(i):
            return f"n{i}" if local else f"N[{i}]"

        def frame(parent):
            if parent is None:
                return "I"
            if parent in index:
                return node(index[parent]) + "._q"
            return f"F[{others.setdefault(parent, len(others))}]._q"

        def constant(value):
            value = float(value)
            if math.isfinite(value):
                return repr(value)  # the shortest text that reads back as exactly this float
            statics.append(value)
            return f"S[{len(statics) - 1}]"

        bones, joints = [], []
        first = 0
        for limb in limbs:
            chain_nodes = limb.bound.nodes
            for k, (radius, kind) in enumerate(limb.bone_tails):
                bones.append(f"*{node(first + k)}._p, *{node(first + k + 1)}._p, "
                             f"{constant(radius)}, {constant(kind)}")
            for k, (chain_node, radius) in enumerate(zip(chain_nodes, limb.joint_radii)):
                joints.append(f"*{node(first + k)}._p, {constant(radius)}, *{frame(chain_node.parent)}")
            first += len(chain_nodes)
        size = 8 * (len(bones) + extra_count + len(joints)) + tail
        args = ", ".join(["buf, 0", *bones, "*extras", *joints, "*tail"])
        unpack = f"    {', '.join(node(i) for i in range(len(nodes)))}, = N\n" if local and nodes else ""
        source = (f"def write(buf, extras, tail, N=N, F=F, S=S, I=I, pack=pack):\n"
                  f"{unpack}"
                  f"    pack({args})\n")
        scope = {"N": tuple(nodes), "F": tuple(others), "S": tuple(statics), "I": rot.IDENTITY,
                 "pack": struct.Struct(f"{size}d").pack_into}
        exec(compile(source, "<ikcore.rigs.writer>", "exec"), scope)
        self.write = scope["write"]
        self.extra_count = extra_count
        self.tail = tail
        self.size = size
