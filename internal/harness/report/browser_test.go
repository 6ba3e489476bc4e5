package report_test

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/harness/report"
	"github.com/perfrun/perfrun/internal/harness/results"
)

// syntheticRun is a results set with three thread counts on two cores, so
// its plots have an oversubscribed region.
func syntheticRun() *results.Set {
	var b strings.Builder
	b.WriteString("cores: 2\n")
	for round := range 5 {
		for _, im := range []string{"sorted", "rcu"} {
			for th := 1; th <= 3; th++ {
				ns := 300.0 * float64(th)
				if im == "rcu" {
					ns = 150
				}
				ns *= 1 + 0.01*float64(round)
				fmt.Fprintf(&b, "BenchmarkIssuer/impl=%s/certs=64/hit=1/threads=%d 1 %g ns/op %g ops/s 0 allocs/op\n", im, th, ns, float64(th)*1e9/ns)
			}
		}
	}
	s, err := results.Read(strings.NewReader(b.String()), "synthetic.txt", "synthetic")
	if err != nil {
		panic(err)
	}
	return s
}

func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI must install Chromium (.ci/run does) to test the HTML report")
	}
	t.Skip("no Chromium; apt-get install chromium")
	return ""
}

// TestHTMLInBrowser renders the self-contained page in headless Chromium,
// with no network, and looks at the screenshot: the page is not blank and
// the plots were drawn (the oversubscribed shading and the line colours
// are on screen).
func TestHTMLInBrowser(t *testing.T) {
	bin := chromium(t)
	set := syntheticRun()
	plots, err := report.Plots([]*results.Set{set}, report.PlotOptions{Cores: 2, Impls: []string{"sorted", "rcu"}})
	if err != nil {
		t.Fatal(err)
	}
	doc := &report.Document{Title: "browser test", New: set, Plots: plots}
	var page bytes.Buffer
	if err := doc.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	if n := strings.Count(html, "<svg"); n != len(plots) || n == 0 {
		t.Fatalf("%d inline SVGs for %d plots", n, len(plots))
	}
	if m := regexp.MustCompile(`(src|href)="https?:|url\(https?:|@import`).FindString(html); m != "" {
		t.Fatalf("the page fetches from the network: %q", m)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	os.WriteFile(file, page.Bytes(), 0o644)
	shot := filepath.Join(dir, "shot.png")
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--window-size=1200,1600", "--screenshot="+shot, "file://"+file)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 1600 {
		t.Fatalf("screenshot is %v", b)
	}
	inked, shaded, blue := census(img)
	total := 1200 * 1600
	t.Logf("screenshot: %.1f%% inked, %d shaded pixels, %d line-blue pixels", 100*float64(inked)/float64(total), shaded, blue)
	if inked < total/50 {
		t.Errorf("only %d of %d pixels are not white: the page looks blank", inked, total)
	}
	if shaded < 20000 {
		t.Errorf("%d pixels of the oversubscribed shading: the plots were not drawn", shaded)
	}
	if blue < 50 {
		t.Errorf("%d pixels of the first line's blue: no data line on screen", blue)
	}
	if out := os.Getenv("PERFRUN_SCREENSHOT"); out != "" {
		data, _ := os.ReadFile(shot)
		os.WriteFile(out, data, 0o644)
	}
}

// census counts non-white pixels, pixels of the pale grey shading, and
// pixels of the blue of the first implementation's line.
func census(img image.Image) (inked, shaded, blue int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r < 245 || g < 245 || bl < 245 {
				inked++
			}
			if r >= 232 && r <= 243 && r == g && g == bl {
				shaded++
			}
			if r < 60 && g > 80 && g < 150 && bl > 150 {
				blue++
			}
		}
	}
	return
}
