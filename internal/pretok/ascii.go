package pretok

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// The ASCII letter runs of asciiWord, eight bytes at a time: a word's run ends at a byte
// that a byte-at-a-time loop only leaves by a mispredicted branch, once or twice per word,
// which was half of asciiWord's time on English text.

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// between returns, for each byte of x, 0x80 where the byte is ASCII and m < byte < n, else
// 0; 0 <= m <= 127 and 0 <= n <= 128. Exact for every byte: no byte's sum or difference
// carries into the next (Bit Twiddling Hacks, "Determine if a word has a byte between m
// and n", countbetween).
func between(x uint64, m, n uint64) uint64 {
	low := x &^ highs
	return (ones*(127+n) - low) & ^x & (low + ones*(127-m)) & highs
}

// load8 returns the eight bytes of text from at, little-endian; at+8 <= len(text).
func load8(text string, at int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(text[at:]), 8))
}

// runOf returns the end of the run of bytes from at in m < byte < n (ASCII only): runLen's
// eight bytes at a time while eight remain, then one at a time.
func runOf(text string, at int, m, n byte) int {
	for at+8 <= len(text) {
		k := bits.TrailingZeros64(^between(load8(text, at), uint64(m), uint64(n))&highs) >> 3
		at += k
		if k < 8 {
			return at
		}
	}
	for at < len(text) && m < text[at] && text[at] < n {
		at++
	}
	return at
}

// lettersRun returns the end of the run of ASCII letters from at, as runOf does.
func lettersRun(text string, at int) int {
	for at+8 <= len(text) {
		x := load8(text, at)
		// A letter, with bit 5 set, is a lower-case one; that maps no other byte to one.
		k := bits.TrailingZeros64(^between(x|0x2020202020202020, 'a'-1, 'z'+1)&highs) >> 3
		at += k
		if k < 8 {
			return at
		}
	}
	for at < len(text) && ('a' <= text[at]|0x20 && text[at]|0x20 <= 'z') {
		at++
	}
	return at
}

// casedRun returns the end of the run of ASCII upper-case letters from at followed by the run
// of ASCII lower-case letters after it: runOf(runOf(at, A–Z), a–z), with one load for both
// where the word is shorter than eight bytes.
func casedRun(text string, at int) int {
	for at+8 <= len(text) {
		x := load8(text, at)
		k := bits.TrailingZeros64(^between(x, 'A'-1, 'Z'+1)&highs) >> 3
		if k == 8 {
			at += 8
			continue
		}
		// The lower-case run from byte k; the k bytes shifted in at the top end it.
		lower := between(x, 'a'-1, 'z'+1) >> (8 * k)
		j := bits.TrailingZeros64(^lower&highs) >> 3
		if k+j < 8 {
			return at + k + j
		}
		return runOf(text, at+8, 'a'-1, 'z'+1)
	}
	return runOf(text, runOf(text, at, 'A'-1, 'Z'+1), 'a'-1, 'z'+1)
}
