package corpus

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// caBytes and leafBytes are what one generated CA (with its CRL) and one
// leaf cost in memory once parsed, rounded up (perfrun's results/notes.md, "A corpus in memory").
const (
	caBytes   = 7 << 10
	leafBytes = 4 << 10
)

// GeneratedLeaves are the leaves perfrun generates beside cas CAs: a hit
// for each CA up to 4096, and a quarter as many misses.
func GeneratedLeaves(cas int) (hits, misses int) {
	hits = min(cas, 4096)
	return hits, max(hits/4, 1)
}

// FitsMemory refuses, up front, a generated corpus this machine cannot
// hold, rather than generating for minutes and then dying of OOM.
// what names the request in the message (certs=N, -cas N); cas and
// leaves count what it would hold.
func FitsMemory(cas, leaves int, what string) error {
	need := uint64(min(cas, 1<<40))*caBytes + uint64(min(leaves, 1<<40))*leafBytes // no overflow for any int
	if avail := availableMemory(); avail > 0 && need > avail*8/10 {
		return fmt.Errorf("%s needs about %s for its corpus; this machine has %s available", what, bytesText(need), bytesText(avail))
	}
	return nil
}

// availableMemory is /proc/meminfo's MemAvailable in bytes, 0 where unknown.
func availableMemory() uint64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// bytesText is a size in the largest binary unit that keeps it above one.
func bytesText(b uint64) string {
	switch {
	case b >= 1<<40:
		return fmt.Sprintf("%.1f TiB", float64(b)/(1<<40))
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}
