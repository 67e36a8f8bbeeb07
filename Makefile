# The two commands a fresh machine needs: `make run` and `make test`.
# Each installs (npm ci) and builds what it needs itself.

NPM_STAMP := node_modules/.package-lock.json
# The web console has its own dependencies (console/package.json): installed and built apart from the server's.
CONSOLE_STAMP := console/node_modules/.package-lock.json
STORE ?= file://./data
LISTEN ?= 127.0.0.1:8080
# The controller-manager's /metrics and /healthz: port 0 takes a free port (logged), so that two `make run`s coexist
# (given each its own LISTEN and TLS_LISTEN).
METRICS_LISTEN ?= 127.0.0.1:0
# HTTPS beside the plain HTTP of LISTEN, with a self-signed certificate made once in ./data/tls (kubectl sends
# tokens only over HTTPS); TLS_LISTEN=off for none.
TLS_LISTEN ?= 127.0.0.1:8443

.PHONY: install build run test test-browser test-scale bench bench-scale drill drill-storage lint format clean console-build \
	console-install chromium readme-screenshots

install: $(NPM_STAMP) $(CONSOLE_STAMP)

# A node_modules (or console/node_modules) that is a link points at an install shared with other checkouts (git
# worktrees): npm ci would empty it for all of them, so it is left alone.
$(NPM_STAMP): package.json package-lock.json
	@if [ -L node_modules ]; then echo "node_modules is a link to a shared install: not reinstalled"; \
	else npm ci --no-audit --no-fund && touch $@; fi

$(CONSOLE_STAMP): console/package.json console/package-lock.json
	@if [ -L console/node_modules ]; then echo "console/node_modules is a link to a shared install: not reinstalled"; \
	else cd console && npm ci --no-audit --no-fund && touch node_modules/.package-lock.json; fi

console-install: $(CONSOLE_STAMP)

# Each build step runs only when one of its inputs is newer than what it made last (so that a `make run` with nothing
# changed starts at once), and says what it is doing first: the first build takes about a minute.
CONSOLE_SOURCES := $(shell find console/src -type f ! -name '*.test.*') console/index.html console/vite.config.ts \
	console/tsconfig.json console/package.json
CONSOLE_BUILT := console/dist/index.html
TS_SOURCES := $(shell find cmd pkg controllers modules bench -name '*.ts' ! -name '*.test.ts') tsconfig.json \
	tsconfig.build.json package.json
# Touched after each successful compilation: tsc writes only the files that changed, so no output file's time says
# when it last ran.
TS_BUILT := dist/.tsc-built

# The console's static files (console/dist), served by the apiserver at /console/.
console-build: $(CONSOLE_BUILT)

$(CONSOLE_BUILT): $(CONSOLE_SOURCES) $(CONSOLE_STAMP)
	@echo "building the web console (vite; about 30 s the first time) ..."
	cd console && npx vite build --logLevel warn

$(TS_BUILT): $(TS_SOURCES) $(NPM_STAMP)
	@echo "compiling the server (tsc; about 40 s the first time) ..."
	npx tsc -p tsconfig.build.json
	@touch $@

build: install console-build $(TS_BUILT)

# The browser the console's end-to-end tests drive (Debian's package).
chromium:
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y --no-install-recommends chromium)

run: build
	@echo "starting the apiserver and the controller-manager ..."
	node dist/cmd/local-up/main.js --listen $(LISTEN) --store $(STORE) --tls-listen $(TLS_LISTEN) \
		--metrics-listen $(METRICS_LISTEN)

# The tests run the server from its TypeScript sources (jest and test/support/ts-require.js transpile it), so only the
# console is built first (the apiserver's tests serve console/dist); `make lint` type-checks (docs/adr/0064).
test: install console-build
	cd console && npx vitest run
	npx jest --ci

# The console's end-to-end suites in headless Chromium (minutes; CI runs them after `make test`).
test-browser: build chromium
	npx jest --ci --config jest.browser.config.js

# The cases that put thousands of objects through the system (test/scale/): minutes, so apart from `make test`.
test-scale: build
	npx jest --ci --config jest.scale.config.js

bench: build chromium
	node dist/bench/storage/main.js
	node dist/bench/backends/main.js
	node dist/bench/apiserver/main.js
	node dist/bench/controllers/main.js
	node dist/bench/rbac/main.js
	node dist/bench/plugins/main.js
	node dist/bench/console/main.js

bench-scale: build
	node dist/bench/scale/main.js

# The Redis failover drill through apiserver and controller-manager processes (bench/README.md); starts its own
# Redis processes.
drill: build
	node dist/bench/drill/processes-main.js

# The same drill on the storage layer alone (Sentinel and Cluster), and the ack and shard throughput figures.
drill-storage: build
	node dist/bench/drill/main.js

lint: install
	npx tsc -p tsconfig.json --noEmit
	npx eslint --max-warnings 0 .
	npx prettier --check --log-level warn .
	cd console && npx tsc -p tsconfig.json --noEmit

# The console screenshots README.md and docs/console.md show, from the end-to-end tests' (test-results/console/,
# written by `make test`), as 128-colour PNGs (Debian's pngquant) to keep the repository small.
README_SHOTS := admin-home:console-admin role-editor-new:console-role-editor model-filter-chips:console-model-list \
	assign-roles:console-assign-roles dashboard:console-dashboard yaml-editor-dark:console-yaml-editor-dark
readme-screenshots:
	@for shot in $(README_SHOTS); do \
		pngquant --force --strip 128 --output "docs/images/$${shot##*:}.png" "test-results/console/$${shot%%:*}.png" \
			|| exit 1; \
	done

# Rewrites every file the formatter owns (.prettierrc.json; what it leaves alone is in .prettierignore).
format: install
	npx prettier --write --log-level warn .

clean:
	rm -rf dist coverage .jest-cache console/dist
