"""The scenes' parameter specs: the one description of ``set_params`` that the page checks links and inputs with.

``set_params`` must accept exactly what the specs of ``layout()["param_specs"]`` describe; ``state()`` says which
targets stay put (what a link stores).
"""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ikcore import IKError
from ikcore.rigs import SCENES, make_scene
from ikcore.rigs.scene import check_param

SCENE = {name: make_scene(name) for name in SCENES}
SPECS = {name: scene.layout()["param_specs"] for name, scene in SCENE.items()}
NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**6, 10**6),
                    st.sampled_from([0.0, 0.5, 0.5000001, 1e-300, -0.0, 3.0, 60.0, 100.0, 6000, 10000,
                                     10 ** 400, -10 ** 400]))  # (integers beyond a float's range, as JSON gives them)
ANYTHING = st.one_of(NUMBERS, st.booleans(), st.text(max_size=12), st.none(), st.lists(st.integers(), max_size=2))


def allowed(spec, value):
    """Whether ``value`` fits ``spec``, written out independently of :func:`check_param`."""
    kind = spec["kind"]
    if kind == "choice":
        return isinstance(value, str) and value in spec["choices"]
    if kind == "subset":
        return (isinstance(value, (list, tuple)) and 0 < len(value) == len(set(value))
                and all(isinstance(v, str) and v in spec["choices"] for v in value))
    if kind == "bool":
        return isinstance(value, bool)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if kind == "int" and not (isinstance(value, int) or value.is_integer()):
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    if spec.get("open_min") and value == spec["min"]:
        return False
    return spec["min"] <= value <= spec["max"]


def test_every_parameter_has_a_json_spec():
    for name, specs in SPECS.items():
        scene = make_scene(name)
        assert set(specs) == set(scene.params), name
        assert json.loads(json.dumps(specs)) == specs
        assert specs["method"] == {"kind": "choice", "choices": list(scene.methods)}
        for key, spec in specs.items():
            assert spec["kind"] in ("choice", "subset", "bool", "int", "float"), (name, key)
            if spec["kind"] in ("int", "float"):
                assert math.isfinite(spec["min"]) and math.isfinite(spec["max"]) and spec["min"] < spec["max"]
            # Every default fits its own spec (damping's None means "the method's own default").
            if scene.params[key] is not None:
                assert allowed(spec, scene.params[key]), (name, key, scene.params[key])
    assert SPECS["spider"]["speed"] == {"kind": "float", "min": 0.0, "max": 3.0}
    assert SPECS["race"]["rate"] == {"kind": "int", "min": 1, "max": 6000}
    assert SPECS["arm"]["tolerance"]["open_min"] is True


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(list(SCENES)), data=st.data())
def test_set_params_accepts_exactly_what_the_specs_allow(name, data):
    specs = SPECS[name]
    key = data.draw(st.sampled_from(sorted(specs)))
    spec = specs[key]
    value = data.draw(values_for(spec))
    scene = SCENE[name]
    before = dict(scene.params)
    try:
        check(scene, spec, key, value, before)
    finally:
        scene.params = before
        if name in ("steps", "playground"):
            # Its trace (the playground: its lanes) follows its parameters: a new scene rather than
            # parameters put back under another parameter's trace.
            SCENE[name] = make_scene(name)


def values_for(spec):
    """Values to try for ``spec``: anything, and for a choice its choices, for a subset lists of its
    choices and of other names (empty, with repeats, in any order)."""
    if spec["kind"] == "choice":
        return st.one_of(st.sampled_from(spec["choices"]), ANYTHING)
    if spec["kind"] == "subset":
        names = st.sampled_from(spec["choices"])
        return st.one_of(st.lists(names, max_size=len(spec["choices"]) + 1),
                         st.lists(names, min_size=1, unique=True).map(tuple),
                         st.lists(st.one_of(names, st.text(max_size=8), st.integers()), max_size=3), ANYTHING)
    return ANYTHING


def expected(spec, value):
    """What a scene keeps of an allowed ``value``: a subset in the order of its choices."""
    if spec["kind"] == "subset":
        return tuple(c for c in spec["choices"] if c in value)
    return value


def check(scene, spec, key, value, before):
    if value is None:
        scene.set_params(**{key: value})  # None leaves a parameter as it is
        assert scene.params == before
        return
    if allowed(spec, value) and within_trace(scene, key, value):
        scene.set_params(**{key: value})
        assert scene.params[key] == expected(spec, value)
        assert check_param(spec, value, key) == expected(spec, value)
    else:
        with pytest.raises(IKError, match=key):
            scene.set_params(**{key: value})
        if not allowed(spec, value):
            # (A step past the trace is within the spec: only the scene, which knows its trace, refuses it.)
            with pytest.raises(IKError, match=key):
                check_param(spec, value, key)
        assert scene.params == before


def within_trace(scene, key, value):
    """The steps scene's ``step`` is also bounded by its trace (its spec's max is the largest any trace
    may have: a link may name a step of the trace its other parameters make)."""
    return key != "step" or scene.name != "steps" or value < len(scene.trace.steps)


def test_damping_has_an_upper_bound():
    scene = make_scene("arm")
    scene.set_params(damping=100.0)
    with pytest.raises(IKError, match=r"damping must be in \(0.0, 100.0\]"):
        scene.set_params(damping=100.5)


def test_held_targets():
    arm = make_scene("arm")
    held = {name: t["held"] for name, t in arm.state()["targets"].items()}
    assert held == {"target": False, "pole": False}
    arm.set_target("pole", (0.4, 0.3, 0.3))
    assert arm.state()["targets"]["pole"] == {"position": [0.4, 0.3, 0.3], "orientation": None,
                                               "pinned": True, "held": True}
    arm.set_params(animate=False)
    assert arm.state()["targets"]["target"]["held"] is True
    spider = make_scene("spider")
    assert spider.state()["targets"]["destination"]["held"] is False
    spider.set_params(wander=False)
    assert spider.state()["targets"]["destination"]["held"] is True
    spider.set_params(wander=True)
    spider.set_target("destination", (1.0, 0.0, 2.0))
    assert spider.state()["targets"]["destination"]["held"] is True


@pytest.mark.parametrize("name", sorted(SCENES))
def test_numbers_beyond_a_float_are_refused_by_name(name):
    # JSON hands a long run of digits over as an integer too large for a float: refused like any
    # other bad number (float() of it raises OverflowError, which must not escape).
    scene = make_scene(name)
    huge = 10 ** 400
    for key, spec in SPECS[name].items():
        if spec["kind"] in ("float", "int"):
            with pytest.raises(IKError, match=key):
                scene.set_params(**{key: huge})
    with pytest.raises(IKError, match="dt"):
        scene.step(huge)
    for target in list(scene.targets)[:1]:
        with pytest.raises(IKError, match="target|position"):
            scene.set_target(target, [huge, 0.0, 0.0])
