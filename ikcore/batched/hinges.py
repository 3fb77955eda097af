"""Hinges on arrays: the signed angle that turns one direction nearest another, a range's clamp,
and a hinge's rotation by clamped angles."""

import math

import numpy as np

from .quaternions import cross


def signed_angle(axis, a, b):
    """The angle about unit ``axis`` that turns ``a`` nearest to ``b``, row by row (both projected on
    the plane normal to ``axis``; 0 where either lies along it): ``atan2(axis . (a x b), a . b -
    (axis . a)(axis . b))`` (:func:`ikcore.vectors.signed_angle`), the threshold
    relative to ``|a| |b|`` as there."""
    axis = np.broadcast_to(axis, a.shape)
    s = np.einsum("...j,...j->...", axis, cross(a, b))
    c = np.einsum("...j,...j->...", a, b) - np.einsum("...j,...j->...", axis, a) * np.einsum("...j,...j->...", axis, b)
    size = np.sqrt(np.einsum("...j,...j->...", a, a) * np.einsum("...j,...j->...", b, b))
    return np.where(np.abs(s) + np.abs(c) > 1e-12 * size, np.arctan2(s, c), 0.0)


def clamped(limits, angles):
    """``angles`` clamped into the arc ``limits`` (:meth:`ikcore.constraints.AngleRange.clamp`): the
    angle of the arc nearest each, measured around the circle."""
    if limits.full:
        return angles
    lo, hi, whole = limits.lo, limits.hi, 2.0 * math.pi
    t = lo + np.fmod(angles - lo, whole)
    t = np.where(t < lo, t + whole, t)
    out = np.where(t <= hi, t, np.where(t - hi <= lo + whole - t, hi, lo))
    return np.where((lo <= angles) & (angles <= hi), angles, out)


def rotation(hinge, angles):
    """The hinge's rotations by ``angles`` clamped into its range: ``(cos(a/2), axis sin(a/2))``
    (:meth:`ikcore.Hinge.rotation`)."""
    half = 0.5 * clamped(hinge.range, angles)
    return np.concatenate((np.cos(half)[..., None], np.sin(half)[..., None] * np.array(hinge.axis)), axis=-1)
