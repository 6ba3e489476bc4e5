package store

// HashName is the one hash every hashed model keys names by: 64-bit FNV-1a
// over the canonical encoding, the function OpenSSL's hash table uses.
// It is fixed — no per-process seed — so a model's buckets, probes and
// instruction counts are the same in every process. Byte at a time it
// costs about a nanosecond per byte of a name, more than a whole lookup's
// floor, so objects carry it (Object.SubjectHash, IssuerHash), computed
// once when parsed, as OpenSSL caches a name's canonical encoding; only a
// lookup by a bare name (BySubject) hashes on the way.
func HashName(n Name) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	for i := 0; i < len(n); i++ {
		h ^= uint64(n[i])
		h *= prime
	}
	return h
}
