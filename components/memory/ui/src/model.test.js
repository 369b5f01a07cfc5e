// Tests of what the explorer draws of a graph (node --test; run by
// scripts/browser-test.sh before the browser starts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { PAGE, normalize, scene } from "./model.js";

function entities(type, n) {
  return Array.from({ length: n }, (_, i) => ({ name: `${type} ${String(i).padStart(5, "0")}`, entityType: type, observations: [] }));
}

test("a small graph is drawn whole, one link per ordered pair with every relation type", () => {
  const g = normalize({
    entities: [
      { name: "a", entityType: "t", observations: ["x"] },
      { name: "b", entityType: "u", observations: [] },
      { name: "c", entityType: "u", observations: [] },
    ],
    relations: [
      { from: "a", to: "b", relationType: "knows" },
      { from: "a", to: "b", relationType: "likes" },
      { from: "a", to: "b", relationType: "knows" },
      { from: "b", to: "a", relationType: "knows" },
      { from: "a", to: "elsewhere", relationType: "knows" },
    ],
  });
  const s = scene(g);
  assert.equal(s.kind, "entities");
  assert.deepEqual(s.nodes.map((n) => [n.name, n.kind]), [["a", "entity"], ["b", "entity"], ["c", "entity"], ["elsewhere", "ghost"]]);
  assert.deepEqual(s.links.map((l) => [l.source, l.target, l.label]), [["a", "b", "knows, likes"], ["b", "a", "knows"], ["a", "elsewhere", "knows"]]);
  assert.equal(s.pages, 1);
});

test("the other ends of a result's relations are ghosts while the page has room, by name", () => {
  const g = normalize({
    entities: entities("hub", PAGE - 2),
    relations: ["z", "y", "x", "w"].map((to) => ({ from: "hub 00000", to, relationType: "links" })),
  });
  const s = scene(g);
  assert.deepEqual(s.nodes.filter((n) => n.kind === "ghost").map((n) => n.name), ["w", "x"]);
  assert.equal(s.nodes.length, PAGE);
  assert.deepEqual(s.links.map((l) => l.target), ["x", "w"]);
});

test("normalize drops what is not an entity or a relation, and repeated names", () => {
  const g = normalize({
    entities: [{ name: "a", entityType: "t", observations: ["o", 3] }, { name: "a", entityType: "t" }, { entityType: "t" }, null],
    relations: [{ from: "a", to: "a" }, { from: "a", to: "a", relationType: "self" }],
  });
  assert.deepEqual(g, { entities: [{ name: "a", entityType: "t", observations: ["o"] }], relations: [{ from: "a", to: "a", relationType: "self" }] });
  assert.deepEqual(normalize(undefined), { entities: [], relations: [] });
});

test("past a page, the overview has one node per type, largest first, with relation counts between types", () => {
  const g = normalize({
    entities: [...entities("person", 900), ...entities("city", 40), ...entities("project", 300)],
    relations: [
      ...Array.from({ length: 900 }, (_, i) => ({ from: `person ${String(i).padStart(5, "0")}`, to: `city ${String(i % 40).padStart(5, "0")}`, relationType: "lives in" })),
      ...Array.from({ length: 10 }, (_, i) => ({ from: `person ${String(i).padStart(5, "0")}`, to: `city ${String(i).padStart(5, "0")}`, relationType: "visited" })),
      { from: "person 00000", to: "city 00000", relationType: "left" },
      { from: "person 00001", to: "nobody", relationType: "knows" },
    ],
  });
  const s = scene(g);
  assert.equal(s.kind, "types");
  assert.deepEqual(s.nodes.map((n) => [n.type, n.count]), [["person", 900], ["project", 300], ["city", 40]]);
  assert.equal(s.links.length, 1);
  assert.equal(s.links[0].label, "lives in ×900, visited ×10, +1 more");
  assert.deepEqual(s.links[0].types, ["lives in", "visited", "left"]);
});

test("a type's entities come a page at a time, sorted by name, the page clamped", () => {
  const g = normalize({ entities: [...entities("person", 2 * PAGE + 7), ...entities("city", 3)], relations: [] });
  const first = scene(g, { type: "person", page: 0 });
  assert.equal(first.kind, "entities");
  assert.equal(first.pages, 3);
  assert.equal(first.nodes.length, PAGE);
  assert.equal(first.nodes[0].name, "person 00000");
  const last = scene(g, { type: "person", page: 99 });
  assert.equal(last.page, 2);
  assert.equal(last.nodes.length, 7);
  assert.equal(last.nodes[6].name, `person ${String(2 * PAGE + 6).padStart(5, "0")}`);
  assert.equal(scene(g, { type: "no such type" }).kind, "types");
});

test("a large graph of one type is paged at once, with the relations inside the page", () => {
  const g = normalize({
    entities: entities("note", PAGE + 1),
    relations: [
      { from: "note 00000", to: "note 00001", relationType: "next" },
      { from: "note 00000", to: `note ${String(PAGE).padStart(5, "0")}`, relationType: "next" },
    ],
  });
  const s = scene(g);
  assert.equal(s.kind, "entities");
  assert.equal(s.type, "note");
  assert.equal(s.pages, 2);
  assert.deepEqual(s.links.map((l) => [l.source, l.target]), [["note 00000", "note 00001"]]);
});
