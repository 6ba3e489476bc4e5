package ab

import "strings"

// Cells are the cells a campaign measures, as ab's flags name them:
// -impl ("" every design a revision has), -workload, -threads and -param.
type Cells struct {
	Impl, Workload, Threads string
	Params                  []string
}

// Args are the cells as ab's flags.
func (c Cells) Args() []string {
	args := []string{"-workload", c.Workload, "-threads", c.Threads}
	if c.Impl != "" {
		args = append(args, "-impl", c.Impl)
	}
	for _, p := range c.Params {
		args = append(args, "-param", p)
	}
	return args
}

// Select narrows the cells measured to one, named as results name
// it: its workload and its parameters, Issuer/impl=x/threads=1/….
func (c *Cells) Select(cell string) {
	parts := strings.Split(cell, "/")
	c.Workload, c.Params = strings.ToLower(parts[0]), nil
	for _, kv := range parts[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "impl":
			c.Impl = v
		case "threads":
			c.Threads = v
		default:
			c.Params = append(c.Params, kv)
		}
	}
}
