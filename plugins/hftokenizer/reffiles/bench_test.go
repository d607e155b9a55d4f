package reffiles

import (
	"strings"
	"testing"
)

func TestCutPieces(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", PieceBytes)
	half := strings.Repeat("y", PieceBytes/2)
	tests := []struct {
		name, text string
		want       []string
	}{
		{"an empty text is one empty piece", "", []string{""}},
		{"short parts join into one piece", "a\n\nb\n\nc", []string{"a\n\nb\n\nc"}},
		{"a part longer than a piece stands alone", "a\n\n" + big + "x\n\nb", []string{"a", big + "x", "b"}},
		{"two halves and the separator overflow by two bytes", half + "\n\n" + half, []string{half, half}},
		{"a piece may be exactly PieceBytes", half[2:] + "\n\n" + half, []string{half[2:] + "\n\n" + half}},
		{"three newlines leave one in the next part", "a\n\n\nb", []string{"a\n\n\nb"}},
		{"empty parts count their separators", "\n\n\n\n", []string{"\n\n\n\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CutPieces(tt.text)
			if len(got) != len(tt.want) {
				t.Fatalf("%d pieces, want %d", len(got), len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("piece %d: %d bytes %.20q, want %d bytes %.20q", i, len(got[i]), got[i], len(tt.want[i]), tt.want[i])
				}
			}
			if joined := strings.Join(got, "\n\n"); joined != tt.text {
				t.Errorf("joined pieces are not the text: %d bytes, want %d", len(joined), len(tt.text))
			}
		})
	}
}

func TestBenchTexts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, _, err := BenchTexts("", dir); err == nil || !strings.Contains(err.Error(), "build-corpus.sh") {
		t.Errorf("no corpus and no shared: %v, want ErrNoBenchText saying how to build one", err)
	}
	if _, _, err := BenchTexts(dir, dir); err == nil || !strings.Contains(err.Error(), "not a corpus") {
		t.Errorf("a directory without MANIFEST.tsv: %v", err)
	}
}
