package bench

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestScorePeer(t *testing.T) {
	t.Parallel()
	set, err := LoadEvalSet("corpus", DefaultLoaders())
	if err != nil {
		t.Fatal(err)
	}
	c := set.Corpora[0]
	runes := []rune(c.Text)
	dir := t.TempDir()
	write := func(name, body string) Peer {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return Peer{Name: name, Path: path}
	}
	line := func(start, end int, text string) string {
		return `{"corpus":"` + c.ID + `","start":` + itoa(start) + `,"end":` + itoa(end) + `,"text":` + quoteJSON(text) + "}\n"
	}
	// One chunk per 400 code points: a peer that covers the corpus.
	var sb strings.Builder
	for i := 0; i < len(runes); i += 400 {
		end := min(i+400, len(runes))
		sb.WriteString(line(i, end, string(runes[i:end])))
	}
	r, err := scorePeer(write("windows", sb.String()), set, 5)
	if err != nil {
		t.Fatal(err)
	}
	if r.Chunks != (len(runes)+399)/400 || r.Retrieval.Overall.Questions != len(set.Questions) {
		t.Errorf("scored %d chunks and %d questions, want %d and %d", r.Chunks, r.Retrieval.Overall.Questions, (len(runes)+399)/400, len(set.Questions))
	}
	if own := r.Retrieval.Corpora[0]; own.Corpus != c.ID || own.Recall <= 0 {
		t.Errorf("corpus %s recall %v: the windows cover it, so some question must be answered", own.Corpus, own.Recall)
	}
	for _, tc := range []struct{ name, body, want string }{
		{"text-off", line(1, 5, string(runes[0:4])), "not the chunk's text"},
		{"unknown", `{"corpus":"nope","start":0,"end":1,"text":"x"}` + "\n", `corpus "nope" is not in the evaluation set`},
		{"outside", line(0, len(runes)+1, "x"), "outside corpus"},
		{"empty", "", "holds no chunks"},
	} {
		if _, err := scorePeer(write(tc.name, tc.body), set, 5); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("peer %s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestRunScoresPeersBesideTheCells runs the matrix with a peer on the shipped heading set and
// wants the peer's scores and the ratios in the summary.
func TestRunScoresPeersBesideTheCells(t *testing.T) {
	t.Parallel()
	set, err := LoadEvalSet("headings", DefaultLoaders())
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, c := range set.Corpora {
		runes := []rune(c.Text)
		for i := 0; i < len(runes); i += 1000 {
			end := min(i+1000, len(runes))
			sb.WriteString(`{"corpus":"` + c.ID + `","start":` + itoa(i) + `,"end":` + itoa(end) + `,"text":` + quoteJSON(string(runes[i:end])) + "}\n")
		}
	}
	path := filepath.Join(t.TempDir(), "peer.jsonl")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var summary strings.Builder
	cfg := Config{Corpus: "headings", Strategies: []string{"heading"}, Tokenizers: []string{"words"}, Budgets: []int{256},
		Overlaps: []float64{0}, Count: 1, BenchTime: -1, Peers: []Peer{{Name: "windows", Path: path}}}
	rep, err := Run(context.Background(), cfg, &summary, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Peers) != 1 || rep.Peers[0].Retrieval.Overall.Questions != len(set.Questions) {
		t.Fatalf("peers %+v, want one scored on %d questions", rep.Peers, len(set.Questions))
	}
	for _, want := range []string{"peers, scored by the same retriever", "windows", "tidewatch-cli", "iou ×"} {
		if !strings.Contains(summary.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, summary.String())
		}
	}
	if _, err := Run(context.Background(), Config{Corpus: "corpus/corpora", Peers: cfg.Peers, Count: 1}, io.Discard, nil); err == nil || !strings.Contains(err.Error(), "there is none") {
		t.Errorf("a peer without an evaluation set: error %v", err)
	}
}
