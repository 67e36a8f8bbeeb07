# The two commands a fresh machine needs: `make run` and `make test`.
# Each installs (npm ci) and builds what it needs itself.

NPM_STAMP := node_modules/.package-lock.json
STORE ?= file://./data
LISTEN ?= 127.0.0.1:8080
# The controller-manager's /metrics and /healthz: port 0 takes a free port (logged), so that two `make run`s coexist.
METRICS_LISTEN ?= 127.0.0.1:0
# TLS=1: serve HTTPS with a self-signed certificate in ./data/tls (kubectl sends tokens only over HTTPS)
TLS ?=

.PHONY: install build run test bench bench-scale lint format clean

install: $(NPM_STAMP)

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

build: install
	npx tsc -p tsconfig.build.json

run: build
	node dist/cmd/local-up/main.js --listen $(LISTEN) --store $(STORE) --metrics-listen $(METRICS_LISTEN) $(if $(TLS),--tls)

test: build
	npx jest --ci

bench: build
	node dist/bench/storage/main.js
	node dist/bench/backends/main.js
	node dist/bench/apiserver/main.js
	node dist/bench/controllers/main.js
	node dist/bench/rbac/main.js
	node dist/bench/plugins/main.js

bench-scale: build
	node dist/bench/scale/main.js

lint: install
	npx tsc -p tsconfig.json --noEmit
	npx eslint --max-warnings 0 .
	npx prettier --check --log-level warn .

# Rewrites every file the formatter owns (.prettierrc.json; what it leaves alone is in .prettierignore).
format: install
	npx prettier --write --log-level warn .

clean:
	rm -rf dist coverage .jest-cache
