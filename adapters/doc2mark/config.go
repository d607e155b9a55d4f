package doc2mark

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
)

// Size units of ChunkingConfig.SizeUnit.
const (
	UnitChars  = "chars"
	UnitTokens = "tokens"
)

// ChunkingConfig is doc2mark's ChunkingConfig, field for field, with its JSON names. Unlike
// most chunkkit configs its zero value is not the defaults, because doc2mark gives 0 and false
// a meaning of their own (no overlap, never split, tables not kept whole): start from
// DefaultConfig or ParseConfig.
//
// Sizes are in code points when SizeUnit is "chars" — or anything but "tokens", as in
// doc2mark — and in tokens of the EncodingName encoding when it is "tokens".
// IncludePageMarkers is accepted and, as in doc2mark's chunk_content, has no effect.
type ChunkingConfig struct {
	MaxChunkSize        int    `json:"max_chunk_size"`
	Overlap             int    `json:"overlap"`
	SplitOnHeadingLevel int    `json:"split_on_heading_level"`
	KeepTablesWhole     bool   `json:"keep_tables_whole"`
	IncludePageMarkers  bool   `json:"include_page_markers"`
	SizeUnit            string `json:"size_unit"`
	EncodingName        string `json:"encoding_name"`
}

// DefaultConfig returns doc2mark's defaults: max_chunk_size 1500, overlap 200,
// split_on_heading_level 2, keep_tables_whole true, include_page_markers false, size_unit
// "chars", encoding_name "cl100k_base".
func DefaultConfig() ChunkingConfig {
	return ChunkingConfig{
		MaxChunkSize:        1500,
		Overlap:             200,
		SplitOnHeadingLevel: 2,
		KeepTablesWhole:     true,
		SizeUnit:            UnitChars,
		EncodingName:        "cl100k_base",
	}
}

// Tokens reports whether sizes are in tokens (SizeUnit is exactly "tokens").
func (c ChunkingConfig) Tokens() bool { return c.SizeUnit == UnitTokens }

// TokenizerSpec returns the chunkkit tokenizer spec of the encoding sizes are counted in,
// "tiktoken:" + EncodingName, for a caller that resolves counters by spec.
func (c ChunkingConfig) TokenizerSpec() string { return "tiktoken:" + c.EncodingName }

// ParseConfig reads a ChunkingConfig from JSON as doc2mark's ChunkingConfig(**cfg) would take
// it: the keys given override DefaultConfig, and "", "null" and "{}" give the defaults. Integer
// keys take JSON integers, boolean keys true or false, string keys strings. An unknown key (the
// error lists every one and the known names) or a value of the wrong type gives an error
// matching sdk.ErrInvalidConfig.
func ParseConfig(text string) (*ChunkingConfig, error) {
	cfg := DefaultConfig()
	text = strings.TrimSpace(text)
	if text == "" || text == "null" {
		return &cfg, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &fields); err != nil {
		return nil, fmt.Errorf("%w: doc2mark config: want a JSON object: %v", sdk.ErrInvalidConfig, err)
	}
	ints := map[string]*int{
		"max_chunk_size":         &cfg.MaxChunkSize,
		"overlap":                &cfg.Overlap,
		"split_on_heading_level": &cfg.SplitOnHeadingLevel,
	}
	bools := map[string]*bool{
		"keep_tables_whole":    &cfg.KeepTablesWhole,
		"include_page_markers": &cfg.IncludePageMarkers,
	}
	strs := map[string]*string{
		"size_unit":     &cfg.SizeUnit,
		"encoding_name": &cfg.EncodingName,
	}
	var unknown []string
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		raw := fields[key]
		var err error
		switch {
		case ints[key] != nil:
			var v *int
			if v, err = intField(raw); err == nil && v == nil {
				err = fmt.Errorf("want an integer, got null")
			}
			if err == nil {
				*ints[key] = *v
			}
		case bools[key] != nil:
			t := string(bytes.TrimSpace(raw))
			if t != "true" && t != "false" {
				err = fmt.Errorf("want true or false, got %s", describe(raw))
			}
			*bools[key] = t == "true"
		case strs[key] != nil:
			*strs[key], err = stringValue(bytes.TrimSpace(raw))
		default:
			unknown = append(unknown, key)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%w: doc2mark config: %s: %v", sdk.ErrInvalidConfig, key, err)
		}
	}
	if len(unknown) > 0 {
		known := slices.Concat(slices.Collect(maps.Keys(ints)), slices.Collect(maps.Keys(bools)), slices.Collect(maps.Keys(strs)))
		slices.Sort(known)
		return nil, fmt.Errorf("%w: doc2mark config: unknown keys %s (known: %s)",
			sdk.ErrInvalidConfig, strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	return &cfg, nil
}
