// The embedding example's own script: it drives its second frame through the demo's messages.

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
