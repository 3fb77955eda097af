"""Markdown tables and the description of the machine a run was made on."""

import datetime
import os
import platform
import subprocess
import sys


def table(header, rows):
    """A markdown table; ``None`` cells print as an em dash."""
    def cell(v):
        return "—" if v is None else str(v)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def us(value):
    """Microseconds, 3 significant digits (at least whole numbers)."""
    if value is None:
        return None
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def ratio(value):
    if value is None:
        return None
    return f"{value:,.0f}x" if value >= 100 else f"{value:.2f}x"


def big_ratio(value):
    if value is None:
        return None
    return f"{value:,.0f}x" if value >= 100 else f"{value:.3g}x"


def percent(hits, count):
    return None if not count else f"{100.0 * hits / count:.0f}%"


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _memory_gib():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    return int(line.split()[1]) / 2 ** 20
    except OSError:
        pass
    return None


def _git_commit(root):
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--", "ikcore"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + (" (ikcore/ modified)" if dirty else "") if head else "unknown"


def machine(root, versions):
    """Lines describing when and where the run was made."""
    mem = _memory_gib()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        f"- Date: {now}",
        f"- Machine: {_cpu_model()}, {os.cpu_count()} cores"
        + (f", {mem:.0f} GiB memory" if mem else "") + f"; {platform.platform()}",
        f"- CPython {platform.python_version()} ({sys.implementation.name}); "
        + ", ".join(f"{k} {v}" for k, v in versions.items()),
        f"- ikcore commit: {_git_commit(root)}",
    ]
    if hasattr(os, "getloadavg"):
        out.append("- Load average at the end of the run (1, 5, 15 min): "
                   + ", ".join(f"{v:.1f}" for v in os.getloadavg())
                   + f" on {os.cpu_count()} cores (other work on the machine adds noise; interleaving spreads it over all implementations)")
    return "\n".join(out)
