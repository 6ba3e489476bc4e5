module github.com/perfrun/perfrun

go 1.26.0

require (
	github.com/benbjohnson/immutable v0.4.3
	golang.org/x/crypto v0.59.0
)

require golang.org/x/exp v0.0.0-20220518171630-0b5c67f07fdf // indirect
