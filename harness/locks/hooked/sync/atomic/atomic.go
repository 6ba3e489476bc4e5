// Package atomic is the standard sync/atomic whose types tell a lock
// profile the address each of their writing methods writes (package
// hooked): a build for lock profiles (harness/locks) has every package
// outside the standard library import it in place of sync/atomic. Its
// functions and Value are the standard ones, and tell nothing: their
// writes are counted (callgrind counts every atomic instruction) but their
// lines are not known.
//
// Its promise: the standard sync/atomic's API, every name of it; each type
// the standard one at the same address, telling its address before each
// write.
package atomic

import (
	std "sync/atomic"
	"unsafe"

	"github.com/perfrun/perfrun/harness/locks/hooked"
)

type Value = std.Value

// Int32 is the standard Int32, telling its address before each write.
type Int32 struct{ v std.Int32 }

func (x *Int32) Load() int32 { return x.v.Load() }

func (x *Int32) Store(val int32) { hooked.Wrote(unsafe.Pointer(x)); x.v.Store(val) }

func (x *Int32) Swap(new int32) (old int32) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Swap(new) }

func (x *Int32) CompareAndSwap(old, new int32) (swapped bool) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

func (x *Int32) Add(delta int32) (new int32) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Add(delta) }

func (x *Int32) And(mask int32) (old int32) { hooked.Wrote(unsafe.Pointer(x)); return x.v.And(mask) }

func (x *Int32) Or(mask int32) (old int32) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Or(mask) }

// Int64 is the standard Int64, telling its address before each write.
type Int64 struct{ v std.Int64 }

func (x *Int64) Load() int64 { return x.v.Load() }

func (x *Int64) Store(val int64) { hooked.Wrote(unsafe.Pointer(x)); x.v.Store(val) }

func (x *Int64) Swap(new int64) (old int64) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Swap(new) }

func (x *Int64) CompareAndSwap(old, new int64) (swapped bool) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

func (x *Int64) Add(delta int64) (new int64) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Add(delta) }

func (x *Int64) And(mask int64) (old int64) { hooked.Wrote(unsafe.Pointer(x)); return x.v.And(mask) }

func (x *Int64) Or(mask int64) (old int64) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Or(mask) }

// Uint32 is the standard Uint32, telling its address before each write.
type Uint32 struct{ v std.Uint32 }

func (x *Uint32) Load() uint32 { return x.v.Load() }

func (x *Uint32) Store(val uint32) { hooked.Wrote(unsafe.Pointer(x)); x.v.Store(val) }

func (x *Uint32) Swap(new uint32) (old uint32) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Swap(new) }

func (x *Uint32) CompareAndSwap(old, new uint32) (swapped bool) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

func (x *Uint32) Add(delta uint32) (new uint32) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.Add(delta)
}

func (x *Uint32) And(mask uint32) (old uint32) { hooked.Wrote(unsafe.Pointer(x)); return x.v.And(mask) }

func (x *Uint32) Or(mask uint32) (old uint32) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Or(mask) }

// Uint64 is the standard Uint64, telling its address before each write.
type Uint64 struct{ v std.Uint64 }

func (x *Uint64) Load() uint64 { return x.v.Load() }

func (x *Uint64) Store(val uint64) { hooked.Wrote(unsafe.Pointer(x)); x.v.Store(val) }

func (x *Uint64) Swap(new uint64) (old uint64) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Swap(new) }

func (x *Uint64) CompareAndSwap(old, new uint64) (swapped bool) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

func (x *Uint64) Add(delta uint64) (new uint64) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.Add(delta)
}

func (x *Uint64) And(mask uint64) (old uint64) { hooked.Wrote(unsafe.Pointer(x)); return x.v.And(mask) }

func (x *Uint64) Or(mask uint64) (old uint64) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Or(mask) }

// Uintptr is the standard Uintptr, telling its address before each write.
type Uintptr struct{ v std.Uintptr }

func (x *Uintptr) Load() uintptr { return x.v.Load() }

func (x *Uintptr) Store(val uintptr) { hooked.Wrote(unsafe.Pointer(x)); x.v.Store(val) }

func (x *Uintptr) Swap(new uintptr) (old uintptr) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.Swap(new)
}

func (x *Uintptr) CompareAndSwap(old, new uintptr) (swapped bool) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

func (x *Uintptr) Add(delta uintptr) (new uintptr) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.Add(delta)
}

func (x *Uintptr) And(mask uintptr) (old uintptr) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.And(mask)
}

func (x *Uintptr) Or(mask uintptr) (old uintptr) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.Or(mask)
}

// Bool is the standard Bool, telling its address before each write.
type Bool struct{ v std.Bool }

func (x *Bool) Load() bool { return x.v.Load() }

func (x *Bool) Store(val bool) { hooked.Wrote(unsafe.Pointer(x)); x.v.Store(val) }

func (x *Bool) Swap(new bool) (old bool) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Swap(new) }

func (x *Bool) CompareAndSwap(old, new bool) (swapped bool) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

// Pointer is the standard Pointer, telling its address before each write.
type Pointer[T any] struct{ v std.Pointer[T] }

func (x *Pointer[T]) Load() *T { return x.v.Load() }

func (x *Pointer[T]) Store(val *T) { hooked.Wrote(unsafe.Pointer(x)); x.v.Store(val) }

func (x *Pointer[T]) Swap(new *T) (old *T) { hooked.Wrote(unsafe.Pointer(x)); return x.v.Swap(new) }

func (x *Pointer[T]) CompareAndSwap(old, new *T) (swapped bool) {
	hooked.Wrote(unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

// The functions are the standard ones.

func AddInt32(addr *int32, delta int32) (new int32)         { return std.AddInt32(addr, delta) }
func AndInt32(addr *int32, mask int32) (old int32)          { return std.AndInt32(addr, mask) }
func OrInt32(addr *int32, mask int32) (old int32)           { return std.OrInt32(addr, mask) }
func AddInt64(addr *int64, delta int64) (new int64)         { return std.AddInt64(addr, delta) }
func AndInt64(addr *int64, mask int64) (old int64)          { return std.AndInt64(addr, mask) }
func OrInt64(addr *int64, mask int64) (old int64)           { return std.OrInt64(addr, mask) }
func AddUint32(addr *uint32, delta uint32) (new uint32)     { return std.AddUint32(addr, delta) }
func AndUint32(addr *uint32, mask uint32) (old uint32)      { return std.AndUint32(addr, mask) }
func OrUint32(addr *uint32, mask uint32) (old uint32)       { return std.OrUint32(addr, mask) }
func AddUint64(addr *uint64, delta uint64) (new uint64)     { return std.AddUint64(addr, delta) }
func AndUint64(addr *uint64, mask uint64) (old uint64)      { return std.AndUint64(addr, mask) }
func OrUint64(addr *uint64, mask uint64) (old uint64)       { return std.OrUint64(addr, mask) }
func AddUintptr(addr *uintptr, delta uintptr) (new uintptr) { return std.AddUintptr(addr, delta) }
func AndUintptr(addr *uintptr, mask uintptr) (old uintptr)  { return std.AndUintptr(addr, mask) }
func OrUintptr(addr *uintptr, mask uintptr) (old uintptr)   { return std.OrUintptr(addr, mask) }
func CompareAndSwapInt32(addr *int32, old, new int32) (swapped bool) {
	return std.CompareAndSwapInt32(addr, old, new)
}
func LoadInt32(addr *int32) (val int32)            { return std.LoadInt32(addr) }
func StoreInt32(addr *int32, val int32)            { std.StoreInt32(addr, val) }
func SwapInt32(addr *int32, new int32) (old int32) { return std.SwapInt32(addr, new) }
func CompareAndSwapInt64(addr *int64, old, new int64) (swapped bool) {
	return std.CompareAndSwapInt64(addr, old, new)
}
func LoadInt64(addr *int64) (val int64)            { return std.LoadInt64(addr) }
func StoreInt64(addr *int64, val int64)            { std.StoreInt64(addr, val) }
func SwapInt64(addr *int64, new int64) (old int64) { return std.SwapInt64(addr, new) }
func CompareAndSwapUint32(addr *uint32, old, new uint32) (swapped bool) {
	return std.CompareAndSwapUint32(addr, old, new)
}
func LoadUint32(addr *uint32) (val uint32)             { return std.LoadUint32(addr) }
func StoreUint32(addr *uint32, val uint32)             { std.StoreUint32(addr, val) }
func SwapUint32(addr *uint32, new uint32) (old uint32) { return std.SwapUint32(addr, new) }
func CompareAndSwapUint64(addr *uint64, old, new uint64) (swapped bool) {
	return std.CompareAndSwapUint64(addr, old, new)
}
func LoadUint64(addr *uint64) (val uint64)             { return std.LoadUint64(addr) }
func StoreUint64(addr *uint64, val uint64)             { std.StoreUint64(addr, val) }
func SwapUint64(addr *uint64, new uint64) (old uint64) { return std.SwapUint64(addr, new) }
func CompareAndSwapUintptr(addr *uintptr, old, new uintptr) (swapped bool) {
	return std.CompareAndSwapUintptr(addr, old, new)
}
func LoadUintptr(addr *uintptr) (val uintptr)              { return std.LoadUintptr(addr) }
func StoreUintptr(addr *uintptr, val uintptr)              { std.StoreUintptr(addr, val) }
func SwapUintptr(addr *uintptr, new uintptr) (old uintptr) { return std.SwapUintptr(addr, new) }
func CompareAndSwapPointer(addr *unsafe.Pointer, old, new unsafe.Pointer) (swapped bool) {
	return std.CompareAndSwapPointer(addr, old, new)
}
func LoadPointer(addr *unsafe.Pointer) (val unsafe.Pointer) { return std.LoadPointer(addr) }
func StorePointer(addr *unsafe.Pointer, val unsafe.Pointer) { std.StorePointer(addr, val) }
func SwapPointer(addr *unsafe.Pointer, new unsafe.Pointer) (old unsafe.Pointer) {
	return std.SwapPointer(addr, new)
}
