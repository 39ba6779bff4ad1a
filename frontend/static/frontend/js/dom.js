// Building DOM nodes from data without innerHTML, so no server or player text is ever markup.

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** Show or hide `node`, touching it only when that changes: writing the same `hidden` again
 * still restyles the node. */
export function setHidden(node, hidden) {
  if (node.hidden !== hidden) node.hidden = hidden;
}
