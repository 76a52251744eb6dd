// Owns the page's one DOM helper for building its tools (the checker, the
// exports): text only ever through textContent.

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
