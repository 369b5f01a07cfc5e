// Lays out a scene (model.js) with a force simulation and draws it as SVG:
// every node a focusable group with its name as text, every link a line
// with its relation types as text. Pan with the pointer, zoom with the
// wheel or the buttons main.js adds; Tab walks the nodes, Enter or Space
// opens one.
import { forceCenter, forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY } from "d3-force";

const SVG = "http://www.w3.org/2000/svg";
const MAX_LABEL = 28;

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

function shorten(s) {
  return s.length > MAX_LABEL ? s.slice(0, MAX_LABEL - 1) + "…" : s;
}

function labelOf(n) {
  return n.kind === "type" ? `${n.type || "(no type)"} (${n.count.toLocaleString("en-US")})` : n.name;
}

function radius(node) {
  return node.kind === "type" ? 10 + Math.min(22, Math.sqrt(node.count)) : 8;
}

// layout places the scene's nodes: a fixed number of ticks of a seeded
// simulation, run at once, so a graph always lands the same way.
export function layout(scene) {
  const nodes = scene.nodes.map((n) => ({ ...n, r: radius(n) }));
  const links = scene.links.map((l) => ({ ...l }));
  const sim = forceSimulation(nodes)
    .force("link", forceLink(links).id((d) => d.id).distance((l) => l.source.r + l.target.r + 50 + Math.min(110, l.label.length * 4)).strength(0.4))
    .force("charge", forceManyBody().strength(nodes.length > 120 ? -140 : -360))
    .force("collide", forceCollide((d) => d.r + (d.kind === "type" ? 34 : 16)))
    .force("x", forceX(0).strength(0.04))
    .force("y", forceY(0).strength(0.06))
    .force("center", forceCenter(0, 0))
    .stop();
  const ticks = nodes.length > 150 ? 180 : 300;
  for (let i = 0; i < ticks; i++) sim.tick();
  return { nodes, links };
}

// Drawing is what draw returns: the SVG and the means to zoom it.
export function draw(svg, scene, onActivate) {
  svg.replaceChildren();
  const { nodes, links } = layout(scene);
  // The bounds of everything drawn, labels included (their widths
  // estimated from their lengths: the text is not measured before it is
  // in the document).
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const span = (x, y, halfWidth, up, down) => {
    minX = Math.min(minX, x - halfWidth);
    maxX = Math.max(maxX, x + halfWidth);
    minY = Math.min(minY, y - up);
    maxY = Math.max(maxY, y + down);
  };
  for (const n of nodes) span(n.x, n.y, Math.max(n.r, Math.min(MAX_LABEL, labelOf(n).length) * 3.4), n.r + 4, n.r + 20);
  for (const l of links) {
    const w = l.label.length * 2.8;
    if (l.source === l.target) span(l.source.x, l.source.y - l.source.r - 30, w, 10, 4);
    else span((l.source.x + l.target.x) / 2, (l.source.y + l.target.y) / 2 - 4, w, 10, 4);
  }
  minX -= 12; maxX += 12; minY -= 12; maxY += 12;
  if (!nodes.length) {
    minX = -200; maxX = 200; minY = -100; maxY = 100;
  }
  const home = { x: minX, y: minY, w: Math.max(200, maxX - minX), h: Math.max(160, maxY - minY) };
  let box = { ...home };
  const setBox = () => svg.setAttribute("viewBox", `${box.x} ${box.y} ${box.w} ${box.h}`);
  setBox();

  const defs = el("defs", {}, svg);
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrowhead" }, marker);

  const edgeLayer = el("g", { class: "edges", "aria-hidden": "false" }, svg);
  for (const l of links) {
    const s = l.source, t = l.target;
    const dx = t.x - s.x, dy = t.y - s.y;
    const len = Math.hypot(dx, dy) || 1;
    const g = el("g", { class: "edge" }, edgeLayer);
    if (s === t) {
      const k = s.r * Math.SQRT1_2;
      el("path", { d: `M${s.x - k},${s.y - k} C${s.x - k - 14},${s.y - s.r - 34} ${s.x + k + 14},${s.y - s.r - 34} ${s.x + k},${s.y - k}`, class: "link", "marker-end": "url(#arrow)" }, g);
      const label = el("text", { x: s.x, y: s.y - s.r - 30, class: "link-label", "text-anchor": "middle" }, g);
      label.textContent = l.label;
      continue;
    }
    el("line", {
      x1: s.x + (dx / len) * s.r, y1: s.y + (dy / len) * s.r,
      x2: t.x - (dx / len) * (t.r + 2), y2: t.y - (dy / len) * (t.r + 2),
      class: "link", "marker-end": "url(#arrow)",
    }, g);
    const label = el("text", { x: (s.x + t.x) / 2, y: (s.y + t.y) / 2 - 4, class: "link-label", "text-anchor": "middle" }, g);
    label.textContent = l.label;
    const title = el("title", {}, g);
    title.textContent = `${s.name ?? s.type} ${l.label} ${t.name ?? t.type}`;
  }

  const nodeLayer = el("g", { class: "nodes" }, svg);
  const byId = new Map();
  for (const n of nodes) {
    const text = labelOf(n);
    const aria = n.kind === "type"
      ? `Entity type ${n.type || "(no type)"}: ${n.count} entities; show them`
      : n.kind === "ghost"
        ? `${n.name}, outside this result; open it`
        : `${n.name}${n.entityType ? ", " + n.entityType : ""}; open it`;
    const g = el("g", { class: `node ${n.kind}`, tabindex: 0, role: "button", "aria-label": aria, "data-id": n.id, transform: `translate(${n.x},${n.y})` }, nodeLayer);
    el("circle", { r: n.r }, g);
    const label = el("text", { y: n.r + 13, "text-anchor": "middle", class: "node-label" }, g);
    label.textContent = shorten(text);
    if (text.length > MAX_LABEL) {
      const title = el("title", {}, g);
      title.textContent = text;
    }
    g.addEventListener("click", () => onActivate(n));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        onActivate(n);
      }
    });
    byId.set(n.id, g);
  }

  // Pan and zoom by moving the viewBox.
  const toSvg = (clientX, clientY) => {
    const r = svg.getBoundingClientRect();
    return { x: box.x + ((clientX - r.left) / (r.width || 1)) * box.w, y: box.y + ((clientY - r.top) / (r.height || 1)) * box.h };
  };
  const zoom = (factor, at) => {
    const c = at ?? { x: box.x + box.w / 2, y: box.y + box.h / 2 };
    const w = Math.min(home.w * 8, Math.max(home.w / 20, box.w * factor));
    const f = w / box.w;
    box = { x: c.x - (c.x - box.x) * f, y: c.y - (c.y - box.y) * f, w, h: box.h * f };
    setBox();
  };
  svg.onwheel = (e) => {
    e.preventDefault();
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, toSvg(e.clientX, e.clientY));
  };
  let drag = null;
  svg.onpointerdown = (e) => {
    if (e.target.closest?.(".node")) return;
    drag = { x: e.clientX, y: e.clientY, box: { ...box } };
    svg.setPointerCapture?.(e.pointerId);
  };
  svg.onpointermove = (e) => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    box = { ...drag.box, x: drag.box.x - ((e.clientX - drag.x) / (r.width || 1)) * box.w, y: drag.box.y - ((e.clientY - drag.y) / (r.height || 1)) * box.h };
    setBox();
  };
  svg.onpointerup = svg.onpointercancel = () => { drag = null; };

  return {
    zoomIn: () => zoom(1 / 1.25),
    zoomOut: () => zoom(1.25),
    fit: () => { box = { ...home }; setBox(); },
    focus: (id) => byId.get(id)?.focus(),
  };
}
