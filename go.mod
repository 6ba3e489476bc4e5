module github.com/perfrun/perfrun

go 1.26.0

require (
	github.com/benbjohnson/immutable v0.4.3
	github.com/montanaflynn/stats v0.14.0
	golang.org/x/crypto v0.59.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	golang.org/x/exp v0.0.0-20260824195058-e88cd73687aa // indirect
)
