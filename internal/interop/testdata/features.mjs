// A stdio MCP server written with the TypeScript SDK's low-level Server,
// for the client interop tests (TestTypeScriptClientFeatures): resources
// a client can subscribe to (resources/subscribe, unsubscribe), a tool
// that changes one (notifications/resources/updated to a subscriber) and
// logs at two levels (notifications/message, filtered by the level of
// logging/setLevel), and a tool list served two tools per page.
// Its argument is the SDK's dist/esm directory.
const esm = process.argv[2];
const { Server } = await import(`${esm}/server/index.js`);
const { StdioServerTransport } = await import(`${esm}/server/stdio.js`);
const types = await import(`${esm}/types.js`);

const server = new Server(
  { name: 'ts-features', version: '1.0.0' },
  { capabilities: { resources: { subscribe: true }, tools: {}, logging: {} } },
);

const resources = ['file:///a.txt', 'file:///b.txt'];
const subscribed = new Set();
const tools = ['one', 'two', 'three', 'four', 'five'].map((name) => ({
  name,
  description: `Answers ${name}.`,
  inputSchema: { type: 'object', properties: {} },
}));
tools.push({
  name: 'touch',
  description: 'Changes a resource and logs it.',
  inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
});
const pageSize = 2;

server.setRequestHandler(types.ListToolsRequestSchema, async (req) => {
  const cursor = req.params?.cursor;
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(start) || start < 0 || start >= tools.length) {
    throw new types.McpError(types.ErrorCode.InvalidParams, `invalid cursor ${cursor}`);
  }
  const next = start + pageSize;
  return { tools: tools.slice(start, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) };
});

server.setRequestHandler(types.CallToolRequestSchema, async (req) => {
  const { name, arguments: args } = req.params;
  if (name === 'touch') {
    await server.sendLoggingMessage({ level: 'debug', logger: 'touch', data: `touching ${args.uri}` });
    await server.sendLoggingMessage({ level: 'info', logger: 'touch', data: `touched ${args.uri}` });
    if (subscribed.has(args.uri)) {
      await server.sendResourceUpdated({ uri: args.uri });
    }
    return { content: [{ type: 'text', text: `touched ${args.uri}` }] };
  }
  return { content: [{ type: 'text', text: name }] };
});

server.setRequestHandler(types.ListResourcesRequestSchema, async () => ({
  resources: resources.map((uri) => ({ uri, name: uri.slice(8), mimeType: 'text/plain' })),
}));
server.setRequestHandler(types.ReadResourceRequestSchema, async (req) => ({
  contents: [{ uri: req.params.uri, mimeType: 'text/plain', text: `contents of ${req.params.uri}` }],
}));
server.setRequestHandler(types.SubscribeRequestSchema, async (req) => {
  if (!resources.includes(req.params.uri)) {
    throw new types.McpError(types.ErrorCode.InvalidParams, `unknown resource ${req.params.uri}`);
  }
  subscribed.add(req.params.uri);
  return {};
});
server.setRequestHandler(types.UnsubscribeRequestSchema, async (req) => {
  subscribed.delete(req.params.uri);
  return {};
});

await server.connect(new StdioServerTransport());
