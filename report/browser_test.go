package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/perfrun/perfrun/internal/browser"
	"github.com/perfrun/perfrun/records"
	"github.com/perfrun/perfrun/report"
)

// syntheticRun is a results set with three thread counts on two cores, so
// its plots have an oversubscribed region.
func syntheticRun() *records.Set {
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
	s, err := records.Read(strings.NewReader(b.String()), "synthetic.txt", "synthetic")
	if err != nil {
		panic(err)
	}
	return s
}

// TestHTMLInBrowser renders the self-contained page in headless Chromium,
// with no network, and looks at the screenshot: the page is not blank and
// the plots were drawn (the oversubscribed shading and the line colours
// are on screen).
func TestHTMLInBrowser(t *testing.T) {
	browser.Chromium(t)
	set := syntheticRun()
	plots, err := report.Plots([]*records.Set{set}, report.PlotOptions{Cores: 2, Impls: []string{"sorted", "rcu"}})
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
	img := browser.Screenshot(t, page.Bytes(), 1200, 1600)
	inked := browser.Count(img, func(r, g, b uint32) bool { return r < 245 || g < 245 || b < 245 })
	shaded := browser.Count(img, func(r, g, b uint32) bool { return r >= 232 && r <= 243 && r == g && g == b })
	blue := browser.Count(img, func(r, g, b uint32) bool { return r < 60 && g > 80 && g < 150 && b > 150 })
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
}
