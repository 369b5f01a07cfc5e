// The host page of the browser test: an MCP Apps host built on ext-apps'
// AppBridge and the official TypeScript client, as a chat client would be.
// It connects to the server under test (same origin: /mcp, which the test's
// web server relays), calls a tool, reads the view the tool links to, loads
// it into a sandboxed frame on another origin under the view's declared
// CSP, and hands it the tool's input and result. run.mjs drives it through
// window.harness.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { AppBridge, PostMessageTransport, RESOURCE_MIME_TYPE, getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";

const INFO = { name: "mcpgen-browser-test-host", version: "0.1.0" };
const UI_EXTENSION = "io.modelcontextprotocol/ui";
const params = new URLSearchParams(location.search);
const sandboxOrigin = params.get("sandbox");

let client = null;
let tools = new Map();
let bridge = null;
// Every message the view sent through the bridge, in order.
const fromView = [];

async function connect() {
  client = new Client(INFO, {
    capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  const list = await client.listTools();
  tools = new Map(list.tools.map((t) => [t.name, t]));
  return {
    server: client.getServerVersion(),
    extensions: Object.keys(client.getServerCapabilities()?.extensions ?? {}),
    tools: list.tools.map((t) => ({ name: t.name, view: getToolUiResourceUri(t) ?? null, visibility: t._meta?.ui?.visibility ?? null })),
  };
}

async function callTool(name, args) {
  return client.callTool({ name, arguments: args ?? {} });
}

// readView reads a ui:// resource as a host must: one content item of the
// view MIME type, its HTML as text (or base64 blob) and its _meta.ui.
async function readView(uri) {
  const res = await client.readResource({ uri });
  if (res.contents.length !== 1) throw new Error(`${uri}: ${res.contents.length} contents, want 1`);
  const c = res.contents[0];
  if (c.mimeType !== RESOURCE_MIME_TYPE) throw new Error(`${uri}: MIME type ${c.mimeType}, want ${RESOURCE_MIME_TYPE}`);
  const html = typeof c.text === "string" ? c.text : atob(c.blob);
  return { html, ui: c._meta?.ui ?? {} };
}

// show calls the tool and shows its result in its view, in a fresh frame.
// It resolves once the view is initialized and has been handed the input
// and the result.
async function show(name, args) {
  const tool = tools.get(name);
  if (!tool) throw new Error(`the server lists no tool ${name}`);
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`tool ${name} links no view`);
  const resultPromise = callTool(name, args);
  const view = await readView(uri);

  if (bridge) {
    await bridge.teardownResource({}).catch(() => {});
    await bridge.close();
  }
  const old = document.getElementById("frame");
  const frame = document.createElement("iframe");
  frame.id = "frame";
  frame.title = `${name}: ${uri}`;
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  old.replaceWith(frame);

  const url = new URL("/sandbox.html", sandboxOrigin);
  url.searchParams.set("csp", JSON.stringify(view.ui.csp ?? {}));
  const proxyReady = new Promise((resolve) => {
    const on = (e) => {
      if (e.source === frame.contentWindow && e.data?.method === "ui/notifications/sandbox-proxy-ready") {
        window.removeEventListener("message", on);
        resolve();
      }
    };
    window.addEventListener("message", on);
  });
  frame.src = url.href;
  await proxyReady;

  const caps = client.getServerCapabilities() ?? {};
  bridge = new AppBridge(client, INFO, {
    openLinks: {},
    logging: {},
    serverTools: caps.tools ?? {},
    serverResources: caps.resources ?? {},
  }, {
    hostContext: {
      theme: "light",
      displayMode: "inline",
      availableDisplayModes: ["inline"],
      platform: "web",
      locale: "en-US",
      containerDimensions: { maxHeight: 560 },
      toolInfo: { tool },
    },
  });
  bridge.onmessage = async () => ({});
  bridge.onopenlink = async () => ({});
  bridge.addEventListener("loggingmessage", (p) => console.log("view log:", JSON.stringify(p)));
  const initialized = new Promise((resolve) => bridge.addEventListener("initialized", resolve));
  const transport = new PostMessageTransport(frame.contentWindow, frame.contentWindow);
  await bridge.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    fromView.push(message);
    deliver?.(message, extra);
  };
  await bridge.sendSandboxResourceReady({ html: view.html, csp: view.ui.csp, permissions: view.ui.permissions });
  await initialized;
  await bridge.sendToolInput({ arguments: args ?? {} });
  const result = await resultPromise;
  await bridge.sendToolResult(result);
  return { uri, csp: view.ui.csp ?? null, appInfo: bridge.getAppVersion() ?? null, sandbox: url.href };
}

window.harness = {
  connect,
  callTool,
  show,
  // The tool calls and resource reads the view made through the bridge.
  viewRequests: () => fromView.filter((m) => m.method && m.id !== undefined).map((m) => ({ method: m.method, params: m.params })),
};
document.body.dataset.harness = "ready";
