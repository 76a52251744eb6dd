// Owns the page's DOM helpers for building its tools (the checker, the
// exports, the embed tools): text only ever through textContent.

/** A new `name` element with attributes (text: its textContent; className), appended to `parent` if given. */
export function element(name, attributes = {}, parent = null) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'text') node.textContent = value;
    else if (key === 'className') node.className = value;
    else node.setAttribute(key, value);
  }
  if (parent) parent.append(node);
  return node;
}

/** Saves a Blob under `name` (an object URL clicked through <a download>). */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = element('a', { href: url, download: name });
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the click; the URL is only needed until then.
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
