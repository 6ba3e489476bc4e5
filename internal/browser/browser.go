// Package browser renders a self-contained HTML page in headless Chromium,
// offline, and returns the screenshot, so tests can look at a report as a
// person would see it. Tests alone use it.
package browser

import (
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/perfrun/perfrun/internal/needs"
)

// Chromium returns the browser's path; without one that works a test is
// skipped, saying why, except on CI, which must install it (.ci/run does).
func Chromium(t testing.TB) string {
	t.Helper()
	return needs.Tool(t, "apt-get install chromium", "chromium", "chromium-browser", "google-chrome")
}

// fetches finds anything in a page that would reach the network.
var fetches = regexp.MustCompile(`(src|href)="https?:|url\(https?:|@import`)

// Screenshot checks that page fetches nothing, renders it at width ×
// height with every host name unresolvable, and returns the picture. With
// PERFRUN_SCREENSHOT set it also saves the PNG there.
func Screenshot(t testing.TB, page []byte, width, height int) image.Image {
	t.Helper()
	bin := Chromium(t)
	if m := fetches.Find(page); m != nil {
		t.Fatalf("the page fetches from the network: %q", m)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "page.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--window-size="+strconv.Itoa(width)+","+strconv.Itoa(height), "--screenshot="+shot, "file://"+file)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	if out := os.Getenv("PERFRUN_SCREENSHOT"); out != "" {
		os.WriteFile(out, data, 0o644)
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
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Fatalf("screenshot is %v, want %dx%d", b, width, height)
	}
	return img
}

// Count counts the pixels of img that match.
func Count(img image.Image, match func(r, g, b uint32) bool) int {
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if match(r>>8, g>>8, b>>8) {
				n++
			}
		}
	}
	return n
}
