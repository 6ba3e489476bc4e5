package importers_test

import (
	"fmt"
	"strings"

	"github.com/perfrun/perfrun/records/importers"
)

// scaled multiplies every value by f.
func scaled(v []float64, f float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x * f
	}
	return out
}

// Another tool's results become records like perfrun's own, every run a
// sample, so compare, gate and history take them unchanged.
func ExampleLookup() {
	const hyperfine = `{"results": [{"command": "openssl verify -CAfile ca.pem leaf.pem",
  "mean": 0.0021, "times": [0.0020, 0.0021, 0.0023, 0.0020]}]}`
	im, err := importers.Lookup("hyperfine")
	if err != nil {
		panic(err)
	}
	s, err := im.Read(strings.NewReader(hyperfine), "bench.json")
	if err != nil {
		panic(err)
	}
	for _, c := range s.Cells() {
		fmt.Printf("%s %.1f ms\n", c.Name, scaled(c.Values["sec/op"], 1e3))
	}
	fmt.Println(s.Config("imported"), s.Config("source"))
	// Output:
	// openssl_verify_-CAfile_ca.pem_leaf.pem [2.0 2.1 2.3 2.0] ms
	// hyperfine bench.json
}
