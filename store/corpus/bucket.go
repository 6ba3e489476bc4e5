package corpus

import (
	"context"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"sync"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
)

var buckets struct {
	sync.Mutex
	m map[[2]uint64][]*store.Object
}

// Bucket returns n distinct CA certificates that all share one subject
// name: the worst case of a name-indexed store, as perftools' x509storeadd
// bucket mode. Cached per process.
func Bucket(seed uint64, n int) ([]*store.Object, error) {
	buckets.Lock()
	defer buckets.Unlock()
	if objs, ok := buckets.m[[2]uint64{seed, uint64(n)}]; ok {
		return objs, nil
	}
	name := pkix.Name{Organization: []string{"Bucket Trust"}, CommonName: "Bucket CA"}
	key := certgen.Key(fmt.Sprintf("%d/bucket", seed))
	objs := make([]*store.Object, n)
	err := parallel(context.Background(), n, func(i int) error {
		var err error
		objs[i], err = build(certgen.Cert{
			Subject: name, Issuer: name, PublicKey: key.Public(), Signer: key,
			Serial: int64(i) + 1, NotBefore: DefaultAt.AddDate(-1, 0, 0), NotAfter: DefaultAt.AddDate(5, 0, 0),
			IsCA: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		}.DER, store.ParseCertificate)
		return err
	})
	if err != nil {
		return nil, err
	}
	if buckets.m == nil {
		buckets.m = make(map[[2]uint64][]*store.Object)
	}
	buckets.m[[2]uint64{seed, uint64(n)}] = objs
	return objs, nil
}
