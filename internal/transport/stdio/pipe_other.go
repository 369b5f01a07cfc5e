//go:build !linux

package stdio

import "io"

// pollable returns r: reopening a pipe is Linux-only.
func pollable(r io.Reader) (io.Reader, func()) { return r, func() {} }

// growPipe does nothing outside Linux.
func growPipe(io.Writer) {}
