#!/usr/bin/env bash
# Runs the named tests of some packages once, without the race detector: `make test`'s second
# stage, for the exhaustive comparisons that run only a sample under -race -short.
#
# Usage: tools/test-named.sh PATTERN... -- PACKAGE...
#
# Each PATTERN is a test's name or a regexp for several, matched whole (^(PATTERN)$). Each must
# match at least one test of the packages, or nothing runs and the script fails: `go test -run`
# with a pattern that matches nothing passes ("no tests to run"), so a renamed test would
# otherwise drop out of `make test` without a word.
set -euo pipefail

go=${GO:-go}
usage() {
	echo "usage: tools/test-named.sh PATTERN... -- PACKAGE..." >&2
	exit 2
}

patterns=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	patterns+=("$1")
	shift
done
[ $# -gt 0 ] || usage
shift
packages=("$@")
[ ${#patterns[@]} -gt 0 ] && [ ${#packages[@]} -gt 0 ] || usage

run="^($(IFS='|'; echo "${patterns[*]}"))\$"
# `go test -list` prints each package's matching names, then its "ok <package> <time>" line; a
# package that does not build prints FAIL instead.
if ! listing=$("$go" test -list "$run" "${packages[@]}"); then
	echo "test-named: listing the tests of ${packages[*]} failed; see above" >&2
	exit 1
fi
missing=0
for p in "${patterns[@]}"; do
	if ! grep -qE "^($p)\$" <<<"$listing"; then
		echo "test-named: no test of ${packages[*]} matches ^($p)\$: renamed? Update the Makefile's test target" >&2
		missing=1
	fi
done
[ "$missing" = 0 ] || exit 1
exec "$go" test -count=1 -run "$run" "${packages[@]}"
