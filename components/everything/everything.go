// Package everything is the fixture server for the official MCP
// conformance suite: every tool, resource and prompt the suite exercises,
// written as annotated components like any other server.
//
// The components are grouped by what they exercise:
//
//   - content.go: tools returning each kind of content block;
//   - notify.go: progress and log notifications during a call;
//   - client.go: tools that ask the client (sampling, elicitation);
//   - inputrequired.go: the 2026-07-28 multi round-trip (input_required) flows;
//   - stateless.go: the diagnostic hooks of the server-stateless scenario;
//   - headers.go: request-header mirroring and JSON Schema 2020-12 keywords;
//   - tasks.go: the io.modelcontextprotocol/tasks extension fixtures;
//   - resources.go and prompts.go: resources, the template, prompts and
//     completion;
//   - skills/ and nested/: the Agent Skills of the skills extension
//     (io.modelcontextprotocol/skills), embedded by //mcp:skill, and
//     skills.go: a dynamic skill provided by code;
//   - ui/about.html: the view of the MCP Apps extension
//     (io.modelcontextprotocol/ui) the about tool shows its result in,
//     declared by //mcp:view, and views.go: app_greet, which only that
//     view calls.
//
// ask.go holds the helpers that build the server-to-client requests.
//
//mcp:server name=everything title="Conformance fixture" version=0.1.0
//mcp:skill root=skills
//mcp:skill dir=nested/refunds prefix=acme/billing
//mcp:view uri=ui://everything/about.html file=ui/about.html title="About this server" description="The about tool's text, and a form that greets you through app_greet, a tool only this view calls." border
package everything

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
)

// Media shared by tools, resources and prompts, built once at start-up.
var (
	// pixelPNG is a one-pixel PNG image.
	pixelPNG = onePixelPNG(color.RGBA{R: 0xd0, G: 0x20, B: 0x30, A: 0xff})
	// pixelPNG64 is pixelPNG in base64, as content blocks carry it.
	pixelPNG64 = base64.StdEncoding.EncodeToString(pixelPNG)
	// silenceWAV64 is a very short silent WAV clip in base64.
	silenceWAV64 = base64.StdEncoding.EncodeToString(silentWAV(8000, 4))
)

// onePixelPNG encodes a 1×1 image of colour c.
func onePixelPNG(c color.Color) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, c)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // encoding an in-memory image cannot fail
	}
	return buf.Bytes()
}

// silentWAV returns a mono 16-bit PCM WAV file of n silent samples.
func silentWAV(rate, n uint32) []byte {
	const channels, bits = 1, 16
	dataLen := n * channels * bits / 8
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + dataLen))
	b.WriteString("WAVEfmt ")
	w(uint32(16))                         // fmt chunk size
	w(uint16(1))                          // PCM
	w(uint16(channels))                   // channels
	w(rate)                               // sample rate
	w(uint32(rate * channels * bits / 8)) // byte rate
	w(uint16(channels * bits / 8))        // block align
	w(uint16(bits))                       // bits per sample
	b.WriteString("data")
	w(dataLen)
	b.Write(make([]byte, dataLen))
	return b.Bytes()
}
