package skills

import (
	"strings"
	"testing"
)

func TestCheckName(t *testing.T) {
	for name, want := range map[string]string{
		"pdf-processing":        "",
		"a":                     "",
		"v2-tools":              "",
		strings.Repeat("a", 64): "",
		"":                      "is empty",
		strings.Repeat("a", 65): "65 characters",
		"-pdf":                  "starts or ends with a hyphen",
		"pdf-":                  "starts or ends with a hyphen",
		"pdf--processing":       "consecutive hyphens",
		"PDF-Processing":        "contains 'P'",
		"pdf_processing":        "contains '_'",
		"café":                  "contains 'é'",
	} {
		got := CheckName(name)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("CheckName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestDigestAndType(t *testing.T) {
	// sha256 of "abc", from FIPS 180-2.
	if got := Digest([]byte("abc")); got != "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("Digest(abc) = %s", got)
	}
	for _, c := range []struct {
		name    string
		content string
		mime    string
		text    bool
	}{
		{"SKILL.md", "# x", "text/markdown", true},
		{"scripts/run.PY", "print(1)", "text/x-python", true},
		{"notes", "plain words", "text/plain", true},
		{"blob", "\x00\x01", "application/octet-stream", false},
		{"bad-utf8", "\xff\xfe", "application/octet-stream", false},
		{"logo.png", "\x89PNG", "image/png", false},
	} {
		if got := MimeType(c.name, []byte(c.content)); got != c.mime {
			t.Errorf("MimeType(%s) = %s, want %s", c.name, got, c.mime)
		}
		if got := IsText([]byte(c.content)); got != c.text {
			t.Errorf("IsText(%q) = %v", c.content, got)
		}
	}
}
