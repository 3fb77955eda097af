"""The benchmark page's plots, drawn at build time from the figures of ``docs/benchmarks.md``.

``docs/benchmarks.md`` is what ``python -m tests.bench.run --out docs/benchmarks.md`` writes: its
tables are the benchmark run's own output. When Sphinx reads that page, this extension parses the
tables it plots, draws them with matplotlib into SVG files under ``dist/docs-build/plots/`` and
puts the figures at the top of the page, each captioned with the run's date and machine. A table
that is missing or reshaped fails the build, naming it.
"""

import re
from pathlib import Path

from sphinx.errors import ExtensionError

ROOT = Path(__file__).resolve().parents[2]
PLOTS = ROOT / "dist" / "docs-build" / "plots"
METHODS = ["ccd", "fabrik", "jacobian_transpose", "pseudo_inverse", "dls", "fabrik_dls"]


def number(text):
    """A figure of a table cell: ``1,293x`` -> 1293.0, ``2.5 / 12`` -> 2.5."""
    match = re.search(r"-?[\d,]*\.?\d+", text)
    if not match:
        raise ValueError(f"no number in {text!r}")
    return float(match.group().replace(",", ""))


def table(markdown, heading):
    """The first table under the section whose heading starts with ``heading``: a list of row dicts."""
    sections = re.split(r"^##+ ", markdown, flags=re.M)
    section = next((s for s in sections if s.startswith(heading)), None)
    if section is None:
        raise ExtensionError(f"docs/benchmarks.md has no section '{heading}...' to plot")
    lines = [line for line in section.splitlines() if line.startswith("|")]
    if len(lines) < 3:
        raise ExtensionError(f"docs/benchmarks.md: section '{heading}...' has no table")
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    head = cells[0]
    return [dict(zip(head, row)) for row in cells[2:]]


def header(markdown, key):
    match = re.search(rf"^- {key}: (.+)$", markdown, re.M)
    if not match:
        raise ExtensionError(f"docs/benchmarks.md has no '- {key}:' line")
    return match.group(1).strip()


def column(rows, name):
    if rows and name not in rows[0]:
        raise ExtensionError(f"docs/benchmarks.md: no column {name!r} (columns: {list(rows[0])})")
    return name


def _figure():
    import matplotlib
    matplotlib.use("svg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"svg.hashsalt": "ikcore", "font.size": 9, "axes.spines.top": False,
                         "axes.spines.right": False, "figure.dpi": 100})
    return plt


def _save(plt, fig, name):
    PLOTS.mkdir(parents=True, exist_ok=True)
    path = PLOTS / f"{name}.svg"
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return path


def method_bars(plt, rows, col):
    """A figure of bars, a group per method and a bar per chain length, of column ``col``."""
    sizes = [3, 10, 30, 100]
    fig, ax = plt.subplots(figsize=(7.0, 3.2))
    width = 0.8 / len(sizes)
    for k, n in enumerate(sizes):
        values = [number(next(r[col] for r in rows if r["method"] == m and r["N"] == str(n))) for m in METHODS]
        ax.bar([i + (k - 1.5) * width for i in range(len(METHODS))], values, width, label=f"N = {n}")
    ax.set_xticks(range(len(METHODS)), METHODS, rotation=15)
    return fig, ax


def iterations_plot(plt, rows, markdown):
    fig, ax = method_bars(plt, rows, column(rows, "iterations median / max"))
    ax.set_ylabel("iterations (median)")
    ax.set_title("Iterations to converge, cold from the straight pose", pad=22)
    ax.legend(frameon=False, ncols=4, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    return fig


def time_plot(plt, rows, markdown):
    us = column(rows, "median µs / solve")
    fig, ax = plt.subplots(figsize=(7.0, 3.6))
    names = ["floor (plain lists, reference)"] + METHODS + ["ikpy"]
    for name in names:
        points = sorted((int(r["N"]), number(r[us])) for r in rows if r["method"] == name and r["N"] != "2")
        if not points:
            raise ExtensionError(f"docs/benchmarks.md: no cold-solve rows for {name}")
        style = {"linestyle": "--", "color": "black"} if name.startswith("floor") else \
            {"linestyle": ":", "color": "grey"} if name == "ikpy" else {}
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=3,
                label="floor (plain-lists FABRIK)" if name.startswith("floor") else name, **style)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks([3, 10, 30, 100], ["3", "10", "30", "100"])
    ax.set_xlabel("bones in the chain (N)")
    ax.set_ylabel("µs per solve (median)")
    ax.set_title("Time of a cold solve against chain length (CPython)")
    ax.legend(frameon=False, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def pyodide_plot(plt, rows, markdown):
    fig, ax = method_bars(plt, rows, column(rows, "Pyodide vs CPython"))
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_ylabel("Pyodide time / CPython time")
    ax.set_title("The same solves in Pyodide (Node) against CPython", pad=22)
    ax.legend(frameon=False, ncols=4, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    return fig


TICKS = [25, 50, 100, 200, 400]


def goal(markdown, pattern, what):
    """A goal the benchmark run states, as a number: the plot draws what the run holds itself to."""
    match = re.search(pattern, markdown)
    if not match:
        raise ExtensionError(f"docs/benchmarks.md does not state {what}")
    return number(match.group(1))


def crowd_plot(plt, rows, markdown):
    empty, bare = column(rows, "x empty frame"), column(rows, "x bare legs")
    spiders = [int(number(r["spiders"])) for r in rows]
    frames = goal(markdown, r"within ([\d,]+) empty frames", "the crowd's budget in empty frames")
    ratio = goal(markdown, r"crowd of 100, frame / bare legs, Chromium: [\d.]+x, goal at most ([\d.]+)x",
                 "the crowd's goal against its bare legs")
    fig, (left, right) = plt.subplots(1, 2, figsize=(7.0, 3.2))
    left.plot(spiders, [number(r[empty]) for r in rows], marker="o", markersize=3)
    left.axhline(frames, color="black", linewidth=0.8, linestyle=":", label=f"{frames:,.0f} empty frames")
    left.set_xscale("log")
    left.set_xticks(TICKS, [str(t) for t in TICKS])
    left.set_yscale("log")
    left.xaxis.set_minor_locator(plt.NullLocator())
    left.set_xlabel("spiders (8 legs each)")
    left.set_ylabel("a frame, in empty frames of the page")
    left.legend(frameon=False, fontsize=7)
    right.plot(spiders, [number(r[bare]) for r in rows], marker="o", markersize=3)
    right.axhline(ratio, color="black", linewidth=0.8, linestyle=":", label=f"goal: {ratio:g}x")
    right.set_xscale("log")
    right.set_xticks(TICKS, [str(t) for t in TICKS])
    right.xaxis.set_minor_locator(plt.NullLocator())
    right.set_ylim(0, None)
    right.set_xlabel("spiders (8 legs each)")
    right.set_ylabel("a frame / the bare maths of its legs")
    right.legend(frameon=False, fontsize=7, loc="lower right")
    fig.suptitle("The spider crowd's cost against its size (headless Chromium)", fontsize=9)
    return fig


PLOTS_OF = [
    ("iterations", "Cold solves", iterations_plot, "Iterations per method"),
    ("time-vs-length", "Cold solves", time_plot, "Time against chain length"),
    ("pyodide-vs-cpython", "Pyodide in Node against CPython", pyodide_plot, "CPython against Pyodide"),
    ("crowd", "Headless Chromium: the spider crowd", crowd_plot, "The crowd's cost against its size"),
]


def draw(markdown):
    """Draw every plot; returns [(path, title)]."""
    plt = _figure()
    drawn = []
    for name, section, plot, title in PLOTS_OF:
        try:
            fig = plot(plt, table(markdown, section), markdown)
        except (StopIteration, ValueError, KeyError) as error:
            raise ExtensionError(f"docs/benchmarks.md, section '{section}': cannot plot {title}: {error!r}")
        drawn.append((_save(plt, fig, name), title))
    return drawn


def add_plots(app, docname, source):
    if docname != "benchmarks":
        return
    text = source[0]
    when, machine = header(text, "Date"), header(text, "Machine")
    figures = []
    for path, title in draw(text):
        relative = Path(*([".."] * len(Path(app.srcdir).relative_to(ROOT).parts))) / path.relative_to(ROOT)
        figures.append(f"```{{figure}} /{relative.as_posix()}\n:alt: {title}\n:width: 100%\n\n"
                       f"{title}: measured {when} on {machine}.\n```\n")
    anew = re.search(r"^- (Sections .+)$", text, re.M)
    note = f" Where sections were measured again later, the header says so: {anew.group(1)}." if anew else ""
    plots = ("## Plots\n\nDrawn when this site was built, from the tables below (the benchmark run's own "
             "output); the run's date and machine are under each." + note + "\n\n" + "\n".join(figures) + "\n")
    # After the introduction: before the first section of the measured tables.
    first = re.search(r"^## ", text, re.M)
    source[0] = text[:first.start()] + plots + text[first.start():] if first else text + plots


def setup(app):
    app.connect("source-read", add_plots)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
