// Saving a file from the page: a Blob URL (no request leaves the browser), revoked once the download began.

/** Offer `text` as a download named `filename`. */
export function downloadText(filename, text, type = "application/json") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once started; the URL is only needed for the click.
  setTimeout(() => URL.revokeObjectURL(url), 30000);
}
