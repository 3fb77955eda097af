// A reader's own URDF file: dropped anywhere on the page, or picked with the panel's button (which opens the
// file input #urdf-file), read as text and handed to ikDemo.loadUrdf. A refusal is said in the notice in the
// scene's own words, and the scene shown before stays. The file stays on this page: links do not carry it.

import { MAX_URDF_CHARS } from "./api.js";

/** Whether a drag carries files (not text or a link dragged from the page). */
function hasFiles(event) {
  return Boolean(event.dataTransfer?.types?.includes("Files"));
}

/**
 * Take URDF files from drops on the window and from a hidden file input (returned, id "urdf-file"), into
 * `api` (window.ikDemo); `note(text, ms)` shows the outcome.
 */
export function acceptUrdfFiles(api, note) {
  const input = document.createElement("input");
  input.type = "file";
  input.id = "urdf-file";
  input.accept = ".urdf,.xml,text/xml,application/xml";
  input.hidden = true;
  document.body.append(input);
  input.addEventListener("change", () => {
    const file = input.files[0];
    input.value = "";  // the same file picked again is read again
    if (file) load(file);
  });
  window.addEventListener("dragover", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  });
  window.addEventListener("drop", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    const file = event.dataTransfer.files[0];
    if (file) load(file);
  });

  async function load(file) {
    // UTF-8 takes at most 4 bytes a character: a larger file is refused before it is read.
    if (file.size > 4 * MAX_URDF_CHARS) {
      note(`${file.name} was not loaded: it is ${file.size.toLocaleString("en")} bytes; the page takes URDF files ` +
        `of at most ${MAX_URDF_CHARS.toLocaleString("en")} characters.`, 12000);
      return;
    }
    let text;
    try {
      text = await file.text();
    } catch (error) {
      note(`${file.name} could not be read: ${error.message}`, 12000);
      return;
    }
    try {
      api.loadUrdf(text, file.name);
      const urdf = api.describe().urdf;
      const ends = Object.keys(urdf.leaves).length;
      note(`${file.name}: ${urdf.joints.length} joints, from link ${urdf.base} to link ${urdf.tip}` +
        (ends > 1 ? ` (chosen of ${ends} ends: the panel's tip link picks another)` : "") + ". The file stays " +
        "on this page: links do not carry it (a link made now opens the default arm).", 10000);
    } catch (error) {
      note(`${file.name} was not loaded: ${error.message}`, 15000);
    }
  }
  return input;
}
