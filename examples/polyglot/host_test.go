package polyglot

import (
	"bufio"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/host/hosttest"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	sdkplugin "github.com/chunkkit/chunkkit/sdk/plugin"
)

// specs names what the conformance kit runs over through host.Host: each plugin's default and
// py-sentencepiece's other model. TestTheCLIRunsTheConformanceKitOverEachPlugin runs it over
// node-gpt's cl100k_base (its default) and both SentencePiece models through the command line;
// node-gpt's other encodings are left to TestNodeGPTAnswersExactlyAsTheTiktokenPackage: the
// kit's 100 kB run of one letter costs gpt-tokenizer 5-16 s per encoding and process (its merge
// is quadratic in the length of one pre-token).
var specs = []string{"plugin:node-gpt", "plugin:py-sentencepiece", "plugin:py-sentencepiece:docs-bpe"}

func TestThePluginsKeepTheCounterLawsThroughTheHost(t *testing.T) {
	h, logs := newHost(t)
	t.Run("each", func(t *testing.T) {
		for _, spec := range specs {
			t.Run(spec, func(t *testing.T) {
				t.Parallel()
				tc, err := h.TokenCounter(t.Context(), spec)
				if err != nil {
					t.Fatalf("%v\nhost log:\n%s", err, logs)
				}
				conformance.TokenCounter(t, tc)
			})
		}
	})
	// The host always asks for mutual TLS (as go-plugin's AutoMTLS, with its own client
	// certificate); each plugin answered with a certificate, or go-plugin would have refused the
	// handshake ("error parsing server cert" / a TLS failure).
	if n := strings.Count(logs.String(), "configuring mutual TLS with the host's client certificate"); n < 2 {
		t.Errorf("the host configured mutual TLS %d times for two plugins; log:\n%s", n, logs)
	}
}

func TestThePluginsSayWhatTheyServe(t *testing.T) {
	h, _ := newHost(t)
	for _, want := range []sdkplugin.Info{
		{Name: nodePlugin, Version: "1.0.0", Models: []string{"cl100k_base", "o200k_base", "p50k_base", "r50k_base"}, ProtocolVersion: "1.2", Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}},
		{Name: pyPlugin, Version: "1.0.0", Models: []string{"docs-unigram", "docs-bpe"}, ProtocolVersion: "1.2", Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}},
	} {
		got, err := h.Info(t.Context(), want.Name, sdkplugin.KindTokenizer)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Info of %s (-want +got):\n%s", want.Name, diff)
		}
		spec := "plugin:" + want.Name + ":no-such-model"
		if _, err := h.TokenCounter(t.Context(), spec); !errors.Is(err, sdk.ErrUnsupported) || !strings.Contains(err.Error(), want.Models[0]) {
			t.Errorf("TokenCounter(%q) = %v, want an error matching sdk.ErrUnsupported that lists the models", spec, err)
		}
	}
}

func TestNodeGPTAnswersExactlyAsTheTiktokenPackage(t *testing.T) {
	h, _ := newHost(t)
	texts := corpus(t)
	for _, enc := range tiktoken.Encodings() {
		t.Run(enc, func(t *testing.T) {
			t.Parallel()
			node, err := h.TokenCounter(t.Context(), "plugin:node-gpt:"+enc)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := tiktoken.New(enc, "")
			if err != nil {
				t.Fatal(err)
			}
			hosttest.SameCounts(t, ref, node, texts)
		})
	}
}

func TestPySentencePieceCountsAsSpmEncode(t *testing.T) {
	h, _ := newHost(t)
	// spm_encode reads one text per line.
	var lines []string
	for _, text := range corpus(t) {
		for _, l := range strings.Split(text, "\n") {
			if l != "" && !strings.ContainsAny(l, "\r") && strings.ToValidUTF8(l, "") == l {
				lines = append(lines, l)
			}
		}
	}
	for _, model := range []string{"docs-unigram", "docs-bpe"} {
		t.Run(model, func(t *testing.T) {
			tc, err := h.TokenCounter(t.Context(), "plugin:py-sentencepiece:"+model)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tc.Count(t.Context(), lines)
			if err != nil {
				t.Fatal(err)
			}
			want := spmEncode(t, filepath.Join(dir, pyPlugin, "models", model+".model"), lines)
			mismatches := 0
			for i := range lines {
				if got[i] != want[i] && mismatches < 5 {
					mismatches++
					t.Errorf("line %d %q: Count = %d, spm_encode gives %d pieces", i, lines[i], got[i], want[i])
				}
			}
			bounds, err := tc.Boundaries(t.Context(), lines)
			if err != nil {
				t.Fatal(err)
			}
			if err := sdk.CheckBoundaries(lines, bounds); err != nil {
				t.Fatal(err)
			}
			for i := range lines {
				if len(bounds[i]) != got[i] {
					t.Fatalf("line %d %q: Count = %d but %d boundaries", i, lines[i], got[i], len(bounds[i]))
				}
			}
			t.Logf("%d lines, %d pieces, as spm_encode", len(lines), sum(want))
		})
	}
}

func TestTextThatIsNotUTF8IsCountedNotRefused(t *testing.T) {
	h, _ := newHost(t)
	texts := invalidUTF8()
	for _, tc := range []struct {
		spec string
		// keepsFFFD: the model gives U+FFFD, which each invalid sequence becomes, a token;
		// a model normalized as T5's maps it to white space, so a text of nothing else has none.
		keepsFFFD bool
	}{
		{"plugin:node-gpt", true},
		{"plugin:py-sentencepiece:docs-bpe", true},
		{"plugin:py-sentencepiece:docs-unigram", false},
	} {
		counter, err := h.TokenCounter(t.Context(), tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		counts, err := counter.Count(t.Context(), texts)
		if err != nil {
			t.Fatalf("%s: Count: %v", tc.spec, err)
		}
		bounds, err := counter.Boundaries(t.Context(), texts)
		if err != nil {
			t.Fatalf("%s: Boundaries: %v", tc.spec, err)
		}
		if err := sdk.CheckBoundaries(texts, bounds); err != nil {
			t.Errorf("%s: %v", tc.spec, err)
		}
		for i, text := range texts {
			if len(bounds[i]) != counts[i] {
				t.Errorf("%s: %q: Count = %d but %d boundaries", tc.spec, text, counts[i], len(bounds[i]))
			}
			if counts[i] == 0 && (tc.keepsFFFD || !sdk.IsBlank(strings.ToValidUTF8(text, " "))) {
				t.Errorf("%s: %q: no tokens", tc.spec, text)
			}
		}
	}
}

func TestRandomBytesAreCountedAsTheGoCountersCountThem(t *testing.T) {
	h, _ := newHost(t)
	// Texts spliced from fragments that stress the UTF-8 repair: truncated, overlong and
	// surrogate sequences, stray continuation bytes, multi-byte characters, spaces, letters.
	fragments := []string{"a", "Z", " ", "  ", "\n", "é", "日", "👍", "\u200d", "<|endoftext|>", "\x80", "\xbf",
		"\xc3", "\xe2\x82", "\xf0\x9f", "\xf0\x9f\x98", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff", "\xfe", "12", "'s"}
	rng := rand.New(rand.NewPCG(12, 2026))
	texts := make([]string, 400)
	for i := range texts {
		var b strings.Builder
		for range 1 + rng.IntN(24) {
			b.WriteString(fragments[rng.IntN(len(fragments))])
		}
		texts[i] = b.String()
	}
	ref, err := tiktoken.New("cl100k_base", "")
	if err != nil {
		t.Fatal(err)
	}
	node, err := h.TokenCounter(t.Context(), "plugin:node-gpt")
	if err != nil {
		t.Fatal(err)
	}
	hosttest.SameCounts(t, ref, node, texts)
	for _, spec := range []string{"plugin:py-sentencepiece:docs-unigram", "plugin:py-sentencepiece:docs-bpe"} {
		py, err := h.TokenCounter(t.Context(), spec)
		if err != nil {
			t.Fatal(err)
		}
		counts, err := py.Count(t.Context(), texts)
		if err != nil {
			t.Fatal(err)
		}
		bounds, err := py.Boundaries(t.Context(), texts)
		if err != nil {
			t.Fatal(err)
		}
		if err := sdk.CheckBoundaries(texts, bounds); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
		for i := range texts {
			if len(bounds[i]) != counts[i] {
				t.Errorf("%s: %q: Count = %d but %d boundaries", spec, texts[i], counts[i], len(bounds[i]))
			}
		}
	}
}

func TestATextOverGRPCsDefaultLimitIsCounted(t *testing.T) {
	h, _ := newHost(t)
	// 4.5 MB in one text: the host sends it alone, over gRPC's 4 MiB default receive limit.
	big := strings.Repeat("Sentences of words, 12 of them. ", 140_000)
	want, err := tiktoken.New("cl100k_base", "")
	if err != nil {
		t.Fatal(err)
	}
	wantCounts, err := want.Count(t.Context(), []string{big})
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"plugin:node-gpt", "plugin:py-sentencepiece:docs-bpe"} {
		tc, err := h.TokenCounter(t.Context(), spec)
		if err != nil {
			t.Fatal(err)
		}
		counts, err := tc.Count(t.Context(), []string{big})
		if err != nil {
			t.Fatalf("%s: Count of %d bytes: %v", spec, len(big), err)
		}
		if spec == "plugin:node-gpt" && counts[0] != wantCounts[0] {
			t.Errorf("%s: Count of %d bytes = %d, tiktoken says %d", spec, len(big), counts[0], wantCounts[0])
		}
		if counts[0] < len(big)/10 {
			t.Errorf("%s: Count of %d bytes = %d", spec, len(big), counts[0])
		}
	}
}

func TestABadModelFileIsAnErrorThatSaysWhich(t *testing.T) {
	need(t)
	scratch := t.TempDir()
	corrupt := filepath.Join(scratch, "corrupt.model")
	if err := os.WriteFile(corrupt, []byte("not a SentencePiece model"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, pyPlugin, "main.py")
	sum, err := host.FileSHA256(script)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		arg, spec string
		want      error
		says      string
	}{
		{"corrupt=" + corrupt, "plugin:pybad:corrupt", sdk.ErrInvalidConfig, "cannot load " + corrupt},
		{"missing=" + filepath.Join(scratch, "missing.model"), "plugin:pybad", sdk.ErrUnavailable, "no file " + filepath.Join(scratch, "missing.model")},
	} {
		h := hostFor(t, host.Entry{Name: "pybad", Binary: script, SHA256: sum, Args: []string{tc.arg}, Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}})
		_, err := h.TokenCounter(t.Context(), tc.spec)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("TokenCounter(%q) with %s = %v; want an error matching %v that says %q", tc.spec, tc.arg, err, tc.want, tc.says)
		}
	}
}

// hostFor returns a host whose only manifest lists e. The manifest file sits in the install
// folder beside the installed manifests (a binary must be inside its manifest's folder), and is
// loaded by itself; e.Binary may be absolute (it is written relative to that folder).
func hostFor(t *testing.T, e host.Entry) *host.Host {
	t.Helper()
	if filepath.IsAbs(e.Binary) {
		rel, err := filepath.Rel(dir, e.Binary)
		if err != nil {
			t.Fatal(err)
		}
		e.Binary = filepath.ToSlash(rel)
	}
	data, err := json.Marshal(map[string]any{"version": 1, "plugins": []host.Entry{e}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(dir, "test-*.json") // not *.plugins.json: other tests load dir whole
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(f.Name()) })
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	cat, err := host.Load(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	h := host.New(cat, host.Options{Logger: hclog.NewNullLogger()})
	t.Cleanup(func() { h.Close() })
	return h
}

func TestAPluginWhoseChecksumDiffersIsRefused(t *testing.T) {
	need(t)
	cat, err := host.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{nodePlugin, pyPlugin} {
		p, _ := cat.Lookup(name)
		if err := p.Verify(); err != nil {
			t.Errorf("the installed %s does not match its manifest: %v", name, err)
		}
	}
	// A manifest elsewhere that names the same script with another checksum.
	h := hostFor(t, host.Entry{Name: "tampered", Binary: filepath.Join(dir, nodePlugin, "main.mjs"), SHA256: strings.Repeat("0", 64), Kinds: []sdkplugin.Kind{sdkplugin.KindTokenizer}})
	if _, err := h.TokenCounter(t.Context(), "plugin:tampered"); !errors.Is(err, plugin.ErrChecksumsDoNotMatch) {
		t.Errorf("TokenCounter with a wrong checksum = %v, want plugin.ErrChecksumsDoNotMatch", err)
	}
}

// corpus returns the texts the equality tests run over: every paragraph of the repository's
// docs and sample, each doc whole, the conformance kit's kind of hard cases, and text that is
// not valid UTF-8.
func corpus(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../README.md", "../../testdata/sample.md")
	var texts []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
		texts = append(texts, strings.Split(string(data), "\n\n")...)
	}
	texts = append(texts,
		"", " ", "   leading and trailing   ", "tab\tand\r\nCRLF\n",
		"<|endoftext|> special tokens <|fim_prefix|> are text <|im_start|>",
		"日本語の文章と中文，한국어 텍스트", "emoji 👩\u200d👩\u200d👧\u200d👦 👍🏽 🏳\ufe0f\u200d🌈",
		"e\u0301le\u0300ve \u0915\u094d\u0937\u093f", "مرحبا بالعالم", strings.Repeat("a", 20_000),
		strings.Repeat("🙂", 500), strings.Repeat(" ", 300)+"x", "1234567890 3.14159 0xDEADBEEF",
	)
	return append(texts, invalidUTF8()...)
}

// invalidUTF8 returns texts that are not valid UTF-8: stray continuation bytes, truncated
// sequences, overlongs, surrogates, bytes that never occur in UTF-8.
func invalidUTF8() []string {
	return []string{
		"a\x80b", "\xe2\x82", "ok\xffok", "\xf0\x9f\x98", "é\xc3", "\xc0\xaf overlong",
		"\xed\xa0\x80 surrogate", "\x80\x80\x80", "mixed \xe2\x82\xac \xe2\x82 end\xf4\x90\x80\x80",
		"日本\x80語", "👍\x9f\x91\x8d",
	}
}

// spmEncode counts the pieces SentencePiece's own command line gives each line.
func spmEncode(t *testing.T, model string, lines []string) []int {
	t.Helper()
	cmd := exec.Command("spm_encode", "--model="+model, "--output_format=id")
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("spm_encode: %v", err)
	}
	var counts []int
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		counts = append(counts, len(strings.Fields(sc.Text())))
	}
	if len(counts) != len(lines) {
		t.Fatalf("spm_encode gave %d lines for %d", len(counts), len(lines))
	}
	return counts
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
