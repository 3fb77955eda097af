"""How :meth:`Scene.write <ikcore.rigs.scene.Scene.write>` fills the page's buffer each frame.

Each frame makes one :meth:`struct.Struct.pack_into` call, writing every float
in place, whose arguments the interpreter builds itself: in ``pack(buf, 0,
*p0_0, *p0_1, 0.06, 0.0, ...)`` each ``*p`` is a tuple of a record and each
constant a radius or a kind. The records' order is fixed for a scene's layout,
so a :class:`Writer` writes that call out once as the text of a small function
and compiles it (why this form: docs/develop/performance.md).

Chain ``k``'s records are written in its own frame (:mod:`ikcore.rigs.frames`),
from ``B[k].local_frames()`` (its bound chain's): ``(rk, pk)``, the bones'
rotations and the points, unpacked into locals ``rk_i`` and ``pk_i`` (or read
as ``rk[i]`` and ``pk[i]`` past :data:`MAX_LOCALS`). A bone from point ``i``
reads ``*pk_i, *pk_j, radius, kind`` (a chain's lead bone ``0.0, 0.0, 0.0,
*pk_0, radius, kind``: from its frame's origin) and a joint ``*pk_i, radius,
*rk_h``, ``h = i - 1`` its parent bone (``*I``, the identity, for the root:
the chain's frame itself). The chain's frame record reads the world pose of
the node it hangs from, ``*F[m].world_position, *F[m].world_rotation`` (the
identity for none). Target ``k`` reads ``*T[k].position, *(T[k].orientation
or I), T[k].radius``. Radii and kinds are written as float literals (``repr``
reads back as exactly the same float), ``S[k]`` for one that is not finite.
The extra bones and the chains' results come in as two lists, ``*extras`` and
``*results``.

The text holds only these names, literals and indices. Every float of the
buffer, the static radii and kinds too, is written on every call, so a fresh
buffer comes out whole from one ``write``; what the function fixes is the
layout (the limbs, their radii, the targets, the number of extra bones), and
the scene makes a new Writer when that changes.
"""

import math
import struct

from .. import rotation as rot

#: Up to this many chain points and bone rotations, write() unpacks them into locals; larger layouts
#: read them from their lists (docs/develop/performance.md says why).
MAX_LOCALS = 256
#: Floats of a chain's frame record: ``[x, y, z, qw, qx, qy, qz]``.
FRAME_STRIDE = 7


class Writer:
    """One scene layout's compiled write (see the module docstring).

    Parameters
    ----------
    limbs : list of Limb
        The scene's limbs, in buffer order; their ``bone_tails``, ``lead``,
        ``joint_radii`` and parent nodes are read here, once.
    targets : list of Target
        The scene's targets, in buffer order.
    extra_count : int
        How many extra bones (:meth:`Scene.extra_bones`) follow the chains' bones.
    chain_stride : int
        Floats of each chain's record in ``results`` (4, and the scene's measures).

    ``write(buf, extras, results)`` then writes the chains' bones (from each
    limb's ``bound.local_frames()``), ``extras`` (``8 x extra_count`` floats),
    the chains' joints, the targets, ``results`` (the chains' records) and
    each chain's frame record into ``buf`` from its start; ``size`` is the
    number of floats it writes.
    """

    __slots__ = ("extra_count", "size", "write")

    def __init__(self, limbs, targets, extra_count, chain_stride=4):
        sizes = [len(limb.bound.nodes) for limb in limbs]
        # Points and bone rotations of every chain as locals, when they are few enough.
        local = sum(2 * n - 1 for n in sizes) <= MAX_LOCALS
        parents = []  # the nodes chains hang from, F[k]
        statics = []  # static floats without an exact literal (not finite): S[k]

        def point(k, i):
            return f"p{k}_{i}" if local else f"p{k}[{i}]"

        def rotation(k, i):
            return f"r{k}_{i}" if local else f"r{k}[{i}]"

        def constant(value):
            value = float(value)
            if math.isfinite(value):
                return repr(value)  # the shortest text that reads back as exactly this float
            statics.append(value)
            return f"S[{len(statics) - 1}]"

        bones, joints, frames, unpack = [], [], [], []
        for k, (limb, n) in enumerate(zip(limbs, sizes)):
            if limb.lead is not None:
                # From the frame's origin to the root.
                bones.append(f"0.0, 0.0, 0.0, *{point(k, 0)}, {constant(limb.lead[0])}, {constant(limb.lead[1])}")
            for i, (radius, kind) in enumerate(limb.bone_tails):
                bones.append(f"*{point(k, i)}, *{point(k, i + 1)}, {constant(radius)}, {constant(kind)}")
            for i, radius in enumerate(limb.joint_radii):
                # A joint's limits are written in its parent bone's frame: the chain's own frame for the root.
                frame = "I" if i == 0 else rotation(k, i - 1)
                joints.append(f"*{point(k, i)}, {constant(radius)}, *{frame}")
            parent = limb.bound.parent
            if parent is None:
                frames.append("0.0, 0.0, 0.0, *I")
            else:
                frames.append(f"*F[{len(parents)}].world_position, *F[{len(parents)}].world_rotation")
                parents.append(parent)
            unpack.append(f"    r{k}, p{k} = B[{k}].local_frames()\n")
            if local:
                unpack.append(f"    {', '.join(rotation(k, i) for i in range(n - 1))}, = r{k}\n"
                              f"    {', '.join(point(k, i) for i in range(n))}, = p{k}\n")
        marks = [f"*T[{k}].position, *(T[{k}].orientation or I), T[{k}].radius" for k in range(len(targets))]
        size = 8 * (len(bones) + extra_count + len(joints) + len(marks)) + (chain_stride + FRAME_STRIDE) * len(limbs)
        args = ", ".join(["buf, 0", *bones, "*extras", *joints, *marks, "*results", *frames])
        source = (f"def write(buf, extras, results, B=B, T=T, F=F, S=S, I=I, pack=pack):\n"
                  + "".join(unpack)
                  + f"    pack({args})\n")
        scope = {"B": tuple(limb.bound for limb in limbs), "T": tuple(targets), "F": tuple(parents),
                 "S": tuple(statics), "I": rot.IDENTITY, "pack": struct.Struct(f"{size}d").pack_into}
        exec(compile(source, "<ikcore.rigs.writer>", "exec"), scope)
        self.write = scope["write"]
        self.extra_count = extra_count
        self.size = size
