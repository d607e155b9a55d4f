package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// dpi is the resolution pages are rendered at; point sizes are converted with it.
const dpi = 300

// margin is the page margin in pixels, left and top (and bottom).
const margin = 150

// truth is a ground-truth page: what is written on it and how it is laid out. The OCR
// adapter's tests read the same files.
type truth struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Lang        string   `json:"lang"`
	Width       int      `json:"width"`
	Scan        *scan    `json:"scan,omitempty"`
	Blocks      []tblock `json:"blocks"`
}

// scan makes a clean page look scanned.
type scan struct {
	Rotate float64 `json:"rotate"`
	Noise  bool    `json:"noise"`
}

// tblock is one block of a page: a heading or paragraph of lines, or a table of rows whose
// cells start at Columns pixels from the left margin.
type tblock struct {
	Kind    string     `json:"kind"`
	Level   int        `json:"level,omitempty"`
	Size    float64    `json:"size"`
	Lines   []string   `json:"lines,omitempty"`
	Columns []int      `json:"columns,omitempty"`
	Rows    [][]string `json:"rows,omitempty"`
}

func main() {
	dir := flag.String("dir", "adapters/ocr/testdata", "fixture directory holding NAME.truth.json")
	convert := flag.String("convert", "convert", "ImageMagick's convert")
	tesseract := flag.String("tesseract", "tesseract", "Tesseract")
	fonts := flag.String("fonts", "/usr/share/fonts/truetype/dejavu", "directory of DejaVuSans.ttf and DejaVuSans-Bold.ttf")
	flag.Parse()
	if err := run(*dir, *convert, *tesseract, *fonts); err != nil {
		fmt.Fprintln(os.Stderr, "ocr-fixtures:", err)
		os.Exit(1)
	}
}

func run(dir, convert, tesseract, fonts string) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*.truth.json"))
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return fmt.Errorf("no *.truth.json in %s", dir)
	}
	slices.Sort(paths)
	var multipage []string
	for _, p := range paths {
		t, err := readTruth(p)
		if err != nil {
			return err
		}
		args := render(t, fonts, t.Name+".png")
		if err := command(dir, convert, args...); err != nil {
			return err
		}
		if err := command(dir, tesseract, t.Name+".png", t.Name, "-l", t.Lang, "tsv", "hocr"); err != nil {
			return err
		}
		if t.Name == "report" || t.Name == "table" {
			multipage = append(multipage, t.Name+".png")
		}
	}
	if len(multipage) != 2 {
		return fmt.Errorf("multipage needs report.truth.json and table.truth.json in %s", dir)
	}
	if err := os.WriteFile(filepath.Join(dir, "multipage.txt"), []byte(strings.Join(multipage, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	return command(dir, tesseract, "multipage.txt", "multipage", "-l", "eng", "tsv", "hocr")
}

func readTruth(path string) (*truth, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t truth
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if want := strings.TrimSuffix(filepath.Base(path), ".truth.json"); t.Name != want {
		return nil, fmt.Errorf("%s: name %q, want %q", path, t.Name, want)
	}
	return &t, nil
}

// px converts a point size to pixels at dpi.
func px(pt float64) float64 { return pt * dpi / 72 }

// render returns convert's arguments that draw t into out. Every line is placed with
// -annotate at an explicit baseline, so the layout does not depend on ImageMagick's wrapping.
func render(t *truth, fonts, out string) []string {
	regular := filepath.Join(fonts, "DejaVuSans.ttf")
	bold := filepath.Join(fonts, "DejaVuSans-Bold.ttf")
	var draw []string
	y := float64(margin)
	annotate := func(font string, size float64, x int, baseline float64, text string) {
		draw = append(draw, "-font", font, "-pointsize", strconv.FormatFloat(size, 'f', -1, 64),
			"-annotate", fmt.Sprintf("+%d+%d", margin+x, int(math.Round(baseline))), text)
	}
	for i, b := range t.Blocks {
		em := px(b.Size)
		lineHeight := em * 1.35
		font := regular
		if b.Kind == "heading" {
			font = bold
			if i > 0 {
				y += em * 0.6 // headings stand apart from the text above
			}
		}
		switch b.Kind {
		case "table":
			for _, row := range b.Rows {
				for k, cell := range row {
					annotate(font, b.Size, b.Columns[k], y+em*0.8, cell)
				}
				y += lineHeight * 1.15
			}
		default:
			for _, l := range b.Lines {
				annotate(font, b.Size, 0, y+em*0.8, l)
				y += lineHeight
			}
		}
		y += px(11) * 0.9 // the space between blocks
	}
	height := int(math.Round(y)) + margin
	args := []string{"-density", strconv.Itoa(dpi), "-units", "PixelsPerInch",
		"-size", fmt.Sprintf("%dx%d", t.Width, height), "xc:white", "-fill", "black"}
	args = append(args, draw...)
	depth := "8"
	if s := t.Scan; s != nil {
		if s.Rotate != 0 {
			args = append(args, "-background", "white", "-rotate", strconv.FormatFloat(s.Rotate, 'f', -1, 64))
		}
		if s.Noise {
			// A slight blur, then sparse dark and light specks like dust on the scanner glass,
			// in 16 grey levels so that the PNG stays small; the fixed seed keeps the image the
			// same from run to run.
			args = append(args, "-blur", "0x0.7", "-seed", "5", "-attenuate", "0.08", "+noise", "Impulse")
			depth = "4"
		}
	}
	// -strip would drop the 300 dpi resolution Tesseract reads; leaving out the time chunks
	// keeps the file the same from run to run.
	return append(args, "-colorspace", "Gray", "-depth", depth, "-define", "png:exclude-chunks=date,time", out)
}

// command runs name with args in dir, its output going to ours.
func command(dir, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return nil
}
