package bench

import "slices"

// Span is a half-open range [Start, End) of code points in an evaluation corpus file.
type Span struct {
	Start, End int
}

// Len returns End - Start.
func (s Span) Len() int { return s.End - s.Start }

// intersect returns the intersection of a and b and whether they meet. As in Chroma's
// evaluation code, spans that only touch (a.End == b.Start) meet in an empty span.
func intersect(a, b Span) (Span, bool) {
	s := Span{max(a.Start, b.Start), min(a.End, b.End)}
	return s, s.Start <= s.End
}

// union returns spans sorted and merged where they overlap or touch.
func union(spans []Span) []Span {
	if len(spans) == 0 {
		return nil
	}
	sorted := slices.Clone(spans)
	slices.SortFunc(sorted, func(a, b Span) int { return a.Start - b.Start })
	out := []Span{sorted[0]}
	for _, s := range sorted[1:] {
		last := &out[len(out)-1]
		if s.Start <= last.End {
			last.End = max(last.End, s.End)
			continue
		}
		out = append(out, s)
	}
	return out
}

// difference returns spans with target removed.
func difference(spans []Span, target Span) []Span {
	var out []Span
	for _, s := range spans {
		switch {
		case s.End < target.Start || s.Start > target.End:
			out = append(out, s)
		case s.Start < target.Start && s.End > target.End:
			out = append(out, Span{s.Start, target.Start}, Span{target.End, s.End})
		case s.Start < target.Start:
			out = append(out, Span{s.Start, target.Start})
		case s.End > target.End:
			out = append(out, Span{target.End, s.End})
		}
	}
	return out
}

// total returns the sum of the spans' lengths; overlapping spans count twice.
func total(spans []Span) int {
	n := 0
	for _, s := range spans {
		n += s.Len()
	}
	return n
}
