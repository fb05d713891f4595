# GraphStore: build, run, test, install.
PREFIX ?= /usr/local
SWIFT ?= swift
EXAMPLE_STORE ?= examples/BookStore/BookStore.sqlite
EXAMPLE_MODEL ?= examples/BookStore/BookStore.xcdatamodeld
VECTORS ?= ../shared/corpus/predicates/vectors.jsonl

.PHONY: all build run test install deps vectors clean bench

all: build

## deps: install the system libraries the build needs (libedit, sqlite3, zlib headers).
deps:
	@missing=""; \
	for pkg in libedit-dev libsqlite3-dev zlib1g-dev; do \
	  dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "missing system packages; run: sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

## run: open the bundled example store in the REPL.
run: build
	$(SWIFT) run -q graphstore --model $(EXAMPLE_MODEL) $(EXAMPLE_STORE)

## test: the whole test suite.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## vectors: run the predicate vector suite on VECTORS (default: the shared file).
vectors: deps
	$(SWIFT) run -q predicate-vectors $(VECTORS)

install: deps
	$(SWIFT) build -c release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/graphstore" $(DESTDIR)$(PREFIX)/bin/graphstore
	install -m 644 man/graphstore.1 $(DESTDIR)$(PREFIX)/share/man/man1/graphstore.1

clean:
	rm -rf .build

## bench: the benchmarks, GraphStore side by side with raw SQLite (release build).
bench: deps
	cd Benchmarks && $(SWIFT) build -c release && ./.build/release/graphstore-benchmarks
