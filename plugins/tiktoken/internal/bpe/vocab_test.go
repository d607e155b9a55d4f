package bpe

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	loader "github.com/pkoukk/tiktoken-go-loader/assets"

	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe/data"
)

// parse returns the tokens of encoding's .tiktoken file.
func parseEncoding(t testing.TB, encoding string) (string, []uint32) {
	t.Helper()
	f, err := loader.Assets.Open(encoding + ".tiktoken")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tokens, starts, err := ParseTiktoken(f)
	if err != nil {
		t.Fatal(err)
	}
	return tokens, starts
}

// TestSplitTablesAreCurrent derives every encoding's split table (Derive also checks that
// every token encodes to itself) and compares it with the one in data/, then loads the
// committed table and checks that Load builds the tables Derive did.
func TestSplitTablesAreCurrent(t *testing.T) {
	t.Parallel()
	for _, enc := range Encodings {
		t.Run(enc, func(t *testing.T) {
			t.Parallel()
			tokens, starts := parseEncoding(t, enc)
			derived, err := Derive(tokens, starts)
			if err != nil {
				t.Fatal(err)
			}
			committed, ok := data.Split(enc)
			if !ok {
				t.Fatalf("no split table for %s", enc)
			}
			if !bytes.Equal(derived.SplitTable(), []byte(committed)) {
				t.Fatalf("data/%s.split is stale: run go generate ./plugins/tiktoken/internal/bpe", enc)
			}
			loaded, err := Load(tokens, starts, committed)
			if err != nil {
				t.Fatal(err)
			}
			loaded.waitBacktrack()
			if !slices.Equal(derived.splitL, loaded.splitL) || !slices.Equal(derived.splitR, loaded.splitR) {
				t.Error("Load's split tables differ from Derive's")
			}
			for id := range uint32(derived.NumIDs()) {
				if l, r := derived.splitL[id], derived.splitR[id]; l != id && loaded.pair(l, r) != id {
					t.Fatalf("pair(%d, %d) = %d, want %d", l, r, loaded.pair(l, r), id)
				}
			}
		})
	}
}

// TestTokensFilesAreCurrent checks that every encoding's .tokens file in data/ holds the
// tokens of its .tiktoken file, id by id, gaps included.
func TestTokensFilesAreCurrent(t *testing.T) {
	t.Parallel()
	for _, enc := range Encodings {
		t.Run(enc, func(t *testing.T) {
			t.Parallel()
			tokens, starts := parseEncoding(t, enc)
			file, ok := data.Tokens(enc)
			if !ok {
				t.Fatalf("no .tokens file for %s", enc)
			}
			gotTokens, gotStarts, err := ReadTokens(file)
			if err != nil {
				t.Fatal(err)
			}
			if gotTokens != tokens || !slices.Equal(gotStarts, starts) {
				t.Fatalf("data/%s.tokens is stale: run go generate ./plugins/tiktoken/internal/bpe", enc)
			}
			want, err := TokensFile(tokens, starts)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want, []byte(file)) {
				t.Fatalf("data/%s.tokens is not what TokensFile writes: run go generate ./plugins/tiktoken/internal/bpe", enc)
			}
		})
	}
}

func TestReadTokensRefusesAMalformedFile(t *testing.T) {
	t.Parallel()
	good, err := TokensFile("abcd", []uint32{0, 1, 1, 4}) // "a", a gap, "bcd"
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, file, want string
	}{
		{"a file without its header", "\x03\x00", "has no header"},
		{"a count of more lengths than the file holds", "\xff\x00\x00\x00ab", "cannot hold the lengths of 255 tokens"},
		{"token bytes missing at the end", string(good[:len(good)-1]), "add up to 4 bytes, but it holds 3"},
		{"token bytes to spare", string(good) + "e", "add up to 4 bytes, but it holds 5"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := ReadTokens(tt.file)
			if err == nil || !errors.Is(err, errFormat) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadTokens error = %v, want errFormat saying %q", err, tt.want)
			}
		})
	}
	tokens, starts, err := ReadTokens(string(good))
	if err != nil || tokens != "abcd" || !slices.Equal(starts, []uint32{0, 1, 1, 4}) {
		t.Errorf("ReadTokens(TokensFile(...)) = %q, %v, %v; want the tokens back", tokens, starts, err)
	}
	if _, err := TokensFile(strings.Repeat("x", 256), []uint32{0, 256}); err == nil {
		t.Error("TokensFile accepted a token of 256 bytes")
	}
}

func TestLoadRefusesABadSplitTable(t *testing.T) {
	t.Parallel()
	tokens, starts := parseEncoding(t, "r50k_base")
	committed, ok := data.Split("r50k_base")
	if !ok {
		t.Fatal("no split table for r50k_base")
	}
	good := []byte(committed)
	for _, tt := range []struct {
		name  string
		split []byte
	}{
		{"a table one id short", good[:len(good)-6]},
		{"a split into a later token", func() []byte {
			b := slices.Clone(good)
			id := 300                                     // a merged token
			b[6*id], b[6*id+1], b[6*id+2] = 0xFF, 0xFF, 0 // left = 65535
			return b
		}()},
		{"a split whose lengths do not add up", func() []byte {
			b := slices.Clone(good)
			id := 50255             // " gazed", six bytes
			clear(b[6*id : 6*id+6]) // "!" and "!"
			return b
		}()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := Load(tokens, starts, string(tt.split)); err == nil {
				t.Error("Load accepted it")
			}
		})
	}
}

func TestParseTiktokenRefusesMalformedLines(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, file, want string }{
		{"a token that is not base64", "IQ== 0\nI!== 1\n", "line 2: byte '!' is not base64"},
		{"a line without a rank", "IQ== 0\nIg==\n", "line 2: no rank"},
		{"a rank that is not a number", "IQ== x\n", "line 1: rank is not a number"},
		{"ranks going down", "IQ== 1\nIg== 0\n", "line 2: rank 0 is not above"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := ParseTiktoken(bytes.NewReader([]byte(tt.file)))
			if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tt.want)) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestParseTiktokenKeepsGaps(t *testing.T) {
	t.Parallel()
	tokens, starts := parseEncoding(t, "p50k_base")
	if len(starts)-1 != 50281 {
		t.Fatalf("%d ids, want 50281", len(starts)-1)
	}
	if starts[50256] != starts[50257] {
		t.Error("id 50256 (<|endoftext|>, not in the file) is not empty")
	}
	if got := tokens[starts[50257]:starts[50258]]; got != "  " {
		t.Errorf("token 50257 = %q, want two spaces", got)
	}
}

// TestParseTiktokenInHalvesEqualsInOne checks that parsing an embedded file's two halves at
// once gives what reading it from start to end does, and that an error in the second half
// names its line in the whole file.
func TestParseTiktokenInHalvesEqualsInOne(t *testing.T) {
	t.Parallel()
	for _, enc := range []string{"cl100k_base", "o200k_base"} {
		halves, hstarts := parseEncoding(t, enc)
		file, err := loader.Assets.ReadFile(enc + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		whole, wstarts, err := ParseTiktoken(bytes.NewBuffer(file)) // not an io.ReaderAt
		if err != nil {
			t.Fatal(err)
		}
		if halves != whole || !slices.Equal(hstarts, wstarts) {
			t.Errorf("%s: parsing in halves differs from parsing in one", enc)
		}
	}
	var file []byte
	for i := range 200_000 {
		file = fmt.Appendf(file, "IQ== %d\n", i)
	}
	file = append(file, "I!== 200000\n"...)
	_, _, err := parseHalves(bytes.NewReader(file), int64(len(file)))
	if err == nil || !strings.Contains(err.Error(), "line 200001: byte '!' is not base64") {
		t.Errorf("error = %v, want one naming line 200001", err)
	}
}

// TestEncodeWhileTheTablesAreBuiltGivesTheSameTokens encodes pieces with a Vocab as Load
// returns it, its backtracking tables held back until the test releases them: a short piece is
// merged as tiktoken merges it, to the tokens the backtracking encoder gives, and a long one
// waits for the tables.
func TestEncodeWhileTheTablesAreBuiltGivesTheSameTokens(t *testing.T) {
	t.Parallel()
	for i, v := range loaded(t) {
		t.Run(Encodings[i], func(t *testing.T) {
			t.Parallel()
			tokens, starts := parseEncoding(t, Encodings[i])
			split, _ := data.Split(Encodings[i])
			loading, err := Load(tokens, starts, split)
			if err != nil {
				t.Fatal(err)
			}
			release, fill := make(chan struct{}), loading.fill
			loading.fill = func() {
				<-release
				fill()
			}
			var s, ls Scratch
			for _, piece := range []string{"a", " tokenizer", "語語語語語", "\xff\xfe\x00", "!!!!!!!!", " unbelievably", "🦀🦀", strings.Repeat("ab", mergeWhileLoading/2)} {
				want := slices.Clone(v.Encode(piece, &s))
				if got := loading.Encode(piece, &ls); !slices.Equal(got, want) {
					t.Errorf("%q while loading: %v, want %v", piece, got, want)
				}
			}
			if loading.backtrackReady() {
				t.Fatal("the tables were built before the test released them")
			}
			long := strings.Repeat("ab", mergeWhileLoading)
			want := slices.Clone(v.Encode(long, &s))
			done := make(chan []uint32)
			go func() {
				var s Scratch
				done <- slices.Clone(loading.Encode(long, &s))
			}()
			select {
			case got := <-done:
				t.Fatalf("a %d-byte piece was encoded (%v) before the tables were built", len(long), got)
			case <-time.After(20 * time.Millisecond):
			}
			close(release)
			if got := <-done; !slices.Equal(got, want) {
				t.Errorf("the long piece once built: %v, want %v", got, want)
			}
			if !loading.backtrackReady() {
				t.Error("the tables are not built after a long piece waited for them")
			}
		})
	}
}

func TestLoadRefusesATokenThatAppearsTwice(t *testing.T) {
	t.Parallel()
	// Ids 0, 1 and 2 are "a", "bcdefghij" and "a" again, each its own split (a single token).
	var split []byte
	for id := range 3 {
		split = append(split, byte(id), 0, 0, byte(id), 0, 0)
	}
	_, err := Load("abcdefghija", []uint32{0, 1, 10, 11}, string(split))
	if err == nil || !errors.Is(err, errFormat) || !strings.Contains(err.Error(), `token 2 ("a") appears twice`) {
		t.Errorf("Load error = %v, want errFormat naming token 2", err)
	}
	// A long token twice: its key is a fingerprint, confirmed by its bytes.
	_, err = Load("abcdefghijabcdefghij", []uint32{0, 10, 20}, string(split[:12]))
	if err == nil || !strings.Contains(err.Error(), `token 1 ("abcdefghij") appears twice`) {
		t.Errorf("Load error = %v, want errFormat naming token 1", err)
	}
}
