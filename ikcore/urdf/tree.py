"""A URDF's links and joints, checked, and the path of joints from one link down to another.

URDF describes a robot as a tree: every ``<joint>`` joins a parent link to a
child link, and no link is the child of two joints. Each joint's ``<origin>``
(``xyz``, and ``rpy`` as ``Rz(yaw) Ry(pitch) Rx(roll)``) places its frame in
its parent link's frame; its ``<axis>`` (default ``1 0 0``) is given in its own
frame; a ``revolute`` or ``prismatic`` joint's ``<limit>`` gives ``lower`` and
``upper`` (default 0), in radians or metres. Everything here is checked against that, and each
error names the element and its line.
"""

import math

from ..errors import IKError
from ..transforms import IDENTITY, from_rpy

#: The joint types of URDF, and those a chain of ikcore can take.
TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
TAKEN = ("revolute", "continuous", "prismatic", "fixed")


class Joint:
    """One ``<joint>``: ``name``, ``type``, ``parent`` and ``child`` link names, ``origin`` (a
    transform ``(R, t)``, :mod:`ikcore.transforms`), unit ``axis``, ``lower``/``upper`` (radians or
    metres, ``None`` without a limit), whether it mimics another, and ``where`` (its tag and line)."""

    __slots__ = ("name", "type", "parent", "child", "origin", "axis", "lower", "upper", "mimic", "where")

    def __init__(self, document, element):
        self.where = where = document.where(element)
        self.name = _attribute(element, "name", where)
        where = self.where = f"joint {self.name!r} {where}"
        self.type = _attribute(element, "type", where)
        if self.type not in TYPES:
            raise IKError(f"URDF {where} has type {self.type!r}, which is not a URDF joint type "
                          f"({', '.join(TYPES)})")
        self.parent = _attribute(_only(document, element, "parent", where, True), "link", f"{where}'s <parent>")
        self.child = _attribute(_only(document, element, "child", where, True), "link", f"{where}'s <child>")
        if self.parent == self.child:
            raise IKError(f"URDF {where} joins link {self.parent!r} to itself: a loop")
        origin = _only(document, element, "origin", where)
        xyz = _numbers(origin, "xyz", where, 3)
        rpy = _numbers(origin, "rpy", where, 3)
        self.origin = (IDENTITY if rpy == (0.0, 0.0, 0.0) else from_rpy(*rpy)), xyz
        axis = _numbers(_only(document, element, "axis", where), "xyz", where, 3, (1.0, 0.0, 0.0))
        norm = math.hypot(*axis)
        if self.type != "fixed" and not norm > 1e-12:
            raise IKError(f"URDF {where} has a zero axis {axis!r}")
        self.axis = tuple(c / norm for c in axis) if norm > 0.0 else axis
        self.lower = self.upper = None
        limit = _only(document, element, "limit", where)
        if self.type in ("revolute", "prismatic"):
            if limit is None:
                raise IKError(f"URDF {where} is {self.type} but has no <limit>, which URDF requires")
            self.lower = _number(limit, "lower", where, 0.0)
            self.upper = _number(limit, "upper", where, 0.0)
            if self.lower > self.upper:
                raise IKError(f"URDF {where}: its <limit> has lower {self.lower!r} above upper {self.upper!r}")
        self.mimic = _only(document, element, "mimic", where) is not None

    def __repr__(self):
        return f"Joint({self.name!r}, {self.type!r}, {self.parent!r} -> {self.child!r})"


def read_tree(document):
    """``(links, joints)``: the link names (each with its line) and the joints by child link, checked:
    names unique, every joint between declared links, no link the child of two joints."""
    links = {}
    for element in document.root.findall("link"):
        name = _attribute(element, "name", document.where(element))
        if name in links:
            raise IKError(f"URDF link {name!r} {document.where(element)} is declared twice "
                          f"(first at line {links[name]})")
        links[name] = document.lines[element]
    by_child, names = {}, set()
    for element in document.root.findall("joint"):
        joint = Joint(document, element)
        if joint.name in names:
            raise IKError(f"URDF {joint.where}: a joint of that name is declared before")
        names.add(joint.name)
        for role in ("parent", "child"):
            if getattr(joint, role) not in links:
                raise IKError(f"URDF {joint.where} names {role} link {getattr(joint, role)!r}, which is not "
                              f"declared (no <link name={getattr(joint, role)!r}>)")
        if joint.child in by_child:
            raise IKError(f"URDF {joint.where}: link {joint.child!r} is already the child of "
                          f"{by_child[joint.child].where}; a link has one parent joint in a URDF, so this "
                          f"would close a loop")
        by_child[joint.child] = joint
    _refuse_loops(by_child)
    return links, by_child


def _refuse_loops(by_child):
    """An :class:`~ikcore.IKError` when following parent joints up from some link comes back to it:
    with one parent per link, that is the only way a URDF can fail to be a tree."""
    settled = set()  # links whose ancestors end at a root
    for start in by_child:
        walk, link = {}, start
        while link in by_child and link not in settled:
            if link in walk:
                loop = list(walk)[walk[link]:]
                raise IKError(f"URDF joints {', '.join(repr(by_child[k].name) for k in loop)} close a loop "
                              f"through links {', '.join(map(repr, loop))} (first {by_child[loop[0]].where}): "
                              f"a URDF is a tree")
            walk[link] = len(walk)
            link = by_child[link].parent
        settled.update(walk)


def path(document, base, tip):
    """The joints from link ``base`` down to link ``tip``, base first (each checked for what a
    chain can take); an :class:`~ikcore.IKError` for a missing link, a loop, or a tip that does not
    hang below the base."""
    links, by_child = read_tree(document)
    for role, name in (("base_link", base), ("tip_link", tip)):
        if not isinstance(name, str):
            raise IKError(f"{role} must be a link name (a str), got {name!r}")
        if name not in links:
            known = ", ".join(sorted(links)[:12]) + (" ..." if len(links) > 12 else "")
            raise IKError(f"{document.name} has no link {name!r} ({role}); its links: {known or 'none'}")
    if base == tip:
        raise IKError(f"base_link and tip_link are the same link {base!r}: there is no joint between them")
    joints, seen, link = [], {tip}, tip
    while link != base:
        joint = by_child.get(link)
        if joint is None:
            above = _is_above(by_child, tip, base)
            raise IKError(f"tip link {tip!r} is not under base link {base!r} in {document.name}"
                          + (" (it is above it: swap them)" if above else f" (its root is link {link!r})"))
        link = joint.parent
        if link in seen:
            raise IKError(f"URDF {joint.where} closes a loop: link {link!r} is its own ancestor")
        seen.add(link)
        joints.append(joint)
    joints.reverse()
    for joint in joints:
        if joint.mimic:
            raise IKError(f"URDF {joint.where} mimics another joint (<mimic>): a chain's joints move on "
                          f"their own, mimic joints are not supported")
        if joint.type not in TAKEN:
            raise IKError(f"URDF {joint.where} is {joint.type}: a chain takes revolute, continuous, "
                          f"prismatic and fixed joints only")
    return joints


def _is_above(by_child, tip, base):
    """Whether link ``tip`` is an ancestor of ``base`` (bounded: a loop ends the walk)."""
    link, steps = base, 0
    while link in by_child and steps <= len(by_child):
        link = by_child[link].parent
        steps += 1
        if link == tip:
            return True
    return False


def _only(document, element, tag, where, required=False):
    """The one child ``<tag>`` of ``element`` (``None`` if it has none and none is required)."""
    found = element.findall(tag)
    if len(found) > 1:
        raise IKError(f"URDF {where} has {len(found)} <{tag}> elements, lines "
                      f"{', '.join(str(document.lines[e]) for e in found)}; it takes one")
    if not found and required:
        raise IKError(f"URDF {where} has no <{tag}>, which URDF requires")
    return found[0] if found else None


def _attribute(element, key, where):
    value = element.get(key)
    if value is None or not value.strip():
        raise IKError(f"URDF {where} has no {key!r} attribute, which URDF requires")
    return value


def _numbers(element, key, where, count, default=(0.0, 0.0, 0.0)):
    """Attribute ``key`` of ``element`` as ``count`` finite floats (``default`` when absent)."""
    if element is None or element.get(key) is None:
        return default
    text = element.get(key)
    try:
        values = tuple(float(word) for word in text.split())
    except ValueError:
        values = ()
    if len(values) != count or not all(math.isfinite(v) for v in values):
        what = "a finite number" if count == 1 else f"{count} finite numbers"
        raise IKError(f"URDF {where}'s <{element.tag}> {key}={text!r} must be {what}")
    return values


def _number(element, key, where, default):
    return _numbers(element, key, where, 1, (default,))[0]
