//go:build openssl && !race

package openssl_test

const raceEnabled = false
