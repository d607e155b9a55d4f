// Package conformance is a test kit for implementations of chunkkit's interfaces: token
// counters, sentence splitters and chunkers, in-process or served as plugins. It checks the
// laws of each interface and the invariants of DESIGN.md on built-in inputs chosen to break
// implementations (CJK without spaces, emoji sequences, special-token text, a 100 kB run of
// one letter, tables of 2,000 rows, ...), so an author runs it from a test and gets a failure
// that names the input and the law it broke.
//
// A token counter or sentence splitter author calls TokenCounter or SentenceSplitter from a
// test; each law runs as a subtest whose name reads as a sentence:
//
//	func TestConformance(t *testing.T) {
//		conformance.TokenCounter(t, mytokenizer.New("my-encoding"))
//		conformance.SentenceSplitter(t, mysplitter.New())
//	}
//
// A chunker author passes a constructor and the counter the chunker measures with. Every chunk's
// EmbedText must be its Context and Content joined by sdk.JoinContext, its ContentHash the
// SHA-256 of EmbedText, and its TokenCount the count of EmbedText. When the chunker implements
// sdk.Budgeted, its budget (on EmbedText) and overlap are checked too, and when it is a
// WordKeeper whose KeepsWords is true, that no chunk starts or ends inside a word:
//
//	func TestChunkerConformance(t *testing.T) {
//		conformance.Chunker(t, func() sdk.Chunker {
//			return mychunker.New(mychunker.Config{MaxTokens: 16, Counter: sdk.Runes{}})
//		}, sdk.Runes{})
//	}
//
// A fuzz target checks any document the fuzzer makes with CheckResult, seeded from
// Documents:
//
//	func FuzzChunk(f *testing.F) {
//		for _, c := range conformance.Documents() {
//			for _, b := range c.Doc.Blocks {
//				f.Add(string(b.Kind), b.Text)
//			}
//		}
//		f.Fuzz(func(t *testing.T, kind, text string) {
//			doc := &sdk.Document{ID: "fuzz", Blocks: []sdk.Block{{Kind: sdk.BlockKind(kind), Text: text, Level: 1}}}
//			ch := mychunker.New(mychunker.Config{MaxTokens: 16, Counter: sdk.Runes{}})
//			req := conformance.Request()
//			chunks, err := ch.Chunk(t.Context(), req, doc)
//			if err := conformance.CheckResult(t.Context(), doc, req, chunks, err, conformance.OptionsFor(ch, sdk.Runes{})); err != nil {
//				t.Fatal(err)
//			}
//		})
//	}
//
// Run the kit under -race: the concurrency laws call the implementation from several
// goroutines at once and compare the answers, but only the race detector sees a data race
// that happens to give the right answer.
//
// The kit imports sdk (sdk/wordbreak's UAX #29 segmenter among it), testing and go-cmp only,
// so importing it adds no RPC stack to a test.
package conformance
