package ocr

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTesseractLive runs the Tesseract on PATH over the committed fixture images and checks
// the adapter's reading of its fresh TSV and hOCR against the same ground truth as the
// committed outputs. It skips when Tesseract or one of its languages is not installed (CI
// installs tesseract-ocr, tesseract-ocr-eng and tesseract-ocr-deu).
func TestTesseractLive(t *testing.T) {
	if testing.Short() {
		t.Skip("live Tesseract run skipped in -short mode (make test runs it after its -race -short run)")
	}
	tesseract, err := exec.LookPath("tesseract")
	if err != nil {
		t.Skip("tesseract is not on PATH; apt-get install tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu to run this test")
	}
	out, err := exec.Command(tesseract, "--list-langs").CombinedOutput()
	if err != nil {
		t.Skipf("tesseract --list-langs: %v: %s", err, out)
	}
	langs := strings.Fields(string(out))
	t.Parallel()
	for _, name := range truthNames(t) {
		tp := loadTruth(t, name)
		t.Run(tp.Description+" read live matches its ground truth", func(t *testing.T) {
			if !slices.Contains(langs, tp.Lang) {
				t.Skipf("tesseract has no %q language data; apt-get install tesseract-ocr-%s", tp.Lang, tp.Lang)
			}
			t.Parallel()
			img, err := filepath.Abs(filepath.Join("testdata", name+".png"))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			cmd := exec.Command(tesseract, img, filepath.Join(dir, name), "-l", tp.Lang, "tsv", "hocr")
			cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%v: %v\n%s", cmd, err, out)
			}
			for _, ext := range []string{".tsv", ".hocr"} {
				t.Run("from "+ext, func(t *testing.T) {
					doc := readFixture(t, filepath.Join(dir, name+ext))
					checkAgainstTruth(t, tp, doc.Blocks, truthLevel)
				})
			}
		})
	}
}
