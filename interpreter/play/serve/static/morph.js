// Bring a live part of the page in line with a freshly drawn copy, touching only what differs: a
// node that did not change stays the very same node (its focus, its hover, its selection), and a
// changed one is updated in place. Handlers are not copied: the page listens on its containers.

export function morph(live, fresh) {
  if (live.nodeType !== fresh.nodeType || live.nodeName !== fresh.nodeName) {
    live.replaceWith(fresh);
    return;
  }
  if (live.nodeType !== Node.ELEMENT_NODE) {
    if (live.nodeValue !== fresh.nodeValue) live.nodeValue = fresh.nodeValue;
    return;
  }
  syncAttributes(live, fresh);
  morphChildren(live, fresh);
}

// The children of ``live`` made like those of ``fresh``, position by position.
export function morphChildren(live, fresh) {
  const wanted = [...fresh.childNodes];
  wanted.forEach((node, k) => {
    const old = live.childNodes[k];
    if (old) morph(old, node);
    else live.append(node);
  });
  while (live.childNodes.length > wanted.length) live.lastChild.remove();
}

function syncAttributes(live, fresh) {
  for (const { name } of [...live.attributes]) if (!fresh.hasAttribute(name)) live.removeAttribute(name);
  for (const { name, value } of fresh.attributes) if (live.getAttribute(name) !== value) live.setAttribute(name, value);
}
