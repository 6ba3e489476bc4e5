package storetest

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/perfrun/perfrun/store"
)

// byteSource turns fuzz input into the random choices of the differential
// test, so the fuzzer steers operation sequences. Once the input runs out
// it goes on with a fixed pseudo-random stream: a constant one would hang
// rand.IntN, whose rejection sampling never accepts a run of zeros.
type byteSource struct {
	data  []byte
	extra uint64
}

func (s *byteSource) Uint64() uint64 {
	if len(s.data) == 0 {
		s.extra += 0x9e3779b97f4a7c15 // splitmix64
		z := s.extra
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	var b [8]byte
	n := copy(b[:], s.data)
	s.data = s.data[n:]
	return binary.LittleEndian.Uint64(b[:])
}

// Fuzz runs fuzzer-chosen sequences of add, replace, lookup, BySubject,
// Objects and Len on the store and on Reference, comparing every answer.
// Call it from a FuzzXxx function of the implementation's tests.
func Fuzz(f *testing.F, newStore func() store.Store) {
	p := newPool(f, 1)
	f.Add([]byte{})
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17"))
	f.Add([]byte("perfrun: add everything, replace CRLs, look up issuers at four times, snapshot"))
	f.Fuzz(func(t *testing.T, data []byte) {
		src := &byteSource{data: data}
		r := rand.New(src)
		s, ref := newStore(), NewReference()
		for i := 0; len(src.data) > 0 && i < 1000; i++ {
			if err := p.step(r, s, ref); err != nil {
				t.Fatalf("operation %d: %v", i, err)
			}
		}
	})
}
