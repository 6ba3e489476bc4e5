//go:build openssl

package openssl

/*
#include <malloc.h>

// pf_heap is the C heap in use: glibc's small-block and mmapped bytes.
static size_t pf_heap(void) {
	struct mallinfo2 mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
}
*/
import "C"

// CHeap returns the bytes of C heap in use (glibc's mallinfo2): what a
// real store holds outside Go's heap, which Go's memory statistics do not
// see. The OpenSSL 4.0 hash table's footprint is what OpenSSL PR 28965
// was about; the model's B/object cannot show it.
func CHeap() int64 { return int64(C.pf_heap()) }
