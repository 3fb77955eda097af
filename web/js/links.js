// The page's link: what of the page a link keeps, the address bar following it, applying a link's hash
// (when the page opens, when the hash changes, ikDemo.applyLink) and the panel's "copy link". The hash
// format and its checks are permalink.js's; this is the glue to the running demo.

import { describeIgnored, formatHash, parseHash, resolveLink } from "./permalink.js";

const HASH_EVERY_MS = 500;

/** A refusal's message without the exception's name ("ikcore.errors.IKError: ", "ValueError: "). */
function plain(error) {
  return String(error.message).replace(/^[\w.]+(Error|Exception): /, "");
}

export class Links {
  /** `demo`: the page's shared context (see app.js). */
  constructor(demo) {
    this.demo = demo;
    this.keptKeys = {};   // a link's embed, origin and quality keys, passed on to the links the page writes
    this.lastHash = null;
    this.writtenAt = 0;
  }

  /** What a link stores of the page now (see permalink.js for the format). */
  state() {
    const { layout, stage } = this.demo;
    const now = this.demo.command("state", {});
    const params = {};
    for (const key of Object.keys(layout.param_specs)) {
      if (now.params[key] !== null && now.params[key] !== undefined) params[key] = now.params[key];
    }
    // An arm from a reader's file is not put in the link (the file stays on this page): the link opens the
    // scene's default arm, without the file's arm's targets.
    const fromFile = params.arm === "file";
    if (fromFile) delete params.arm;
    // Targets that stay where they are (pinned, or their script stopped); moving ones follow their script.
    const targets = {};
    for (const target of fromFile ? [] : layout.targets) {
      const held = now.targets[target.name];
      if (!target.draggable || !held?.held) continue;
      targets[target.name] = target.oriented && held.orientation ? [...held.position, ...held.orientation] : held.position;
    }
    return {
      scene: layout.scene, params, overlays: this.demo.limitsShown, targets,
      camera: [...stage.camera.position.toArray(), ...stage.controls.target.toArray()], ...this.keptKeys,
      // The playground's code, when the reader changed it (code-link.js).
      ...(this.demo.view?.linkKeys?.() ?? {}),
    };
  }

  /** This page's address with its state in the hash. */
  url() {
    return `${location.href.split("#")[0]}#${formatHash(this.state())}`;
  }

  /** Called every frame: the address bar follows the page, at most every HASH_EVERY_MS. */
  follow(now) {
    if (now - this.writtenAt < HASH_EVERY_MS) return;
    this.writtenAt = now;
    this.writeHash();
  }

  /** The address bar shows the page's link (replaceState: no history entries); false if it could not. */
  writeHash() {
    const hash = formatHash(this.state());
    if (hash === this.lastHash) return true;
    this.lastHash = hash;
    try {
      history.replaceState(history.state, "", `#${hash}`);
      return true;
    } catch (error) {
      this.demo.note(`The address bar could not be updated: ${error.message}`);
      return false;
    }
  }

  /**
   * Apply a link's hash: a scene named in it starts fresh, then its parameters, overlays, targets and
   * camera apply; what is malformed, unknown or out of range is left out and named in a notice.
   * Returns {ignored} (plain-text descriptions).
   */
  apply(hash) {
    const demo = this.demo;
    const { state: link, ignored } = parseHash(hash, { scenes: demo.scenes });
    for (const key of ["embed", "origin", "quality"]) {
      if (link[key] !== undefined) this.keptKeys[key] = link[key];
    }
    if (link.quality !== undefined && demo.stage.resolve(link.quality) !== demo.stage.quality) {
      // The renderer is made once, when the page opens (antialiasing cannot change later).
      ignored.push("quality (takes effect when the page is opened with it: reload)");
    }
    if (link.scene) demo.showScene(demo.command("set_scene", { name: link.scene }));
    const { params: all, targets, ignored: unfit } = resolveLink(link, demo.layout);
    ignored.push(...unfit);
    // The step shown (the steps scene) is a step of the trace that the other parameters and the targets make:
    // it applies last.
    const { step, ...params } = all;
    if (Object.keys(params).length) {
      try {
        demo.applied(demo.command("set", params));
      } catch {
        // Python refused them together: each on its own, in the link's order, so that only what is refused is
        // left out.
        for (const [key, value] of Object.entries(params)) {
          try {
            demo.applied(demo.command("set", { [key]: value }));
          } catch (error) {
            ignored.push(`${key} (${plain(error)})`);
          }
        }
      }
    }
    if (link.overlays !== undefined) demo.api.showLimits(link.overlays);
    for (const { name, position, orientation } of targets) {
      try {
        demo.api.setTarget(name, position, orientation);
      } catch (error) {
        ignored.push(`t.${name} (${plain(error)})`);
      }
    }
    // A step past the end of this trace (a link made for a longer solve: another method, other settings)
    // opens on its last step, and the notice says so in words.
    let told = "";
    if (step !== undefined) {
      try {
        demo.applied(demo.command("set", { step }));
      } catch (error) {
        const count = demo.state().steps?.count;
        if (Number.isInteger(count) && step >= count) {
          demo.applied(demo.command("set", { step: count - 1 }));
          told = `This link asks for step ${step}, but this solve (${demo.layout.params.method}) has only ` +
            `steps 0 to ${count - 1}: it shows the last one, step ${count - 1}.`;
        } else {
          ignored.push(`step (${plain(error)})`);
        }
      }
    }
    if (link.code !== undefined) {
      // Shown in the playground's editor, not run (the view says so).
      if (demo.view?.applyLinkCode) demo.view.applyLinkCode(link.code);
      else ignored.push("code (only the playground scene takes code)");
    }
    if (link.camera) demo.camera.setView({ position: link.camera.slice(0, 3), target: link.camera.slice(3) });
    this.lastHash = null;
    const notice = [told, describeIgnored(ignored)].filter(Boolean).join(" ");
    if (notice) demo.note(notice, 12000);
    return { ignored };
  }

  /** A new hash (typed, or set by an embedding page) applies as a link, once the demo runs. */
  listen() {
    window.addEventListener("hashchange", (event) => {
      if (!this.demo.loop.py || this.demo.loop.stopped || !this.demo.layout) return;
      try {
        // The URL of the change itself: the page may have rewritten the address bar since (writeHash).
        this.apply(new URL(event.newURL).hash);
      } catch (error) {
        this.demo.note(`The link could not be applied: ${error.message}`);
      }
    });
  }

  /**
   * Open this view again with the renderer's `quality` (made once, when the page opens): the address
   * takes the link with that quality, and the page reloads from it.
   */
  reopen(quality) {
    this.keptKeys.quality = quality;
    if (this.writeHash()) location.reload();
  }

  /** The "copy link" button: to the clipboard where the browser allows it, else shown selected in a field. */
  async copy() {
    const url = this.demo.api.link();
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(url);
      this.demo.note(this.demo.layout.params.arm === "file"
        ? "Link copied to the clipboard. It opens the default arm: the arm shown came from a file, which links " +
          "do not carry."
        : "Link copied to the clipboard.", this.demo.layout.params.arm === "file" ? 8000 : 3000);
    } catch {
      const field = document.getElementById("share-link");
      field.value = url;
      document.getElementById("share").hidden = false;
      field.focus();
      field.select();
    }
  }
}
