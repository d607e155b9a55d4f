package ocr

// tree builds the page model from numbered rows, keeping the order in which each page, block,
// paragraph and line first appears.
type tree struct {
	pages  []*page
	byPage map[int]*page
	blocks map[[2]int]*block
	paras  map[[3]int]*para
	lines  map[[4]int]*line
}

func newTree() tree {
	return tree{
		byPage: map[int]*page{},
		blocks: map[[2]int]*block{},
		paras:  map[[3]int]*para{},
		lines:  map[[4]int]*line{},
	}
}

// page returns page n, creating it.
func (t *tree) page(n int) *page {
	p := t.byPage[n]
	if p == nil {
		p = &page{number: n}
		t.byPage[n] = p
		t.pages = append(t.pages, p)
	}
	return p
}

// block returns the block of key (page, block), creating it and its page.
func (t *tree) block(key [4]int) *block {
	k := [2]int{key[0], key[1]}
	b := t.blocks[k]
	if b == nil {
		b = &block{}
		t.blocks[k] = b
		p := t.page(key[0])
		p.blocks = append(p.blocks, b)
	}
	return b
}

// line returns the line of key (page, block, paragraph, line), creating it and its parents.
func (t *tree) line(key [4]int) *line {
	l := t.lines[key]
	if l == nil {
		pk := [3]int{key[0], key[1], key[2]}
		pa := t.paras[pk]
		if pa == nil {
			pa = &para{}
			t.paras[pk] = pa
			b := t.block(key)
			b.paras = append(b.paras, pa)
		}
		l = &line{}
		t.lines[key] = l
		pa.lines = append(pa.lines, l)
	}
	return l
}
