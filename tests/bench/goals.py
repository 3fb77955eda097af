"""Every speed goal of the benchmark and the speed tests: a ratio to a baseline timed in the same run.

A machine's speed changes by the hour (a shared one), and from one reader's to
the next: a time in milliseconds says as much about the machine as about the
code, and no goal is stated in one. Each goal here divides the time of what is
measured by the time of a baseline that runs in the same runtime, measured in the
same run, taking turns with it.
"""

#: FABRIK (``ikcore.solve``, rotations included) over the plain-lists floor (tests/bench/reference.py),
#: the median over fresh processes (tests/bench/processes.py), per N.
FABRIK_FLOOR = {10: 2.8, 30: 1.7, 100: 1.5}

#: The robot (tests/bench/robot.py): each method's median cold solve of the Panda-like arm over one
#: forward pass of the arm (``kinematics.frames``), in CPython.
ROBOT_FORWARD = {"dls": 90.0, "pseudo_inverse": 95.0, "fabrik_dls": 160.0}

#: The robot scene's frame in the page (holding the hand, the elbow clear of the obstacle) over one
#: forward pass of its arm in the page's Python.
ROBOT_FRAME_FORWARD = 30.0

#: The crowd of 100 spiders: its frame (walk, gait, bodies, aim, solve, write) over the bare two-bone
#: maths for its 800 legs (``ikcore.rigs.baselines.bare_legs``), in the same runtime.
CROWD_BARE_LEGS = 3.5

#: The humanoid's frame in the page (its six chains, its feet's steps and its skin) over the spider's, each
#: the median over 600 frames in headless Chromium, the two scenes timed in turn in the same page.
HUMANOID_SPIDER = 2.0

#: Each scene's frame in the page over an empty frame of the page (the page's call a frame on a scene
#: with nothing in it), with the scene's defaults.
SCENE_EMPTY_FRAME = {"arm": 150.0, "tentacles": 500.0, "spider": 150.0, "race": 60.0, "robot": 100.0}

#: The largest crowds the benchmark looks for: the most tentacles, and the most spiders, whose frame
#: stays within this many empty frames of the page (where an empty frame took some 2.7 us, about the
#: 4 ms of Python a frame the crowds were first sized for).
CROWD_EMPTY_FRAMES = 1500.0
