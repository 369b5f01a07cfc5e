//go:build !linux

package mcpgen

import "io"

// pollable returns r: reading stdin through the poller is done on Linux
// only.
func pollable(r io.Reader, _ io.Writer) (io.Reader, func()) { return r, func() {} }

// growPipe does nothing outside Linux.
func growPipe(io.Writer) {}
