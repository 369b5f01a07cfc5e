// Package balancer starts nginx or HAProxy in front of test replicas, from
// the configurations operators get (docs/deploy/nginx.conf and
// haproxy.cfg), changed only in their addresses, as
// scripts/conformance-cluster.sh does for the conformance suite.
//
// The balancer is installed from the Debian packages when it is missing
// and the test runs as root; where it cannot be, the test is skipped with
// a line saying so, or fails under CI=true.
package balancer

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Start runs kind ("nginx" or "haproxy") on a free port of 127.0.0.1 in
// front of the three backends (host:port), until the test ends, and
// returns its base URL.
func Start(t testing.TB, kind string, backends [3]string) string {
	t.Helper()
	conf, pkg := map[string]string{"nginx": "nginx.conf", "haproxy": "haproxy.cfg"}[kind], kind
	if kind == "nginx" {
		pkg = "nginx-light"
	}
	if conf == "" {
		t.Fatalf("balancer: unknown kind %q", kind)
	}
	bin := ensure(t, kind, pkg)
	src, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "deploy", conf))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	out := string(src)
	for i, b := range backends {
		out = replaceOnce(t, conf, out, fmt.Sprintf("10.0.0.1%d:8080", i+1), b)
	}
	if kind == "nginx" {
		out = replaceOnce(t, conf, out, "    listen 80;", "    listen "+addr+";")
	} else {
		out = replaceOnce(t, conf, out, "    bind :80 ", "    bind "+addr+" ")
	}

	work := t.TempDir()
	_ = os.Chmod(work, 0o755) // nginx's workers run as nobody under root
	var cmd *exec.Cmd
	switch kind {
	case "nginx":
		write(t, filepath.Join(work, "mcp.conf"), out)
		write(t, filepath.Join(work, "nginx.conf"), fmt.Sprintf(`daemon off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
worker_processes 2;
events { worker_connections 1024; }
http {
    access_log %[1]s/access.log;
    client_body_temp_path %[1]s/client_body;
    proxy_temp_path %[1]s/proxy;
    fastcgi_temp_path %[1]s/fastcgi;
    uwsgi_temp_path %[1]s/uwsgi;
    scgi_temp_path %[1]s/scgi;
    include %[1]s/mcp.conf;
}
`, work))
		cmd = exec.Command(bin, "-p", work, "-e", filepath.Join(work, "error.log"), "-c", filepath.Join(work, "nginx.conf"))
	case "haproxy":
		write(t, filepath.Join(work, "haproxy.cfg"), out)
		cmd = exec.Command(bin, "-db", "-f", filepath.Join(work, "haproxy.cfg"), "-p", filepath.Join(work, "haproxy.pid"))
	}
	log, err := os.Create(filepath.Join(work, "balancer.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", kind, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(work, "balancer.log"))
			e, _ := os.ReadFile(filepath.Join(work, "error.log"))
			t.Logf("%s log:\n%s%s", kind, b, e)
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(filepath.Join(work, "balancer.log"))
			t.Fatalf("%s did not listen on %s:\n%s", kind, addr, b)
		}
	}
}

// ensure returns the path of the balancer's binary, installing the
// Debian package when it is missing and the test runs as root.
func ensure(t testing.TB, bin, pkg string) string {
	t.Helper()
	find := func() string {
		for _, dir := range []string{"", "/usr/sbin/", "/sbin/"} {
			if p, err := exec.LookPath(dir + bin); err == nil {
				return p
			}
		}
		return ""
	}
	if p := find(); p != "" {
		return p
	}
	if _, err := exec.LookPath("apt-get"); err == nil && os.Getuid() == 0 {
		install := func() error {
			c := exec.Command("apt-get", "install", "-y", "-q", pkg)
			c.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
			return c.Run()
		}
		if install() != nil { // a stale package index: refresh it once
			_ = exec.Command("apt-get", "update", "-q").Run()
			_ = install()
		}
		if p := find(); p != "" {
			return p
		}
	}
	msg := fmt.Sprintf("%s is not installed and could not be (apt-get install %s, as root)", bin, pkg)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; CI=true requires it")
	}
	t.Skip("SKIP: " + msg)
	return ""
}

func replaceOnce(t testing.TB, conf, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("docs/deploy/%s no longer has %q, the address the tests replace", conf, old)
	}
	return strings.Replace(s, old, new, 1)
}

func write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// repoRoot is the directory of this module's go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}
