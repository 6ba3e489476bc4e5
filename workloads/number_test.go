package workloads

import "testing"

// TestNumbersAreDecimal: a number is written as a person writes one;
// Go's other spellings are refused, as whole numbers refuse 0x10.
func TestNumbersAreDecimal(t *testing.T) {
	for _, s := range []string{"5", "0.05", ".5", "-2", "+3e-4", "1E6", " 7 "} {
		if _, err := ParseNumber(s); err != nil {
			t.Errorf("ParseNumber(%q): %v", s, err)
		}
	}
	for _, s := range []string{"0x1p-20", "1_000", "0x10", "Inf", "nan", "1e999", "5e-324", "1.2.3", ""} {
		if v, err := ParseNumber(s); err == nil {
			t.Errorf("ParseNumber(%q) = %g, want refused", s, v)
		}
	}
}
