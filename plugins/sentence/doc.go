// Package sentence serves sentence splitters backed by two third-party engines, for the
// chunkkit-sentence plugin and for in-process use:
//
//   - "punkt:en" — Punkt (Kiss & Strunk 2006) as implemented by github.com/neurosnap/sentences
//     v1.1.2 with its English model. The model's training data is compiled into the binary
//     (go-bindata); nothing is read from disk or the network at run time.
//   - "uax29" — the sentence boundaries of Unicode Standard Annex #29 as implemented by
//     github.com/clipperhouse/uax29/v2/sentences: language-neutral, dictionary-free.
//
// Both implement sdk.SentenceSplitter. The engines' raw boundaries are normalized into the
// sdk contract: ends are strictly increasing byte offsets on rune boundaries; the white space
// after a sentence belongs to it (so a blank line never forms a sentence of its own); white
// space before the first sentence belongs to the first; the last end is len(text); a text
// with no non-space rune has no sentences. Sentences therefore tile the text exactly: no
// byte is lost or reordered. Invalid UTF-8 is split like any other text and never panics.
// Both libraries take quadratic time on some long runs (white space for Punkt; closing
// punctuation and spaces after a period for UAX #29); the splitters shorten such runs before
// the engine sees them and map offsets back, which changes no sentence end, so splitting stays
// linear in the input.
//
// The engines disagree on many hard cases (abbreviations, initials, decimals at a sentence
// end, blank lines without a terminator, CJK full stops); docs/reference/sentence.md and the
// table in the package tests record each engine's answer. The in-process default of
// sdk/sentence stays the right choice without plugins.
//
// New returns one splitter; Splitters serves both by model name through sdk/serve.
package sentence
