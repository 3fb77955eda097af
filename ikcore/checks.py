"""Validators used at every entry point: bad input is refused where it enters.

Each ``check_*`` returns the value in canonical form (tuples of floats) or raises
:class:`ikcore.IKError` with a message naming what was wrong.
"""

import math
from numbers import Real

from .errors import IKError


def _describe(value):
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_float(value, name):
    """Return ``value`` as a finite float."""
    if type(value) is float and value - value == 0.0:  # the common case, checked cheaply (inf - inf is nan)
        return value
    if isinstance(value, bool) or not isinstance(value, Real):
        raise IKError(f"{name} must be a real number, got {_describe(value)}")
    try:
        value = float(value)
    except OverflowError:
        # An integer beyond a float's range (JSON hands a long run of digits over as one).
        raise IKError(f"{name} must be finite, got an integer too large for a float") from None
    if not math.isfinite(value):
        raise IKError(f"{name} must be finite, got {value!r}")
    return value


def check_vector(value, name, size=3):
    """Return ``value`` as a tuple of ``size`` finite floats."""
    try:
        items = tuple(value)
    except TypeError:
        raise IKError(f"{name} must be a sequence of {size} numbers, got {_describe(value)}") from None
    if len(items) != size:
        raise IKError(f"{name} must have {size} components, got {len(items)}: {_describe(value)}")
    for v in items:
        if type(v) is not float or v - v != 0.0:
            break
    else:  # all finite floats already (the common case in per-frame calls)
        return items
    return tuple(check_float(v, f"{name}[{i}]") for i, v in enumerate(items))


def check_point(value, name="point"):
    """Return ``value`` as an ``(x, y, z)`` tuple of finite floats."""
    return check_vector(value, name, 3)


def check_points(value, name="points", minimum=2):
    """Return a list of at least ``minimum`` points."""
    try:
        items = list(value)
    except TypeError:
        raise IKError(f"{name} must be a sequence of (x, y, z) points, got {_describe(value)}") from None
    if len(items) < minimum:
        raise IKError(f"{name} needs at least {minimum} points, got {len(items)}")
    return [check_point(p, f"{name}[{i}]") for i, p in enumerate(items)]


def check_quaternion(value, name="quaternion"):
    """Return ``value`` as a unit quaternion ``(w, x, y, z)``.

    Any finite quaternion of norm over ``1e-12`` is accepted and normalised (its norm taken
    without overflow, so ``(1e200, 0, 0, 0)`` is the identity); a smaller one is refused as zero.
    """
    w, x, y, z = check_vector(value, name, 4)
    norm = math.hypot(w, x, y, z)
    if not norm > 1e-12 or not math.isfinite(norm):
        raise IKError(f"{name} must be a non-zero quaternion (w, x, y, z), got {_describe(value)}")
    return (w / norm, x / norm, y / norm, z / norm)


def check_per_joint(value, count, name, what, kind="a sequence of"):
    """Return ``value`` as a list of ``count`` items, one per joint (``what``: their plural name,
    ``kind`` what ``value`` should be, for the message)."""
    try:
        items = list(value)
    except TypeError:
        raise IKError(f"{name} must be {kind} {count} {what}, got {_describe(value)}") from None
    if len(items) != count:
        raise IKError(f"{name} must hold {count} {what} (one per joint), got {len(items)}")
    return items


def check_rotations(value, count, name="rotations"):
    """Return a list of ``count`` unit quaternions."""
    items = check_per_joint(value, count, name, "quaternions")
    return [check_quaternion(q, f"{name}[{i}]") for i, q in enumerate(items)]


def check_positive(value, name):
    """Return ``value`` as a finite float > 0."""
    value = check_float(value, name)
    if value <= 0.0:
        raise IKError(f"{name} must be > 0, got {value!r}")
    return value


def check_bool(value, name):
    """Return ``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise IKError(f"{name} must be True or False, got {_describe(value)}")
    return value


def check_fraction(value, name):
    """Return ``value`` as a float in ``[0, 1]``."""
    value = check_float(value, name)
    if not 0.0 <= value <= 1.0:
        raise IKError(f"{name} must be in [0, 1], got {value!r}")
    return value


def check_int_range(value, name, low, high):
    """Return ``value`` as an int in ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise IKError(f"{name} must be an integer in [{low}, {high}], got {_describe(value)}")
    if not low <= value <= high:
        raise IKError(f"{name} must be in [{low}, {high}], got {value!r}")
    return value


def check_choice(value, name, choices):
    """Return ``value`` if it is one of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        raise IKError(f"{name} must be one of {', '.join(choices)}; got {_describe(value)}")
    return value


def check_subset(value, name, choices):
    """Return ``value``, a list or tuple of distinct names out of ``choices`` (at least one), as a
    tuple in the order of ``choices``: a set of names, whatever order they were given in."""
    listed = ", ".join(choices)
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise IKError(f"{name} must be a list of names out of {listed}; got {_describe(value)}")
    if not value:
        raise IKError(f"{name} must name at least one of {listed}")
    seen = set()
    for item in value:
        if not isinstance(item, str) or item not in choices:
            raise IKError(f"{name}: {_describe(item)} is not one of {listed}")
        if item in seen:
            raise IKError(f"{name} names {item!r} twice")
        seen.add(item)
    return tuple(c for c in choices if c in seen)
