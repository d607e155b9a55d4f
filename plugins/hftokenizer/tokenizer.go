package hftokenizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	sugar "github.com/sugarme/tokenizer"

	"github.com/chunkkit/chunkkit/internal/utf8x"
	"github.com/chunkkit/chunkkit/sdk"
)

// Tokenizer is one tokenizer.json, ready to encode. It is safe for concurrent use.
//
// By default the text of added tokens is ordinary text, as the chunkkit counter contract
// wants ("never treated as a control token"): "<|endoftext|>" in a GPT-2 text, "</s>", "[SEP]",
// and the added tokens a file does not flag as special but that steer the model all the same
// (Qwen's "<think>", "<|fim_prefix|>") count as the tokens the model makes of their
// characters. That is HF's count for the file without its added tokens (HF's
// encode_special_tokens, transformers' split_special_tokens, does it for the special ones).
// MatchSpecial returns the view that counts each added token found in the text as one token,
// as HF's default encode does.
type Tokenizer struct {
	name    string
	special bool // the MatchSpecial view: added tokens in the text are matched
	norm    normalizer
	pre     preTokenizer
	model   model
	// added tokens matched on the text as given (raw) and on normalized text (normd): none in
	// the ordinary view, all of them in the MatchSpecial view.
	raw, normd       *matcher
	rawAll, normdAll *matcher
}

// MatchSpecial returns a view of t that counts each added token (special or not) found in the
// text as one token, as HF's encode with add_special_tokens=false does; its Name ends in
// "@special".
func (t *Tokenizer) MatchSpecial() *Tokenizer {
	v := *t
	v.special = true
	v.raw, v.normd = t.rawAll, t.normdAll
	return &v
}

// Load reads a tokenizer.json; path may also name the directory that holds one (a model
// downloaded from the Hub). A file that uses a feature this package cannot reproduce exactly
// is refused with an error that names it and matches ErrUnsupportedFeature (and
// sdk.ErrUnsupported); a malformed one gets an error matching sdk.ErrInvalidConfig. A missing
// file is an error matching sdk.ErrUnsupported and fs.ErrNotExist.
func Load(path string) (*Tokenizer, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, "tokenizer.json")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("hf tokenizer %s: %w (%w)", path, err, sdk.ErrUnsupported)
		}
		return nil, fmt.Errorf("hf tokenizer %s: %w", path, err)
	}
	t, err := Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("hf tokenizer %s: %w", path, err)
	}
	t.name = path
	return t, nil
}

// Parse reads a tokenizer.json from r; see Load.
func Parse(r io.Reader) (*Tokenizer, error) {
	// sugarme/tokenizer's Config is the file's top level; its components stay generic JSON
	// objects, which are built here rather than by sugarme's loader (see the package doc).
	var cfg sugar.Config
	dec := json.NewDecoder(r)
	// Numbers stay as the file spells them: Unigram scores are read as HF reads them
	// (unigram.go, parseScore), which is not always the nearest float64.
	dec.UseNumber()
	if err := dec.Decode(&cfg); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("not JSON at byte %d: %v: %w", se.Offset, err, sdk.ErrInvalidConfig)
		}
		return nil, fmt.Errorf("not a tokenizer.json: %v: %w", err, sdk.ErrInvalidConfig)
	}
	t := &Tokenizer{}
	var err error
	if t.norm, err = buildNormalizer(obj(cfg.Normalizer), "normalizer"); err != nil {
		return nil, err
	}
	var byteLevel bool
	if t.pre, byteLevel, err = buildPreTokenizer(obj(cfg.PreTokenizer), "pre_tokenizer"); err != nil {
		return nil, err
	}
	var vocab map[string]int32
	var vocabSize int
	if t.model, vocab, vocabSize, err = buildModel(obj(cfg.Model), byteLevel); err != nil {
		return nil, err
	}
	if err := checkPostProcessor(obj(cfg.PostProcessor), "post_processor"); err != nil {
		return nil, err
	}
	if err := t.addTokens(cfg.AddedTokens, vocab, vocabSize); err != nil {
		return nil, err
	}
	return t, nil
}

// checkPostProcessor accepts the post-processors that add nothing when special tokens are not
// asked for, which is how a chunker counts.
func checkPostProcessor(cfg obj, path string) error {
	if cfg == nil {
		return nil
	}
	typ, err := cfg.typ(path)
	if err != nil {
		return err
	}
	switch typ {
	case "ByteLevel", "TemplateProcessing", "BertProcessing", "RobertaProcessing":
		return nil
	case "Sequence":
		items, err := cfg.objects(path, "processors")
		if err != nil {
			return err
		}
		for i, item := range items {
			if err := checkPostProcessor(item, indexPath(path+".processors", i)); err != nil {
				return err
			}
		}
		return nil
	}
	return unsupported(path, "post-processor type %q", typ)
}

// addTokens builds the added-token matchers the way HF's AddedVocabulary does: special
// tokens first, then the others, split by whether they match normalized text; a normalized
// token is looked for in its normalized form. Ids are HF's, not the file's: a token already
// added or in the model's vocabulary keeps that id, any other gets the next one after the
// vocabulary (HF warns when the file says otherwise, and then uses its own).
func (t *Tokenizer) addTokens(cfgs []sugar.TokenConfig, vocab map[string]int32, size int) error {
	added := map[string]int32{}
	hi := int32(-1) // the highest id in added, kept as it grows
	next := func() int32 {
		if hi < 0 || hi < int32(size) && size > 0 {
			return int32(size)
		}
		return hi + 1
	}
	ids := make([]int32, len(cfgs))
	for i, c := range cfgs {
		if c.Content == "" {
			continue
		}
		id, ok := added[c.Content]
		if !ok {
			if id, ok = vocab[c.Content]; !ok {
				id = next()
			}
		}
		added[c.Content] = id
		hi = max(hi, id)
		ids[i] = id
	}
	var special, plain []*addedToken
	seen := map[string]bool{}
	for i, c := range cfgs {
		if c.Content == "" {
			continue
		}
		a := &addedToken{id: ids[i], content: c.Content, singleWord: c.SingleWord, lstrip: c.Lstrip,
			rstrip: c.Rstrip, normalized: c.Normalized, special: c.Special}
		if c.Special {
			if seen[c.Content] {
				continue
			}
			seen[c.Content] = true
			special = append(special, a)
		} else {
			plain = append(plain, a)
		}
	}
	build := func() (raw, normd *matcher) {
		var rawToks, normToks []*addedToken
		var rawPats, normPats []string
		for _, a := range append(special, plain...) {
			if !a.special && seen[a.content] {
				continue
			}
			if !a.normalized {
				rawToks, rawPats = append(rawToks, a), append(rawPats, a.content)
				continue
			}
			pat := a.content
			if t.norm != nil {
				p := newPiece(a.content)
				t.norm(&p)
				pat = p.text
			}
			normToks, normPats = append(normToks, a), append(normPats, pat)
		}
		return newMatcher(rawToks, rawPats), newMatcher(normToks, normPats)
	}
	t.rawAll, t.normdAll = build()
	return nil
}

// encode returns the ids of text's tokens and where each ends in text (bytes, the end of the
// original characters the token came from), as HF tokenizers' encode with
// add_special_tokens=false gives them.
// sc may be nil; a caller that encodes several texts passes one scratch for all.
func (t *Tokenizer) encode(text string, ids, ends []int32, sc *scratch) ([]int32, []int32, error) {
	if text == "" {
		return ids, ends, nil
	}
	if sc == nil {
		sc = new(scratch)
	}
	pieces := t.raw.split(newPiece(text), nil)
	var normd []piece
	for _, p := range pieces {
		if p.id >= 0 {
			normd = append(normd, p)
			continue
		}
		if t.norm != nil {
			t.norm(&p)
		}
		normd = t.normd.split(p, normd)
	}
	var toks []tok
	words := sc.get()
	if want := len(text)/4 + 1; cap(words) < want {
		words = make([]piece, 0, want)
	}
	defer func() { sc.put(words) }()
	for _, p := range normd {
		if p.id >= 0 {
			ids, ends = append(ids, p.id), append(ends, p.orig(0, len(p.text)).end)
			continue
		}
		if t.pre != nil {
			words = t.pre(p, words[:0], sc)
		} else {
			words = append(words[:0], p)
		}
		for _, w := range words {
			var err error
			toks, err = t.model.tokenize(w.text, toks[:0])
			if err != nil {
				return nil, nil, err
			}
			for _, k := range toks {
				ids = append(ids, k.id)
				if k.end > k.start {
					ends = append(ends, w.orig(int(k.start), int(k.end)).end)
				} else if k.start > 0 {
					ends = append(ends, w.align[k.start-1].end)
				} else {
					ends = append(ends, w.origStart)
				}
			}
		}
	}
	return ids, ends, nil
}

// boundaries turns encode's ends into sdk.TokenCounter boundaries on text: non-decreasing,
// on rune boundaries, the last at len(text) (text after the last token, such as white space
// BERT drops, belongs to it).
func boundaries(text string, ends []int32) []int {
	out := make([]int, len(ends))
	prev := 0
	for i, e := range ends {
		b := max(int(e), prev)
		b = utf8x.SnapUp(text, b)
		out[i] = b
		prev = b
	}
	if len(out) > 0 {
		out[len(out)-1] = len(text)
	}
	return out
}
