#!/usr/bin/env bash
# generate-check.sh fails, printing a diff, when the committed generated protocol code differs
# from what tools/generate.sh produces now. `make generate-check` (and so CI) runs it.
#
# It regenerates into a temporary directory and compares every *.pb.go file on both sides,
# so a stale generated file left behind by a removed .proto is caught too. The "protoc" version
# line of the headers is ignored: a different protoc changes nothing else.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$root/tools/generate.sh" "$tmp/gen"

strip() { grep -Ev '^//[[:space:]]*(-[[:space:]]*)?protoc[[:space:]]+v?[0-9]' "$1" || true; }

status=0
list() { (cd "$1" && find . -name '*.pb.go' | LC_ALL=C sort); }
mkdir -p "$tmp/gen"
if ! diff <(list "$root/internal/protocol") <(list "$tmp/gen") >"$tmp/files.diff"; then
	echo "generate-check: the set of generated files differs (< committed, > generated):" >&2
	cat "$tmp/files.diff" >&2
	status=1
fi
for f in $(list "$tmp/gen"); do
	committed=$root/internal/protocol/$f
	[ -f "$committed" ] || continue
	if ! diff -u --label "committed/$f" --label "generated/$f" <(strip "$committed") <(strip "$tmp/gen/$f"); then
		status=1
	fi
done
if [ "$status" -ne 0 ]; then
	echo "generate-check: generated code is stale; run 'make generate' (tools/generate.sh) and commit the result" >&2
fi
exit "$status"
