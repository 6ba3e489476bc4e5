package history

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestPrintableHidesEveryPassword(t *testing.T) {
	for _, loc := range []string{
		"postgres://u:secret1@h/db",
		"PostgreSQL://u@h/db?sslmode=disable&password=secret1",
		"postgres://u@h/db?PASSWORD=secret1",
		"host=h user=u password=secret1 dbname=db",
		"host=h dbname=db password = 'secret1 x'",
		"host=h Password=secret1",
		// Keywords perfrun has no list of are a server's all the same.
		"sslpassword=secret1 host=h dbname=db",
		"channel_binding=require password=secret1 host=h",
		"postgres://u@h/db?sslpassword=secret1",
		// A value runs past a backslash-escaped space, as pgx reads it.
		`host=/tmp port=1 user=u password=x\ secret1 dbname=postgres`,
		`host=h password='x\' secret1' dbname=db`,
		// Where pgx cannot tell where a value ends, the rest is hidden.
		`host='h password=secret1`,
		`host=h password=x\ secret1\`,
	} {
		if !IsServer(loc) {
			t.Errorf("IsServer(%q) = false", loc)
		}
		if p := Printable(loc); strings.Contains(p, "secret1") {
			t.Errorf("Printable(%q) = %q", loc, p)
		}
	}
	for _, loc := range []string{"h.db", "dir/h.db", "C:\\h.db", "a:b.db"} {
		if IsServer(loc) || Printable(loc) != loc {
			t.Errorf("%q: IsServer %v, Printable %q", loc, IsServer(loc), Printable(loc))
		}
	}
}

// TestUnparsedKeepsItsSecrets: pgx's own refusal quotes the string with a
// password hidden only up to an escaped space; perfrun's leaves it out.
func TestUnparsedKeepsItsSecrets(t *testing.T) {
	loc := `host=/tmp password=x\ secret1 port=notaport`
	_, err := Open(context.Background(), loc)
	if !errors.Is(err, ErrLocation) || strings.Contains(err.Error(), "secret1") || !strings.Contains(err.Error(), "port") {
		t.Errorf("Open(%q) = %v", loc, err)
	}
}

// TestRefusedURLsKeepTheirSecrets: a URL of a scheme perfrun refuses is
// printed in the refusal without its user information.
func TestRefusedURLsKeepTheirSecrets(t *testing.T) {
	for _, loc := range []string{"mysql://root:secret1@h/db", "http://u:secret1@h/x"} {
		err := CheckLocation(loc)
		if err == nil || strings.Contains(err.Error(), "secret1") {
			t.Errorf("CheckLocation(%q) = %v", loc, err)
		}
	}
}

func TestSameServer(t *testing.T) {
	same := [][2]string{
		{"postgres://u@h:5432/db?sslmode=disable&application_name=x", "postgres://u@h/db?application_name=x&sslmode=disable"},
		{"postgres://u:pw@h/db", "host=h user=u dbname=db"},
	}
	for _, p := range same {
		if !Same(p[0], p[1]) {
			t.Errorf("Same(%q, %q) = false", p[0], p[1])
		}
	}
	other := [][2]string{
		{"postgres://u@h/db", "postgres://u@h/db2"},
		{"postgres://u@h/db", "postgres://v@h/db"},
		{"postgres://u@h/db?search_path=a", "postgres://u@h/db?search_path=b"},
		{"h.db", "postgres://u@h/db"},
	}
	for _, p := range other {
		if Same(p[0], p[1]) {
			t.Errorf("Same(%q, %q) = true", p[0], p[1])
		}
	}
}
