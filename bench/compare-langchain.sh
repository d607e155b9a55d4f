#!/usr/bin/env bash
# chunkkit's default output against LangChain.js MarkdownTextSplitter (js-tiktoken cl100k_base
# length, same budget), scored in the same run by the same BM25 retriever and Chroma's metrics:
#   - the Node.js API heading set (errors.md, cli.md, deprecations.md of the build-corpus.sh
#     corpus; questions generated from the headings by tools/heading-eval);
#   - Chroma's evaluation corpora (../shared/eval/chroma);
#   - the heading set shipped in bench/headings.
# Each set: LangChain's chunks (tools/langchain-eval) → chunkkit bench --peer, which prints
# both sides and their ratios. Also the sections strategy with and without --pack-sections.
# Usage: bench/compare-langchain.sh [OUTDIR]   (default bench/out/compare; MAX_TOKENS=256)
# Needs bin/ (make build) and npm; the corpus is built outside the repository, once.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/out/compare}
MAX=${MAX_TOKENS:-256}
CORPUS=${CHUNKKIT_CORPUS:-${TMPDIR:-/tmp}/chunkkit-corpus}
CHROMA=${CHROMA_EVAL:-../shared/eval/chroma}
mkdir -p "$OUT"

if [ ! -f "$CORPUS/MANIFEST.tsv" ]; then
	[ -x ../shared/tools/build-corpus.sh ] || { echo "no corpus at $CORPUS and no ../shared/tools/build-corpus.sh to build one" >&2; exit 1; }
	../shared/tools/build-corpus.sh "$CORPUS"
fi
[ -d "$CHROMA" ] || { echo "no Chroma evaluation set at $CHROMA (set CHROMA_EVAL)" >&2; exit 1; }
(cd tools/langchain-eval && npm ci --silent --no-audit --no-fund)
go run ./tools/heading-eval -nodejs "$CORPUS" -out "$OUT/nodejs-eval" >&2

for set in "nodejs:$OUT/nodejs-eval" "chroma:$CHROMA" "shipped:bench/headings"; do
	name=${set%%:*} dir=${set#*:}
	echo "== $name ($dir), $MAX tokens, no overlap" >&2
	node tools/langchain-eval/split.mjs --eval "$dir" --max-tokens "$MAX" --overlap-tokens 0 > "$OUT/langchain-$name.jsonl"
	# The default strategy and tokenizer (heading, tiktoken:cl100k_base through the plugin).
	echo "## $name: default strategy (heading) vs LangChain"
	bin/chunkkit bench --strategy heading --tokenizer tiktoken:cl100k_base --max-tokens "$MAX" --overlap 0 \
		--count 1 --benchtime=-1ns --out "$OUT/$name" --peer "langchain=$OUT/langchain-$name.jsonl" "$dir"
	echo "## $name: sections, without and with --pack-sections"
	bin/chunkkit bench --strategy sections --tokenizer tiktoken:cl100k_base --max-tokens "$MAX" --overlap 0 \
		--count 1 --benchtime=-1ns --out "$OUT/$name-sections" "$dir"
	bin/chunkkit bench --strategy sections --pack-sections --tokenizer tiktoken:cl100k_base --max-tokens "$MAX" --overlap 0 \
		--count 1 --benchtime=-1ns --out "$OUT/$name-sections-packed" "$dir"
done
