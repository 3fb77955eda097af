"""The sentences of a trace: what each step did, in plain words and with its numbers.

One function per kind of step (:mod:`ikcore.recorder` calls them); each returns
one sentence. Joints and points are named by their index, as in
:class:`ikcore.trace.Step` (``joint 0`` turns the first bone, ``point 0`` is
the root). Lengths are in the chain's units, angles in degrees.
"""

import math

from .constraints import BallSocket, Hinge


def num(x):
    """A length or an error, short: three significant digits, or ``1.2e-05`` for small ones."""
    x = float(x)
    if x == 0.0:
        return "0"
    if 1e-3 <= abs(x) < 1e4:
        return f"{x:.3g}"
    return f"{x:.1e}"


def deg(x):
    """An angle in degrees: one decimal, or two significant digits below a tenth."""
    x = float(x)
    if abs(x) >= 0.1 or x == 0.0:
        return f"{x:.1f}°"
    return f"{x:.2g}°"


def _iterations(k):
    return f"{k} iteration" + ("" if k == 1 else "s")


def limit(constraint):
    """How a joint's limits read in a caption: ``its 0..150° hinge``, ``its 70° cone``."""
    if isinstance(constraint, Hinge):
        return f"its {constraint.min_deg:g}..{constraint.max_deg:g}° hinge"
    if isinstance(constraint, BallSocket):
        cone = f"its {constraint.cone_deg:g}° cone"
        if constraint.twist.full:
            return cone
        return f"{cone} and {constraint.twist_min_deg:g}..{constraint.twist_max_deg:g}° twist"
    return "its limits"


def start(error):
    return f"The chain starts in its start pose, the effector {num(error)} from the target."


def setup(what, iteration, error, oriented=False):
    """A step that sets up what follows (see :class:`ikcore.trace.Step`, phase ``setup``)."""
    at = f"{num(error)} from the target"
    if what == "bend":
        return ("The chain lies straight along the line to the target, where no step could leave it: "
                f"it first curls into an arc, the effector {at}.")
    if what == "turn":
        return f"Before the passes the chain turns toward the pole (they keep the side they start on), the effector {at}."
    if what == "restart":
        return f"Progress stalled in iteration {iteration}: the solve starts again from another pose, the effector {at}."
    if what == "handover":
        return f"Progress slows: damped least squares takes over from the best pose so far, the effector {at}."
    if what == "pole":
        return (f"The chain swivels about the line from its root to its effector toward the pole, the effector {at}.")
    if what == "finish":
        hand = "; the last joint takes the asked orientation" if oriented else ""
        return (f"The reach is done after {_iterations(iteration)}{hand}: damped least squares finishes from here, "
                f"the effector {at}.")
    if what == "fallback":
        return ("The reach ended farther from meeting the target than the start: damped least squares finishes "
                f"from the start pose, the effector {at}.")
    raise ValueError(f"no caption for a setup step {what!r}")


def reach(distance, full_reach, min_reach, free, error):
    """The nearest pose in one step, for a target out of reach or at its edge."""
    where = f"The target lies {num(distance)} from the root"
    if not free:
        return (f"{where}, beyond the chain's reach of {num(full_reach)}: every bone aims at it as far as its limits "
                f"allow, in one pass, and the effector stops {num(error)} from it.")
    if distance <= min_reach + 0.5 * (full_reach - min_reach) and min_reach > 0.0:
        return (f"{where}, nearer than the {num(min_reach)} the chain can fold to: the longest bone points at it "
                f"and the others fold back, in one step, the effector {num(error)} from it.")
    edge = "at the edge of" if distance <= full_reach else "beyond"
    return (f"{where}, {edge} the chain's reach of {num(full_reach)}: the chain stretches straight toward it in one "
            f"step, the effector {num(error)} from it.")


def rotate(joint, angle, constraint, hinge, clamped, capped, cap, error):
    """CCD turns one joint."""
    about = " about its hinge axis" if hinge else ""
    if clamped:
        why = f" (clamped to {limit(constraint)})"
    elif capped:
        why = f" (capped at {deg(cap)} a step)"
    else:
        why = ""
    return (f"Joint {joint} turns {deg(angle)}{about} so that the direction to the effector meets the direction "
            f"to the target{why}; the effector is now {num(error)} from the target.")


def backward(moved, length, turned, anchor, root_left):
    """FABRIK's backward pass places bone ``moved`` (its lower end, point ``moved``)."""
    if anchor is not None:
        head = f"Backward pass: the effector goes onto the target and point {moved} snaps onto the line toward where it was"
    else:
        head = f"Backward pass: point {moved} snaps onto the line from point {moved + 1} toward where it was"
    tail = f"; the root has left its base by {num(root_left)}" if moved == 0 else ""
    return f"{head}, {num(length)} from point {moved + 1}: bone {moved} turns {deg(turned)}{tail}."


def forward(moved, length, turned, anchor, error, last):
    """FABRIK's forward pass places bone ``moved - 1`` (its upper end, point ``moved``)."""
    if anchor is not None:
        head = (f"Forward pass: the root goes back to its base and point {moved} snaps onto the line toward where "
                "the backward pass left it")
    else:
        head = f"Forward pass: point {moved} snaps onto the line from point {moved - 1} toward where the backward pass left it"
    tail = f"; the effector is now {num(error)} from the target" if last else ""
    return f"{head}, {num(length)} from point {moved - 1}: bone {moved - 1} turns {deg(turned)}{tail}."


def jacobian(kind, deltas, damping, alpha, halvings, capped, secondary, error, slides=None):
    """A Jacobian step: ``kind`` is ``transpose``, ``pseudo_inverse`` or ``dls``; ``deltas`` each
    joint's turn (degrees, signed); ``slides``: with sliders, each one's slide (in the chain's units,
    signed; ``None`` for the other joints)."""
    if secondary:
        head = "A step in the null space of the task, for the secondary objectives"
    elif kind == "transpose":
        head = f"Jacobian transpose step (alpha = {num(alpha)})"
    elif kind == "pseudo_inverse":
        head = "Pseudo-inverse step" + (f" (damped, lambda = {num(damping)})" if damping else "")
    else:
        head = f"Damped least squares step (lambda = {num(damping)})"
    notes = []
    if capped:
        notes.append("capped")
    if halvings:
        notes.append("halved once" if halvings == 1 else f"halved {halvings} times")
    if notes:
        head += f", {' and '.join(notes)}"
    most = max(range(len(deltas)), key=lambda j: abs(deltas[j]))
    turns = f"joint {most} turns most, {deg(deltas[most])}"
    if 1 < len(deltas) <= 6 and slides is None:
        turns += f" (joints 0 to {len(deltas) - 1}: {', '.join(deg(d) for d in deltas)})"
    if slides is not None:
        turns += "".join(f", joint {j} slides {'+' if d >= 0 else '-'}{num(abs(d))}"
                         for j, d in enumerate(slides) if d is not None)
    return f"{head}: {turns}; the effector is now {num(error)} from the target."


def two_bone(sides, distance, elbow, root, knee, kept, error, end=None, height=0.0, searched=False):
    """The two-bone closed form: ``sides`` the bones and the root-target side (the target's
    ``distance`` clamped into the reachable shell), the triangle's angles, the knee's angle taken;
    ``end``: the joint the pose holds at an end of its range, where neither elbow side came as near;
    ``height``: how far the target lies off a planar leg's plane, whose triangle is laid on the
    target's foot on the plane (``distance`` is then the foot's); ``searched``: the pose is the
    nearest a cone hip and a hinge knee allow, found by a search over the knee's angle
    (:mod:`ikcore.solvers.two_bone.cone`), where neither side nor end came as near."""
    l1, l2, d = sides
    law = f"Law of cosines on sides {num(l1)}, {num(l2)} and {num(d)}"
    if height > 0.0:
        law += f" (root to the target's foot on the leg's plane, {num(height)} from the target)"
    unmet = f"{law}: neither elbow side meets the triangle within the limits. Nearer than either,"
    if searched:
        return (f"{unmet} joint 1 takes the angle at which joint 0's cone lets the tip come nearest the target "
                f"(joint 1 at {deg(knee)}, bone 0 within its cone); the effector is now {num(error)} from the "
                f"target.")
    if end is not None:
        other = "joint 0 turns the tip" if end == 1 else "joint 1 turns the lower bone"
        return (f"{unmet} joint {end} rests at an end of its range and {other} toward the target (joint 1 at "
                f"{deg(knee)}); the effector is now {num(error)} from the target.")
    if kept:
        return (f"{law}: neither elbow side ends nearer the target within the limits, so the chain keeps its "
                f"start pose (joint 1 at {deg(knee)}), the effector {num(error)} from the target.")
    what = "The target's foot on the leg's plane" if height > 0.0 else "The target"
    if distance > d:
        return (f"{what} lies {num(distance)} from the root, beyond the two bones' {num(l1 + l2)}: the chain "
                f"stretches straight at it, the effector {num(error)} from the target.")
    if distance < d:
        return (f"{what} lies {num(distance)} from the root, nearer than the {num(d)} the two bones fold to: "
                f"joint 1 folds the lower bone back, the effector {num(error)} from the target.")
    held = f" (its limits hold joint 1 at {deg(knee)})" if abs(knee - elbow) > 0.05 else ""
    line, aim = ("", "the foot") if height > 0.0 else (" (root to target)", "the target")
    return (f"{law}{line}: joint 1 makes the triangle's {deg(elbow)} at the knee{held} and joint 0 turns the "
            f"upper bone {deg(root)} off the line to {aim}; the effector is now {num(error)} from the target.")


def held(joints, error):
    """The joint limits take back part of a Jacobian step."""
    which = f"joint {joints[0]}" if len(joints) == 1 else "joints " + ", ".join(map(str, joints))
    return f"The limits hold {which} where the step pushed past them; the effector is now {num(error)} from the target."


def limited(error):
    return f"The joint limits settle the pose the solve returns, the effector {num(error)} from the target."


def result(solution, tolerance, distance, full_reach, best):
    """The last step: the status of the pose returned; ``best`` the iteration of an earlier pose
    returned as the best (else ``None``)."""
    k, e = solution.iterations, num(solution.error)
    status = solution.status
    if status == "converged":
        text = f"Converged after {_iterations(k)}: the effector is {e} from the target, within the tolerance {num(tolerance)}"
    elif status == "unreachable":
        text = (f"Unreachable: no pose of the chain reaches a target {num(distance)} from the root (reach "
                f"{num(full_reach)}); after {_iterations(k)} the effector is {e} from it")
    elif status == "stalled":
        text = f"Stalled after {_iterations(k)}: progress stopped with the effector {e} from the target"
    else:
        text = f"Out of iterations after {k}: the effector is {e} from the target (tolerance {num(tolerance)})"
    if solution.orientation_error is not None:
        text += f", the last bone {deg(math.degrees(solution.orientation_error))} from the asked orientation"
    if best is not None:
        text += f"; the solve returns its best pose, from iteration {best}"
    return text + "."
