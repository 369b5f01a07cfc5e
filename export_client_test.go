package mcpgen

import (
	"context"
	"io"
)

// PipeTransportForTest is a [ClientTransport] over r (what the server
// writes) and w (what it reads), the pipes of a [CommandTransport]
// without a process, so that a test can play a hostile stdio server.
func PipeTransportForTest(r io.Reader, w io.WriteCloser) ClientTransport {
	return pipeTransport{r: r, w: w}
}

type pipeTransport struct {
	r io.Reader
	w io.WriteCloser
}

func (t pipeTransport) dial(_ context.Context, c *Client) (clientConn, error) {
	return newLineConn(c, t.r, t.w), nil
}
