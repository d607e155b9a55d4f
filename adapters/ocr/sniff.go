package ocr

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// NotTSV says why head, the start of a file, is plainly not Tesseract TSV, or returns "" when
// it may be: a walk over a directory uses it to leave out ".tsv" files of other kinds (a
// corpus's MANIFEST.tsv) rather than fail on them. It reads the first line that is not blank,
// as ReadTSV does: Tesseract TSV begins with its header (a line whose first field is one of
// the columns level, page_num, ..., text, which ReadTSV takes in any order) or, without one,
// with a row of 11 or 12 fields whose first, the level, is an integer. A head without such a
// line ending in it may be TSV: ReadTSV decides, and says what is wrong.
func NotTSV(head []byte) string {
	head = bytes.TrimPrefix(head, []byte("\uFEFF"))
	for {
		line, rest, full := bytes.Cut(head, []byte("\n"))
		if !full {
			return ""
		}
		head = rest
		row := strings.TrimSuffix(string(line), "\r")
		if strings.TrimSpace(row) == "" {
			continue
		}
		if isHeader(row) {
			return ""
		}
		fields := strings.Split(row, "\t")
		first := strings.TrimSpace(fields[0])
		if _, err := strconv.Atoi(first); err == nil && (len(fields) == len(tsvColumns) || len(fields) == len(tsvColumns)-1) {
			return ""
		}
		if len(first) > 40 {
			first = strings.ToValidUTF8(first[:40], "") + "…"
		}
		return fmt.Sprintf("its first line is neither Tesseract's TSV header (level, page_num, …, text) nor one of its rows: %d tab-separated fields, the first %q", len(fields), first)
	}
}
