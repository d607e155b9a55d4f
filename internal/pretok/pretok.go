package pretok

// Func returns the end of the piece that starts at byte offset at of text, which must be
// valid UTF-8 and longer than at: at < end <= len(text), the piece is never empty. A Func
// keeps no state and is safe for concurrent use.
type Func func(text string, at int) int

// The patterns the scanners implement, as Go raw strings holding each pattern's source
// exactly as it is published, byte for byte.
const (
	// R50kPattern is the pattern of OpenAI's r50k_base and p50k_base (GPT-2 and GPT-3), and
	// the regex HuggingFace's ByteLevel pre-tokenizer applies when its use_regex is true.
	R50kPattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

	// Cl100kPattern is the pattern of OpenAI's cl100k_base (GPT-3.5 and GPT-4), also the
	// Split regex of Llama 3's tokenizer.json.
	Cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

	// O200kPattern is the pattern of OpenAI's o200k_base (GPT-4o).
	O200kPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|\p{N}{1,3}` +
		`| ?[^\s\p{L}\p{N}]+[\r\n/]*` +
		`|\s*[\r\n]+` +
		`|\s+(?!\S)` +
		`|\s+`

	// QwenPattern is the Split regex of Qwen2's and Qwen3's tokenizer.json: Cl100kPattern
	// with single digits, `\p{N}`, in place of runs of up to three.
	QwenPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// ForPattern returns the scanner of the pattern src, one of this package's patterns byte for
// byte, or nil when no scanner implements src. A pattern written differently but meaning
// the same, such as `'(?i:[sdmt]|ll|ve|re)|...`, gets nil: the caller then needs a regex
// engine.
func ForPattern(src string) Func {
	switch src {
	case R50kPattern:
		return R50k
	case Cl100kPattern:
		return Cl100k
	case O200kPattern:
		return O200k
	case QwenPattern:
		return Qwen
	}
	return nil
}
