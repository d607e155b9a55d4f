package bench

// Passage is a retrievable chunk as the retrieval metrics see it: the corpus it belongs to
// and its span in that corpus file, in code points, overlap included.
type Passage struct {
	Corpus string
	Span   Span
}

// Question is one question of an evaluation set: its text, the corpus it is about, and the
// excerpts of that corpus that answer it.
type Question struct {
	Text       string
	Corpus     string
	References []Reference

	line int // in the CSV file, for errors
}

// Reference is an excerpt of a corpus: its content and its span in code points, with
// corpus[Start:End] == Content.
type Reference struct {
	Content string
	Span    Span
}

// Scores are retrieval scores; as a result of Score they belong to one question, as a
// result of Mean they are means over questions.
type Scores struct {
	// Questions is how many questions the scores cover.
	Questions int `json:"questions"`
	// Recall is |E ∩ R| / |E|: E is the union of the question's reference spans, R the
	// retrieved chunks' spans.
	Recall float64 `json:"recall"`
	// Precision is |E ∩ R| / Σ|chunk| over the retrieved chunks, overlapping chunks and
	// chunks of other corpora counted in full.
	Precision float64 `json:"precision"`
	// IoU is |E ∩ R| / (Σ|chunk| + |E \ R|).
	IoU float64 `json:"iou"`
	// PrecisionOmega is the precision of retrieving every chunk of the question's corpus
	// that touches a reference, and nothing else: |E ∩ C| / |C ∪ (E \ C)| with C the union
	// of those chunks. It bounds what a perfect retriever could reach with these chunks.
	PrecisionOmega float64 `json:"precision_omega"`
}

// Score scores the chunks retrieved for q (the top k, in rank order) as Chroma's evaluation
// does: chunks of another corpus count in precision's denominator but never cover a
// reference; overlapping chunks count twice in the denominators, once in the numerator.
// PrecisionOmega is not set: it depends on all chunks, not on the retrieved ones (see
// PrecisionOmega). A denominator of zero gives a score of zero.
func Score(q Question, retrieved []Passage) Scores {
	covered, unused := cover(q, retrieved)
	refs := make([]Span, len(q.References))
	for i, r := range q.References {
		refs[i] = r.Span
	}
	num := total(covered)
	chunks := 0
	for _, p := range retrieved {
		chunks += p.Span.Len()
	}
	return Scores{
		Questions: 1,
		Recall:    ratio(num, total(refs)),
		Precision: ratio(num, chunks),
		IoU:       ratio(num, chunks+total(unused)),
	}
}

// PrecisionOmega returns q's precision_omega (see Scores) over all the chunks of every
// corpus.
func PrecisionOmega(q Question, all []Passage) float64 {
	var touching []Span
	for _, p := range all {
		if p.Corpus != q.Corpus {
			continue
		}
		for _, r := range q.References {
			if _, ok := intersect(p.Span, r.Span); ok {
				touching = append(touching, p.Span)
				break
			}
		}
	}
	covered, unused := cover(q, all)
	if len(covered) == 0 {
		return 0
	}
	return ratio(total(covered), total(union(append(union(touching), unused...))))
}

// cover returns the union of the parts of q's references that chunks of q's corpus cover,
// and the parts no chunk covers.
func cover(q Question, chunks []Passage) (covered, unused []Span) {
	for _, r := range q.References {
		unused = append(unused, r.Span)
	}
	var parts []Span
	for _, p := range chunks {
		if p.Corpus != q.Corpus {
			continue
		}
		for _, r := range q.References {
			if in, ok := intersect(p.Span, r.Span); ok {
				unused = difference(unused, in)
				parts = append(parts, in)
			}
		}
	}
	return union(parts), unused
}

func ratio(num, den int) float64 {
	if den == 0 {
		return 0
	}
	return float64(num) / float64(den)
}

// Mean returns the mean of scores, with Questions the number of questions they cover. The
// mean of none is the zero Scores.
func Mean(scores []Scores) Scores {
	var m Scores
	for _, s := range scores {
		m.Questions += s.Questions
		w := float64(s.Questions)
		m.Recall += w * s.Recall
		m.Precision += w * s.Precision
		m.IoU += w * s.IoU
		m.PrecisionOmega += w * s.PrecisionOmega
	}
	if m.Questions > 0 {
		n := float64(m.Questions)
		m.Recall /= n
		m.Precision /= n
		m.IoU /= n
		m.PrecisionOmega /= n
	}
	return m
}
