package harness

import (
	"encoding/binary"
	"strings"
)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// brandString is the processor's brand string from CPUID leaves
// 0x80000002-4, the name go test writes on its cpu: line; "" where the
// processor has none.
func brandString() string {
	if max, _, _, _ := cpuid(0x80000000, 0); max < 0x80000004 {
		return ""
	}
	var b []byte
	for leaf := uint32(0x80000002); leaf <= 0x80000004; leaf++ {
		a, bx, c, d := cpuid(leaf, 0)
		for _, r := range []uint32{a, bx, c, d} {
			b = binary.LittleEndian.AppendUint32(b, r)
		}
	}
	name, _, _ := strings.Cut(string(b), "\x00")
	return strings.TrimLeft(name, " ")
}
