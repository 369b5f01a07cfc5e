// Preloaded (node --import) before the TypeScript SDK's example servers
// that listen on the fixed port 3000: listens on $MCP_PORT instead, so
// that tests running at the same time do not collide. The example itself
// runs unchanged.
import http from 'node:http';

const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (port, ...rest) {
  if (port === 3000 && process.env.MCP_PORT) {
    port = Number(process.env.MCP_PORT);
  }
  return listen.call(this, port, ...rest);
};
