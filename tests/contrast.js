// The text of the page whose contrast with what lies under it is below 4.5:1 (WCAG AA), as
// [text, ratio] pairs: each element with text of its own, its colour against the first opaque
// background among it and its ancestors (mixed over white where the background is translucent).
() => {
  const parse = c => { const m = c.match(/[\d.]+/g).map(Number); return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 }; };
  const over = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
                                  b: top.b * top.a + under.b * (1 - top.a), a: 1 });
  const channel = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const luminance = c => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  function background(node) {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c.a > 0) layers.push(c);
      if (c.a >= 1) break;
    }
    let colour = { r: 255, g: 255, b: 255, a: 1 };
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  }
  const low = [];
  for (const node of document.querySelectorAll("body *")) {
    const own = [...node.childNodes].some(c => c.nodeType === 3 && c.textContent.trim());
    const style = getComputedStyle(node);
    if (!own || style.visibility === "hidden" || style.display === "none" || node.closest("[hidden]")) continue;
    let opacity = 1;                           // a faded element (or ancestor) fades its text
    for (let n = node; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
    const back = background(node);
    const colour = parse(style.color);
    const text = over({ ...colour, a: colour.a * opacity }, back);
    const [a, b] = [luminance(text), luminance(back)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) low.push([node.textContent.trim().slice(0, 30), Math.round(ratio * 100) / 100]);
  }
  return low;
}
