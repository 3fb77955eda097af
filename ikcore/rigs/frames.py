"""Chain frames in the page's buffer: each chain's records are written in its own frame.

A chain hangs from a node (a spider's coxa, the tentacles' crown) and is solved
in that node's frame. :meth:`Scene.write <ikcore.rigs.scene.Scene.write>` writes
each chain's bone and joint records in that frame, as the solve left them, and
the chain's record in the ``frames`` section gives the frame's world pose
``[x, y, z, qw, qx, qy, qz]``. The reader applies it, as a scene graph applies a
parent's transform to its children::

    world point    = P + Q p Q*          (both points of a bone, a joint's point)
    world rotation = Q q                 (a joint's frame)

The page does this in JavaScript (``web/js/frames.js``) on the shared array
right after each step, before anything reads it; :func:`to_world` is the same
for readers in Python. Extra bones, targets and the chains' results are in
world coordinates already.
"""

from ..rotation import multiply, rotate


def to_world(buf, layout):
    """Turn the chains' bone and joint records of a written ``buf`` into world coordinates, in place.

    Parameters
    ----------
    buf : mutable sequence of float
        As :meth:`Scene.write <ikcore.rigs.scene.Scene.write>` filled it (once: applied twice,
        the frames would be applied twice).
    layout : dict
        The scene's :meth:`~ikcore.rigs.scene.Scene.layout`.

    Examples
    --------
    >>> from ikcore.rigs import make_scene, to_world
    >>> scene = make_scene("spider")
    >>> layout, buf = scene.layout(), scene.allocate()
    >>> scene.step(1 / 60)
    >>> written = scene.write(buf)
    >>> root = layout["sections"]["joints"]["offset"]  # the first leg's root joint
    >>> [round(c, 3) for c in buf[root:root + 3]]  # in the leg's own frame
    [0.18, 0.0, 0.0]
    >>> to_world(buf, layout)
    >>> [round(c, 3) for c in buf[root:root + 3]]  # in the world
    [0.411, 0.282, -0.275]
    """
    sections = layout["sections"]
    bones, joints, frames = sections["bones"], sections["joints"], sections["frames"]
    for k, chain in enumerate(layout["chains"]):
        f = frames["offset"] + k * frames["stride"]
        position, q = tuple(buf[f:f + 3]), tuple(buf[f + 3:f + 7])
        first, count = chain["bones"]
        for i in range(first, first + count):
            o = bones["offset"] + i * bones["stride"]
            _place(buf, o, position, q)
            _place(buf, o + 3, position, q)
        first, count = chain["joints"]
        for i in range(first, first + count):
            o = joints["offset"] + i * joints["stride"]
            _place(buf, o, position, q)
            for j, value in enumerate(multiply(q, tuple(buf[o + 4:o + 8]))):
                buf[o + 4 + j] = value


def _place(buf, o, position, q):
    x, y, z = rotate(q, tuple(buf[o:o + 3]))
    buf[o] = position[0] + x
    buf[o + 1] = position[1] + y
    buf[o + 2] = position[2] + z
