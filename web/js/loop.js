// The frame loop and the Python bridge: the page's one call into Python per animation frame.
//
// Python (web/main.py) attaches {step, command, buffer, info} through boot.js. Per animation frame the loop
// calls step(dt) once, reads the frame where Python wrote it (a Float64Array view of the scene's array('d')
// in Pyodide's memory: nothing is copied across the bridge) and hands it to `draw(buf, dt, now, render)`,
// the page's drawing (app.js). Everything else goes to Python through command(name, args), JSON text each
// way. A Python error stops the loop, with the failure panel, until restart().
//
// The loop does no work while nobody can see it: in a hidden tab (browsers stop animation frames there) and
// while the canvas is scrolled out of view (an IntersectionObserver: an embedded demo far down a page costs
// its reader nothing until it is scrolled to). The first frame back steps by 0 s, not by the time away.
//
// Nor while nothing moves: a still scene (the view says so: the steps scene paused on a step) rests once
// WAKE_FRAMES frames and WAKE_MS have passed since anything could have changed it (a command to Python, a
// pointer, a key, a resize: wake()). Several documentation embeds paused side by side then cost nothing.

import { Timing } from "./hud.js";

/** After a wake(), a still scene keeps drawing for this many frames and milliseconds at least (the camera's
 * damping, a panel's change, a test's frame count). */
const WAKE_FRAMES = 10;
const WAKE_MS = 1000;
/** Commands that only read the scene (the address bar follows the page by one every second): they wake nothing. */
const READS = new Set(["state", "query", "layout", "pose", "health", "terrain", "baseline"]);

/** The last line of a Python traceback (the exception and its message), or the JS error's message. */
export function shortMessage(error) {
  const text = String(error?.message ?? error).trim();
  const lines = text.split("\n");
  return lines[lines.length - 1];
}

export class Loop {
  /**
   * @param {object} boot window.ikBoot (loading stages and the failure panel)
   * @param {(buf: Float64Array, dt: number, now: number, render: boolean) => void} draw one frame's drawing
   */
  constructor(boot, draw) {
    this.boot = boot;
    this.draw = draw;
    this.py = null;            // {step, command, buffer, info} from Python
    this.frame = 0;            // Python's frame count
    this.stopped = false;      // by an error, until restart()
    this.errorMessage = null;
    this.timing = new Timing();
    this.lastNow = null;
    this.lastDt = 0;
    this.scheduled = false;    // a requestAnimationFrame is pending
    this.offscreen = false;    // the canvas is scrolled out of view
    this.view = null;          // the frame: a Float64Array view of Python's array('d')
    this.pybuf = null;         // the PyBuffer under it, released when a new one is taken
    this.onFirstFrame = null;
    this.onWritten = null;     // (answer) => void: Python wrote the frame in answer to a command
    this.onStop = null;
    this.still = () => false;  // whether the scene shown stands still (set by the page: its view says)
    this.awakeFrames = WAKE_FRAMES;
    this.awakeUntil = 0;
    this.resting = false;      // a still scene, no frame drawn until wake()
    this.tick = this.tick.bind(this);
    document.addEventListener("visibilitychange", () => this.resume());
  }

  /** Python's bridge is here: the loop may run. */
  attach(py) {
    this.py = py;
  }

  /** Watch `element` (the canvas's container): the loop pauses while none of it is on screen. */
  watchVisibility(element) {
    if (typeof IntersectionObserver !== "function") return;
    new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1];
      this.offscreen = !entry.isIntersecting;
      this.resume();
    }).observe(element);
  }

  /** Whether the loop waits for the page to be seen (a hidden tab, the canvas out of view). */
  get paused() {
    return document.hidden || this.offscreen;
  }

  /** Throws unless Python is attached and the loop has not stopped on an error. */
  running() {
    if (!this.py) throw new Error("the demo is not ready yet (await ikDemo.ready)");
    if (this.stopped) throw new Error(`the demo has stopped: ${this.errorMessage}`);
  }

  /** One named change for Python; returns its JSON answer, parsed. Throws with Python's message. */
  command(name, args) {
    this.running();
    if (!READS.has(name)) this.wake();
    let result;
    try {
      result = JSON.parse(this.py.command(name, JSON.stringify(args)));
    } catch (error) {
      // A refused value (ikcore.IKError, a ValueError) is said in its own words, without the exception's
      // module path: the reader sees "step must be in [0, 2] ...", not "ikcore.errors.IKError: step ...".
      throw new Error(shortMessage(error).replace(/^(?:[\w.]+\.)?(?:IKError|ValueError|TypeError): /, ""));
    }
    // A change Python wrote into the frame at once (its answer says so): the page takes it as it takes a
    // frame's (the chains into the world), so what reads the frame next sees the change.
    if (result?.written && this.onWritten) this.onWritten(result);
    return result;
  }

  /** The current scene's frame (a Float64Array), taken again if the memory under it grew. */
  get buf() {
    const view = this.view;
    // A scene's buffer is never empty: an empty view means Pyodide's memory grew under it.
    return view === null || view.length > 0 ? view : this.takeFrame();
  }

  /** Take a view of the current scene's buffer (after a scene switch, or once the old view is empty). */
  takeFrame() {
    const proxy = this.py.buffer();
    let pybuf;
    try {
      pybuf = proxy.getBuffer("f64");
    } finally {
      proxy.destroy();
    }
    if (this.pybuf) this.pybuf.release();
    this.pybuf = pybuf;
    this.view = pybuf.data;
    return this.view;
  }

  /** Ask for the next animation frame, unless one is pending or the loop must wait. */
  schedule() {
    if (this.scheduled || this.stopped || this.paused || !this.py) return;
    this.scheduled = true;
    requestAnimationFrame(this.tick);
  }

  /** Something may have changed what a still scene shows: draw again for a while (see the header). */
  wake() {
    this.awakeFrames = WAKE_FRAMES;
    this.awakeUntil = performance.now() + WAKE_MS;
    if (this.resting) {
      this.resting = false;
      this.resume();
    }
  }

  /** Back from a pause: the next frame steps by 0 s. */
  resume() {
    this.lastNow = null;
    this.schedule();
  }

  tick(now) {
    this.scheduled = false;
    if (this.stopped || this.paused) return;
    if (this.still() && this.awakeFrames <= 0 && now > this.awakeUntil) {
      this.resting = true;
      return;
    }
    this.awakeFrames--;
    this.schedule();
    try {
      const dt = this.lastNow === null ? 0 : Math.min((now - this.lastNow) / 1000, 0.1);
      this.lastNow = now;
      this.step(dt, now, true);
    } catch (error) {
      this.stop(error);
    }
  }

  /** One frame: Python steps by `dt` seconds, then the page draws (three.js renders if `render`). */
  step(dt, now, render) {
    const { timing } = this;
    this.lastDt = dt;
    const t0 = performance.now();
    this.frame = this.py.step(dt);
    timing.addPython(performance.now() - t0);
    timing.addFrame(now);
    // Read after the step: it may have grown the runtime's memory.
    this.draw(this.buf, dt, now, render);
    if (timing.frames === 1 && this.onFirstFrame) this.onFirstFrame();
  }

  /**
   * The page's call a frame made `calls` times back to back and timed as a whole (the browser's clock, 0.1 ms,
   * is too coarse for one call): ms per call. The scene's own frames, not drawn (the next animation frame draws
   * the last), or with `empty` empty frames: the same call on a scene with nothing in it (web/main.py).
   */
  timeCalls(calls, empty) {
    this.running();
    const t0 = performance.now();
    try {
      for (let i = 0; i < calls; i++) this.frame = this.py.step(1 / 60, empty);
    } catch (error) {
      this.stop(error);
      throw new Error(shortMessage(error));
    }
    return (performance.now() - t0) / calls;
  }

  /** `frames` frames now, synchronously, on a clock of their own (ikDemo.advance checks the arguments). */
  advance(frames, dt, renderEvery) {
    const times = new Float64Array(frames);
    let nonfinite = 0;
    let now = performance.now();
    for (let i = 0; i < frames; i++) {
      try {
        this.step(dt, now, renderEvery > 0 && (i + 1) % renderEvery === 0);
      } catch (error) {
        this.stop(error);
        throw new Error(shortMessage(error));
      }
      times[i] = this.timing.last;
      const buf = this.buf;
      for (let k = 0; k < buf.length; k++) {
        if (!Number.isFinite(buf[k])) {
          nonfinite++;
          break;
        }
      }
      now += dt * 1000;
    }
    // The animation loop carries on from here without a jump.
    this.lastNow = null;
    times.sort();
    return { frames, frame: this.frame, python_ms: { median: times[frames >> 1], max: times[frames - 1] }, nonfinite };
  }

  /**
   * Stop and say why: a Python exception (with its traceback) or a page error. The failure panel offers to
   * restart the scene (a new one from Python; the runtime itself is unharmed by an exception).
   */
  stop(error) {
    this.stopped = true;
    this.errorMessage = shortMessage(error);
    const python = error?.constructor?.name === "PythonError";
    this.boot.fail("frame", python ? String(error.message) : String(error?.stack ?? error),
      python ? "The animation stopped: Python raised an error" : "The animation stopped: the page raised an error");
    if (this.onStop) this.onStop();
  }

  /** After a stop: running again (the caller has made a new scene). */
  restarted() {
    this.stopped = false;
    this.errorMessage = null;
    this.boot.recover();
    this.resume();
  }
}
