package pretok

import (
	"math/rand/v2"
	"testing"
)

// TestASCIIRunsMatchByteLoops holds the eight-bytes-at-a-time runs to the byte loops they
// replace, on random strings of the bytes where a run can go wrong: the letters at the ends
// of each range, their neighbours in ASCII ('@', '[', '`', '{'), and bytes with the high bit
// set, which are never letters; every start offset, strings of 0 to 24 bytes, so that the run
// crosses an eight-byte load or ends in the byte loop.
func TestASCIIRunsMatchByteLoops(t *testing.T) {
	t.Parallel()
	alphabet := []byte("AZaz@[`{ 0mQ\x80\xc1\xdb\xfa\xff\x7f\x00")
	naive := func(text string, at int, in func(byte) bool) int {
		for at < len(text) && in(text[at]) {
			at++
		}
		return at
	}
	isUpper := func(b byte) bool { return 'A' <= b && b <= 'Z' }
	isLower := func(b byte) bool { return 'a' <= b && b <= 'z' }
	isLetter := func(b byte) bool { return isUpper(b) || isLower(b) }
	rng := rand.New(rand.NewPCG(3, 5))
	for range 20000 {
		buf := make([]byte, rng.IntN(25))
		for i := range buf {
			// Mostly letters, so that runs are long.
			if rng.IntN(4) == 0 {
				buf[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				buf[i] = "Aa"[rng.IntN(2)] + byte(rng.IntN(26))
			}
		}
		text := string(buf)
		for at := 0; at <= len(text); at++ {
			if got, want := runOf(text, at, 'A'-1, 'Z'+1), naive(text, at, isUpper); got != want {
				t.Fatalf("runOf(%q, %d, A–Z) = %d, want %d", text, at, got, want)
			}
			if got, want := runOf(text, at, 'a'-1, 'z'+1), naive(text, at, isLower); got != want {
				t.Fatalf("runOf(%q, %d, a–z) = %d, want %d", text, at, got, want)
			}
			if got, want := lettersRun(text, at), naive(text, at, isLetter); got != want {
				t.Fatalf("lettersRun(%q, %d) = %d, want %d", text, at, got, want)
			}
			if got, want := casedRun(text, at), naive(text, naive(text, at, isUpper), isLower); got != want {
				t.Fatalf("casedRun(%q, %d) = %d, want %d", text, at, got, want)
			}
		}
	}
}

// TestBetweenIsExactForEveryByte checks between on every byte value in every position of the
// word, beside bytes that would carry or borrow into it.
func TestBetweenIsExactForEveryByte(t *testing.T) {
	t.Parallel()
	for _, r := range [][2]uint64{{'A' - 1, 'Z' + 1}, {'a' - 1, 'z' + 1}} {
		for _, fill := range []byte{0x00, 0x7f, 0x80, 0xff, 'a', 'Z'} {
			for pos := range 8 {
				for b := range 256 {
					var x uint64
					for i := range 8 {
						v := uint64(fill)
						if i == pos {
							v = uint64(b)
						}
						x |= v << (8 * i)
					}
					got := between(x, r[0], r[1]) >> (8 * pos) & 0xff
					want := uint64(0)
					if uint64(b) > r[0] && uint64(b) < r[1] {
						want = 0x80
					}
					if got != want {
						t.Fatalf("between(%#x, %d, %d), byte %d = %#x: %#x, want %#x", x, r[0], r[1], pos, b, got, want)
					}
				}
			}
		}
	}
}
