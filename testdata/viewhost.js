// viewhost.js runs the inline script of a view (an MCP Apps HTML file
// given as the first argument) against a stand-in for the browser: the
// messages the view posts to its parent frame are printed as JSON lines
// {"posted": message}, and JSON lines read from stdin drive it:
//   {"deliver": message}  the host posts message to the view
//   {"submit": "Ada"}     the user types Ada and submits the form
//   {"dump": true}        print {"text": {id: textContent}} of the elements
// It is a test double for TestEverythingViewBridge, not a browser: it
// checks the view's JSON-RPC bridge, not its rendering.
"use strict";
const fs = require("fs");
const readline = require("readline");

const html = fs.readFileSync(process.argv[2], "utf8");
const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
if (scripts.length !== 1) throw new Error("want one inline script, found " + scripts.length);

const out = (v) => process.stdout.write(JSON.stringify(v) + "\n");
const elements = {};
const element = (id) =>
  elements[id] ||
  (elements[id] = {
    textContent: "",
    value: "",
    listeners: {},
    addEventListener(type, f) { this.listeners[type] = f; },
  });
const windowListeners = {};
const parent = { postMessage(message, origin) { out({ posted: message, origin }); } };
const window = { parent, addEventListener(type, f) { windowListeners[type] = f; } };
const document = { getElementById: element, documentElement: { scrollWidth: 320, scrollHeight: 140 } };

new Function("window", "document", scripts[0])(window, document);

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const cmd = JSON.parse(line);
  if (cmd.deliver) windowListeners.message({ source: parent, data: cmd.deliver });
  if (cmd.submit !== undefined) {
    element("name").value = cmd.submit;
    element("greet").listeners.submit({ preventDefault() {} });
  }
  if (cmd.dump) {
    // Let the view's promise callbacks run first.
    setTimeout(() => {
      const text = {};
      for (const id of Object.keys(elements)) text[id] = elements[id].textContent;
      out({ text });
    }, 0);
  }
});
