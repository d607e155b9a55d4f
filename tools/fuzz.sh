#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME each: `make fuzz` (FUZZTIME=30s by default).
#
# Usage: tools/fuzz.sh [FUZZTIME] [PACKAGES...]   (default: 30s ./...)
#
# A target fails the run when `go test -fuzz` fails, with one exception. Go 1.26's fuzzing
# coordinator can end a run whose -fuzztime has expired with a bare "context deadline exceeded"
# and no failing input (golang/go#75804, fixed in Go 1.27): a race between the deadline and a
# worker still running an input, seen here on loaded machines. A real failure always writes its
# input to the package's testdata/fuzz/<target>/. So a failure that says only that and wrote no
# new input is reported as that race and the target runs again, twice at most; a third such end
# fails the run.
set -uo pipefail

fuzztime=${1:-30s}
shift || true
packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(./...)
go=${GO:-go}

# `go test -list` prints a package's matching names, then its "ok <package> <time>" line. A
# package that does not build prints FAIL instead: the sweep stops rather than skip its targets.
if ! listing=$("$go" test -list '^Fuzz' "${packages[@]}"); then
	echo "fuzz: listing the fuzz targets failed (a package that does not build?); see above" >&2
	exit 1
fi
targets=$(awk '/^Fuzz/ {f = f " " $1} /^ok/ {if (f != "") print $2 f; f = ""}' <<<"$listing")
if [ -z "$targets" ]; then
	echo "fuzz: no fuzz targets in ${packages[*]}" >&2
	exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
ran=0
raced=0
while read -r pkg names; do
	dir=$("$go" list -f '{{.Dir}}' "$pkg")
	for name in $names; do
		corpus="$dir/testdata/fuzz/$name"
		for attempt in 1 2 3; do
			echo "== $pkg $name"
			before=$(ls "$corpus" 2>/dev/null)
			"$go" test -run='^$' -fuzz="^$name\$" -fuzztime="$fuzztime" "$pkg" 2>&1 | tee "$log"
			rc=${PIPESTATUS[0]}
			[ "$rc" -eq 0 ] && break
			after=$(ls "$corpus" 2>/dev/null)
			if [ "$before" != "$after" ]; then
				echo "fuzz: $pkg $name failed; its failing input is in $corpus:" >&2
				comm -13 <(echo "$before") <(echo "$after") | sed "s|^|  $corpus/|" >&2
				exit 1
			fi
			# The race's signature: FAIL, the bare deadline error, FAIL, nothing else failing.
			if ! grep -qx '    context deadline exceeded' "$log" || [ "$(grep -c -- '--- FAIL' "$log")" -ne 1 ] ||
				! grep -q -- "^--- FAIL: $name (" "$log"; then
				echo "fuzz: $pkg $name failed (exit $rc) and wrote no input; see the output above" >&2
				exit 1
			fi
			if [ "$attempt" -eq 3 ]; then
				echo "fuzz: $pkg $name ended with 'context deadline exceeded' three times running and wrote no input" >&2
				exit 1
			fi
			raced=$((raced + 1))
			echo "fuzz: $pkg $name: 'context deadline exceeded' with no failing input, Go 1.26's fuzzing coordinator race (golang/go#75804); running it again" >&2
		done
		ran=$((ran + 1))
	done
done <<<"$targets"
echo "fuzz: $ran targets passed, $fuzztime each ($raced runs ended by golang/go#75804 and ran again)"
