#!/usr/bin/env bash
# Peak resident memory of `chunkkit chunk`, the host and its plugin apart (VmHWM, polled), on
# the two inputs issue 13 bounds:
#   - one large Markdown file: the corpus's English Markdown joined and repeated to ~50 MB
#     (target: the host at most 4x its size), `--format jsonl`;
#   - the same without headings, as Markdown and as plain text (.txt), where no heading ends a
#     window (same target);
#   - the same as one paragraph, no blank line anywhere (.txt): the case without a target, one
#     block the chunker measures whole (docs/reference/chunkers.md, "Windows");
#   - a corpus of ~100 MB: the corpus's Markdown and text folders copied 11 times (target: at
#     most 300 MB);
# each counted in words (in-process) and through the tiktoken plugin (tiktoken:cl100k_base).
# Usage: bench/rss.sh [OUTDIR]   (default bench/out/rss; builds bin/ with make build)
# The corpus is built outside the repository with ../shared/tools/build-corpus.sh, once.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/out/rss}
CORPUS=${CHUNKKIT_CORPUS:-${TMPDIR:-/tmp}/chunkkit-corpus}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

if [ ! -f "$CORPUS/MANIFEST.tsv" ]; then
	[ -x ../shared/tools/build-corpus.sh ] || { echo "no corpus at $CORPUS and no ../shared/tools/build-corpus.sh to build one" >&2; exit 1; }
	../shared/tools/build-corpus.sh "$CORPUS"
fi
make build >/dev/null

big=$OUT/big.md
if [ ! -f "$big" ]; then
	: >"$big"
	while [ "$(stat -c %s "$big")" -lt 50000000 ]; do
		for f in "$CORPUS"/en-md/*/*.md; do cat "$f"; printf '\n\n'; done >>"$big"
	done
fi
# Headings made text: ATX markers and setext underlines dropped.
flat=$OUT/flat.md
if [ ! -f "$flat" ]; then
	sed -E -e 's/^ {0,3}#{1,6}([ \t]+|$)//' -e '/^ {0,3}(=+|-{2,})[ \t]*$/d' "$big" >"$flat"
fi
[ -f "$OUT/flat.txt" ] || cp "$flat" "$OUT/flat.txt"
[ -f "$OUT/para.txt" ] || grep -v '^[[:space:]]*$' "$flat" >"$OUT/para.txt"
many=$OUT/corpus100
if [ ! -d "$many" ]; then
	for i in $(seq -w 1 11); do
		mkdir -p "$many/c$i"
		cp -r "$CORPUS"/en-md "$CORPUS"/en-rst "$CORPUS"/en-text "$CORPUS"/multi "$many/c$i/"
	done
fi

# hwm CMD...: runs CMD with its output to /dev/null and prints the peak RSS of the process and
# of the largest of its children, in MB.
hwm() {
	"$@" >/dev/null 2>"$OUT/stderr.txt" &
	local pid=$! host=0 child=0 v c
	while kill -0 "$pid" 2>/dev/null; do
		v=$(awk '/VmHWM/{print $2}' "/proc/$pid/status" 2>/dev/null || true)
		[ -n "$v" ] && [ "$v" -gt "$host" ] && host=$v
		for c in $(pgrep -P "$pid" || true); do
			v=$(awk '/VmHWM/{print $2}' "/proc/$c/status" 2>/dev/null || true)
			[ -n "$v" ] && [ "$v" -gt "$child" ] && child=$v
		done
		sleep 0.05
	done
	wait "$pid" || { cat "$OUT/stderr.txt" >&2; return 1; }
	echo "host $((host / 1024)) MB, plugin $((child / 1024)) MB"
}

for f in "$big" "$flat" "$OUT/flat.txt" "$OUT/para.txt"; do
	size=$(stat -c %s "$f")
	case $f in
	*/para.txt) echo "$(basename "$f"): one paragraph of $((size / 1000000)) MB (no target)" ;;
	*) echo "$(basename "$f"): one file of $((size / 1000000)) MB (host target: $((4 * size / 1000000)) MB)" ;;
	esac
	for tk in words tiktoken:cl100k_base; do
		echo "  $tk: $(hwm bin/chunkkit chunk "$f" --format jsonl --tokenizer "$tk")"
	done
done
echo "a corpus of $(du -sm "$many" | cut -f1) MB (target: 300 MB)"
for tk in words tiktoken:cl100k_base; do
	echo "  $tk: $(hwm bin/chunkkit chunk "$many" --tokenizer "$tk")"
done
