// The browser test of MCP Apps views: Debian's chromium, driven by
// puppeteer-core, loads host/index.html (ext-apps' AppBridge and the
// official TypeScript client), which shows a tool's view in a sandboxed
// frame on a second origin under the view's declared CSP. Each target is a
// running MCP server (scripts/browser-test.sh starts them); the test web
// servers relay /mcp to it and record every request they get.
//
//   node run.mjs --chromium PATH [--memory URL] [--everything URL] [--basic URL] [--screenshot FILE]
//
// Exits 1 on the first failed assertion, with what was expected and seen.
import { build } from "esbuild";
import { createServer, request as httpRequest } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import puppeteer from "puppeteer-core";

const here = dirname(fileURLToPath(import.meta.url));
const { values: opts } = parseArgs({
  options: {
    chromium: { type: "string" },
    memory: { type: "string" },
    everything: { type: "string" },
    basic: { type: "string" },
    screenshot: { type: "string" },
  },
});
if (!opts.chromium || !(opts.memory || opts.everything || opts.basic)) {
  console.error("usage: node run.mjs --chromium PATH [--memory URL] [--everything URL] [--basic URL] [--screenshot FILE]");
  process.exit(2);
}

// The view's declared CSP, as the specification's sandbox must enforce
// it: its restrictive default when nothing is declared, each declared list
// opening only its own directives.
const DOMAIN = /^[a-z][a-z0-9+.-]*:\/\/[^\s;,'"]+$/i;
export function cspHeader(csp = {}) {
  const list = (key) => {
    const v = csp[key] ?? [];
    for (const d of v) if (!DOMAIN.test(d)) throw new Error(`view CSP ${key}: ${JSON.stringify(d)} is not an origin`);
    return v.join(" ");
  };
  const res = list("resourceDomains");
  const connect = list("connectDomains");
  const frame = list("frameDomains");
  const base = list("baseUriDomains");
  const src = (extra) => ["'self'", ...extra, res].filter(Boolean).join(" ");
  return [
    "default-src 'none'",
    `script-src ${src(["'unsafe-inline'"])}`,
    `style-src ${src(["'unsafe-inline'"])}`,
    `img-src ${src(["data:"])}`,
    `font-src ${src(["data:"])}`,
    `media-src ${src(["data:"])}`,
    `connect-src ${connect || "'none'"}`,
    `frame-src ${frame || "'none'"}`,
    "object-src 'none'",
    `base-uri ${base || "'self'"}`,
  ].join("; ");
}

function fail(what, detail) {
  const err = new Error(what + (detail === undefined ? "" : "\n  saw: " + (typeof detail === "string" ? detail : JSON.stringify(detail, null, 1))));
  err.name = "AssertionError";
  throw err;
}
function check(ok, what, detail) {
  if (!ok) fail(what, detail);
}

function listen(handler) {
  return new Promise((resolve) => {
    const s = createServer(handler);
    s.listen(0, "127.0.0.1", () => resolve(s));
  });
}

// hostServers starts the host's origin (the page, its script, /mcp relayed
// to the target) and the sandbox's origin (sandbox.html only, with the
// CSP the host asks for), each recording what it was asked.
async function hostServers(target, hostScript) {
  const seen = { host: [], sandbox: [] };
  const page = await readFile(join(here, "host", "index.html"));
  const sandboxPage = await readFile(join(here, "host", "sandbox.html"));
  const upstream = new URL(target);
  const host = await listen((req, res) => {
    seen.host.push(`${req.method} ${req.url}`);
    const path = new URL(req.url, "http://x").pathname;
    if (path === "/mcp") {
      const headers = { ...req.headers, host: upstream.host };
      const out = httpRequest({ host: upstream.hostname, port: upstream.port, path: upstream.pathname, method: req.method, headers }, (up) => {
        res.writeHead(up.statusCode, up.headers);
        up.pipe(res);
      });
      out.on("error", (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      req.pipe(out);
      return;
    }
    if (path === "/" || path === "/index.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(page);
    }
    if (path === "/host.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      return res.end(hostScript);
    }
    res.writeHead(404);
    res.end();
  });
  const sandbox = await listen((req, res) => {
    seen.sandbox.push(`${req.method} ${req.url}`);
    const url = new URL(req.url, "http://x");
    if (url.pathname !== "/sandbox.html") {
      res.writeHead(404);
      return res.end();
    }
    let csp;
    try {
      csp = cspHeader(JSON.parse(url.searchParams.get("csp") || "{}"));
    } catch (e) {
      res.writeHead(400);
      return res.end(String(e));
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": csp, "cache-control": "no-store" });
    res.end(sandboxPage);
  });
  const origin = (s) => `http://127.0.0.1:${s.address().port}`;
  return { host, sandbox, hostOrigin: origin(host), sandboxOrigin: origin(sandbox), seen, close: () => { host.close(); sandbox.close(); host.closeAllConnections(); sandbox.closeAllConnections(); } };
}

async function waitUntil(what, fn, timeoutMs = 20000) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await fn();
    if (last && last.ok !== false) return last;
    if (Date.now() > end) fail(`timed out waiting until ${what}`, last);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Session is one target in one browser page, with everything it records.
class Session {
  constructor(browser, name) {
    this.browser = browser;
    this.name = name;
    this.errors = [];
    this.requests = [];
  }

  async open(target, hostScript) {
    this.srv = await hostServers(target, hostScript);
    this.page = await this.browser.newPage();
    await this.page.setViewport({ width: 1000, height: 640 });
    this.page.on("console", (m) => {
      if (m.type() === "error") this.errors.push(`console error: ${m.text()} (${m.location()?.url ?? ""})`);
    });
    this.page.on("pageerror", (e) => this.errors.push(`page error: ${e.message}`));
    this.page.on("request", (r) => this.requests.push({ url: r.url(), frame: r.frame()?.url() ?? "", inView: this.isView(r.frame()) }));
    await this.page.goto(`${this.srv.hostOrigin}/?sandbox=${encodeURIComponent(this.srv.sandboxOrigin)}`, { waitUntil: "load" });
    await this.page.waitForSelector('body[data-harness="ready"]');
    return this.page.evaluate(() => window.harness.connect());
  }

  // isView says whether f is the view's frame: the frame inside the sandbox.
  isView(f) {
    return !!f && f.parentFrame()?.url().startsWith(this.srv.sandboxOrigin + "/") === true;
  }

  view() {
    return this.page.frames().find((f) => this.isView(f) && !f.detached);
  }

  async show(tool, args) {
    const shown = await this.page.evaluate((t, a) => window.harness.show(t, a), tool, args);
    const frame = await waitUntil(`the view of ${tool} is in the page`, () => this.view());
    return { shown, frame };
  }

  call(tool, args) {
    return this.page.evaluate((t, a) => window.harness.callTool(t, a), tool, args);
  }

  viewRequests() {
    return this.page.evaluate(() => window.harness.viewRequests());
  }

  // checkTraffic: no console errors, and nothing asked of the network but
  // what the CSP allows: the view itself asks for nothing (it declares no
  // domains), the sandbox origin served sandbox.html alone, the host origin
  // the page, its script and /mcp.
  checkTraffic(ignore = () => false) {
    const errors = this.errors.filter((e) => !ignore(e));
    check(errors.length === 0, `${this.name}: no console errors`, errors);
    const fromView = this.requests.filter((r) => r.inView && !r.url.startsWith("data:") && !r.url.startsWith("about:") && !ignore(r.url));
    check(fromView.length === 0, `${this.name}: the view made no network request`, fromView);
    const outside = this.requests.filter((r) => !r.url.startsWith(this.srv.hostOrigin + "/") && !r.url.startsWith(this.srv.sandboxOrigin + "/sandbox.html?") && !r.url.startsWith("data:") && !r.url.startsWith("about:"));
    check(outside.length === 0, `${this.name}: every request went to the host's or the sandbox's origin`, outside);
    const sandboxAsked = this.srv.seen.sandbox.filter((l) => !l.startsWith("GET /sandbox.html?csp="));
    check(sandboxAsked.length === 0, `${this.name}: the sandbox origin was asked for sandbox.html only`, sandboxAsked);
    const hostAsked = this.srv.seen.host.filter((l) => !/^GET \/(\?|index\.html|host\.js)/.test(l) && !/ \/mcp$/.test(l));
    check(hostAsked.length === 0, `${this.name}: the host origin was asked for the page, host.js and /mcp only`, hostAsked);
  }

  // checkCSPEnforced: the view's frame cannot reach the host's origin (its
  // CSP has connect-src 'none'): a fetch from it fails and never arrives.
  async checkCSPEnforced() {
    const probe = `${this.srv.hostOrigin}/csp-probe`;
    const outcome = await this.view().evaluate((u) => fetch(u).then(() => "fetched", (e) => "blocked: " + e.message), probe);
    check(outcome.startsWith("blocked"), `${this.name}: the CSP blocks a fetch from the view`, outcome);
    check(!this.srv.seen.host.some((l) => l.includes("/csp-probe")), `${this.name}: the blocked fetch never reached a server`, this.srv.seen.host);
  }

  async close() {
    await this.page?.close();
    this.srv?.close();
  }
}

// visibleTexts returns the texts of the view's elements that match the
// selector and are inside the viewport with a size.
function visibleTexts(frame, selector) {
  return frame.evaluate((sel) => [...document.querySelectorAll(sel)].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  }).map((e) => e.textContent), selector);
}

// tabTo moves the keyboard focus with Tab from the search box to the
// element, failing when Tab never reaches it.
async function tabTo(page, frame, selector) {
  await frame.focus("#search");
  for (let i = 0; i < 300; i++) {
    if (await frame.$eval(selector, (e) => document.activeElement === e)) return;
    await page.keyboard.press("Tab");
  }
  fail(`the keyboard (Tab) reaches ${selector}`);
}

const people = [
  { name: "Ada Lovelace", entityType: "person", observations: ["Wrote the first published program", "Born 1815 in London"] },
  { name: "Charles Babbage", entityType: "person", observations: ["Designed the Analytical Engine"] },
  { name: "Analytical Engine", entityType: "machine", observations: ["A general-purpose mechanical computer"] },
  { name: "Difference Engine", entityType: "machine", observations: ["Computes polynomial tables"] },
  { name: "Note G", entityType: "document", observations: ["Computes Bernoulli numbers on the Analytical Engine"] },
  { name: "London", entityType: "city", observations: [] },
  { name: "Mary Somerville", entityType: "person", observations: ["Introduced Ada Lovelace to Charles Babbage"] },
];
const links = [
  { from: "Ada Lovelace", to: "Note G", relationType: "wrote" },
  { from: "Note G", to: "Analytical Engine", relationType: "programs" },
  { from: "Charles Babbage", to: "Analytical Engine", relationType: "designed" },
  { from: "Charles Babbage", to: "Difference Engine", relationType: "designed" },
  { from: "Ada Lovelace", to: "Charles Babbage", relationType: "corresponded with" },
  { from: "Mary Somerville", to: "Ada Lovelace", relationType: "mentored" },
  { from: "Ada Lovelace", to: "London", relationType: "born in" },
  { from: "Charles Babbage", to: "London", relationType: "lived in" },
];

async function memory(s, info) {
  check(info.extensions.includes("io.modelcontextprotocol/ui"), "mcp-memory declares the MCP Apps extension", info.extensions);
  for (const t of ["read_graph", "search_nodes", "open_nodes"]) {
    const tool = info.tools.find((x) => x.name === t);
    check(tool?.view === "ui://memory/explorer.html", `${t} links ui://memory/explorer.html`, tool);
  }

  // Seeding, through the host's MCP client.
  const seeded = await s.call("create_entities", { entities: people });
  check(!seeded.isError, "create_entities succeeds", seeded);
  check(!(await s.call("create_relations", { relations: links })).isError, "create_relations succeeds");

  const { shown, frame } = await s.show("read_graph", {});
  check(shown.appInfo?.name === "mcp-memory-explorer", "the explorer initializes with the host (ui/initialize)", shown);
  await frame.waitForSelector('body[data-ready="true"]');
  const names = people.map((p) => p.name);
  await waitUntil("every seeded entity's name is visible in the graph", async () => {
    const texts = await visibleTexts(frame, "#graph .node-label");
    const missing = names.filter((n) => !texts.includes(n));
    return missing.length ? { ok: false, missing, texts } : texts;
  });
  const edgeLabels = await visibleTexts(frame, "#graph .link-label");
  for (const r of ["wrote", "designed", "corresponded with"]) check(edgeLabels.includes(r), `the relation type ${r} labels an edge`, edgeLabels);
  const focusable = await frame.$$eval('#graph .node[tabindex="0"][role="button"]', (n) => n.length);
  check(focusable === people.length, "every entity is a focusable button in the SVG", focusable);

  // Typing searches through the bridge, debounced: the graph then holds
  // the matches alone.
  const before = (await s.viewRequests()).length;
  await frame.type("#search", "Engine");
  await frame.waitForFunction(() => /match/.test(document.getElementById("status").textContent));
  const searches = (await s.viewRequests()).slice(before).filter((r) => r.method === "tools/call" && r.params?.name === "search_nodes");
  check(searches.length >= 1 && searches.at(-1).params.arguments.query === "Engine", "typing calls search_nodes through the bridge with the typed query", searches);
  check(searches.length < "Engine".length, "the search waits for the typing to pause (one call for several keys)", searches);
  const found = await waitUntil("the graph shows the search's matches", async () => {
    const t = await visibleTexts(frame, "#graph .node.entity .node-label");
    return t.length === 4 ? t : { ok: false, t };
  });
  for (const n of ["Analytical Engine", "Difference Engine", "Charles Babbage", "Note G"]) check(found.includes(n), `the search for Engine shows ${n}`, found);
  const ghosts = await visibleTexts(frame, "#graph .node.ghost .node-label");
  check(JSON.stringify(ghosts.sort()) === JSON.stringify(["Ada Lovelace", "London"]), "the matches' relations lead to their other ends, drawn as outside the result", ghosts);
  check(!found.includes("Mary Somerville") && !ghosts.includes("Mary Somerville"), "the search for Engine hides what is not related to a match", found);

  // Clearing the search restores the tool's result.
  await frame.$eval("#search", (i) => { i.value = ""; i.dispatchEvent(new Event("input")); });
  await waitUntil("clearing the search restores the whole result", async () => {
    const t = await visibleTexts(frame, "#graph .node-label");
    return names.every((n) => t.includes(n)) ? t : { ok: false, t };
  });

  // The keyboard opens an entity: open_nodes and its history.
  await tabTo(s.page, frame, '#graph .node[aria-label^="Ada Lovelace,"]');
  await s.page.keyboard.press("Enter");
  await frame.waitForFunction(() => /History/.test(document.getElementById("detail").textContent) && !/Reading the history/.test(document.getElementById("detail").textContent));
  const detail = await frame.$eval("#detail", (d) => d.innerText);
  check(detail.includes("Wrote the first published program"), "the details show the entity's observations", detail);
  check(detail.includes("Note G") && detail.includes("wrote"), "the details show the entity's relations", detail);
  check(/created/.test(detail), "the details show the entity's history", detail);
  const reqs = await s.viewRequests();
  check(reqs.some((r) => r.method === "tools/call" && r.params?.name === "open_nodes" && r.params.arguments.names[0] === "Ada Lovelace"), "opening calls open_nodes through the bridge", reqs);
  check(reqs.some((r) => r.method === "resources/read" && r.params?.uri === "memory://entities/Ada%20Lovelace/history"), "opening reads memory://entities/{name}/history through the bridge", reqs);

  if (opts.screenshot) {
    await (await s.page.$("#frame")).screenshot({ path: opts.screenshot });
    console.log(`browser test: wrote ${opts.screenshot}`);
  }

  // Thousands of entities: clusters by type, then pages of a type.
  const types = { person: 1500, project: 400, city: 120 };
  let n = 0;
  const big = [];
  for (const [type, count] of Object.entries(types)) for (let i = 0; i < count; i++) big.push({ name: `${type} ${String(i).padStart(4, "0")}`, entityType: type, observations: [`seeded #${n++}`] });
  for (let i = 0; i < big.length; i += 500) check(!(await s.call("create_entities", { entities: big.slice(i, i + 500) })).isError, "seeding thousands of entities");
  const rels = [];
  for (let i = 0; i < 1500; i++) rels.push({ from: `person ${String(i).padStart(4, "0")}`, to: `project ${String(i % 400).padStart(4, "0")}`, relationType: "works on" });
  for (let i = 0; i < rels.length; i += 500) check(!(await s.call("create_relations", { relations: rels.slice(i, i + 500) })).isError, "seeding relations");
  const large = await s.show("read_graph", {});
  await large.frame.waitForSelector('body[data-ready="true"]');
  const overview = await waitUntil("the large graph shows its types", async () => {
    const t = await visibleTexts(large.frame, "#graph .node-label");
    return t.some((x) => x.startsWith("person (")) ? t : { ok: false, t };
  });
  check(overview.includes("person (1,503)") && overview.includes("project (400)"), "the overview has one node per type with its count", overview);
  const drawn = await large.frame.$$eval("#graph .node", (x) => x.length);
  check(drawn === overview.length && drawn <= 250, "the overview draws one node per type, not thousands", drawn);
  const typeEdges = await visibleTexts(large.frame, "#graph .link-label");
  check(typeEdges.some((t) => t.startsWith("works on ×1,500")), "the overview's edges count relation types", typeEdges);
  await tabTo(s.page, large.frame, '#graph .node[aria-label^="Entity type person:"]');
  await s.page.keyboard.press("Enter");
  await large.frame.waitForFunction(() => /page 1 of/.test(document.getElementById("status").textContent));
  const paged = await large.frame.$$eval("#graph .node", (x) => x.length);
  check(paged === 250, "a type of 1,503 entities is drawn a page (250) at a time", paged);
  const status = await large.frame.$eval("#status", (e) => e.textContent);
  check(/1,503 entities of type person, page 1 of 7/.test(status), "the status says where the page is", status);
  await large.frame.click("#crumbs button:nth-of-type(3)"); // All types, Previous, Next
  await large.frame.waitForFunction(() => /page 2 of 7/.test(document.getElementById("status").textContent));
}

async function everything(s, info) {
  const about = info.tools.find((t) => t.name === "about");
  check(about?.view === "ui://everything/about.html", "about links ui://everything/about.html", about);
  const greet = info.tools.find((t) => t.name === "app_greet");
  check(JSON.stringify(greet?.visibility) === '["app"]', "app_greet is listed for views only", greet);
  const { frame } = await s.show("about", {});
  await frame.waitForFunction(() => !/Waiting/.test(document.getElementById("about").textContent));
  await frame.click('#greet button[type="submit"]');
  await frame.waitForFunction(() => /Hello, view/.test(document.getElementById("greeting").textContent));
  const reqs = await s.viewRequests();
  check(reqs.some((r) => r.method === "tools/call" && r.params?.name === "app_greet"), "the about view calls app_greet through the bridge", reqs);
}

// basic: ext-apps' own example server and view, to show that the host
// itself does what the specification asks.
async function basic(s, info) {
  const tool = info.tools.find((t) => t.name === "get-time");
  check(tool?.view === "ui://get-time/mcp-app.html", "get-time links its view", tool);
  const { frame } = await s.show("get-time", {});
  const first = await waitUntil("the example view shows the tool's result", async () => {
    const t = await frame.$eval("#server-time", (e) => e.textContent);
    return /^\d{4}-\d\d-\d\dT/.test(t) ? t : { ok: false, t };
  });
  await frame.click("#get-time-btn");
  await waitUntil("the example view shows a new time from its own tools/call", async () => {
    const t = await frame.$eval("#server-time", (e) => e.textContent);
    return /^\d{4}-\d\d-\d\dT/.test(t) && t !== first ? t : { ok: false, t };
  });
  const reqs = await s.viewRequests();
  check(reqs.some((r) => r.method === "tools/call" && r.params?.name === "get-time"), "the example view calls get-time through the bridge", reqs);
}

// scenario runs one target's checks in a page of its own, then the checks
// every target shares: the traffic and the CSP.
async function scenario(browser, name, url, hostScript, checks) {
  const s = new Session(browser, name);
  try {
    const info = await s.open(url, hostScript);
    await checks(s, info);
    s.checkTraffic();
    await s.checkCSPEnforced();
    console.log(`browser test: ${name} passed`);
  } finally {
    await s.close();
  }
}

const hostScript = (await build({
  entryPoints: [join(here, "host", "host.js")],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  write: false,
  logLevel: "warning",
})).outputFiles[0].text;

const browser = await puppeteer.launch({
  executablePath: opts.chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check"],
});
let status = 0;
try {
  if (opts.basic) await scenario(browser, "ext-apps basic server", opts.basic, hostScript, basic);
  if (opts.everything) await scenario(browser, "mcp-everything about view", opts.everything, hostScript, everything);
  if (opts.memory) await scenario(browser, "mcp-memory explorer", opts.memory, hostScript, memory);
} catch (err) {
  console.error(`browser test FAILED: ${err.message}`);
  if (err.name !== "AssertionError") console.error(err.stack);
  status = 1;
} finally {
  await browser.close();
}
process.exit(status);
