"""Every public name has an example in its docstring, and every example runs and prints what it shows.

The public names are those of ``ikcore.__all__`` and ``ikcore.rigs.__all__``. A class, function or
module (``kinematics``, ``rotation``) carries its own ``Examples`` section; a constant (a tuple or
dict, which holds no docstring of its own) is shown in its package's docstring instead. Each
docstring's ``>>>`` lines are run as doctests, their output compared with the docstring's.
"""

import doctest
import inspect

import pytest

import ikcore
import ikcore.rigs

PACKAGES = (ikcore, ikcore.rigs)
PUBLIC = [(package, name) for package in PACKAGES for name in package.__all__]
DOCUMENTED = [(package, name) for package, name in PUBLIC
              if inspect.isclass(getattr(package, name)) or inspect.isroutine(getattr(package, name))
              or inspect.ismodule(getattr(package, name))]
CONSTANTS = [(package, name) for package, name in PUBLIC if (package, name) not in DOCUMENTED]


def doctests(obj, name, globs=None):
    """The doctests of ``obj``'s own docstring (not those of its methods or members)."""
    finder = doctest.DocTestFinder(recurse=False, exclude_empty=False)
    return finder.find(obj, name, globs=globs)


def run(obj, name, globs=None):
    """Run ``obj``'s docstring examples; returns ``(examples checked, failures, report)``."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    checked = 0
    for test in doctests(obj, name, globs):
        runner.run(test, out=out.append)
        checked += sum(1 for example in test.examples if example.want or example.exc_msg)
    return checked, runner.failures, "".join(out)


@pytest.mark.parametrize("package, name", DOCUMENTED, ids=[f"{p.__name__}.{n}" for p, n in DOCUMENTED])
def test_each_public_name_has_an_example_that_runs(package, name):
    checked, failures, report = run(getattr(package, name), f"{package.__name__}.{name}")
    assert not failures, report
    assert checked, f"{package.__name__}.{name}: no example (a '>>>' line with its output) in its docstring"


@pytest.mark.parametrize("package", PACKAGES, ids=[p.__name__ for p in PACKAGES])
def test_each_package_docstring_shows_its_constants(package):
    checked, failures, report = run(package, package.__name__)
    assert not failures, report
    examples = [example.source for test in doctests(package, package.__name__) for example in test.examples]
    for pkg, name in CONSTANTS:
        if pkg is package:
            assert any(name in source for source in examples), f"{package.__name__}.{name}: no example"


def test_a_wrong_output_fails():
    """The check itself: an example whose shown output differs from what runs is a failure."""

    def doubled(x):
        """Twice ``x``.

        Examples
        --------
        >>> doubled(2)
        5
        """
        return 2 * x

    checked, failures, report = run(doubled, "doubled", {"doubled": doubled})
    assert (checked, failures) == (1, 1) and "Expected:\n    5\nGot:\n    4" in report
    doubled.__doc__ = doubled.__doc__.replace("5", "4")
    assert run(doubled, "doubled", {"doubled": doubled})[:2] == (1, 0)


def test_every_public_name_is_covered():
    assert {n for _, n in DOCUMENTED} | {n for _, n in CONSTANTS} == set(ikcore.__all__) | set(ikcore.rigs.__all__)
    assert {n for _, n in CONSTANTS} == {"METHODS", "STATUSES", "SCENES", "CHAIN_SCENES", "STATUS_CODES", "URDF_ARMS"}
