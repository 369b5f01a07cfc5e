package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
)

// signer makes opaque tokens (cursors, requestState) that the server can
// prove it issued and that nobody altered: base64url(payload || HMAC-SHA256).
type signer struct{ key []byte }

func (g signer) mac(payload []byte) []byte {
	h := hmac.New(sha256.New, g.key)
	h.Write(payload)
	return h.Sum(nil)
}

func (g signer) seal(payload string) string {
	b := append([]byte(payload), g.mac([]byte(payload))...)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (g signer) open(token string) (string, bool) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) < sha256.Size {
		return "", false
	}
	payload, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if !hmac.Equal(sum, g.mac(payload)) {
		return "", false
	}
	return string(payload), true
}
