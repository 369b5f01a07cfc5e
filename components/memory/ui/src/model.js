// What the explorer draws of a graph: all of it when it is small, else an
// overview with one node per entity type, and each type's entities a page
// at a time. Pure functions of the graph and the position in it, so the
// same graph always gives the same picture; main.js owns the DOM.

// PAGE is the most nodes drawn at once: past it a force layout and an SVG
// of labelled nodes stop being readable (and cheap), so the explorer
// clusters or pages instead.
export const PAGE = 250;

// normalize returns the graph of a tool result's structured content:
// {entities: [{name, entityType, observations}], relations: [{from, to,
// relationType}]}, dropping entries that are not shaped so.
export function normalize(g) {
  const entities = [];
  const seen = new Set();
  for (const e of Array.isArray(g?.entities) ? g.entities : []) {
    if (!e || typeof e.name !== "string" || seen.has(e.name)) continue;
    seen.add(e.name);
    entities.push({
      name: e.name,
      entityType: typeof e.entityType === "string" ? e.entityType : "",
      observations: Array.isArray(e.observations) ? e.observations.filter((o) => typeof o === "string") : [],
    });
  }
  const relations = [];
  for (const r of Array.isArray(g?.relations) ? g.relations : []) {
    if (r && typeof r.from === "string" && typeof r.to === "string" && typeof r.relationType === "string") {
      relations.push({ from: r.from, to: r.to, relationType: r.relationType });
    }
  }
  return { entities, relations };
}

const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// typesOf groups the entities by type, largest group first, ties by name.
export function typesOf(graph) {
  const groups = new Map();
  for (const e of graph.entities) {
    let list = groups.get(e.entityType);
    if (!list) groups.set(e.entityType, (list = []));
    list.push(e);
  }
  const types = [...groups].map(([type, members]) => ({ type, members: members.sort((a, b) => byName(a.name, b.name)) }));
  types.sort((a, b) => b.members.length - a.members.length || byName(a.type, b.type));
  return types;
}

// linksAmong returns the relations between the named nodes, one link per
// ordered pair with every relation type between them as its labels.
function linksAmong(relations, present) {
  const pairs = new Map();
  for (const r of relations) {
    if (!present.has(r.from) || !present.has(r.to)) continue;
    const key = JSON.stringify([r.from, r.to]);
    let l = pairs.get(key);
    if (!l) pairs.set(key, (l = { source: r.from, target: r.to, types: [] }));
    if (!l.types.includes(r.relationType)) l.types.push(r.relationType);
  }
  return [...pairs.values()].map((l) => ({ ...l, label: l.types.join(", ") }));
}

// scene returns what to draw for the position {type, page} in the graph:
//
//   kind "entities": nodes are entities ({id, name, entityType, kind
//     "entity"}), and, when the graph is drawn whole, the entities at the
//     other end of its relations that it does not hold (kind "ghost");
//     links the relations among them; with type set, the page of that
//     type's entities; with more pages, pages says how many.
//   kind "types": nodes are entity types ({id, type, count, kind}), links
//     the relation types between them with their counts.
export function scene(graph, position = {}) {
  const types = typesOf(graph);
  const page = Math.max(0, position.page | 0);
  let members = null;
  let type = null;
  if (graph.entities.length <= PAGE) {
    members = graph.entities;
  } else if (position.type !== undefined && position.type !== null) {
    const t = types.find((t) => t.type === position.type);
    if (t) {
      members = t.members;
      type = t.type;
    }
  } else if (types.length === 1) {
    members = types[0].members;
    type = types[0].type;
  }

  if (members) {
    const pages = Math.max(1, Math.ceil(members.length / PAGE));
    const p = Math.min(page, pages - 1);
    const shown = members.slice(p * PAGE, (p + 1) * PAGE);
    const present = new Set(shown.map((e) => e.name));
    const nodes = shown.map((e) => ({ id: e.name, kind: "entity", name: e.name, entityType: e.entityType }));
    // A result drawn whole shows the other ends of its relations too
    // (search_nodes and open_nodes return the relations with one end among
    // their entities), as ghosts, while the page has room for them.
    if (members === graph.entities) {
      const outside = new Set();
      for (const r of graph.relations) {
        if (present.has(r.from) && !present.has(r.to)) outside.add(r.to);
        if (present.has(r.to) && !present.has(r.from)) outside.add(r.from);
      }
      for (const name of [...outside].sort(byName).slice(0, PAGE - nodes.length)) {
        nodes.push({ id: name, kind: "ghost", name, entityType: "" });
        present.add(name);
      }
    }
    return {
      kind: "entities",
      type,
      page: p,
      pages,
      total: members.length,
      nodes,
      links: linksAmong(graph.relations, present),
    };
  }

  // The overview: one node per type, a page of types at a time.
  const pages = Math.max(1, Math.ceil(types.length / PAGE));
  const p = Math.min(page, pages - 1);
  const shown = types.slice(p * PAGE, (p + 1) * PAGE);
  const typeOf = new Map();
  for (const t of types) for (const e of t.members) typeOf.set(e.name, t.type);
  const present = new Set(shown.map((t) => t.type));
  const pairs = new Map();
  for (const r of graph.relations) {
    const a = typeOf.get(r.from);
    const b = typeOf.get(r.to);
    if (a === undefined || b === undefined || !present.has(a) || !present.has(b)) continue;
    const key = JSON.stringify([a, b]);
    let l = pairs.get(key);
    if (!l) pairs.set(key, (l = { source: "type:" + a, target: "type:" + b, counts: new Map() }));
    l.counts.set(r.relationType, (l.counts.get(r.relationType) || 0) + 1);
  }
  const links = [...pairs.values()].map((l) => {
    const counts = [...l.counts].sort((x, y) => y[1] - x[1] || byName(x[0], y[0]));
    const named = counts.slice(0, 2).map(([t, n]) => `${t} ×${n.toLocaleString("en-US")}`);
    if (counts.length > 2) named.push(`+${counts.length - 2} more`);
    return { source: l.source, target: l.target, types: counts.map(([t]) => t), label: named.join(", ") };
  });
  return {
    kind: "types",
    type: null,
    page: p,
    pages,
    total: types.length,
    nodes: shown.map((t) => ({ id: "type:" + t.type, kind: "type", type: t.type, count: t.members.length })),
    links,
  };
}
