// The playground's code in a link: deflated (the browser's CompressionStream, "deflate-raw") and written in
// base64url, so that a solver of thirty lines takes some 600 characters of the hash. The hash never leaves the
// browser (it is not sent with the request for the page): the code travels only in the link itself.

/** Longest packed code read from a link (characters). */
export const MAX_PACKED = 12000;

function toBase64Url(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length % 4 === 1) throw new Error("it is not base64url text");
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** `text` deflated, in base64url. */
export async function packCode(text) {
  const stream = new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/** The text `packed` holds (at most `maxChars` characters); throws with a plain reason when it cannot be read. */
export async function unpackCode(packed, maxChars) {
  if (packed.length > MAX_PACKED) throw new Error(`it is longer than ${MAX_PACKED} characters`);
  const stream = new Blob([fromBase64Url(packed)]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const reader = stream.getReader();
  const chunks = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      // UTF-8 takes at most 4 bytes a character: more than that many bytes is more than maxChars characters.
      if (size > 4 * maxChars) throw new Error(`it holds more than ${maxChars} characters`);
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error.message.startsWith("it ") ? error : new Error("it is not deflated code");
  }
  const text = new TextDecoder("utf-8", { fatal: true }).decode(await new Blob(chunks).arrayBuffer());
  if (text.length > maxChars) throw new Error(`it holds more than ${maxChars} characters`);
  return text;
}
