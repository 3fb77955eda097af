// The documentation's embedded demos: loaded as the reader comes to them, and driven by the walkthrough.
//
// Each demo is a whole Python runtime: a frame gets its address only once it is within half a screen of
// the window, and frames load one at a time, each after the one before has said it is ready (or failed),
// since frames of one origin share the page's thread. A frame scrolled out of view pauses by itself (the
// demo's own IntersectionObserver), so only the demos in view do any work.
//
// A walkthrough (.walk-step blocks with a step-N class, after a demo with id "walkthrough-demo") shows
// step N of the demo's solve when its block reaches the middle of the window or is clicked, by sending
// {type: "ikcore", command: "stepTo", index: N}; the block of the step the demo shows is highlighted,
// whichever way the reader got there (the demo's own buttons post a "step" event).

const frames = [...document.querySelectorAll("iframe.ikdemo-frame")];
const waiting = [];
const wanted = new Map();
let loading = null;

function loadNext() {
  if (loading !== null || !waiting.length) return;
  loading = waiting.shift();
  loading.dataset.state = "loading";
  loading.src = loading.dataset.src;
}

function send(frame, message) {
  frame.contentWindow.postMessage({ type: "ikcore", ...message }, location.origin);
}

/** Show step `index` in `frame` now if it is ready, else once it is. */
function stepTo(frame, index) {
  wanted.set(frame, index);
  if (frame.dataset.state === "ready") send(frame, { command: "stepTo", index, id: `step-${index}` });
}

function frameOf(source) {
  return frames.find((frame) => frame.contentWindow === source) || null;
}

window.addEventListener("message", (event) => {
  if (event.origin !== location.origin) return;
  const frame = frameOf(event.source);
  const data = event.data;
  if (frame === null || !data || data.type !== "ikcore") return;
  if (data.event === "ready" || data.event === "failed") {
    frame.dataset.state = data.event;
    if (data.event === "ready" && wanted.has(frame)) stepTo(frame, wanted.get(frame));
    if (loading === frame) {
      loading = null;
      loadNext();
    }
  } else if (data.event === "step") {
    frame.dataset.step = String(data.step.index);
    highlight(frame, data.step.index);
  }
});

if (typeof IntersectionObserver === "function") {
  const near = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      near.unobserve(entry.target);
      waiting.push(entry.target);
    }
    loadNext();
  }, { rootMargin: "50% 0px" });
  frames.forEach((frame) => near.observe(frame));
} else {
  waiting.push(...frames);
  loadNext();
}

// The walkthrough.
const walkFrame = document.querySelector("#walkthrough-demo iframe");
const blocks = [...document.querySelectorAll(".walk-step")].map((block) => {
  const match = [...block.classList].map((name) => /^step-(\d+)$/.exec(name)).find(Boolean);
  return match ? { block, index: Number(match[1]) } : null;
}).filter(Boolean);

function highlight(frame, index) {
  if (frame !== walkFrame) return;
  for (const { block, index: i } of blocks) block.classList.toggle("walk-current", i === index);
}

if (walkFrame && blocks.length) {
  for (const { block, index } of blocks) {
    block.tabIndex = 0;
    block.setAttribute("role", "button");
    block.setAttribute("aria-controls", "walkthrough-demo");
    block.addEventListener("click", () => stepTo(walkFrame, index));
    block.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        stepTo(walkFrame, index);
      }
    });
  }
  if (typeof IntersectionObserver === "function") {
    // A band across the middle of the window: the block crossing it is the one being read.
    const reading = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const found = blocks.find(({ block }) => block === entry.target);
        if (found) stepTo(walkFrame, found.index);
      }
    }, { rootMargin: "-45% 0px -45% 0px" });
    blocks.forEach(({ block }) => reading.observe(block));
  }
}
