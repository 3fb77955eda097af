// The embedding example's own script: it drives its second frame through the demo's messages, and loads the
// walkthrough's frames as they come near the window.

const frame = document.getElementById("tentacles-demo");
const origin = new URL(frame.src, location.href).origin;
const status = document.getElementById("tentacles-status");

function send(message) {
  frame.contentWindow.postMessage({ type: "ikcore", ...message }, origin);
}

function show(state) {
  status.textContent = `${state.scene}, ${state.method}`;
}

window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || event.origin !== origin) return;
  const data = event.data;
  if (!data || data.type !== "ikcore") return;
  if (data.event === "ready") {
    send({ command: "setScene", name: "tentacles" });
  } else if (data.event === "change" || (data.event === "result" && data.ok)) {
    show(data.state);
  } else if (data.event === "result") {
    status.textContent = data.error;
  } else if (data.event === "failed") {
    status.textContent = `the demo did not load: ${data.error.split("\n")[0]}`;
  }
});

for (const button of document.querySelectorAll("button[data-method]")) {
  button.addEventListener("click", () => send({ command: "setMethod", name: button.dataset.method }));
}

// The walkthrough's frames load when they come near the window, not with the page: each is a whole demo (a
// Python runtime), and a reader may never scroll to them. loading="lazy" alone lets Chromium load frames within
// a few thousand pixels of the window; here a frame gets its address once it is within half a screen of it.
// They load one at a time, each once the one before has said it is ready (or failed): frames of one origin
// share the page's thread, and runtimes starting together slow each other past their load timeouts on a busy
// machine.
const waiting = [];
let loading = null;

function loadNext() {
  if (loading !== null || !waiting.length) return;
  loading = waiting.shift();
  loading.src = loading.dataset.src;
  loading.removeAttribute("data-src");
}

window.addEventListener("message", (event) => {
  if (loading === null || event.source !== loading.contentWindow || event.origin !== location.origin) return;
  if (event.data?.type === "ikcore" && (event.data.event === "ready" || event.data.event === "failed")) {
    loading = null;
    loadNext();
  }
});

const lazy = document.querySelectorAll("iframe.lazy[data-src]");
if (typeof IntersectionObserver === "function") {
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      waiting.push(entry.target);
    }
    loadNext();
  }, { rootMargin: "50% 0px" });
  lazy.forEach((frame) => observer.observe(frame));
} else {
  waiting.push(...lazy);
  loadNext();
}
