package tiktoken

import (
	"fmt"
	"path"
	"strings"
	"sync"

	pkoukk "github.com/pkoukk/tiktoken-go"
)

// setOfflineLoader installs embeddedLoader as tiktoken-go's BPE loader. tiktoken-go keeps its
// loader in an unsynchronised package variable whose default downloads vocabularies over
// HTTP and caches them in $TIKTOKEN_CACHE_DIR, $DATA_GYM_CACHE_DIR or $TMPDIR/data-gym-cache;
// embeddedLoader reads neither the network nor any cache directory. The Once makes the write
// happen exactly once, before this package first asks tiktoken-go for an encoding, and keeps
// concurrent New calls from racing on it.
var setOfflineLoader = sync.OnceFunc(func() {
	pkoukk.SetBpeLoader(embeddedLoader{})
})

// embeddedLoader is a tiktoken-go BpeLoader that serves the vocabularies the other backends
// use (readTokens), so the binary holds each once: tiktoken-go-loader's offline loader would
// add its base64 .tiktoken files (7 MB), which every plugin start hashes.
type embeddedLoader struct{}

// LoadTiktokenBpe returns the ranks of the encoding whose .tiktoken file tiktoken-go names by
// its URL.
func (embeddedLoader) LoadTiktokenBpe(file string) (map[string]int, error) {
	tokens, starts, err := readTokens(strings.TrimSuffix(path.Base(file), ".tiktoken"))
	if err != nil {
		return nil, err
	}
	ranks := make(map[string]int, len(starts)-1)
	for id := range len(starts) - 1 {
		if token := tokens[starts[id]:starts[id+1]]; token != "" {
			ranks[token] = id
		}
	}
	return ranks, nil
}

// referenceEncoder runs github.com/pkoukk/tiktoken-go. Its Tiktoken is safe for concurrent
// use: EncodeOrdinary only reads its maps, and its regexp2 matcher keeps per-call state in a
// pool.
type referenceEncoder struct {
	tk *pkoukk.Tiktoken
	// tokenLen holds the byte length of every token id below vocabSize, so Boundaries need
	// not decode token by token.
	tokenLen []int32
}

func newReference(encoding string) (*referenceEncoder, error) {
	setOfflineLoader()
	tk, err := pkoukk.GetEncoding(encoding)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", encoding, err)
	}
	// Decode gives the bytes of ordinary and special ids alike, and nothing for unassigned ones.
	lens := make([]int32, vocabSize(encoding))
	for id := range lens {
		lens[id] = int32(len(tk.Decode([]int{id})))
	}
	return &referenceEncoder{tk: tk, tokenLen: lens}, nil
}

// batch returns e: it keeps nothing from one text to the next.
func (e *referenceEncoder) batch() (encoder, func()) { return e, func() {} }

func (e *referenceEncoder) count(text string) (int, error) {
	return len(e.tk.EncodeOrdinary(text)), nil
}

func (e *referenceEncoder) appendTokenLens(dst []int, text string) ([]int, error) {
	for _, id := range e.tk.EncodeOrdinary(text) {
		if id >= 0 && id < len(e.tokenLen) && e.tokenLen[id] > 0 {
			dst = append(dst, int(e.tokenLen[id]))
		} else {
			dst = append(dst, len(e.tk.Decode([]int{id})))
		}
	}
	return dst, nil
}
