"""The same solves, run by CPython (imported by the test) and by Pyodide (executed by run_wheel.mjs).

Only the standard library and ikcore's public API: this file is the whole program Pyodide runs.
``results()`` gives, per method of ``ikcore.METHODS`` and per case, the solution's status,
iterations, error and positions, or the message of the IKError the method raised for that case.
"""

import json

import ikcore

ARM = [(0.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 2.0, 0.0), (0.0, 2.5, 0.0), (0.0, 2.8, 0.0)]
LIMBS = [(0.0, 1.0, 0.0), (0.55, 1.0, 0.0), (1.0, 1.0, 0.0), (1.15, 1.0, 0.0)]
TWO = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.8, 0.0, 0.0)]


def cases():
    """(name, chain, target, start) for each solve; ``start`` warm-starts from a previous solve."""
    limited = ikcore.Chain(LIMBS, [ikcore.BallSocket(100.0, -90.0, 90.0), ikcore.Hinge((0.0, 0.0, 1.0), 0.0, 150.0),
                                   ikcore.BallSocket(70.0, -80.0, 80.0)])
    return [
        ("arm reachable", ikcore.Chain(ARM), (1.2, 1.6, 0.7)),
        ("arm unreachable", ikcore.Chain(ARM), (5.0, 1.0, -0.5)),
        ("limited", limited, (0.6, 1.6, 0.35)),
        ("two bones", ikcore.Chain(TWO), (0.9, 0.8, 0.2)),
    ]


def results():
    out = {"version": ikcore.__version__, "file": ikcore.__file__, "methods": {}}
    for method in ikcore.METHODS:
        rows = []
        for name, chain, target in cases():
            try:
                sol = ikcore.solve(chain, target, method=method)
            except ikcore.IKError as exc:
                rows.append({"case": name, "refused": str(exc)})
                continue
            rows.append({"case": name, "status": sol.status, "iterations": sol.iterations, "error": sol.error,
                         "positions": [list(p) for p in sol.positions]})
        out["methods"][method] = rows
    out["traces"] = traces()
    out["urdf"] = urdf()
    return out


def urdf():
    """The shipped Panda read from the wheel's data (URDF through xml.etree), solved for a 4x4 pose
    by dls; the SCARA-like arm, whose quill slides, likewise; and the message a bad URDF is refused
    with."""
    from ikcore.rigs import urdf_arm

    panda = urdf_arm("panda", "panda_hand_tcp")
    target = panda.tip_pose(panda.rotations_of([0.1, -0.5, 0.2, -2.0, 0.3, 1.8, 0.4]))
    solution = ikcore.solve(panda, target, method="dls", tolerance=1e-5)
    try:
        ikcore.Chain.from_urdf('<robot name="r">\n<link name="a">\n</robot>', "a", "b")
        refused = None
    except ikcore.IKError as exc:
        refused = str(exc)
    scara = urdf_arm("scara_like")
    slid = ikcore.solve(scara, scara.tip_pose(scara.pose_at([0.4, -1.1, 0.12, 0.3])), method="dls", tolerance=1e-6)
    return {"points": [list(p) for p in panda.points], "status": solution.status,
            "scara": [slid.status, *slid.joint_values],
            "joint_values": list(solution.joint_values), "pose": [list(row) for row in solution.pose],
            "refused": refused}


def traces():
    """Per method, the trace of the first case: its steps (phase, iteration, joint, caption, positions)
    and whether its solution equals ``solve``'s."""
    name, chain, target = cases()[0]
    out = {}
    for method in ikcore.METHODS:
        if method == "two_bone":
            chain = ikcore.Chain(TWO)
            target = (0.9, 0.8, 0.2)
        traced = ikcore.trace(chain, target, method=method)
        out[method] = {"same_as_solve": traced.solution == ikcore.solve(chain, target, method=method),
                       "steps": [{"phase": s.phase, "iteration": s.iteration, "joint": s.joint, "caption": s.caption,
                                  "positions": [list(p) for p in s.positions]} for s in traced.steps]}
    return out


def results_json():
    return json.dumps(results())
