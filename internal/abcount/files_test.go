package abcount

import "testing"

// TestCountFilesRefuseForgeries: each count file, read as untrusted
// input, refuses a cell name that is no cell's, a count that is not one,
// a row of no arm, and a file of another shape.
func TestCountFilesRefuseForgeries(t *testing.T) {
	readers := map[string]func([]byte) error{
		"instructions": func(b []byte) error { _, _, err := ReadInstructions(b); return err },
		"locks":        func(b []byte) error { _, _, err := ReadLocks(b); return err },
		"traffic":      func(b []byte) error { _, _, err := ReadTraffic(b); return err },
	}
	for file, forged := range map[string][]string{
		"instructions": {
			"cell,arm,instructions/op\n\"a\nPASS\",base,1\n",
			"cell,arm,instructions/op\na,base,NaN\n",
			"cell,arm,instructions/op\na,base,0\n",
			"cell,arm,instructions/op\na,judge,1\n",
			"x,y\n",
		},
		"locks": {
			"cell,arm,unit,value\na,base,atomics/op,-1\n",
			"cell,arm,unit,value\na,base,seconds,1\n",
			"cell,arm,unit,value\n\"a\nPASS\",head,atomics/op,1\n",
			"cell,arm,instructions/op\na,base,1\n",
		},
		"traffic": {
			"cell,arm,l1-misses/op,ll-misses/op,syscalls/op\na,base,1,1,-1\n",
			"cell,arm,l1-misses/op,ll-misses/op,syscalls/op\na,base,1,1,Inf\n",
			"cell,arm,unit,value\na,base,atomics/op,1\n",
		},
	} {
		for _, f := range forged {
			if err := readers[file]([]byte(f)); err == nil {
				t.Errorf("%s: %q read without error", file, f)
			}
		}
	}
}
