# GraphStore: build, run, test, install.
PREFIX ?= /usr/local
SWIFT ?= swift
EXAMPLE_STORE ?= examples/BookStore/BookStore.sqlite
EXAMPLE_MODEL ?= examples/BookStore/BookStore.xcdatamodeld
VECTORS ?= ../shared/corpus/predicates/vectors.jsonl

.PHONY: all build run test skipped install deps vectors clean bench startup fault-injection

all: build

## deps: install the system libraries the build needs (libedit, sqlite3, zlib headers), and
## mandoc, which the tests use to lint the manual page, the sqlite3 program, which the
## seed-verification page's hand-made store is made with, and python3 for
## scripts/fault-injection when there is none.
deps:
	@missing=""; \
	for pkg in libedit-dev libsqlite3-dev zlib1g-dev mandoc sqlite3; do \
	  dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	command -v python3 >/dev/null 2>&1 || missing="$$missing python3"; \
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

## test: the whole test suite, then how many tests were skipped and why (a test that cannot
## run here, without ../shared/corpus or mandoc, prints "skipped NAME: REASON" and passes),
## then the short fault-injection run (FAULT_SEED=N repeats one).
TEST_LOG ?= .build/test.log
FAULT_SEED ?=
FAULT_INJECTION = python3 scripts/fault-injection --binary "$$($(SWIFT) build --show-bin-path)/graphstore" $(if $(FAULT_SEED),--seed $(FAULT_SEED))

test: deps
	$(SWIFT) build --build-tests
	@mkdir -p $$(dirname $(TEST_LOG)); \
	{ $(SWIFT) test --skip-build 2>&1; echo $$? > $(TEST_LOG).status; } | tee $(TEST_LOG); \
	status=$$(cat $(TEST_LOG).status); rm -f $(TEST_LOG).status; \
	$(MAKE) -s skipped TEST_LOG=$(TEST_LOG); \
	exit $$status
	$(FAULT_INJECTION) --short

## skipped: the skipped tests of TEST_LOG, counted by reason.
skipped:
	@count=$$(grep -c '^skipped ' $(TEST_LOG)); \
	if [ "$$count" = 0 ]; then \
	  echo "no test skipped"; \
	else \
	  echo "$$count test(s) skipped:"; \
	  grep '^skipped ' $(TEST_LOG) | sed 's/^skipped [^:]*: //' | sort | uniq -c | sed 's/^ *\([0-9]*\) /  \1 × /'; \
	fi

## fault-injection: the long run by hand (1,000 damaged stores, 200 kills, 100 races, ...;
## scripts/faultinjection/scenarios/ holds one module per scenario); FAULT_ARGS adds
## options, e.g. FAULT_ARGS="--keep fault-injection-out --only race,seed-apply".
fault-injection: deps
	$(SWIFT) build --product graphstore
	$(FAULT_INJECTION) --long $(FAULT_ARGS)

## vectors: run the predicate vector suite on VECTORS (default: the shared file).
vectors: deps
	$(SWIFT) run -q predicate-vectors $(VECTORS)

## install: graphstore and its manual page under PREFIX.
# The installed binary links the Swift runtime and Foundation statically and is not
# position-independent: loading and relocating those libraries at every start is what makes
# `graphstore STORE .entities` slow next to sqlite3 (about 9 ms instead of 30 on the
# development machine; `make startup` measures both). Override RELEASE_FLAGS to change it.
RELEASE_FLAGS ?= --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie
RELEASE_BUILD = $(SWIFT) build -c release --product graphstore --scratch-path .build-release $(RELEASE_FLAGS)

install: deps
	$(RELEASE_BUILD)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 -s "$$($(RELEASE_BUILD) --show-bin-path)/graphstore" $(DESTDIR)$(PREFIX)/bin/graphstore
	install -m 644 man/graphstore.1 $(DESTDIR)$(PREFIX)/share/man/man1/graphstore.1

## startup: cold start of `graphstore STORE .entities` next to `sqlite3 STORE .tables`.
startup: deps
	$(RELEASE_BUILD)
	@bin="$$($(RELEASE_BUILD) --show-bin-path)/graphstore"; \
	if command -v hyperfine >/dev/null; then \
	  hyperfine -N --warmup 10 --runs 200 "$$bin $(EXAMPLE_STORE) .entities" "sqlite3 $(EXAMPLE_STORE) .tables"; \
	else \
	  for cmd in "$$bin $(EXAMPLE_STORE) .entities" "sqlite3 $(EXAMPLE_STORE) .tables"; do \
	    start=$$(date +%s%N); for i in $$(seq 200); do $$cmd >/dev/null; done; end=$$(date +%s%N); \
	    echo "$$cmd: $$(( (end - start) / 200000 ))µs per run"; \
	  done; \
	fi

clean:
	rm -rf .build .build-release

## bench: the benchmarks, GraphStore side by side with raw SQLite (release build).
bench: deps
	cd Benchmarks && $(SWIFT) build -c release && ./.build/release/graphstore-benchmarks
