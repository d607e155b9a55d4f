#!/usr/bin/env bash
# make.sh renders the OCR adapter's fixture pages with ImageMagick and runs Tesseract on them,
# writing NAME.png, NAME.tsv and NAME.hocr beside every NAME.truth.json in adapters/ocr/testdata
# (and multipage.tsv / multipage.hocr from two of them). `make ocr-fixtures` runs it.
#
# Needs Debian's imagemagick, tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-deu and
# fonts-dejavu-core:
#   apt-get install -y imagemagick tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu fonts-dejavu-core
# CONVERT and TESSERACT override the programs used.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

# A convert that is not ImageMagick's (a stand-in earlier on PATH) is skipped.
find_convert() {
	for c in ${CONVERT:-} magick /usr/bin/convert convert; do
		if command -v "$c" >/dev/null 2>&1 && "$c" -version 2>/dev/null | grep -q ImageMagick; then
			echo "$c"
			return 0
		fi
	done
	return 1
}
convert=$(find_convert) || {
	echo "ocr-fixtures: ImageMagick not found; apt-get install -y imagemagick" >&2
	exit 1
}
tesseract=${TESSERACT:-tesseract}
if ! command -v "$tesseract" >/dev/null 2>&1; then
	echo "ocr-fixtures: tesseract not found; apt-get install -y tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu" >&2
	exit 1
fi
for lang in eng deu; do
	if ! "$tesseract" --list-langs 2>/dev/null | grep -qx "$lang"; then
		echo "ocr-fixtures: Tesseract has no '$lang' data; apt-get install -y tesseract-ocr-$lang" >&2
		exit 1
	fi
done
fonts=/usr/share/fonts/truetype/dejavu
if [ ! -f "$fonts/DejaVuSans.ttf" ]; then
	echo "ocr-fixtures: DejaVu fonts not found in $fonts; apt-get install -y fonts-dejavu-core" >&2
	exit 1
fi

echo "ocr-fixtures: $("$convert" -version | head -1)"
echo "ocr-fixtures: $("$tesseract" --version 2>&1 | head -1)"
go run ./tools/ocr-fixtures -dir adapters/ocr/testdata -convert "$convert" -tesseract "$tesseract" -fonts "$fonts"
ls -l adapters/ocr/testdata/*.png adapters/ocr/testdata/*.tsv adapters/ocr/testdata/*.hocr
