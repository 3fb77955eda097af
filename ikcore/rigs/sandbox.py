"""The reader's code: compiled, run under a time budget, its mistakes told with their line.

The playground runs Python that the reader typed, in the page's own runtime. This
module makes that safe for the page, not for the machine (the code has the page's
rights, as anything typed into its console would):

- :func:`load` compiles the source under the file name :data:`FILENAME` and runs
  it, so that a syntax error, an exception at the top level, or a missing
  ``step`` function is a :class:`ReaderError` with its kind, message and line.
- :class:`Budget` runs the reader's functions with a wall-clock allowance. While
  they run, every turn of a loop in the reader's own code (a jump back, seen
  through :mod:`sys.monitoring` from Python 3.12; before, every line, through
  :func:`sys.settrace`) counts, the clock is read every :data:`CHECK_EVERY`
  of them, and once the allowance is spent :class:`OutOfTime` is raised in the
  reader's frame: an endless ``while`` loop ends there. Only code compiled
  under :data:`FILENAME` is watched: ikcore and the standard library run at
  full speed.

What the budget cannot stop: a single call into C that never returns
(``sum(range(10**15))``) runs no Python to read the clock in. Before Python 3.12
(not in the page, which runs 3.14), neither can it stop a loop that catches every
exception with a bare ``except:`` and goes on: Python switches off a trace
function that raised.
"""

import sys
import time
import traceback

#: The file name the reader's code is compiled under: its frames are the ones traced.
FILENAME = "<your solver>"
#: Trace events between two readings of the clock (a reading is a call out of Python in the page).
CHECK_EVERY = 64
#: The :mod:`sys.monitoring` tool id the budget takes (3 and 4 are free of the ids Python names).
TOOL_ID = 4
#: Whether the reader's frames are traced instruction by instruction, not line by line. From Python
#: 3.12 every jump back makes a line event, so that a loop on one line (``while True: pass``) is
#: seen; before, it makes none, and only tracing every instruction (about three times the cost of
#: tracing lines) sees it.
OPCODES = sys.version_info < (3, 12)


def _monitoring_tool():
    """The :mod:`sys.monitoring` tool id to watch the reader's loops with (taken at the first call),
    or ``None`` where there is none (before Python 3.12, or the id is another tool's)."""
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is None:
        return None
    owner = monitoring.get_tool(TOOL_ID)
    if owner is None:
        monitoring.use_tool_id(TOOL_ID, "ikcore budget")
        owner = "ikcore budget"
    return TOOL_ID if owner == "ikcore budget" else None


class OutOfTime(BaseException):
    """Raised in the reader's code when its budget is spent (a BaseException, so that the reader's
    ``except Exception`` does not catch it)."""


class ReaderError(Exception):
    """A mistake in the reader's code.

    Attributes
    ----------
    kind : str
        ``"syntax"``, ``"exception"`` (raised by the reader's code), ``"missing"`` (no ``step``
        function) or ``"timeout"``.
    message : str
        One line, as Python words it (``ZeroDivisionError: division by zero``).
    line : int or None
        The line of the reader's source it happened on (from 1), where known.
    """

    def __init__(self, kind, message, line=None):
        super().__init__(message if line is None else f"line {line}: {message}")
        self.kind = kind
        self.message = message
        self.line = line

    def as_dict(self):
        return {"kind": self.kind, "message": self.message, "line": self.line}


def error_of(exc):
    """The :class:`ReaderError` for ``exc``, raised while the reader's code ran: its message and
    the last line of the reader's source in its traceback."""
    if isinstance(exc, SyntaxError) and exc.filename == FILENAME:
        return ReaderError("syntax", f"{type(exc).__name__}: {exc.msg}", exc.lineno)
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == FILENAME:
            line = frame.lineno
    message = "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1]
    return ReaderError("exception", message, line)


class Budget:
    """A wall-clock allowance of ``seconds`` shared by every :meth:`call` made with it."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.deadline = time.perf_counter() + seconds
        self.line = None  # the reader's line running when the budget ran out
        self.count = 0

    def spent(self):
        return time.perf_counter() > self.deadline

    def call(self, function, *args):
        """``function(*args)``, watched: raises :class:`OutOfTime` in the reader's frames once the
        budget is spent (and here, if it was spent before the call)."""
        if self.spent():
            raise OutOfTime()
        watch = self._jumps if _monitoring_tool() is not None else self._lines
        return watch(function, args)

    def _checked(self, frame):
        # One event of the reader's code: the clock read every CHECK_EVERY events.
        self.count += 1
        if self.count % CHECK_EVERY == 0 and time.perf_counter() > self.deadline:
            self.line = frame.f_lineno
            raise OutOfTime()

    def _jumps(self, function, args):
        """Python 3.12 and later: every jump back in the reader's code (a loop's next turn) through
        :mod:`sys.monitoring`; ikcore's and the library's jumps switch themselves off at the first."""
        monitoring, tool = sys.monitoring, _monitoring_tool()
        self.count = 0

        def jumped(code, offset, destination):
            if code.co_filename != FILENAME or destination > offset:
                return monitoring.DISABLE
            self._checked(sys._getframe(1))
            return None

        monitoring.register_callback(tool, monitoring.events.JUMP, jumped)
        monitoring.set_events(tool, monitoring.events.JUMP)
        try:
            return function(*args)
        finally:
            monitoring.set_events(tool, 0)
            monitoring.register_callback(tool, monitoring.events.JUMP, None)

    def _lines(self, function, args):
        """Before Python 3.12: every line (or instruction, see :data:`OPCODES`) of the reader's
        frames through :func:`sys.settrace`."""
        self.count = 0

        def local(frame, event, arg):
            self._checked(frame)
            return local

        def outer(frame, event, arg):
            # Only the reader's frames are traced: ikcore and the standard library run at full speed.
            if frame.f_code.co_filename != FILENAME:
                return None
            frame.f_trace_opcodes = OPCODES
            return local(frame, event, arg)

        previous = sys.gettrace()
        sys.settrace(outer)
        try:
            return function(*args)
        finally:
            sys.settrace(previous)

    def timeout(self, what):
        """The :class:`ReaderError` for a run stopped by this budget, ``what`` saying what was stopped."""
        return ReaderError("timeout", f"{what} was stopped after {self.seconds:g} s: an endless loop? "
                           "(Each run has that long.)", self.line)


def load(source, budget, name="step", output=None):
    """The reader's function ``name`` from ``source``, compiled and run within ``budget``.

    ``output``, a list, collects what the code prints (its ``print`` writes there). Raises
    :class:`ReaderError` for a syntax error, an exception while the source runs, a source that
    runs out of time, or no callable ``name`` in it.
    """
    if not isinstance(source, str):
        raise ReaderError("syntax", f"the code must be text, got {type(source).__name__}")
    try:
        code = compile(source, FILENAME, "exec")
    except SyntaxError as exc:
        raise error_of(exc) from None
    except ValueError as exc:  # a NUL character
        raise ReaderError("syntax", f"ValueError: {exc}") from None
    namespace = {"__name__": "__solver__"}
    if output is not None:
        namespace["print"] = printer(output)
    try:
        budget.call(exec, code, namespace)
    except OutOfTime:
        raise budget.timeout("Running your code") from None
    except Exception as exc:
        raise error_of(exc) from None
    function = namespace.get(name)
    if not callable(function):
        raise ReaderError("missing", f"define a function {name}(points, target, lengths): "
                          f"the race calls it once per iteration")
    return function


#: Most characters of printed output kept per run.
OUTPUT_LIMIT = 20000


def printer(output):
    """A ``print`` that appends its line to ``output`` (up to :data:`OUTPUT_LIMIT` characters)."""

    def print_(*values, sep=" ", end="\n", **_):
        text = sep.join(str(v) for v in values) + end
        used = sum(len(t) for t in output)
        if used < OUTPUT_LIMIT:
            output.append(text[:OUTPUT_LIMIT - used])
    return print_
