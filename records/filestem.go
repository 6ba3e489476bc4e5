package records

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// FileStem turns a benchmark name or group into a file-name stem: path separators and other
// characters a file name should not hold replaced; one that lost a
// character (so that "x!" and "x?" would share a file), or a long one cut
// to 80 bytes, gets a stable digest of the whole (a name of 250 bytes killed a
// whole report with "file name too long").
func FileStem(group string) string {
	dropped := false
	stem := strings.Map(func(r rune) rune {
		switch {
		case r == '/':
			return '_'
		case r == '=':
			return '-'
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.':
			return r
		case r >= 'A' && r <= 'Z':
			return r - 'A' + 'a'
		}
		dropped = true
		return -1
	}, group)
	if len(stem) > 80 || stem == "" || dropped {
		sum := sha256.Sum256([]byte(group))
		stem = stem[:min(len(stem), 80)] + "-" + hex.EncodeToString(sum[:6])
	}
	return stem
}
