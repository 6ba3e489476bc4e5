package history

import (
	"strings"
)

// connSpace is what separates a keyword/value connection string's parts,
// as pgx reads one.
const connSpace = " \t\n\r\v\f"

// hideSecrets is a keyword/value connection string with the value of
// every keyword naming a password (password, sslpassword, …) replaced.
func hideSecrets(loc string) string {
	var b strings.Builder
	last := 0
	for _, s := range secretSpans(loc) {
		b.WriteString(loc[last:s[0]])
		b.WriteString("xxxxx")
		last = s[1]
	}
	b.WriteString(loc[last:])
	return b.String()
}

// secretSpans are the byte ranges of loc's secret values, read the way
// pgx reads a keyword/value string: a keyword up to '=', then a value in
// single quotes or up to the first unescaped space, a backslash escaping
// the byte after it. Past a value pgx could not read (a quote left open,
// a backslash at the end) the rest of loc counts as secret: nothing says
// where that value ends.
func secretSpans(loc string) [][2]int {
	var spans [][2]int
	i := skipSpace(loc, 0)
	for i < len(loc) {
		eq := strings.IndexByte(loc[i:], '=')
		if eq < 0 {
			return spans // a word with no value: pgx refuses it, and it holds no secret
		}
		secret := strings.Contains(strings.ToLower(loc[i:i+eq]), "password")
		start := skipSpace(loc, i+eq+1)
		end, ok := valueEnd(loc, start)
		if !ok {
			return append(spans, [2]int{start, len(loc)})
		}
		if secret && end > start {
			spans = append(spans, [2]int{start, end})
		}
		i = skipSpace(loc, end)
	}
	return spans
}

func skipSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(connSpace, s[i]) >= 0 {
		i++
	}
	return i
}

// valueEnd is where the value starting at i ends, and whether pgx could
// read it.
func valueEnd(s string, i int) (int, bool) {
	if i < len(s) && s[i] == '\'' {
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '\'':
				return j + 1, true
			}
		}
		return len(s), false
	}
	for j := i; j < len(s); j++ {
		switch {
		case strings.IndexByte(connSpace, s[j]) >= 0:
			return j, true
		case s[j] == '\\':
			j++
			if j == len(s) {
				return len(s), false
			}
		}
	}
	return len(s), true
}
