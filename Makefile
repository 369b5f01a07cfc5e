# mcpgen: MCP servers from annotated Go structs. `make help` lists the targets.

GO        ?= go
ADDR      ?= 127.0.0.1:8080
DB        ?= memory.db

.PHONY: help run generate check-generated vet test test-short test-go test-browser footprint conformance conformance-client conformance-telemetry conformance-cluster conformance-balancers events-aisdk bench bench-memory-large bench-smoke bench-client bundle-memory build

help:
	@echo "make run              start mcp-memory over Streamable HTTP on $(ADDR) (store: $(DB))"
	@echo "make test-short       the everyday loop: go test -short -count=1 ./..."
	@echo "make test             the whole test suite (what CI runs)"
	@echo "make generate         regenerate generated/ from components/"
	@echo "make check-generated  fail if generated/ is stale"
	@echo "make test-browser     the MCP Apps views in Debian's chromium (apt-get installs it), with the explorer's drift check (part of make test)"
	@echo "make footprint        packages linked and stripped size vs a go-sdk server, at most 1.2x (part of make test)"
	@echo "make conformance      official MCP conformance suite against mcp-everything"
	@echo "make conformance-client  the suite's client scenarios against our client (both requirement sets, skills, client credentials)"
	@echo "make conformance-telemetry  the same with Prometheus metrics and OTLP tracing on, checking both"
	@echo "make conformance-cluster  the same against 3 replicas on PostgreSQL behind a round-robin proxy"
	@echo "make conformance-balancers  the same behind nginx and HAProxy from docs/deploy/ (apt-get installs them, as root)"
	@echo "make events-aisdk     mcp-memory's events driven by the AI SDK's MCP client (webhooks, SIGKILL, 3 replicas; in make test through go test)"
	@echo "make bench            the bench suite, ~7 min (writes docs/bench/results.md and the chart)"
	@echo "make bench-memory-large  mcp-memory vs the reference up to 1,000,000 entities, ~15 min (writes docs/bench/memory-large.md)"
	@echo "make bundle-memory    mcpgen bundle ./cmd/mcp-memory (two platforms), validated by the mcpb tool"
	@echo "make bench-smoke      the bench harness in seconds, every answer checked (part of make test)"
	@echo "make bench-client     client CPU per call against the go-sdk client, side by side, ~1 min (prints; see docs/bench/log.md)"

run:
	$(GO) run ./cmd/mcp-memory --http $(ADDR) --db $(DB)

build:
	$(GO) build -o bin/ ./cmd/...

generate:
	$(GO) generate ./...

check-generated:
	$(GO) run ./cmd/mcpgen -check

vet:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	cd bench && $(GO) vet ./...

test-go:
	$(GO) test -count=1 ./...
	cd bench && $(GO) test -count=1 ./harness/

# The everyday loop: the Go tests without the slowest end-to-end ones
# (those that skip under -short); no vet, conformance or bench smoke.
test-short:
	$(GO) test -short -count=1 ./...

# The MCP Apps views in a real browser: the drift check of mcp-memory's
# explorer (components/memory/ui/explorer.html against its sources), then
# Debian's chromium under puppeteer-core on a host built from ext-apps'
# AppBridge, against mcp-memory, mcp-everything and ext-apps' own basic
# example server. chromium comes from apt-get when missing (as root).
test-browser:
	scripts/browser-test.sh

conformance:
	scripts/conformance.sh

conformance-client:
	scripts/conformance-client.sh

conformance-telemetry:
	TELEMETRY=1 scripts/conformance.sh

conformance-cluster:
	scripts/conformance-cluster.sh

# mcp-memory's events driven by the AI SDK's MCP client (experimental_events):
# webhook subscribe, signatures, retries, SIGKILL, three replicas on PostgreSQL.
events-aisdk:
	scripts/events-aisdk.sh

# The cluster run behind real balancers, started from the configurations
# docs/deployment.md ships (docs/deploy/nginx.conf, docs/deploy/haproxy.cfg);
# nginx-light and haproxy come from apt-get when missing. Both run even
# when the first fails.
conformance-balancers:
	@status=0; for b in nginx haproxy; do BALANCER=$$b scripts/conformance-cluster.sh || status=1; done; exit $$status

# The smallest server (testdata/lightmain) against a one-tool go-sdk
# server: packages linked and stripped binary size, each at most 1.2x the
# go-sdk's (bench/footprint_test.go). Deterministic, not timed; the first
# run builds both with -trimpath and cgo off, later runs hit the cache.
footprint:
	cd bench && $(GO) test -count=1 -run '^TestFootprint$$' -v .

test: vet check-generated test-go footprint conformance conformance-client conformance-telemetry conformance-cluster conformance-balancers bench-smoke test-browser

bench:
	scripts/bench.sh

# The memory workload at scale: 1,000 to 1,000,000 entities with 3
# observations each; the reference is stopped after the first size where
# one of its calls takes more than 2 s.
bench-memory-large:
	BENCH_GEN=0 scripts/bench.sh -- -only memory -mem-sizes 1000,10000,100000,300000,1000000 -mem-obs 3 \
		-ref-max-call 2s -ref-budget 20m -mem-budget 30m -out-name memory-large.md -postgres ''
# (SQLite and the reference only: PostgreSQL stands beside SQLite up to
# 100,000 entities in make bench; growing it to 1,000,000 takes hours.)

# mcpgen bundle ./cmd/mcp-memory for linux/amd64 and darwin/arm64, checked
# with the mcpb tool (make test bundles a smaller server; cross-compiling
# mcp-memory's dependencies takes many minutes on a cold cache).
bundle-memory:
	MCPGEN_TEST_BUNDLE_MEMORY=1 $(GO) test -count=1 -run '^TestBundleMemory$$' -v ./cmd/mcpgen

# The bench harness end to end in seconds: every target, mode and workload
# once, every answer checked; fails on a wrong answer.
bench-smoke:
	scripts/bench.sh -smoke

# The client's CPU, time, bytes and allocations per call against the
# official go-sdk client on the same server (bench/client_bench_test.go):
# HTTP, in-process pipes and stdio, both eras, with the ratio. Prints;
# the table in docs/bench/log.md is written by hand.
bench-client:
	cd bench && $(GO) test -run '^$$' -bench ClientCall -benchmem -count 3 .
