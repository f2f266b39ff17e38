# The two commands of the README. Both install what they need first.
SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8000
# Homebrew's icu4c and openssl@3 are keg-only: point pkg-config, and so SwiftPM, at them.
ifeq ($(shell uname),Darwin)
export PKG_CONFIG_PATH := $(shell brew --prefix icu4c 2>/dev/null)/lib/pkgconfig:$(shell brew --prefix openssl@3 2>/dev/null)/lib/pkgconfig:$(PKG_CONFIG_PATH)
endif

.PHONY: run test build deps test-deps clean check-apple bench resilience

## make run: install libraries if missing, build release, serve on 127.0.0.1:8000 (SQLite, console mail)
run: deps
	$(SWIFT) build -c release --product account-server
	.build/release/account-server serve --host $(HOST) --port $(PORT)

## make test: install what tests need, build everything, run the whole suite
test: test-deps check-apple
	@scripts/test.sh

## Apple-only files (SwiftUI, Security) cannot be compiled on Linux; at least they must parse.
check-apple:
	@files=$$(grep -rlE 'canImport\((SwiftUI|Security)\)' Sources Examples 2>/dev/null); \
	if [ -n "$$files" ]; then swiftc -parse $$files && echo "check-apple: $$(echo $$files | wc -w) Apple-only files parse"; fi

## make bench: the release server with deployment defaults beside nginx, raw Argon2id, PostgreSQL and the
## original Django backend, at 1,000 and 1,000,000 accounts (BENCH_ARGS="--compare OLD_BINARY": two builds)
bench: deps
	@command -v wrk >/dev/null && command -v nginx >/dev/null && command -v gcc >/dev/null && \
		command -v psql >/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && \
		python3 -c 'import ensurepip' 2>/dev/null || \
		(apt-get update && apt-get install -y wrk nginx-light gcc libsodium-dev postgresql python3-venv)
	python3 bench/run.py $(BENCH_ARGS)

## make resilience: kill -9, slow clients, soak, PostgreSQL outage, fuzzing against the release server (QUICK=1: ~2 minutes)
resilience: deps
	@command -v sqlite3 >/dev/null || (apt-get update && apt-get install -y sqlite3)
	@python3 -c 'import ensurepip' 2>/dev/null || (apt-get update && apt-get install -y python3-venv)
	python3 resilience/run.py $(if $(QUICK),--quick) $(RESILIENCE_ARGS)

build: deps
	$(SWIFT) build

deps:
	@scripts/install-deps.sh

test-deps:
	@scripts/install-deps.sh --test

clean:
	rm -rf .build
