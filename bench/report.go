package bench

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// figure is one plot of the report, rendered as SVG.
type figure struct {
	Title   string
	Caption string
	SVG     template.HTML
}

// WriteHTML writes the HTML report of rep: the run's parameters, the summary table and the
// plots (throughput vs budget, recall and IoU vs budget per strategy, quality vs speed), as
// one self-contained page with inline SVG that needs no network to view.
func WriteHTML(w io.Writer, rep *Report, summary string) error {
	figs, err := figures(rep)
	if err != nil {
		return err
	}
	data := struct {
		Rep     *Report
		Summary string
		Figures []figure
		When    string
	}{rep, summary, figs, time.Now().UTC().Format(time.RFC3339)}
	return reportTemplate.Execute(w, data)
}

var reportTemplate = template.Must(template.New("report").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>chunkkit bench</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 80em; color: #222; }
pre { font-size: 12px; overflow-x: auto; background: #f6f6f6; padding: 1em; }
figure { display: inline-block; margin: 1em; vertical-align: top; }
figcaption { max-width: 36em; font-size: 13px; color: #555; }
</style></head><body>
<h1>chunkkit bench</h1>
<p>{{.When}} — corpus <code>{{.Rep.Corpus}}</code>: {{.Rep.Documents}} documents, {{.Rep.Bytes}} bytes (one operation chunks them all).
{{if .Rep.Eval}}Evaluation set <code>{{.Rep.Eval}}</code>: {{.Rep.Questions}} questions, top {{.Rep.Config.K}} chunks by BM25.{{end}}
{{len .Rep.Cells}} cells × {{.Rep.Config.Count}} measurements.</p>
<h2>Summary</h2>
<p>MB/s is the median of the measurements with the 95% confidence interval (±, as benchstat computes it).
violations counts body chunks over the budget; fill is mean tokens / budget; p50/p95 are tokens per chunk;
sent-end is the share of chunks ending at a sentence end; multi-sec the share spanning a heading;
coverage the share of non-space text inside some chunk.
{{if .Rep.Eval}}recall, precision, iou and prec_Ω are Chroma's metrics, in characters, as means over questions.{{end}}
See docs/bench.md.</p>
<pre>{{.Summary}}</pre>
<h2>Plots</h2>
{{range .Figures}}<figure>{{.SVG}}<figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption></figure>
{{end}}
</body></html>
`))

// series is one line of a plot.
type series struct {
	label string
	pts   plotter.XYs
}

func figures(rep *Report) ([]figure, error) {
	var figs []figure
	// Throughput vs budget, overlap 0.
	var tput []series
	for _, key := range groups(rep.Cells, func(c *Cell) string { return c.Strategy + " " + tokLabel(c) }) {
		var pts plotter.XYs
		for _, c := range rep.Cells {
			if c.Strategy+" "+tokLabel(c) == key && c.OverlapTokens == 0 {
				pts = append(pts, plotter.XY{X: float64(c.MaxTokens), Y: medianMBs(c)})
			}
		}
		tput = append(tput, series{key, pts})
	}
	f, err := linePlot("Throughput vs budget", "max tokens", "MB/s (median)", tput, true)
	if err != nil {
		return nil, err
	}
	if f != "" {
		figs = append(figs, figure{"Throughput vs budget", "Median MB/s of one pass over the corpus per strategy and tokenizer, without overlap. Plugin tokenizers pay a round trip per call; calls/doc in the table says how many.", f})
	}

	if rep.Eval != "" && len(rep.Cells) > 0 && rep.Cells[0].Retrieval != nil {
		// Retrieval is deterministic in the chunks, which depend on the tokenizer, not on how
		// it is reached: one plot per tokenizer name.
		for _, tok := range groups(rep.Cells, func(c *Cell) string { return c.Tokenizer }) {
			for _, m := range []struct {
				name string
				get  func(Scores) float64
			}{{"recall", func(s Scores) float64 { return s.Recall }}, {"IoU", func(s Scores) float64 { return s.IoU }}} {
				var ss []series
				var via string
				for _, c := range rep.Cells {
					if c.Tokenizer == tok && via == "" {
						via = c.Via
					}
				}
				for _, key := range groups(rep.Cells, func(c *Cell) string { return fmt.Sprintf("%s overlap=%s", c.Strategy, overlapLabel(c)) }) {
					var pts plotter.XYs
					for _, c := range rep.Cells {
						if c.Tokenizer == tok && c.Via == via && fmt.Sprintf("%s overlap=%s", c.Strategy, overlapLabel(c)) == key {
							pts = append(pts, plotter.XY{X: float64(c.MaxTokens), Y: m.get(c.Retrieval.Overall)})
						}
					}
					if len(pts) > 0 {
						ss = append(ss, series{key, pts})
					}
				}
				title := fmt.Sprintf("%s vs budget (%s)", m.name, tok)
				f, err := linePlot(title, "max tokens", m.name+" (mean over questions)", ss, false)
				if err != nil {
					return nil, err
				}
				if f != "" {
					figs = append(figs, figure{title, fmt.Sprintf("Retrieval %s at k=%d with BM25 over all chunks, per strategy and overlap, budgets counted with %s.", m.name, rep.Config.K, tok), f})
				}
			}
		}
	}

	// Quality vs speed.
	qname, quality := "fill", func(c *Cell) float64 { return c.Quality.Fill }
	if rep.Eval != "" && len(rep.Cells) > 0 && rep.Cells[0].Retrieval != nil {
		qname, quality = "IoU", func(c *Cell) float64 { return c.Retrieval.Overall.IoU }
	}
	p := plot.New()
	p.Title.Text = qname + " vs throughput"
	p.X.Label.Text = "MB/s (median, log scale)"
	p.Y.Label.Text = qname
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = ticks125{}
	p.Legend.Top = true
	for i, s := range groups(rep.Cells, func(c *Cell) string { return c.Strategy }) {
		var pts plotter.XYs
		for _, c := range rep.Cells {
			if c.Strategy == s && medianMBs(c) > 0 {
				pts = append(pts, plotter.XY{X: medianMBs(c), Y: quality(c)})
			}
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = plotutil.Color(i)
		sc.GlyphStyle.Shape = plotutil.Shape(i)
		sc.GlyphStyle.Radius = vg.Points(3)
		p.Add(sc)
		p.Legend.Add(s, sc)
	}
	p.Add(plotter.NewGrid())
	pad(p, true, false)
	svg, err := render(p)
	if err != nil {
		return nil, err
	}
	figs = append(figs, figure{qname + " vs throughput", "Every cell of the matrix; up and to the right is better. Points of one strategy differ in budget, overlap and tokenizer.", svg})
	return figs, nil
}

func tokLabel(c *Cell) string {
	if c.Via == "inproc" {
		return c.Tokenizer
	}
	return c.Tokenizer + " (" + c.Via + ")"
}

func overlapLabel(c *Cell) string {
	if c.OverlapTokens == 0 {
		return "0"
	}
	return fmt.Sprintf("%.2g", float64(c.OverlapTokens)/float64(c.MaxTokens))
}

// groups returns the distinct keys of cells in first-seen order.
func groups(cells []*Cell, key func(*Cell) string) []string {
	var keys []string
	for _, c := range cells {
		if k := key(c); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

func medianMBs(c *Cell) float64 {
	var v []float64
	for _, s := range c.Samples {
		v = append(v, s.MBPerSec)
	}
	if len(v) == 0 {
		return 0
	}
	m, _ := summarize(v)
	return m
}

// linePlot draws the series, or returns "" when none has a point to draw (a run without
// overlap 0 has no throughput-without-overlap points, and a log scale of nothing panics).
func linePlot(title, x, y string, ss []series, logY bool) (template.HTML, error) {
	p := plot.New()
	drawn := 0
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = !logY
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = ticks125{}
	}
	for i, s := range ss {
		if logY {
			s.pts = slices.DeleteFunc(s.pts, func(xy plotter.XY) bool { return xy.Y <= 0 || math.IsInf(xy.Y, 0) })
		}
		if len(s.pts) == 0 {
			continue
		}
		l, pts, err := plotter.NewLinePoints(s.pts)
		if err != nil {
			return "", err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / 7)
		pts.Color = plotutil.Color(i)
		pts.Shape = plotutil.Shape(i)
		p.Add(l, pts)
		p.Legend.Add(s.label, l, pts)
		drawn++
	}
	if drawn == 0 {
		return "", nil
	}
	p.Add(plotter.NewGrid())
	pad(p, false, logY)
	return render(p)
}

// pad widens the axes a little beyond the data so that no point sits on the frame.
func pad(p *plot.Plot, logX, logY bool) {
	for _, a := range []struct {
		axis *plot.Axis
		log  bool
	}{{&p.X, logX}, {&p.Y, logY}} {
		lo, hi := a.axis.Min, a.axis.Max
		if a.log {
			if lo > 0 && hi > 0 {
				a.axis.Min, a.axis.Max = lo/1.15, hi*1.15
			}
			continue
		}
		d := (hi - lo) * 0.08
		if d == 0 {
			d = math.Max(math.Abs(hi)*0.1, 0.01)
		}
		a.axis.Min, a.axis.Max = lo-d, hi+d
	}
}

// ticks125 marks a log axis at 1, 2 and 5 times the powers of ten, which label a range of
// less than a decade too.
type ticks125 struct{}

// Ticks implements plot.Ticker.
func (ticks125) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	if lo <= 0 || hi <= lo {
		return ticks
	}
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return ticks
}

func render(p *plot.Plot) (template.HTML, error) {
	wt, err := p.WriterTo(7*vg.Inch, 4.5*vg.Inch, "svg")
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return "", err
	}
	svg := buf.String()
	if i := strings.Index(svg, "<svg"); i > 0 {
		svg = svg[i:] // drop the XML prolog, which has no place inside HTML
	}
	return template.HTML(svg), nil
}
