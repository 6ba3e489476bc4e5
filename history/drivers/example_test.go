package drivers_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfrun/perfrun/history"
	_ "github.com/perfrun/perfrun/history/drivers" // SQLite and PostgreSQL
)

// A program that keeps a history imports the drivers for their effect;
// without them history.Open says so.
func Example() {
	dir, err := os.MkdirTemp("", "history")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	h, err := history.Open(context.Background(), filepath.Join(dir, "history.db"))
	if err != nil {
		panic(err)
	}
	defer h.Close()
	fmt.Println(history.Ready())
	// Output: true
}
