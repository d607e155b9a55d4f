package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Peer names a file of chunks that another chunker made of an evaluation set's corpora, so
// that Run scores them with the same retriever and metrics as its own cells, in the same run.
type Peer struct {
	// Name labels the peer in the summary ("langchain").
	Name string
	// Path is a JSONL file of PeerChunk lines.
	Path string
}

// PeerChunk is one line of a peer file: a chunk of corpus Corpus whose text is
// corpus[Start:End], offsets in code points of the corpus file as the evaluation set counts
// them. tools/langchain-eval writes such files.
type PeerChunk struct {
	Corpus string `json:"corpus"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Text   string `json:"text"`
}

// PeerResult is what Run measured of a peer.
type PeerResult struct {
	Name string `json:"name"`
	Path string `json:"path"`
	// Chunks is the number of chunks of the peer over the evaluation corpora.
	Chunks int `json:"chunks"`
	// Retrieval holds the peer's retrieval scores.
	Retrieval Retrieval `json:"retrieval"`
}

// ParsePeer parses a --peer value, NAME=FILE.
func ParsePeer(s string) (Peer, error) {
	name, path, ok := strings.Cut(s, "=")
	if !ok || name == "" || path == "" {
		return Peer{}, fmt.Errorf("peer %q: want NAME=FILE", s)
	}
	return Peer{Name: name, Path: path}, nil
}

// scorePeer loads p's chunks, checks each against the corpus it names (its text must be the
// corpus's text at its offsets) and scores them on set with the top k.
func scorePeer(p Peer, set *EvalSet, k int) (*PeerResult, error) {
	f, err := os.Open(p.Path)
	if err != nil {
		return nil, fmt.Errorf("bench: peer %s: %w", p.Name, err)
	}
	defer f.Close()
	byID := map[string]*Corpus{}
	points := map[string][]int{} // corpus → byte offset of each code point
	for _, c := range set.Corpora {
		byID[c.ID] = c
	}
	var passages []Passage
	var texts []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	line := 0
	for sc.Scan() {
		line++
		var pc PeerChunk
		if err := json.Unmarshal(sc.Bytes(), &pc); err != nil {
			return nil, fmt.Errorf("bench: peer %s: %s:%d: %w", p.Name, p.Path, line, err)
		}
		c := byID[pc.Corpus]
		if c == nil {
			return nil, fmt.Errorf("bench: peer %s: %s:%d: corpus %q is not in the evaluation set", p.Name, p.Path, line, pc.Corpus)
		}
		offs, ok := points[c.ID]
		if !ok {
			offs = codePointOffsets(c.Text)
			points[c.ID] = offs
		}
		if pc.Start < 0 || pc.End < pc.Start || pc.End >= len(offs) {
			return nil, fmt.Errorf("bench: peer %s: %s:%d: span [%d, %d) is outside corpus %q (%d code points)", p.Name, p.Path, line, pc.Start, pc.End, c.ID, len(offs)-1)
		}
		if got := c.Text[offs[pc.Start]:offs[pc.End]]; got != pc.Text {
			return nil, fmt.Errorf("bench: peer %s: %s:%d: corpus %q [%d, %d) holds %q, not the chunk's text %q", p.Name, p.Path, line, c.ID, pc.Start, pc.End, clip(got), clip(pc.Text))
		}
		passages = append(passages, Passage{Corpus: c.ID, Span: Span{pc.Start, pc.End}})
		texts = append(texts, pc.Text)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bench: peer %s: %w", p.Name, err)
	}
	if len(passages) == 0 {
		return nil, fmt.Errorf("bench: peer %s: %s holds no chunks", p.Name, p.Path)
	}
	return &PeerResult{Name: p.Name, Path: p.Path, Chunks: len(passages), Retrieval: retrieve(set, passages, texts, k)}, nil
}
