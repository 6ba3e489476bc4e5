package records

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"
)

// Set is the records of one results file (or of one run), in order, with
// an index by cell.
type Set struct {
	Label string // what reports call it: a label=path label, or the path
	File  string
	// Digest is the SHA-256 of the bytes of the file the set was read
	// from (ReadFile), hex: two sets of one digest are one file's copies.
	Digest string
	// Records are the results in file order, for a set made in memory
	// (the harness's, to write). A set read from a file keeps only each
	// cell's values and first record, so its memory grows with its cells,
	// not its lines.
	Records []*benchfmt.Result
	// Units holds the unit metadata, by tidied unit.
	Units benchfmt.UnitMetadataMap
	// Warnings are lines that did not parse and values that were skipped;
	// the reader carries on past them.
	Warnings []error

	cells  []*Cell
	byName map[string]*Cell
	proj   projections
	// first is the set's first record; configs the distinct values of
	// each file configuration key across all records.
	first   *benchfmt.Result
	configs map[string][]string
	// labels are the distinct machine labels of its records, "" for a
	// record that has none.
	labels []string
	keep   bool // a read set that keeps its records (Read)
}

// Cell is every record of one benchmark name: one value per unit and
// record (round), in file order.
type Cell struct {
	Name    string // the full name without "Benchmark": Issuer/impl=rcu/certs=1024/hit=1/threads=2
	Group   string // Name without its impl and threads keys: Issuer/certs=1024/hit=1
	Impl    string // the /impl key, "" if none
	Threads int    // the /threads key, 0 if none
	// Units lists the units in the order they first appear.
	Units []string
	// Values maps a tidied unit to its values, in file order, from the
	// records not set aside.
	Values map[string][]float64
	// Aside counts the records set aside (quarantined), and Why holds the
	// first one's reason.
	Aside int
	Why   string
	// AsideValues are the values of the records set aside, by tidied
	// unit: a count (instructions/op, a lock profile) no disturbance
	// changes is still there when every window of a cell was set aside.
	AsideValues map[string][]float64
	// Repeats counts the timed records that repeated an earlier record of
	// the cell value for value: copies, not measurements, so each is kept
	// once (five copies of one round are one round, not five).
	Repeats int
	seen    map[string]bool
	// First is the cell's first record: its configuration and name keys.
	First *benchfmt.Result
}

// projections index a set: the group is the full name without /impl and
// /threads (GroupWithout), the implementation and threads their keys.
type projections struct {
	group, impl, threads func(*Cell) string
}

func newProjections() projections {
	return projections{group: GroupWithout("impl", "threads"), impl: KeyOf("impl"), threads: KeyOf("threads")}
}

// QuarantineKey is the configuration key of a record the machine
// disturbed; its value says how. Such records are kept in a file, and left
// out of a Set's values.
const QuarantineKey = "quarantined"

// QuarantineKept is the quarantine key's value on a kept record. Every
// record of a results file carries the key, so benchstat, which prints
// every key some record has above each of its tables, says "quarantined:
// no" over the kept samples instead of an empty "quarantined: " line.
// Files without it (older ones) read the same: no key is kept too.
const QuarantineKept = "no"

// BenchstatFilter is benchstat's -filter for the view perfrun points
// readers to: the per-thread tables' unit over the samples the run kept, so a
// default run's designs and reference cells fit one screen, whatever the
// machine set aside.
const BenchstatFilter = ".unit:sec/call " + QuarantineKey + ":" + QuarantineKept

// AsideWhy says how the machine disturbed r, or "" if r was kept.
func AsideWhy(r *benchfmt.Result) string {
	if why := r.GetConfig(QuarantineKey); why != QuarantineKept {
		return why
	}
	return ""
}

// CellsKey is the configuration key saying whose cells follow: the
// designs' (CellsDesigns) or the machine's reference cells, Control and
// Floor (CellsReference). Every record carries it, so benchstat, which
// makes a table per configuration, keeps the reference cells out of the
// designs' table and prints no empty key in either.
const (
	CellsKey       = "cells"
	CellsDesigns   = "designs"
	CellsReference = "the machine's reference (Control: the cores it delivers; Floor: a lookup's limit)"
)

// ControlGroup is the group of the control cells, which measure the
// machine rather than a store: Control/threads=N.
const ControlGroup = "Control"

// FloorTitle begins the names of the floor cells, which measure the limit
// of a lookup on the machine rather than a store: Floor/certs=1024/hit=1.
const FloorTitle = "Floor"

// IsControl reports whether a cell is a control cell.
func (c *Cell) IsControl() bool { return c.Group == ControlGroup && c.Impl == "" }

// IsReference reports whether a cell measures the machine rather than a
// store — a control or a floor cell — so that no verdict is about it.
func (c *Cell) IsReference() bool {
	return c.Impl == "" && (c.IsControl() || strings.HasPrefix(c.Name, FloorTitle+"/"))
}

// IsReferenceName reports whether a full benchmark name is a reference
// cell's (Cell.IsReference), for readers that have names, not a Set.
func IsReferenceName(name string) bool {
	proj := newProjections()
	c := &Cell{Name: name, First: &benchfmt.Result{Name: benchfmt.Name(name)}}
	c.Group, c.Impl = proj.group(c), proj.impl(c)
	return c.IsReference()
}

// FloorOf returns the floor cell of a group such as Issuer/certs=1024/hit=1
// (Floor/certs=1024/hit=1/threads=1), if the set has one. A floor has no
// cost parameter: it measures the lookup's limit whatever a model adds.
func (s *Set) FloorOf(group string) (*Cell, bool) {
	_, params, ok := strings.Cut(group, "/")
	if !ok {
		return nil, false
	}
	params, _ = WithoutCost(params)
	return s.Cell(FloorTitle + "/" + params + "/threads=1")
}

// WithoutCost splits parameters such as certs=1024/hit=1/cost=openssl (a
// group's, after its title) into the others and the cost's value, "" when
// they carry none: the parameter that says how much of a lookup a model
// did, which a floor, a real store and a command never carry.
func WithoutCost(params string) (others, cost string) {
	var kept []string
	for _, part := range strings.Split(params, "/") {
		if v, ok := strings.CutPrefix(part, "cost="); ok {
			cost = v
			continue
		}
		kept = append(kept, part)
	}
	return strings.Join(kept, "/"), cost
}

// New returns an empty set.
func New(label, file string) *Set {
	return &Set{Label: label, File: file, Units: make(benchfmt.UnitMetadataMap),
		byName: make(map[string]*Cell), proj: newProjections()}
}

// Add appends a record and indexes it.
func (s *Set) Add(r *benchfmt.Result) {
	s.Records = append(s.Records, r)
	s.index(r, true)
}

// index files a record's values under its cell. A record the set does not
// own (the reader's, reused for the next line) is copied only when it is
// a new cell's first.
func (s *Set) index(r *benchfmt.Result, owned bool) {
	name := string(r.Name.Full())
	c, ok := s.byName[name]
	if !ok {
		first := r
		if !owned {
			first = r.Clone()
		}
		c = &Cell{Name: name, Values: make(map[string][]float64), First: first}
		c.Group, c.Impl = s.proj.group(c), s.proj.impl(c)
		c.Threads, _ = strconv.Atoi(s.proj.threads(c))
		s.byName[name] = c
		s.cells = append(s.cells, c)
	}
	if s.first == nil {
		s.first = c.First
	}
	if m := ConfigOf(r, "machine"); !slices.Contains(s.labels, m) {
		s.labels = append(s.labels, m)
	}
	for _, kv := range r.Config {
		// A value means what it says without the spaces around it (Go's cpu:
		// line ends in some): a copy with them stripped is the same machine.
		if v := strings.TrimSpace(string(kv.Value)); kv.File && !slices.Contains(s.configs[kv.Key], v) {
			if s.configs == nil {
				s.configs = make(map[string][]string)
			}
			s.configs[kv.Key] = append(s.configs[kv.Key], v)
		}
	}
	if why := AsideWhy(r); why != "" {
		if c.Aside == 0 {
			c.Why = why
			c.AsideValues = make(map[string][]float64)
		}
		c.Aside++
		for _, v := range r.Values {
			c.AsideValues[v.Unit] = append(c.AsideValues[v.Unit], v.Value)
		}
		return
	}
	if key := valuesKey(r); key != "" {
		if c.seen[key] {
			c.Repeats++
			return
		}
		if c.seen == nil {
			c.seen = make(map[string]bool)
		}
		c.seen[key] = true
	}
	for _, v := range r.Values {
		if _, seen := c.Values[v.Unit]; !seen {
			c.Units = append(c.Units, v.Unit)
		}
		c.Values[v.Unit] = append(c.Values[v.Unit], v.Value)
	}
}

// valuesKey is a record's values, bit for bit, as a map key; "" for a
// record that may repeat another by chance: one with no time (counts —
// instructions, allocations — repeat exactly from process to process), or
// with fewer than copyValues values (a tool's single time, rounded,
// repeats; a perfrun record's dozen measurements never all do).
func valuesKey(r *benchfmt.Result) string {
	if len(r.Values) < copyValues {
		return ""
	}
	timed := false
	for _, v := range r.Values {
		timed = timed || strings.HasPrefix(Tidy(v.Unit), "sec/")
	}
	if !timed {
		return ""
	}
	var b strings.Builder
	for _, v := range r.Values {
		fmt.Fprintf(&b, "%s=%x;", v.Unit, math.Float64bits(v.Value))
	}
	return b.String()
}

// copyValues is the fewest values a record needs for a repeat of it to be
// taken as a copy.
const copyValues = 3

// Repeats counts the records of the set that repeated an earlier record of
// their cell value for value (Cell.Repeats).
func (s *Set) Repeats() int {
	n := 0
	for _, c := range s.cells {
		n += c.Repeats
	}
	return n
}

// ConfigValues returns the distinct values a file configuration key took
// across the set's records, in the order they appeared.
func (s *Set) ConfigValues(key string) []string { return s.configs[key] }

// MachineLabels are the distinct machine labels of the set's records, ""
// for records without one, in the order they first appear.
func (s *Set) MachineLabels() []string { return s.labels }

// ConfigKeys returns the file configuration keys of the set's records,
// sorted.
func (s *Set) ConfigKeys() []string {
	keys := make([]string, 0, len(s.configs))
	for k := range s.configs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// FirstRecord returns the set's first record, nil for an empty set.
func (s *Set) FirstRecord() *benchfmt.Result { return s.first }

// AddUnit records unit metadata.
func (s *Set) AddUnit(u *benchfmt.UnitMetadata) {
	s.Units[u.UnitMetadataKey] = u
}

// Cells returns the cells in the order their names first appear.
func (s *Set) Cells() []*Cell { return s.cells }

// Cell returns the cell of a full benchmark name.
func (s *Set) Cell(name string) (*Cell, bool) {
	c, ok := s.byName[name]
	return c, ok
}

// Config returns a file configuration value of the set's first record.
func (s *Set) Config(key string) string {
	if s.first == nil {
		return ""
	}
	return ConfigOf(s.first, key)
}

// Cores is the "cores" configuration, 0 if absent.
func (s *Set) Cores() int {
	n, _ := strconv.Atoi(s.Config("cores"))
	return n
}

// Assumption is the statistical assumption for a unit: exact where the
// file's unit metadata says so, else benchstat's default of none.
func (s *Set) Assumption(unit string) benchmath.Assumption {
	return s.Units.GetAssumption(unit)
}

// KeyOf returns a function giving a name key (such as "n") of a cell, ""
// where the name has none.
func KeyOf(key string) func(*Cell) string {
	var pp benchproc.ProjectionParser
	p, err := pp.Parse("/"+key, nil)
	if err != nil {
		return func(*Cell) string { return "" }
	}
	return func(c *Cell) string { return p.Project(c.First).StringValues() }
}

// NameKey returns a name key (such as "threads") of a full benchmark
// name, as KeyOf does for a cell; "" if the name has none.
func NameKey(name, key string) string {
	return KeyOf(key)(&Cell{First: &benchfmt.Result{Name: benchfmt.Name(name)}})
}

// AtThreads is a full cell name with its threads key set to n (added
// where the name has none): the same cell at another thread count.
func AtThreads(name string, n int) string {
	if i := strings.LastIndex(name, "/threads="); i >= 0 {
		name = name[:i]
	}
	return name + "/threads=" + strconv.Itoa(n)
}

// GroupWithout returns a function giving a cell's full name without the
// given name keys: the cells that differ only in those keys share it.
func GroupWithout(keys ...string) func(*Cell) string {
	var pp benchproc.ProjectionParser
	full, _ := pp.Parse(".fullname", nil)
	for _, k := range keys {
		pp.Parse("/"+k, nil)
	}
	return func(c *Cell) string { return full.Project(c.First).StringValues() }
}
