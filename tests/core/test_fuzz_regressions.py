"""Bugs the fuzzing found (``test_fuzz.py``), each pinned by the smallest case that showed it."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ikcore
from ikcore import BallSocket, Chain
from ikcore import rotation as rot
from ikcore.solvers import reach

from .invariants import check_invariants


# A half-turn swing has no twist (w and v . d both vanish): a ball joint whose twist range
# excludes zero could not hold it, and clamp() returned another half-turn swing, as far out.
@pytest.mark.parametrize("cone", [180.0, 179.9999999])
@pytest.mark.parametrize("twist", [(180.0, 240.0), (-90.0, -30.0), (10.0, 10.0)])
def test_ball_clamp_of_a_half_turn_swing_keeps_a_limited_twist(cone, twist):
    d = rot.normalize((0.0, 2.0, -0.5, 1.0))[1:]
    joint = BallSocket(cone, *twist)
    for axis in (rot.perpendicular(d), (d[1], -d[0], 0.0)):
        q = rot.from_axis_angle(axis, math.pi)
        clamped = joint.clamp(q, d)
        assert joint.violation(clamped, d) <= 1e-9
        assert joint.violation(joint.clamp(clamped, d), d) <= 1e-9


@settings(max_examples=200, deadline=None)
@given(st.floats(0.0, 1e-6), st.floats(-360.0, 360.0), st.floats(0.0, 359.0), st.floats(-math.pi, math.pi))
def test_ball_clamp_near_a_half_turn_swing_holds_the_limits(off, lo, width, spin):
    d = (0.0, 0.6, 0.8)
    joint = BallSocket(180.0, lo, lo + width)
    axis = rot.rotate(rot.from_axis_angle(d, spin), (1.0, 0.0, 0.0))
    q = rot.multiply(rot.from_axis_angle(axis, math.pi - off), rot.from_axis_angle(d, spin))
    assert joint.violation(joint.clamp(q, d), d) <= 1e-9


@pytest.mark.parametrize("method", ["ccd", "fabrik"])
def test_folding_onto_the_root_keeps_a_ball_joints_twist_range(method):
    # Target at the root: the second bone folds back, a half-turn swing of its ball joint.
    chain = Chain([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0)], [None, BallSocket(180.0, 180.0, 240.0)])
    target = (0.0, 0.0, 0.0)
    sol = ikcore.solve(chain, target, method)
    check_invariants(chain, target, sol)
    assert sol.converged


# Within a hair of full reach (or of the nearest fold) CCD sweeps crawl: a straight chain
# turned 60 degrees off its target, a billionth inside full reach, took 200 sweeps to 10x the
# tolerance. The stretched (or folded) pose meets such targets in one step.
@pytest.mark.parametrize("method", ["ccd"])
@pytest.mark.parametrize("fraction", [1.0 - 1e-12, 1.0 - 1e-9, 1.0 - 5e-4, 1.0])
def test_targets_at_the_edge_of_reach_are_met_in_one_step(method, fraction):
    chain = Chain([(float(i), 0.0, 0.0) for i in range(5)])
    target = (2.0 * fraction, 2.0 * math.sqrt(3.0) * fraction, 0.0)  # 4 x fraction away, 60 degrees off
    sol = ikcore.solve(chain, target, method)
    check_invariants(chain, target, sol)
    assert sol.converged and sol.iterations == 1


@pytest.mark.parametrize("method", ["ccd"])
@pytest.mark.parametrize("extra", [0.0, 1e-12, 5e-4])
def test_targets_at_the_nearest_fold_are_met_in_one_step(method, extra):
    chain = Chain([(0.0, 0.0, 0.0), (3.0, 0.0, 0.0), (3.0, 0.6, 0.0), (3.0, 0.6, 0.9)])
    distance = chain.min_reach + extra * chain.reach  # 1.5: only the fold reaches it
    target = (0.0, distance * 0.6, distance * 0.8)
    sol = ikcore.solve(chain, target, method)
    check_invariants(chain, target, sol)
    assert sol.converged and sol.iterations == 1


# Out of reach, the Jacobian methods crawled toward the stretched pose along its singular
# direction: 5 reaches away, a chain with a bone reversed at rest ended 200 DLS steps 0.15%
# short of full stretch (10 reaches: 1%). A free chain's best pose there is known, and taken.
@pytest.mark.parametrize("method", ["dls", "pseudo_inverse", "jacobian_transpose"])
@pytest.mark.parametrize("factor", [1.05, 5.0, 10.0, 1e9])
def test_jacobian_methods_stretch_at_far_targets(method, factor):
    chain = Chain([(0.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.0, 0.0, 2.0), (0.0, 0.0, 1.875), (0.0, 0.0, 2.875),
                   (0.0, 1.0, 2.875)])
    target = (0.0, 0.0, chain.reach * factor)
    sol = ikcore.solve(chain, target, method)
    check_invariants(chain, target, sol)
    assert sol.status == "unreachable"
    assert math.isclose(math.dist(sol.positions[-1], chain.points[0]), chain.reach, rel_tol=1e-12)
    assert math.isclose(sol.error, target[2] - chain.reach, rel_tol=1e-12)
    again = ikcore.solve(chain, target, method, start=sol.rotations)
    assert again.positions == sol.positions  # no jitter


@pytest.mark.parametrize("method", ["dls", "pseudo_inverse", "jacobian_transpose"])
def test_jacobian_methods_fold_at_targets_nearer_than_the_fold(method):
    chain = Chain([(0.0, 0.0, 0.0), (3.0, 0.0, 0.0), (3.0, 0.6, 0.0), (3.0, 0.6, 0.9)])
    target = (0.0, 0.5, 0.0)  # min_reach is 1.5
    sol = ikcore.solve(chain, target, method)
    check_invariants(chain, target, sol)
    assert sol.status == "unreachable"
    assert math.isclose(sol.error, chain.min_reach - 0.5, rel_tol=1e-9)


# A finite target or pole far enough away raised OverflowError (a float's ** 2) or
# ZeroDivisionError: now IKError, naming it, beyond 1e150 from the root; nearer, a solve.
@pytest.mark.parametrize("method", ikcore.METHODS)
@pytest.mark.parametrize("far", [1e155, 1e200, 1.7e308])
def test_targets_and_poles_too_far_away_raise_ikerror(method, far):
    n = 2 if method == "two_bone" else 3
    chain = Chain([(float(i), 0.0, 0.0) for i in range(n + 1)])
    with pytest.raises(ikcore.IKError, match="target"):
        ikcore.solve(chain, (far, 0.0, -far), method)
    with pytest.raises(ikcore.IKError, match="pole"):
        ikcore.solve(chain, (1.0, 1.0, 0.0), method, pole=(0.0, far, far))


@pytest.mark.parametrize("method", ikcore.METHODS)
@pytest.mark.parametrize("limits", [False, True])
def test_targets_and_poles_far_but_within_range_solve(method, limits):
    n = 2 if method == "two_bone" else 3
    joints = [ikcore.Hinge((0.0, 0.0, 1.0), -90.0, 90.0), BallSocket(45.0, -10.0, 10.0), None][:n] if limits else None
    chain = Chain([(float(i), 0.0, 0.0) for i in range(n + 1)], joints)
    for far in (1e100, 1e149):
        target = (far / 2.0, far / 2.0, -far / 2.0)
        sol = ikcore.solve(chain, target, method, pole=(0.0, far / 2.0, far / 2.0))
        check_invariants(chain, target, sol)
        assert sol.status == "unreachable"


# A pole a hair off the line through a joint's neighbours: its offset from the line is a small
# difference of large vectors and kept a trace along the line, which the swivel scaled up; the
# knee left its circle, the bones changed length and a start within tolerance came back 150x
# out of it ("max_iterations" after 0 iterations).
@pytest.mark.parametrize("method", ["ccd", "fabrik", "fabrik_dls"])
def test_a_pole_next_to_the_line_keeps_a_converged_start(method):
    chain = Chain([(0.0, -0.0, -0.0), (-45.57803885416815, -515.6924198295288, -169.55235849269232),
                   (315.8174234911253, -128.4612753987489, -42.23624661001847)])
    target = (315.81742312972983, -128.46127578598004, -42.23624673733458)  # 5e-7 from the tip
    sol = ikcore.solve(chain, target, method, tolerance=1.8e-6, max_iterations=1, pole=target)
    check_invariants(chain, target, sol, tolerance=1.8e-6, max_iterations=1)
    assert sol.converged and sol.error < 1e-6


# A start already within tolerance, turned toward a pole, came back as 0 iterations with a
# history of one entry, which solve() overwrote with the turned pose's error: the history no
# longer started at the start's error. The turn now counts as an iteration.
@pytest.mark.parametrize("method", ["ccd", "fabrik"])
def test_a_pole_turn_of_a_converged_start_keeps_the_start_in_the_history(method):
    chain = Chain([(0.0, 0.0, 0.0), (1.0, 1.0, 0.0), (2.0, 0.0, 0.0)])
    start = [rot.IDENTITY, rot.IDENTITY]
    target = (2.0, 0.0005, 0.0)  # within the default tolerance (2.8e-3) of the tip
    sol = ikcore.solve(chain, target, method, start=start, pole=(1.0, -5.0, 0.0))
    check_invariants(chain, target, sol, start)
    assert sol.converged and sol.positions[1][1] < 0.0  # the knee turned toward the pole
    assert sol.iterations == 1 and math.isclose(sol.errors[0], math.dist(chain.points[-1], target), rel_tol=1e-12)


# With rest_weight, a start that already met the target and whose rest cost could not fall
# returned 1 iteration and a history of 1 entry (the history is the start's error, then one
# entry per iteration).
@pytest.mark.parametrize("method", ["pseudo_inverse", "dls", "fabrik_dls"])
def test_rest_motion_that_cannot_improve_keeps_the_history_whole(method):
    chain = Chain([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)])
    target = (1.0, 0.0, 0.0)  # met at rest, where the rest cost is already 0
    sol = ikcore.solve(chain, target, method, rest_weight=1.0, pole=(0.0, 1.0, 0.0))
    check_invariants(chain, target, sol)
    assert sol.converged


# FABRIK's cone passes (tentacles) clamp a direction onto the cone's rim along o = b - (b.a) a;
# with b nearly opposite the axis a, o is a small difference that kept a trace along a, scaled
# up by 1 / |o|: the bone came out 3e-5 long on a 1087-unit chain, and the returned pose (built
# from the bone directions) missed the pose the passes found, by more than its error improved.
@pytest.mark.parametrize("method", ["forward", "backward"])
def test_cone_passes_keep_bone_lengths_when_a_bone_folds_back(method):
    from ikcore.solvers.fabrik.points import cones_of

    a = (0.2672612419124244, 0.5345224838248488, 0.8017837257372732)  # a slanted rest line
    chain = Chain([(0.0, 0.0, 0.0), tuple(500.0 * c for c in a), tuple(1000.0 * c for c in a)],
                  [BallSocket(45.0), BallSocket(150.0)])
    passes = cones_of(chain)
    across = rot.perpendicular(a)
    for tiny in (1e-7, 1e-9, 1e-11):
        # The second bone wanted straight back down its parent, off by `tiny`.
        p1 = tuple(500.0 * c for c in a)
        p2 = tuple(500.0 * tiny * c for c in across)
        points = [(0.0, 0.0, 0.0), p1, p2]
        if method == "forward":
            passes.forward(points)
        else:
            passes.backward(points, p2)
        for i, length in enumerate(chain.lengths):
            d = math.dist(points[i], points[i + 1])
            assert math.isclose(d, length, rel_tol=1e-12), (tiny, i, d - length)


def test_cone_chain_re_solved_from_its_result_is_no_worse():
    chain = Chain([(0.0, -0.0, -0.0), (-45.57803885416815, -515.6924198295288, -169.55235849269232),
                   (-91.1560777083363, -1031.3848396590577, -339.10471698538464)],
                  [BallSocket(45.0), BallSocket(154.8439384927416)])
    target = (-7.302678760165782e-08, -4.810274901945163e-07, 2.450381067009958e-07)
    start = [(0.20119815890153503, -0.5006584538305061, 0.5195037145040245, -0.6625528688936457),
             (0.14439920581579122, -0.011930554584549962, -0.6497248437892201, 0.746233313776695)]
    kw = dict(max_iterations=2, pole=(99200421.39690593, 809904796.3404117, 721990044.4763203), max_restarts=0)
    first = ikcore.solve(chain, target, "fabrik", start=start, **kw)
    again = ikcore.solve(chain, target, "fabrik", start=first.rotations, **kw)
    check_invariants(chain, target, again, first.rotations, max_iterations=2)
    assert again.error <= again.errors[0] + 1e-9 * chain.reach


# FABRIK's cone passes, target out of reach, with a pole: the best pose was kept by reference,
# so turning toward the pole (and rejecting the turn) still changed it; the solve returned a
# pose 4% of the reach worse than its start.
def test_cone_chain_out_of_reach_with_a_pole_returns_its_best_pose():
    chain = Chain([(-6.874499771146768, -7.638463916369562, -1.7922610864118467),
                   (-6.851825971446457, -7.651311044769535, -1.7912829064980273),
                   (-6.829152171746147, -7.6641581731695085, -1.790304726584208),
                   (-6.806478372045836, -7.677005301569482, -1.7893265466703887),
                   (-6.783804572345526, -7.689852429969455, -1.7883483667565694)],
                  [BallSocket(0.0), BallSocket(4.615142712038804), None, BallSocket(179.999)])
    target = (-6.840278997045121, -7.543176986509102, -1.8173817434167054)
    start = [(0.8628118381449009, 0.4034349443953377, -0.10109435546455763, -0.28736024236305496),
             (0.925481015841624, 0.3325458513670688, -0.1382403820310464, 0.11742121968033495),
             (0.24798587939480185, -0.1679047364570039, 0.8802597099744232, 0.3680405495211572),
             (0.44710937950070195, -0.8355240210229365, 0.31903536493476664, 0.014465440784887798)]
    pole = (-6.740039947892599, -7.637416055855851, -1.7357367676689879)
    sol = ikcore.solve(chain, target, "fabrik", start=start, max_iterations=1, pole=pole)
    check_invariants(chain, target, sol, start, max_iterations=1)
    assert sol.status == "unreachable" and sol.error <= sol.errors[0]


# Hinges about one axis are solved as a free chain in their plane. Here the target sits on an old
# point to rounding: the backward pass's direction there was the rounding's, out of the plane, the
# final clamp onto the hinge axes then folded the pose, and the solve ended worse than it started.
def test_planar_chain_stays_in_its_plane_where_a_point_lands_on_another():
    axis = (0.5479515584374527, 0.0, 0.8365100654540667)
    hinges = [ikcore.Hinge(axis=axis), ikcore.Hinge(axis=axis, min_deg=-214.4623956986627, max_deg=145.5376043013373),
              ikcore.Hinge(axis=axis), ikcore.Hinge(axis=axis)]
    chain = Chain([(-0.0, -0.0, -0.0), (0.014612325790257596, -0.009426163537151191, -0.009571727848631719),
                   (0.03965520268068053, -0.025580898683232926, -0.025975933830798728),
                   (0.06598724134155368, -0.04256725022279864, -0.04322459851151437),
                   (0.07323649070650004, -0.04724361803832688, -0.04797318152452079)], hinges)
    start = [(0.9988137493436662, 0.04127483046511115, 0.017563771977112327, -0.01894720048082125),
             (0.427450119626742, -0.33961671257052517, 0.5561409684688766, -0.6266211829840843),
             (0.30765905239799385, 0.6016428861842521, -0.5734855002429882, 0.46312646868053364),
             (0.1891297294615585, -0.19592106573208792, -0.9045447068773126, 0.3280910768314757)]
    target = (0.020541537956205322, -0.03585795480157484, -0.013455627374543349)
    pole = (-0.03488114093256766, 0.060889616817105634, 0.022848709565379856)
    sol = ikcore.solve(chain, target, "fabrik", start=start, tolerance=1.1259866963711908e-08, max_iterations=1,
                       pole=pole, max_restarts=1)
    assert sol.error <= sol.errors[0] * (1.0 + 1e-9)
    check_invariants(chain, target, sol, start=start, tolerance=1.1259866963711908e-08, max_iterations=1)


# Far from the origin (coordinates ~1e5) with millimetre bones, a bone's direction is known to only
# ~1e-8 rad: the cone passes' rim test vouched for a pose whose straight joint (a 0 degree cone)
# was bent 5e-9 rad. Such a chain's final pose now clamps its rotations itself.
def test_cone_limits_hold_on_short_bones_far_from_the_origin():
    ball = BallSocket
    chain = Chain([(28020.844409836103, 9429.473646001727, -83138.27705989624),
                   (28012.09460556942, 9413.844802664917, -83109.94042167507),
                   (28012.09434455966, 9413.844336450988, -83109.93957638313),
                   (27793.242820265503, 9022.933170559145, -82401.17898253906),
                   (27793.21625769184, 9022.885724663243, -82401.09295843873),
                   (27790.533308719692, 9018.093458700676, -82392.40410642874),
                   (27790.532975027425, 9018.092862661724, -82392.40302575119)],
                  [ball(45.0), ball(0.0), ball(38.960812113652025), ball(179.999), None,
                   ball(157.38790393685778)])
    start = [(0.43736605085277336, 0.7871026010175564, 0.27682387069323444, -0.33548320024594674),
             (0.8818280958853373, -0.21261823495961227, 0.22918066343821084, 0.35305653793113784),
             (0.43622652084016966, -0.4986217572998589, 0.5824743732736752, -0.4709632365082447),
             (0.9770346416464044, 0.19362009318300585, 0.023353743315693794, 0.08584387696178944),
             (0.12732907100105176, 0.4754053250387935, 0.21279955256376734, -0.8440932620459831),
             (0.9539393232176796, -0.028892906602202718, 0.2767624437596854, -0.11210493874597484)]
    target = (8630674350.452147, -8640254820.726877, 13303898462.890736)
    sol = ikcore.solve(chain, target, "fabrik", start=start, max_iterations=1, max_restarts=1)
    check_invariants(chain, target, sol, start, max_iterations=1)
    assert max(chain.violations(sol.rotations)) <= 1e-12


# An orientation target with a pole and a tolerance as large as the reach: the pole's swivel was
# kept wherever its score stayed within the tolerance, and here it took an unmet solve's
# orientation error from 0.0015 to 0.077 rad, ending twice as far (by the weighted score) as it
# started. A swivel of a pose that misses the target is kept only where it comes no farther.
def test_the_pole_never_takes_an_unmet_orientation_solve_farther_than_it_was():
    hinge = ikcore.Hinge
    chain = Chain([(84638882.8145161, -685471429.4956771, -159854872.04353783),
                   (84715377.6018775, -684880011.6840945, -160100039.7452156),
                   (84164715.12502626, -684546285.7817293, -160066401.3597727),
                   (84466750.47412354, -683976635.9914559, -160069130.21186578)],
                  [hinge((0.1186381144542818, 0.9172480431815744, -0.3802381162878851), -185.20059255723822,
                         -153.22674171184406),
                   hinge((-0.8540393431738987, 0.5175857488708002, 0.05217080483374026), -30.555648255545634,
                         104.224666865112),
                   hinge((0.8834952631884191, -0.4684400921394604, 0.0), -180.0, 180.0)])
    start = [(0.2315208848958336, -0.11541470901607404, -0.8923263530133082, 0.3699070214496528),
             (0.9698991700117542, 0.2079644548069148, -0.12603569020569963, -0.012703949848218583),
             (0.49124928003822443, 0.7695411842306102, -0.40802023311948166, 0.0)]
    orientation = (-0.261821360869899, 0.3324922119700709, -0.033052816404662566, 0.9054313973455987)
    pole = (97124524925.15439, -756721374467.9608, 1777646690988.0603)
    target, tolerance = chain.points[0], chain.reach
    weight = min(max(tolerance / 1e-3, 0.1 * chain.reach), 10.0 * chain.reach)

    def score(error, angle):
        return math.hypot(error, weight * angle)

    first = rot.angle_between(chain.world_rotations(chain.clamp(start))[-1], orientation)
    for method in ("dls", "pseudo_inverse"):
        sol = ikcore.solve(chain, target, method, start=start, orientation=orientation, pole=pole, tolerance=tolerance)
        assert not sol.converged
        assert score(sol.error, sol.orientation_error) <= score(sol.errors[0], first) * (1.0 + 1e-9)
        check_invariants(chain, target, sol, start=start, orientation=orientation, tolerance=tolerance)


def test_an_arc_to_a_target_at_full_reach_keeps_its_bend_real():
    # The reach is the bones' exact sum (fsum); the arc's bend took the plain sum, which rounding can
    # leave an ulp short of a target at full reach: its first guess was the root of a negative number.
    chain = Chain([(0.0, 0.0, 0.0), (1.0033660960705124, 0.0, 0.0), (3.1194802204455936, 0.0, 0.0),
                   (3.3735066956104975, 0.0, 0.0)])
    assert sum(chain.lengths) < chain.reach
    target = (chain.reach, 0.0, 0.0)
    points = reach.arc_to(chain, target, chain.plan.rest.points)
    assert math.dist(points[-1], target) <= 1e-12 * chain.reach
