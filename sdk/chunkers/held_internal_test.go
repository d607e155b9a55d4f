package chunkers

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/chunkkit/chunkkit/sdk"
)

// TestHeldTextMakesTheContent holds heldText to the canonical text on random blocks (empty
// ones too) and ranges, with and without a prefix: the pieces make the content and are cut
// from the blocks' texts (or are the separator), not from the content; a content that is not that text (one byte
// changed, or a prefix it does not start with) comes back whole.
func TestHeldTextMakesTheContent(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 1))
	words := []string{"", "a", "footnote", "[^1]", "\n", "long text of a block", "表"}
	for range 2000 {
		blocks := make([]sdk.Block, 1+r.IntN(6))
		for i := range blocks {
			var sb strings.Builder
			for range r.IntN(4) {
				sb.WriteString(words[r.IntN(len(words))])
			}
			blocks[i].Text = sb.String()
		}
		canon := (&sdk.Document{Blocks: blocks}).Canonical()
		starts := blockStarts(blocks)
		if !slices.Equal(starts, canon.Starts) {
			t.Fatalf("blockStarts = %v, Canonical's Starts %v", starts, canon.Starts)
		}
		a := r.IntN(len(canon.Text) + 1)
		b := a + r.IntN(len(canon.Text)-a+1)
		prefix := []string{"", "| h |\n|---|\n"}[r.IntN(2)]
		content := prefix + canon.Text[a:b]
		pieces := heldText(blocks, starts, a, b, prefix, content)
		if got := strings.Join(pieces, ""); got != content {
			t.Fatalf("blocks %q, [%d, %d), prefix %q: pieces %q make %q, want %q", texts(blocks), a, b, prefix, pieces, got, content)
		}
		for k, p := range pieces {
			if p == "" || k == 0 && prefix != "" { // the prefix is the caller's
				continue
			}
			if !sameMemory(p, sdk.Separator) && !slices.ContainsFunc(blocks, func(b sdk.Block) bool { return sameMemory(p, b.Text) }) {
				t.Fatalf("blocks %q, [%d, %d): piece %q is not cut from the blocks' texts or the separator", texts(blocks), a, b, p)
			}
		}
		if a == b {
			continue
		}
		changed := []byte(content)
		changed[len(prefix)+r.IntN(b-a)] ^= 0x20
		if got := heldText(blocks, starts, a, b, prefix, string(changed)); len(got) != 1 || got[0] != string(changed) {
			t.Fatalf("blocks %q, [%d, %d): a changed content gives %q, want it whole", texts(blocks), a, b, got)
		}
		if got := heldText(blocks, starts, a, b, "x"+prefix, content); len(got) != 1 || got[0] != content {
			t.Fatalf("blocks %q, [%d, %d): a prefix the content lacks gives %q, want it whole", texts(blocks), a, b, got)
		}
	}
}

func texts(blocks []sdk.Block) []string {
	out := make([]string, len(blocks))
	for i, b := range blocks {
		out[i] = b.Text
	}
	return out
}

// sameMemory reports whether the bytes of p lie in those of s.
func sameMemory(p, s string) bool {
	if s == "" {
		return false
	}
	lo := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	q := uintptr(unsafe.Pointer(unsafe.StringData(p)))
	return q >= lo && q < lo+uintptr(len(s))
}
