package reffiles

import "testing"

func TestByteAlphabetIsGPT2s(t *testing.T) {
	a := byteAlphabet()
	seen := make(map[rune]bool)
	for _, r := range a {
		seen[r] = true
	}
	if len(seen) != 256 {
		t.Errorf("byteAlphabet maps 256 bytes to %d distinct runes, want 256", len(seen))
	}
	for b, want := range map[byte]rune{'!': '!', 'A': 'A', 0x00: 'Ā', ' ': 'Ġ', '\n': 'Ċ', 0x7F: 'ġ', 0xAD: 'Ń', 0xFF: 'ÿ'} {
		if a[b] != want {
			t.Errorf("byteAlphabet[%#x] = %q, want %q", b, a[b], want)
		}
	}
}
