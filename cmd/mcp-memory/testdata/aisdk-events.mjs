// An agent on the AI SDK's MCP client (@ai-sdk/mcp, experimental_events)
// subscribed to mcp-memory's events by webhook, for the Go test
// TestAISDKEvents (events_aisdk_test.go) to drive. Everything the events
// take is the SDK's own code: events.list, events.subscribe (with the
// verification handshake it answers), the webhook handler that verifies
// each Standard Webhooks signature, refresh and unsubscribe. The script
// adds only an HTTP server around the handler and a way to make it fail.
//
// Environment: AISDK_MCP (file URL of the package's dist/index.js),
// MCP_URL (the server's endpoint), MCP_TOKEN (a bearer token), HOOK_PORT
// (where the webhook listens on 127.0.0.1).
//
// It prints one JSON object per line on stdout, and reads commands, one
// per line, on stdin:
//   subscribe KEY ARGS_JSON   subscribe entity.changed with these arguments, as KEY
//   fail N                    answer the next N event deliveries 503, before the SDK sees them
//   refresh KEY               refresh the subscription KEY
//   unsubscribe KEY           unsubscribe KEY
//   list                      print the event names events/list gives
import http from 'node:http';
import readline from 'node:readline';

const sdk = await import(process.env.AISDK_MCP);
const { createMCPClient, experimental_createMCPEventWebhook: createWebhook } = sdk;

const out = obj => process.stdout.write(JSON.stringify(obj) + '\n');

// The SDK's store contract, in memory: the test's agent lives as long as
// this process.
const records = new Map();
const store = {
  async get(key) { return records.get(key); },
  async getById(id) { for (const r of records.values()) if (r.id === id) return r; return undefined; },
  async set(sub) { records.set(sub.key, structuredClone(sub)); },
  async update(key, patch) { const r = records.get(key); if (r) records.set(key, { ...r, ...structuredClone(patch) }); },
  async delete(key) { records.delete(key); },
};

const client = await createMCPClient({
  transport: { type: 'http', url: process.env.MCP_URL, headers: { Authorization: `Bearer ${process.env.MCP_TOKEN}` } },
  experimental_events: { store },
});

const handler = createWebhook({
  store,
  onEvent: async ({ subscription, event }) => out({ event: { subscription: subscription.id, eventId: event.eventId, name: event.name, data: event.data, cursor: event.cursor } }),
  onGap: async ({ subscription, gap }) => out({ gap: { subscription: subscription.id, cursor: gap.cursor } }),
  onTerminated: async ({ subscription, termination }) => out({ terminated: { subscription: subscription.id, error: termination.error } }),
  onError: error => out({ webhookError: String(error) }),
});

let failing = 0;
const server = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = Buffer.concat(chunks);
  // Verification and control envelopes go through; events fail while asked to.
  let kind = 'event';
  try { kind = JSON.parse(body.toString()).type ?? 'event'; } catch {}
  if (kind === 'event' && failing > 0) {
    failing--;
    out({ refused: req.headers['webhook-id'] });
    res.writeHead(503).end();
    return;
  }
  const request = new Request(`http://127.0.0.1:${process.env.HOOK_PORT}${req.url}`, {
    method: 'POST', headers: req.headers, body,
  });
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
await new Promise(resolve => server.listen(Number(process.env.HOOK_PORT), '127.0.0.1', resolve));

const keys = new Map(); // the test's names for subscriptions -> the SDK's keys
const rl = readline.createInterface({ input: process.stdin });
out({ ready: true });
for await (const line of rl) {
  const [cmd, name, ...rest] = line.trim().split(' ');
  try {
    switch (cmd) {
      case 'list': {
        const page = await client.experimental_events.list();
        out({ list: page.events.map(e => ({ name: e.name, delivery: e.delivery })) });
        break;
      }
      case 'subscribe': {
        const before = new Set(records.keys());
        const result = await client.experimental_events.subscribe({
          name: 'entity.changed',
          arguments: JSON.parse(rest.join(' ') || '{}'),
          delivery: { mode: 'webhook', url: `http://127.0.0.1:${process.env.HOOK_PORT}/hook`, allowInsecureLocalhost: true },
          ttlMs: 3600000,
        });
        for (const k of records.keys()) if (!before.has(k)) keys.set(name, k);
        out({ subscribed: { as: name, id: result.id, refreshBefore: result.refreshBefore, cursor: result.cursor, truncated: result.truncated } });
        break;
      }
      case 'refresh': {
        const result = await client.experimental_events.refresh({ key: keys.get(name) });
        out({ refreshed: { as: name, id: result.id, cursor: result.cursor, deliveryStatus: result.deliveryStatus ?? null } });
        break;
      }
      case 'unsubscribe':
        await client.experimental_events.unsubscribe({ key: keys.get(name) });
        out({ unsubscribed: name });
        break;
      case 'fail':
        failing = Number(name);
        out({ failing });
        break;
      default:
        out({ error: `unknown command ${cmd}` });
    }
  } catch (error) {
    out({ error: String(error?.message ?? error), data: error?.data ?? null, code: error?.code ?? null });
  }
}
await client.close();
server.close();
