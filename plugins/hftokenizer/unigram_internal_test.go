package hftokenizer

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/dlclark/regexp2/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/chunkkit/chunkkit/sdk"
)

// unigramFile is a tokenizer.json with a Unigram model of the given vocab (a JSON array of
// [piece, score]) and unk_id, and no normalizer or pre-tokenizer.
func unigramFile(vocab, unkID string, byteFallback bool) string {
	return `{"added_tokens":[],"normalizer":null,"pre_tokenizer":null,"post_processor":null,` +
		`"model":{"type":"Unigram","unk_id":` + unkID + `,"byte_fallback":` + strconv.FormatBool(byteFallback) + `,"vocab":` + vocab + `}}`
}

func pieces(t *testing.T, tok *Tokenizer, text string) []string {
	t.Helper()
	ids, ends, err := tok.encode(text, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := tok.model.(*unigram)
	names := map[int32]string{}
	for p, id := range u.ids {
		names[id] = p
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = names[id] + "@" + strconv.Itoa(int(ends[i]))
	}
	return out
}

// TestUnigramSegmentsAsHFDoes checks the lattice on cases whose answers were taken from HF
// tokenizers 0.22 (npm @anush008/tokenizers 0.6.0) or from its documentation.
func TestUnigramSegmentsAsHFDoes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, vocab, unk string
		fallback         bool
		text             string
		want             []string
	}{
		{
			// HF's doc example for Unigram::encode: "xx" has no piece, and its two unknown
			// characters are one token.
			name:  "the best path, unknown characters fused",
			vocab: `[["<unk>",0.0],["a",0.0],["b",0.0],["c",0.0],["d",0.0],["cd",1.0],["ab",2.0],["abc",5.0],["abcd",10.0]]`,
			unk:   "0", text: "abcdacdxx",
			want: []string{"abcd@4", "a@5", "cd@7", "<unk>@9"},
		},
		{
			name:  "a tie keeps the path found first",
			vocab: `[["<unk>",0],["a",-10],["b",-0.5],["ab",-10.5]]`,
			unk:   "0", text: "ab",
			want: []string{"ab@2"},
		},
		{
			// Read exactly, "ab" ties with "a"+"b" and would win; HF reads its score one unit
			// in the last place lower, so "a"+"b" wins there.
			name:  "scores read as serde_json reads them",
			vocab: `[["<unk>",0],["a",-10],["b",-0.30234622955322266],["ab",-10.302346229553223]]`,
			unk:   "0", text: "ab",
			want: []string{"a@1", "b@2"},
		},
		{
			name:  "byte fallback spells an unknown run in bytes, each with the run's span",
			vocab: `[["<unk>",0],["a",-1],["<0x78>",-5],["<0xC3>",-5],["<0xA9>",-5]]`,
			unk:   "0", fallback: true, text: "axé",
			want: []string{"a@1", "<0x78>@4", "<0xC3>@4", "<0xA9>@4"},
		},
		{
			name:  "a run with a byte that has no piece is one unk",
			vocab: `[["<unk>",0],["a",-1],["<0x78>",-5]]`,
			unk:   "0", fallback: true, text: "axya",
			want: []string{"a@1", "<unk>@3", "a@4"},
		},
		{
			// The vocabulary's own "<unk>" piece matched in the text is an unknown node too,
			// fused with the unknown character after it; the fused text is no piece.
			name:  "the unk piece in the text fuses with unknown characters",
			vocab: `[["<unk>",0],["a",-1],["<",-2],["u",-2],["n",-2],["k",-2],[">",-2]]`,
			unk:   "0", text: "<unk>z",
			want: []string{"<unk>@6"},
		},
		{
			name:  "a piece listed twice takes the last id and its score",
			vocab: `[["<unk>",0],["a",-1],["b",-1],["ab",-5],["ab",-1]]`,
			unk:   "0", text: "ab",
			want: []string{"ab@2"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tok, err := Parse(strings.NewReader(unigramFile(tt.vocab, tt.unk, tt.fallback)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, pieces(t, tok, tt.text)); diff != "" {
				t.Errorf("%q (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestUnigramWithoutUnkIDFailsOnAnUnknownCharacter(t *testing.T) {
	t.Parallel()
	tok, err := Parse(strings.NewReader(unigramFile(`[["a",-1]]`, "null", false)))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tok.encode("aa", nil, nil, nil); err != nil {
		t.Errorf("aa: %v", err)
	}
	// HF fails the same way (MissingUnkId).
	if _, _, err := tok.encode("ab", nil, nil, nil); err == nil || !strings.Contains(err.Error(), `no piece for "b"`) {
		t.Errorf("ab: %v, want an error naming b", err)
	}
}

func TestMalformedUnigramAndPrecompiledSayWhere(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, json, want string }{
		{"vocab not an array", unigramFile(`{"a":0}`, "0", false), `model: "vocab" is not an array`},
		{"a pair of three", unigramFile(`[["a",0,1]]`, "0", false), "model.vocab[0]: want [piece, score]"},
		{"a score that is text", unigramFile(`[["a","x"]]`, "0", false), `model.vocab[0]: the score of "a" is not a number`},
		{"unk_id past the end", unigramFile(`[["a",0]]`, "1", false), "model.unk_id: 1 is past the vocabulary's 1 pieces"},
		{"an empty vocabulary with unk_id", unigramFile(`[]`, "0", false), "the vocabulary is empty"},
		{"a charsmap that is not base64", strings.Replace(unigramFile(`[["a",0]]`, "0", false), `"normalizer":null`, `"normalizer":{"type":"Precompiled","precompiled_charsmap":"!"}`, 1), "normalizer.precompiled_charsmap: not base64"},
		{"a charsmap too short", strings.Replace(unigramFile(`[["a",0]]`, "0", false), `"normalizer":null`, `"normalizer":{"type":"Precompiled","precompiled_charsmap":"AA=="}`, 1), "too short"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(strings.NewReader(tt.json))
			if !errors.Is(err, sdk.ErrInvalidConfig) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want sdk.ErrInvalidConfig saying %q", err, tt.want)
			}
		})
	}
}

func TestParseScoreReadsNumbersAsSerdeJSONDoes(t *testing.T) {
	t.Parallel()
	var digits20 uint64 = 12345678901234567890 // 20 digits, rounded when made a float64
	nearest := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, tt := range []struct {
		in   string
		want float64
	}{
		{"0", 0},
		{"-0", math.Copysign(0, -1)},
		{"-0.5", -0.5},
		{"-3", -3},
		{"1.5E+2", 150},
		{"25e-1", 2.5},
		{"-2.41518497467041", nearest("-2.41518497467041")}, // 15 digits: exact, as read exactly
		// 17 digits: more than a float64 holds, so the integer rounds before the division.
		{"-10.302346229553223", math.Nextafter(nearest("-10.302346229553223"), math.Inf(-1))},
		{"-12.937371253967285", math.Nextafter(nearest("-12.937371253967285"), math.Inf(1))},
		// Digits past the 19th: an integer's only scale it, a fraction's are dropped.
		{"123456789012345678901", float64(digits20) * 10},
		{"0.12345678901234567890123", float64(digits20) / 1e20},
	} {
		got, err := parseScore(tt.in)
		if err != nil || got != tt.want || math.Signbit(got) != math.Signbit(tt.want) {
			t.Errorf("parseScore(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "x", "1x", "1e999"} {
		if got, err := parseScore(bad); err == nil {
			t.Errorf("parseScore(%q) = %v, want an error", bad, got)
		}
	}
}

// charsmap builds a precompiled_charsmap the way SentencePiece lays one out (a Darts double
// array and NUL-ended replacements) for a few rules, for tests that need no trained model.
func charsmap(t *testing.T, rules map[string]string) string {
	t.Helper()
	// A tiny double array: the root at 0 with offset 0; a key's bytes are placed by brute
	// force so that no two units collide.
	units := make([]uint32, 1<<16)
	used := make([]bool, len(units))
	used[0] = true
	var normalized []byte
	type node struct {
		pos   uint32
		kids  map[byte]*node
		value int32
	}
	root := &node{kids: map[byte]*node{}, value: -1}
	for k, v := range rules {
		n := root
		for i := 0; i < len(k); i++ {
			c, ok := n.kids[k[i]]
			if !ok {
				c = &node{kids: map[byte]*node{}, value: -1}
				n.kids[k[i]] = c
			}
			n = c
		}
		n.value = int32(len(normalized))
		normalized = append(append(normalized, v...), 0)
	}
	// Each node's children live at base ^ label, its leaf unit at base itself; the node's
	// offset field is base ^ its own position, as Darts' walk XORs it in (offsets below 2^22
	// need no shift).
	var place func(n *node)
	place = func(n *node) {
		for base := uint32(1); ; base++ {
			if used[base] && (n.value >= 0 || len(n.kids) > 0) {
				continue
			}
			ok := true
			for b := range n.kids {
				if used[base^uint32(b)] {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			units[n.pos] |= (base ^ n.pos) << 10
			if n.value >= 0 {
				used[base] = true
				units[n.pos] |= 1 << 8
				units[base] = uint32(n.value) | 1<<31
			}
			for b, c := range n.kids {
				c.pos = base ^ uint32(b)
				used[c.pos] = true
				units[c.pos] = uint32(b)
			}
			for _, c := range n.kids {
				place(c)
			}
			return
		}
	}
	place(root)
	last := len(units)
	for last > 1 && !used[last-1] {
		last--
	}
	units = units[:last+256]
	raw := binary.LittleEndian.AppendUint32(nil, uint32(4*len(units)))
	for _, u := range units {
		raw = binary.LittleEndian.AppendUint32(raw, u)
	}
	return base64.StdEncoding.EncodeToString(append(raw, normalized...))
}

// TestPrecompiledRewritesGraphemesAsHFDoes checks the grapheme rules of HF's Precompiled on a
// charsmap made here. The texts and ends are HF's: the same charsmap in a file that splits the
// normalized text into characters (Split "." Isolated, WordLevel) gave these end offsets with
// npm @anush008/tokenizers 0.6.0. The trained nmt_nfkc and nmt_nfkc_cf charsmaps are checked
// against HF by the goldens of unigram-xlmr and unigram-bytefallback.
func TestPrecompiledRewritesGraphemesAsHFDoes(t *testing.T) {
	t.Parallel()
	cm := charsmap(t, map[string]string{
		"Ａ":       "A",
		"e\u0301": "é",  // a whole grapheme
		"ﬁ":       "fi", // longer
		"\x1e":    "",   // removed
		"\r":      "\n", // CR LF is one grapheme, looked up whole: CR's entry replaces both
		"™":       "TM",
	})
	cfg := obj{"type": "Precompiled", "precompiled_charsmap": cm}
	n, err := buildNormalizer(cfg, "normalizer")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		in, want string
		ends     []int32 // the original end of each normalized byte's character, by character
	}{
		{"aＡb", "aAb", []int32{1, 4, 5}},
		// The composed character keeps the alignment of the first character it replaces.
		{"cafe\u0301", "café", []int32{1, 2, 3, 4}},
		{"Ａ\u0301", "A", []int32{3}}, // the first character's entry takes the whole grapheme
		{"ﬁx", "fix", []int32{3, 3, 4}},
		{"a\x1eb", "ab", []int32{1, 3}}, // removed through the character before it
		{"™\x1eg", "TMg", []int32{3, 4, 5}},
		{"a\r\nb", "a\nb", []int32{1, 2, 4}},
		{"plain", "plain", []int32{1, 2, 3, 4, 5}},
	} {
		p := newPiece(tt.in)
		n(&p)
		var ends []int32
		for i := range p.text {
			if !utf8Start(p.text, i) {
				continue
			}
			ends = append(ends, p.align[i].end)
		}
		if p.text != tt.want || !cmp.Equal(ends, tt.ends) {
			t.Errorf("%q → %q with ends %v; want %q with %v", tt.in, p.text, ends, tt.want, tt.ends)
		}
	}
}

func utf8Start(s string, i int) bool { return s[i]&0xC0 != 0x80 }

// TestSpaceRunsMatchesAsTheRegexDoes holds the " {2,}" shortcut to regexp2 running the
// pattern.
func TestSpaceRunsMatchesAsTheRegexDoes(t *testing.T) {
	t.Parallel()
	re, err := regexp2.Compile(" {2,}", regexp2.None)
	if err != nil {
		t.Fatal(err)
	}
	slow := &regex{re: re}
	for _, s := range []string{"", " ", "  ", "a  b", "   a b    ", "a", " \u3000  x ", strings.Repeat(" ", 70)} {
		if diff := cmp.Diff(slow.find(s, nil), spaceRuns(2).find(s, nil), cmp.AllowUnexported(match{})); diff != "" {
			t.Errorf("%q (-regexp2 +spaceRuns):\n%s", s, diff)
		}
	}
}
