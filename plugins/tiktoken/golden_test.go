package tiktoken_test

// The golden tests hold both backends to OpenAI's tiktoken: testdata/golden.json holds what npm
// tiktoken 1.0.22 (OpenAI's Rust tiktoken compiled to WASM) says for every case of
// testdata/strings.json. To regenerate both files after changing the cases:
//
//	cd tools/tiktoken-golden && npm ci && node strings.mjs && node generate.mjs
//
// (node generate.mjs alone regenerates golden.json from the committed strings.json; it takes
// a few minutes because tiktoken itself is quadratic on the 100 kB single-letter case.) The
// format of both files is described at the top of tools/tiktoken-golden/generate.mjs.

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
)

// referenceLong runs the Reference backend on "long/a×100000" too. It is off by default
// because tiktoken-go is superlinear on a long piece: that case alone takes about 13 s per
// call without -race (the Fast backend: milliseconds; npm tiktoken itself: 14 s or more).
// The shorter "long/a×8000" case keeps the path covered.
var referenceLong = flag.Bool("reference-long", false, "also run the reference backend on the 100 kB single-letter golden case")

// slowForReference lists the golden cases the Reference backend skips unless -reference-long.
var slowForReference = map[string]bool{
	"long/a×100000": true,
}

// stringCase is one entry of testdata/strings.json: exactly one of Text, Repeat, Base64.
type stringCase struct {
	Name   string  `json:"name"`
	Why    string  `json:"why"`
	Text   *string `json:"text"`
	Repeat *struct {
		Unit  string `json:"unit"`
		Times int    `json:"times"`
	} `json:"repeat"`
	Base64 *string `json:"base64"`
}

func (c stringCase) input() (string, error) {
	switch {
	case c.Text != nil:
		return *c.Text, nil
	case c.Repeat != nil:
		return strings.Repeat(c.Repeat.Unit, c.Repeat.Times), nil
	case c.Base64 != nil:
		b, err := base64.StdEncoding.DecodeString(*c.Base64)
		return string(b), err
	}
	return "", fmt.Errorf("case %q has no text, repeat or base64", c.Name)
}

// goldenResult is what tiktoken says for one case and encoding: Ends in full, or for long
// inputs the SHA-256 of the ends joined by "," and the last five.
type goldenResult struct {
	Count      int    `json:"count"`
	Ends       []int  `json:"ends"`
	EndsSHA256 string `json:"ends_sha256"`
	EndsTail   []int  `json:"ends_tail"`
}

type goldenCase struct {
	Name    string                  `json:"name"`
	Bytes   int                     `json:"bytes"`
	SHA256  string                  `json:"sha256"`
	Results map[string]goldenResult `json:"results"`
}

// golden is one case ready to test: its input and tiktoken's results.
type golden struct {
	name, why string
	text      string
	results   map[string]goldenResult
}

// loadGolden reads testdata/strings.json and testdata/golden.json and checks that they
// describe the same inputs.
func loadGolden(t testing.TB) []golden {
	t.Helper()
	var strs struct {
		Cases []stringCase `json:"cases"`
	}
	var gold struct {
		Tiktoken    string       `json:"tiktoken"`
		FullEndsMax int          `json:"full_ends_max"`
		Cases       []goldenCase `json:"cases"`
	}
	readJSON(t, "testdata/strings.json", &strs)
	readJSON(t, "testdata/golden.json", &gold)
	if gold.Tiktoken != "1.0.22" {
		t.Fatalf("golden.json was made with tiktoken %q, want 1.0.22", gold.Tiktoken)
	}
	if len(strs.Cases) != len(gold.Cases) {
		t.Fatalf("strings.json has %d cases, golden.json %d: regenerate golden.json", len(strs.Cases), len(gold.Cases))
	}
	out := make([]golden, len(strs.Cases))
	for i, sc := range strs.Cases {
		gc := gold.Cases[i]
		text, err := sc.input()
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(text))
		if gc.Name != sc.Name || gc.Bytes != len(text) || gc.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("case %d: strings.json has %q (%d bytes), golden.json %q (%d bytes) with another hash: regenerate golden.json",
				i, sc.Name, len(text), gc.Name, gc.Bytes)
		}
		out[i] = golden{name: sc.Name, why: sc.Why, text: text, results: gc.Results}
	}
	return out
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// summarize reduces boundaries to the form golden.json stores for want.
func summarize(want goldenResult, ends []int) goldenResult {
	got := goldenResult{Count: len(ends)}
	if want.Ends != nil {
		got.Ends = append([]int{}, ends...)
		return got
	}
	parts := make([]string, len(ends))
	for i, e := range ends {
		parts[i] = strconv.Itoa(e)
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, ",")))
	got.EndsSHA256 = hex.EncodeToString(sum[:])
	got.EndsTail = append([]int{}, ends[max(0, len(ends)-5):]...)
	return got
}

func TestGoldenCasesAreWellFormed(t *testing.T) {
	cases := loadGolden(t)
	if len(cases) < 200 {
		t.Errorf("strings.json has %d cases, want at least 200", len(cases))
	}
	for _, c := range cases {
		if c.why == "" {
			t.Errorf("case %q does not say why it is there", c.name)
		}
		if len(c.results) != len(tiktoken.Encodings()) {
			t.Errorf("case %q has results for %d encodings, want %d", c.name, len(c.results), len(tiktoken.Encodings()))
		}
	}
	for name := range slowForReference {
		found := false
		for _, c := range cases {
			found = found || c.name == name
		}
		if !found {
			t.Errorf("slowForReference names %q, which is not a golden case", name)
		}
	}
}

func TestCountsAndBoundariesEqualTiktoken(t *testing.T) {
	cases := loadGolden(t)
	for _, backend := range backends {
		for _, enc := range tiktoken.Encodings() {
			t.Run(fmt.Sprintf("%s backend matches tiktoken on %s", backend, enc), func(t *testing.T) {
				t.Parallel()
				c := counter(t, enc, backend)
				for _, gc := range cases {
					if backend == tiktoken.Reference && slowForReference[gc.name] && !*referenceLong {
						continue
					}
					t.Run(gc.name, func(t *testing.T) {
						want := gc.results[enc]
						started := time.Now()
						texts := []string{gc.text}
						counts, err := c.Count(context.Background(), texts)
						if err != nil {
							t.Fatal(err)
						}
						bounds, err := c.Boundaries(context.Background(), texts)
						if err != nil {
							t.Fatal(err)
						}
						if elapsed := time.Since(started); elapsed > 2*time.Second {
							t.Logf("%d bytes took %v", len(gc.text), elapsed)
						}
						if counts[0] != want.Count {
							t.Errorf("Count = %d, tiktoken says %d (%s)", counts[0], want.Count, gc.why)
						}
						if err := sdk.CheckBoundaries(texts, bounds); err != nil {
							t.Error(err)
						}
						if diff := cmp.Diff(want, summarize(want, bounds[0])); diff != "" {
							t.Errorf("Boundaries differ from tiktoken's (%s) (-want +got):\n%s", gc.why, diff)
						}
					})
				}
			})
		}
	}
}
