package subcommand

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Parse parses a command's arguments; flags may follow positional
// arguments. MaxArgs < 0 allows any number of them.
func Parse(fs *flag.FlagSet, args []string, MaxArgs int) error {
	// The flag package would print the whole help after an error; a typo
	// gets one line and a suggestion instead, -h the help.
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(interleaveFlags(fs, args))
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		usage()
		return ErrHelp
	case err != nil:
		return UsageError("%v%s (perfrun %s -h lists its flags)", err, didYouMean(fs, args), fs.Name())
	case MaxArgs >= 0 && fs.NArg() > MaxArgs:
		return UsageError("unexpected argument %q", fs.Arg(MaxArgs))
	}
	return nil
}

// didYouMean suggests, for the first flag in args the command does not
// Define, the defined flag closest to it: a typo (-thread for -threads) is
// at most two edits from what was meant.
func didYouMean(fs *flag.FlagSet, args []string) string {
	name := ""
	for _, a := range args {
		if a == "--" {
			break
		}
		n, ok := strings.CutPrefix(a, "-")
		if !ok || n == "" || strings.IndexByte("0123456789.", n[0]) >= 0 {
			continue // a negative number is a flag's value, never a flag
		}
		n, _, _ = strings.Cut(strings.TrimPrefix(n, "-"), "=")
		if n != "h" && n != "help" && fs.Lookup(n) == nil {
			name = n
			break
		}
	}
	if name == "" {
		return ""
	}
	best, bestD := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		if d := editDistance(name, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
	})
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean -%s?", best)
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// interleaveFlags moves flags written after positional arguments to the
// front, so "perfrun gate old.txt new.txt -json v.json" works.
func interleaveFlags(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || len(a) == 1 {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		f := fs.Lookup(name)
		isBool := false
		if f != nil {
			if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok {
				isBool = bf.IsBoolFlag()
			}
		}
		if !strings.Contains(name, "=") && !isBool && f != nil && i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	if len(pos) == 0 {
		return flags
	}
	// The positional arguments after "--": one that begins with "-" (a
	// revision named -x after --) is an argument, never read as a flag.
	return append(append(flags, "--"), pos...)
}

// ListFlag collects a repeatable flag.
type ListFlag []string

func (l *ListFlag) String() string     { return strings.Join(*l, " ") }
func (l *ListFlag) Set(v string) error { *l = append(*l, v); return nil }
