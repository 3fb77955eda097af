"""A scene's frame in the page against a baseline timed in the same page, moments apart.

The page's frames are timed by the page (``ikDemo.timeFrames``: its one call into
Python a frame, made back to back and timed as a whole); the baselines are either
an **empty frame** of the page (the same call on a scene with nothing in it,
``ikDemo.timeFrames(calls, true)``) or the scene's **own baseline**
(``ikDemo.baseline(calls)``: a crowd's bare two-bone maths for its legs, another
scene's forward pass of its chains, timed in the page's Python;
:mod:`ikcore.rigs.baselines`).

Rounds take the two in turn, so that a busy spell of the shared machine falls
on both alike, and each round times both sides alike: the least of 5 batches of
a few milliseconds, made back to back (the own baseline's in the page's Python,
the frames' in one call of the page's script). Other work on the machine only
ever adds time (on a busy one, to every batch that a switch to another process
falls in), and so does a cold start: the first batch after the page has drawn
finds the memory caches holding the drawing's data rather than the scene's,
which weighs most on the scene whose data is largest (a crowd of 100 spiders:
its first frame after a drawing takes about 1.3x the next). The ratio is the
least frame over the least baseline of the rounds: the nearest each comes to
its own work.

A scene against another scene (the humanoid against the spider) takes the two in
turn too: each scene's median frame over some hundreds of frames, timed a batch of
frames at a time (the page's clock, 0.1 ms, is too coarse for one frame), and the
ratio of the least medians of the rounds.
"""

import statistics

#: Empty frames timed as one batch (a few ms of them).
EMPTY_CALLS = 1000
#: Per scene (with its defaults; the crowd of 100): its frames a batch, and its own baseline's calls a
#: batch (a few ms each; each side the least of 5 batches).
BATCHES = {"arm": (20, 400), "tentacles": (5, 20), "spider": (20, 200), "race": (40, 50), "robot": (20, 400),
           "crowd": (2, 8), "humanoid": (10, 100)}


def scene_against(page, name, rounds=15, baseline="own"):
    """:func:`against` for the current scene ``name``, in its :data:`BATCHES`."""
    frames, calls = BATCHES[name]
    return against(page, frames, EMPTY_CALLS if baseline == "empty" else calls, rounds, baseline)


def against(page, frames, calls, rounds=15, baseline="own"):
    """The current scene's frame over ``baseline`` (``"own"`` or ``"empty"``) in ``rounds`` taken in
    turn, each the least of 5 batches of ``frames`` frames made back to back, then ``calls`` baseline
    calls as one batch (own: the least of 5 batches): ``{"what", "ratio", "rounds": [(frame ms,
    baseline ms)]}``, a frame's ms the mean over its batch."""
    page.evaluate(f"ikDemo.timeFrames({max(1, frames)})")  # warm: the first frames after a switch
    rows, what = [], "an empty frame of the page"
    batches = f"() => Math.min(...Array.from({{length: 5}}, () => ikDemo.timeFrames({frames})))"
    for _ in range(rounds):
        frame = page.evaluate(batches)
        if baseline == "empty":
            base = page.evaluate(f"ikDemo.timeFrames({calls}, true)")
        else:
            answer = page.evaluate(f"ikDemo.baseline({calls})")
            what, base = answer["what"], answer["ms"]
        rows.append((frame, base))
    return {"what": what, "ratio": min(f for f, _ in rows) / min(b for _, b in rows), "rounds": rows}


def median_frame(page, frames=600, batch=10):
    """The current scene's median ms a frame over ``frames`` frames: the median of the means of batches of
    ``batch`` frames, each batch timed as a whole."""
    times = page.evaluate(f"() => Array.from({{length: {frames // batch}}}, () => ikDemo.timeFrames({batch}))")
    return statistics.median(times)


def scene_against_scene(page, name, baseline, rounds=3, frames=600):
    """Scene ``name``'s frame over scene ``baseline``'s (each with its defaults), in ``rounds`` taken in turn,
    each scene opened afresh and its :func:`median_frame` over ``frames`` frames taken after a second of
    frames: ``{"ratio", "rounds": [(name ms, baseline ms)]}``."""
    rows = []
    for _ in range(rounds):
        row = []
        for scene in (name, baseline):
            page.evaluate("n => ikDemo.setScene(n)", scene)
            page.evaluate("ikDemo.timeFrames(60)")  # warm, and past the first second's settling
            row.append(median_frame(page, frames))
        rows.append(tuple(row))
    return {"ratio": min(a for a, _ in rows) / min(b for _, b in rows), "rounds": rows}
