// The graph explorer, the MCP Apps view of mcp-memory's read_graph,
// search_nodes and open_nodes. It talks to its host only through ext-apps'
// App (JSON-RPC over postMessage): the tool result the host hands it, and
// the tools/call and resources/read it asks the host to relay.
import { App, applyDocumentTheme, applyHostFonts, applyHostStyleVariables } from "@modelcontextprotocol/ext-apps";
import { draw } from "./draw.js";
import { normalize, scene } from "./model.js";

const SEARCH_DELAY_MS = 250;
const $ = (id) => document.getElementById(id);
const svg = $("graph");
const status = $("status");
const crumbs = $("crumbs");
const detail = $("detail");
const search = $("search");

const app = new App({ name: "mcp-memory-explorer", version: "0.1.0" }, {});

// The graph the host gave us (the tool's result), and the one on screen:
// the same, or a search's result.
let base = null;
let shown = null;
let shownLabel = "";
let position = {};
let drawing = null;

function say(text) {
  status.textContent = text;
}

function plural(n, one, many) {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

function textOf(result) {
  return (result?.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

// graphOf reads a tool result: its structured content, else the JSON text
// the reference server's tools answer with.
function graphOf(result) {
  if (result?.isError) throw new Error(textOf(result) || "the tool failed");
  let g = result?.structuredContent;
  if (!g || !Array.isArray(g.entities)) {
    try {
      g = JSON.parse(textOf(result));
    } catch {
      throw new Error("the result holds no graph");
    }
  }
  return normalize(g);
}

function button(text, onClick, attrs = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  b.addEventListener("click", onClick);
  return b;
}

function render() {
  if (!shown) return;
  const s = scene(shown, position);
  drawing = draw(svg, s, activate);
  crumbs.replaceChildren();
  const where = [];
  if (s.kind === "types") {
    where.push(`${plural(shown.entities.length, "entity", "entities")} of ${plural(s.total, "type", "types")}: pick a type to see its entities`);
  } else if (s.type !== null && s.type !== undefined) {
    if (typesCount(shown) > 1) crumbs.append(button("All types", () => go({})));
    where.push(`${plural(s.total, "entity", "entities")} of type ${s.type || "(no type)"}`);
  } else {
    const ghosts = s.nodes.filter((n) => n.kind === "ghost").length;
    where.push(`${plural(s.nodes.length - ghosts, "entity", "entities")}, ${plural(s.links.reduce((n, l) => n + l.types.length, 0), "relation", "relations")}`);
    if (ghosts) where.push(`${plural(ghosts, "related entity", "related entities")} outside the result (dashed)`);
  }
  if (s.pages > 1) {
    where.push(`page ${s.page + 1} of ${s.pages}`);
    const prev = button("Previous page", () => go({ ...position, page: s.page - 1 }));
    prev.disabled = s.page === 0;
    const next = button("Next page", () => go({ ...position, page: s.page + 1 }));
    next.disabled = s.page === s.pages - 1;
    crumbs.append(prev, next);
  }
  say((shownLabel ? shownLabel + ": " : "") + where.join(", "));
}

function typesCount(g) {
  return new Set(g.entities.map((e) => e.entityType)).size;
}

function go(p) {
  position = p;
  render();
}

function show(graph, label) {
  shown = graph;
  shownLabel = label;
  position = {};
  render();
}

function activate(node) {
  if (node.kind === "type") go({ type: node.type, page: 0 });
  else openEntity(node.name);
}

// Searching: search_nodes through the host as the user types, the last
// query winning; an empty query goes back to the tool's result.
let searchTimer = 0;
let searchSeq = 0;
search.addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(runSearch, SEARCH_DELAY_MS);
});
search.addEventListener("keydown", (e) => {
  if (e.key === "Enter") {
    clearTimeout(searchTimer);
    runSearch();
  }
});

async function runSearch() {
  const query = search.value.trim();
  const seq = ++searchSeq;
  if (!query) {
    if (base) show(base, "");
    return;
  }
  say(`Searching for “${query}”…`);
  try {
    const result = await app.callServerTool({ name: "search_nodes", arguments: { query } });
    if (seq !== searchSeq) return;
    const g = graphOf(result);
    show(g, `${plural(g.entities.length, "entity matches", "entities match")} “${query}”`);
  } catch (err) {
    if (seq === searchSeq) say(`Search failed: ${err.message}`);
  }
}

$("whole").addEventListener("click", async () => {
  say("Reading the whole graph…");
  try {
    const result = await app.callServerTool({ name: "read_graph", arguments: {} });
    base = graphOf(result);
    search.value = "";
    show(base, "");
  } catch (err) {
    say(`read_graph failed: ${err.message}`);
  }
});
$("zoom-in").addEventListener("click", () => drawing?.zoomIn());
$("zoom-out").addEventListener("click", () => drawing?.zoomOut());
$("fit").addEventListener("click", () => drawing?.fit());

// Opening an entity: open_nodes for its observations and relations,
// memory://entities/{name}/history for its audit trail.
let openSeq = 0;
async function openEntity(name) {
  const seq = ++openSeq;
  detail.hidden = false;
  detail.replaceChildren();
  const h = document.createElement("h2");
  h.tabIndex = -1;
  h.textContent = name;
  detail.append(h, button("Close", closeDetail, { class: "close", "aria-label": "Close the details of " + name }));
  const body = document.createElement("div");
  body.textContent = "Opening…";
  detail.append(body);
  h.focus();
  let entity, relations;
  try {
    const g = graphOf(await app.callServerTool({ name: "open_nodes", arguments: { names: [name] } }));
    entity = g.entities.find((e) => e.name === name);
    relations = g.relations.filter((r) => r.from === name || r.to === name);
  } catch (err) {
    if (seq === openSeq) body.textContent = `open_nodes failed: ${err.message}`;
    return;
  }
  if (seq !== openSeq) return;
  body.replaceChildren();
  if (!entity) {
    body.textContent = "This entity is gone from the graph.";
  } else {
    const type = document.createElement("p");
    type.className = "type";
    type.textContent = entity.entityType ? `Type: ${entity.entityType}` : "No type";
    body.append(type, section("Observations", entity.observations, (o) => o, "No observations."));
    body.append(section("Relations", relations, (r) => {
      const other = r.from === name ? r.to : r.from;
      const li = document.createElement("span");
      li.append(r.from === name ? `${r.relationType} → ` : `← ${r.relationType} `);
      li.append(button(other, () => openEntity(other), { class: "link-button" }));
      return li;
    }, "No relations."));
  }
  const hist = section("History", [], () => "", "Reading the history…");
  body.append(hist);
  try {
    const res = await app.readServerResource({ uri: `memory://entities/${encodeURIComponent(name)}/history` });
    if (seq !== openSeq) return;
    const h = JSON.parse(res.contents?.[0]?.text ?? "{}");
    hist.replaceWith(section("History", h.changes ?? [], describeChange, "No recorded changes."));
  } catch (err) {
    if (seq === openSeq) hist.replaceWith(section("History", [], () => "", `No history: ${err.message}`));
  }
}

function describeChange(c) {
  const what = {
    entity_created: "created",
    entity_deleted: "deleted",
    observation_added: "observation added",
    observation_deleted: "observation deleted",
    relation_created: "relation created",
    relation_deleted: "relation deleted",
    task_created: "task created",
    task_updated: "task updated",
  }[c.kind] ?? c.kind;
  const rel = c.relation ? `: ${c.relation.from} ${c.relation.relationType} ${c.relation.to}` : "";
  const detailText = c.detail ? `: ${c.detail}` : "";
  const when = c.at ? new Date(c.at).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z") : "";
  return `${what}${rel}${detailText} (${c.author || "unknown"}, ${when})`;
}

function section(title, items, render, empty) {
  const s = document.createElement("section");
  const h = document.createElement("h3");
  h.textContent = title;
  s.append(h);
  if (!items.length) {
    const p = document.createElement("p");
    p.textContent = empty;
    s.append(p);
    return s;
  }
  const ul = document.createElement("ul");
  for (const it of items) {
    const li = document.createElement("li");
    li.append(render(it));
    ul.append(li);
  }
  s.append(ul);
  return s;
}

function closeDetail() {
  openSeq++;
  detail.hidden = true;
  detail.replaceChildren();
  search.focus();
}

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !detail.hidden) closeDetail();
});

// The host: its theme, and the tool call this view shows.
function applyContext(ctx) {
  if (!ctx) return;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
}

app.ontoolinput = ({ arguments: args }) => {
  if (!base) say(args?.query ? `Waiting for the results of “${args.query}”…` : "Waiting for the tool's result…");
};
app.ontoolresult = (result) => {
  try {
    base = graphOf(result);
    search.value = "";
    show(base, "");
  } catch (err) {
    say(`The tool's result cannot be shown: ${err.message}`);
  }
};
app.ontoolcancelled = ({ reason }) => say(`The tool call was cancelled${reason ? ": " + reason : ""}.`);
app.onhostcontextchanged = applyContext;
app.onteardown = async () => ({});

say("Connecting to the host…");
app.connect().then(
  () => {
    applyContext(app.getHostContext());
    document.body.dataset.ready = "true";
    if (!base) say("Waiting for a read_graph, search_nodes or open_nodes result; or search, or read the whole graph.");
  },
  (err) => say(`The host did not accept the view: ${err.message}`),
);
