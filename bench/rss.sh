#!/usr/bin/env bash
# Peak resident memory of `chunkkit chunk`, the host and its plugin apart (VmHWM, polled), on
# the two inputs issue 13 bounds:
#   - one large Markdown file: the corpus's English Markdown joined and repeated to ~50 MB
#     (target: the host at most 4x its size), `--format jsonl`;
#   - the same without headings, as Markdown and as plain text (.txt), where no heading ends a
#     window (same target);
#   - the same as one paragraph, no blank line anywhere (.txt): the case without a target, one
#     block the chunker measures whole (docs/reference/chunkers.md, "Windows");
#   - one ~50 MB Markdown table (a row per line of the corpus's English Markdown), which the
#     chunker measures a window of rows at a time (same target);
#   - one ~50 MB Tesseract TSV and one ~50 MB hOCR file: adapters/ocr/testdata's pages repeated
#     and numbered on (same target), read a page at a time;
#   - one ~50 MB OCR JSON result, a region per line of the corpus's English Markdown, 40 to a
#     page (same target), read a part of its regions at a time;
#   - the ~50 MB Markdown with --strategy sections, as it is and with its footnote references
#     ("[^") made plain text (same target): Sections holds a chunk while its footnote links
#     are not final; and with one reference no footnote answers, or one footnote nothing
#     references, at its top (undef.md, unref.md), which hold no chunk;
#     and with --strategy fixed and noop (same target);
#   - the ~50 MB Markdown as the "text" of one JSONL line, `--from jsonl -` (same target);
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
# One table: a row for every non-blank line of the corpus's English Markdown, numbered on.
table=$OUT/table.md
if [ ! -f "$table" ]; then
	{
		printf '# A large table\n\nA row per line of the corpus.\n\n| # | text |\n|---:|---|\n'
		while cat "$CORPUS"/en-md/*/*.md 2>/dev/null; do :; done | awk -v want=50000000 '
			{ gsub(/\|/, "\\|"); sub(/^[ \t]+/, ""); sub(/[ \t]+$/, "") }
			$0 != "" { n++; line = "| " n " | " $0 " |"; print line; size += length(line) + 1; if (size >= want) exit }'
		printf '\nAfter the table.\n'
	} >"$table"
fi
# OCR output: the fixture pages repeated, each copy a page of its own number.
tsv=$OUT/big.tsv
if [ ! -f "$tsv" ]; then
	awk -F'\t' -v OFS='\t' -v want=50000000 '
		FNR == 1 { if (!header) { print; header = 1 }; next }
		$0 !~ /^[[:space:]]*$/ { key = FILENAME SUBSEP $2; if (!(key in seen)) { seen[key] = ++n; order[n] = key }; rows[seen[key]] = rows[seen[key]] $0 "\n" }
		END {
			for (p = 0; size < want; ) for (i = 1; i <= n && size < want; i++) {
				p++; m = split(rows[i], r, "\n")
				for (j = 1; j < m; j++) { split(r[j], f, "\t"); f[2] = p; line = f[1]; for (k = 2; k <= length(f); k++) line = line "\t" f[k]; print line; size += length(line) + 1 }
			}
		}' adapters/ocr/testdata/*.tsv >"$tsv"
fi
hocr=$OUT/big.hocr
if [ ! -f "$hocr" ]; then
	src=adapters/ocr/testdata/multipage.hocr
	{
		sed -n "1,/class='ocr_page'/p" "$src" | sed '$d'
		body=$(sed -n "/class='ocr_page'/,/<\/body>/p" "$src" | sed -e '$d' -e 's/; ppageno [0-9]*//')
		size=0
		while [ "$size" -lt 50000000 ]; do printf '%s\n' "$body"; size=$((size + ${#body} + 1)); done
		printf ' </body>\n</html>\n'
	} >"$hocr"
fi
regions=$OUT/regions.json
if [ ! -f "$regions" ]; then
	{
		printf '{"engine": "rss.sh", "regions": [\n'
		while cat "$CORPUS"/en-md/*/*.md 2>/dev/null; do :; done | awk -v want=50000000 '
			{ gsub(/\\/, "&&"); gsub(/"/, "\\\""); gsub(/\t/, " "); sub(/^ +/, ""); sub(/ +$/, "") }
			$0 != "" {
				n++; y = (n % 40) * 30
				line = sprintf("%s{\"text\": \"%s\", \"bbox\": [100, %d, 2300, %d], \"confidence\": 0.%d, \"page\": %d}", n > 1 ? ",\n" : "", $0, y, y + 24, 50 + n % 50, int(n / 40) + 1)
				printf "%s", line; size += length(line); if (size >= want) exit
			}'
		printf '\n]}\n'
	} >"$regions"
fi
# The large Markdown as one JSONL line: {"id": "big", "text": "..."}.
jsonl=$OUT/big.jsonl
if [ ! -f "$jsonl" ]; then
	LC_ALL=C awk 'BEGIN { printf "{\"id\": \"big\", \"text\": \"" }
		{ gsub(/\\/, "&&"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); gsub(/\r/, "\\r"); printf "%s\\n", $0 }
		END { print "\"}" }' "$big" >"$jsonl"
fi
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

for f in "$big" "$flat" "$OUT/flat.txt" "$OUT/para.txt" "$table" "$tsv" "$hocr" "$regions"; do
	size=$(stat -c %s "$f")
	case $f in
	*/para.txt) echo "$(basename "$f"): one paragraph of $((size / 1000000)) MB (no target)" ;;
	*) echo "$(basename "$f"): one file of $((size / 1000000)) MB (host target: $((4 * size / 1000000)) MB)" ;;
	esac
	for tk in words tiktoken:cl100k_base; do
		from=()
		case $f in *.json) from=(--from ocr-json) ;; esac
		echo "  $tk: $(hwm bin/chunkkit chunk "$f" "${from[@]}" --format jsonl --tokenizer "$tk")"
	done
done
[ -f "$OUT/nonotes.md" ] || sed 's/\[\^/[/g' "$big" >"$OUT/nonotes.md"
# One reference no footnote answers, one footnote nothing references, at the top of nonotes.md.
[ -f "$OUT/undef.md" ] || { printf 'Intro with a reference to [^nowhere], a footnote that is never defined.\n\n'; cat "$OUT/nonotes.md"; } >"$OUT/undef.md"
[ -f "$OUT/unref.md" ] || { printf 'Intro.\n\n[^early]: A footnote that nothing references.\n\n'; cat "$OUT/nonotes.md"; } >"$OUT/unref.md"
for run in "$big sections" "$OUT/nonotes.md sections" "$OUT/undef.md sections" "$OUT/unref.md sections" "$big fixed" "$big noop"; do
	f=${run% *} strategy=${run##* }
	echo "$(basename "$f") with --strategy $strategy: one file of $(($(stat -c %s "$f") / 1000000)) MB (host target: $((4 * $(stat -c %s "$f") / 1000000)) MB)"
	for tk in words tiktoken:cl100k_base; do
		echo "  $tk: $(hwm bin/chunkkit chunk "$f" --strategy "$strategy" --format jsonl --tokenizer "$tk")"
	done
done
echo "big.jsonl: one JSONL line of $(($(stat -c %s "$jsonl") / 1000000)) MB, read from standard input (host target: $((4 * $(stat -c %s "$jsonl") / 1000000)) MB)"
for tk in words tiktoken:cl100k_base; do
	echo "  $tk: $(hwm sh -c 'exec "$0" chunk --from jsonl - --format jsonl --tokenizer "$1" <"$2"' bin/chunkkit "$tk" "$jsonl")"
done
echo "a corpus of $(du -sm "$many" | cut -f1) MB (target: 300 MB)"
for tk in words tiktoken:cl100k_base; do
	echo "  $tk: $(hwm bin/chunkkit chunk "$many" --tokenizer "$tk")"
done
