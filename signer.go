package mcpgen

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
)

// signer makes opaque tokens (cursors, requestState) that the server can
// prove it issued and that nobody altered: base64url(payload || HMAC-SHA256).
// In a cluster the keys are the deployment's (ring, newest first): tokens
// are sealed with the newest and any of them opens them.
type signer struct {
	key  []byte
	ring *keyring
}

func (g signer) mac(payload []byte) []byte { return macWith(g.key, payload) }

func macWith(key, payload []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(payload)
	return h.Sum(nil)
}

func (g signer) seal(payload string) string {
	key := g.key
	if g.ring != nil {
		key = g.ring.current()[0]
	}
	b := append([]byte(payload), macWith(key, []byte(payload))...)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (g signer) open(token string) (string, bool) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) < sha256.Size {
		return "", false
	}
	payload, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if g.ring == nil {
		return string(payload), hmac.Equal(sum, g.mac(payload))
	}
	for attempt := 0; attempt < 2; attempt++ {
		for _, key := range g.ring.current() {
			if hmac.Equal(sum, macWith(key, payload)) {
				return string(payload), true
			}
		}
		// Perhaps signed with a key another replica just made.
		if attempt == 0 && !g.ring.reloadSoon() {
			break
		}
	}
	return "", false
}
