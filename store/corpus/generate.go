package corpus

import (
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/perfrun/perfrun/store"
	"github.com/perfrun/perfrun/store/certgen"
)

// Spec is what a generated corpus is made from. The same Spec gives
// byte-identical DER on every machine.
type Spec struct {
	Seed   uint64
	CAs    int // CA certificates in the store
	Hits   int // leaves whose issuer is present
	Misses int // leaves whose issuer is absent
}

// DefaultAt is the verification time of generated corpora.
var DefaultAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func (s Spec) String() string {
	return fmt.Sprintf("generated seed=%d cas=%d hits=%d misses=%d", s.Seed, s.CAs, s.Hits, s.Misses)
}

// A family is the CA certificates that share one subject name (possibly
// spelled differently): one plain CA, or a re-keyed, cross-signed or expired
// one, sometimes behind a decoy that fails the issuer checks.
type family struct {
	names []pkix.Name // spellings of one canonical name; [0] is the main one
	keys  []ed25519.PrivateKey
	certs []*store.Object
	crl   *store.Object
}

var (
	countries = []string{"US", "DE", "GB", "FR", "JP", "CH", "NL", "ES", "IT", "SE", "PL", "BE", "TW", "KR", "BR", "CA"}
	orgs      = []string{"Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Tyrell", "Cyberdyne",
		"Soylent", "Hooli", "Vandelay", "Wonka", "Gringotts", "Oscorp", "Aperture", "Massive Dynamic"}
	orgSuffixes = []string{"Trust Services", "Certification Authority", "Digital Security", "PKI", "Networks", "Secure Inc."}
	units       = []string{"Root CA", "Issuing CA", "Certification Services", "Server CA", "Class 2 Services"}
	cnShapes    = []string{"%s Global Root CA %d", "%s Root Certification Authority G%d", "%s TLS Issuing CA %d", "%s Public Server CA R%d"}
)

func familyName(seed uint64, f int) pkix.Name {
	r := rand.New(rand.NewPCG(seed, uint64(f)<<1|1))
	org := orgs[r.IntN(len(orgs))]
	return pkix.Name{
		Country:            []string{countries[r.IntN(len(countries))]},
		Organization:       []string{org + " " + orgSuffixes[r.IntN(len(orgSuffixes))]},
		OrganizationalUnit: []string{units[r.IntN(len(units))]},
		CommonName:         fmt.Sprintf(cnShapes[r.IntN(len(cnShapes))], org, f),
	}
}

// respell returns the same canonical name spelled differently: case and
// whitespace only.
func respell(n pkix.Name, r *rand.Rand) pkix.Name {
	v := n
	switch r.IntN(3) {
	case 0:
		v.CommonName = strings.ToUpper(n.CommonName)
	case 1:
		v.CommonName = "  " + strings.ReplaceAll(n.CommonName, " ", "   ") + " "
	default:
		v.Organization = []string{strings.ToLower(n.Organization[0])}
		v.CommonName = strings.ToLower(n.CommonName)
	}
	return v
}

func familyKey(seed uint64, f, i int) ed25519.PrivateKey {
	return certgen.Key(fmt.Sprintf("%d/ca/%d/%d", seed, f, i))
}

// Generate builds the corpus described by spec, using every core.
func Generate(spec Spec) (*Corpus, error) { return GenerateContext(context.Background(), spec, nil) }

// GenerateContext is Generate that stops when ctx is done (within one
// object's work per core) and, if progress is set, reports how many of
// the objects to make are made, about once a second, from another
// goroutine.
func GenerateContext(ctx context.Context, spec Spec, progress func(done, total int)) (*Corpus, error) {
	if spec.CAs < 1 {
		return nil, fmt.Errorf("corpus: need at least one CA, got %d", spec.CAs)
	}
	if spec.Hits < 0 || spec.Misses < 0 {
		return nil, fmt.Errorf("corpus: negative leaf count")
	}
	at := DefaultAt
	// Families hold 1 to 3 certificates; generate enough, then cut to CAs.
	nfam := spec.CAs
	var made atomic.Int64
	if progress != nil {
		stop := reportEvery(time.Second, func() { progress(int(made.Load()), nfam+spec.Hits+spec.Misses) })
		defer stop()
	}
	fams := make([]*family, nfam)
	err := parallel(ctx, nfam, func(f int) error {
		var err error
		fams[f], err = genFamily(spec.Seed, f, nfam, at)
		made.Add(1)
		return err
	})
	if err != nil {
		return nil, err
	}
	c := &Corpus{At: at, Source: spec.String()}
	var used, whole []*family
	for _, fam := range fams {
		if len(c.CAs) >= spec.CAs {
			break
		}
		room := spec.CAs - len(c.CAs)
		certs := fam.certs[:min(len(fam.certs), room)]
		c.CAs = append(c.CAs, certs...)
		c.CRLs = append(c.CRLs, fam.crl)
		used = append(used, fam)
		if len(certs) == len(fam.certs) {
			whole = append(whole, fam)
		}
	}
	// Insertion order interleaves families, like a real bundle; within a
	// family the relative order is kept, which is what issuer selection sees.
	r := rand.New(rand.NewPCG(spec.Seed, 0xca))
	interleave(c.CAs, used, r)

	leaves := make([]*store.Object, spec.Hits+spec.Misses)
	err = parallel(ctx, len(leaves), func(i int) error {
		var err error
		if i < spec.Hits {
			leaves[i], err = genLeaf(spec.Seed, i, used, at)
		} else {
			leaves[i], err = genMiss(spec.Seed, i, at)
		}
		made.Add(1)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := c.issueHits(leaves[:spec.Hits], whole, spec.Seed, at); err != nil {
		return nil, err
	}
	if err := c.layOut(ctx, leaves); err != nil {
		return nil, err
	}
	c.expectIssuers(leaves)
	c.ComputeDigest()
	return c, nil
}

// layOut parses every object again from its DER, one after the other on
// one goroutine, after a collection: generated in parallel, the objects'
// memory was interleaved in whichever order the goroutines ran, so two
// processes laid the same corpus out differently in memory — and a
// lookup's cache misses with it. Parsed in corpus order, the layout is
// the same in every process.
func (c *Corpus) layOut(ctx context.Context, leaves []*store.Object) error {
	runtime.GC()
	for _, list := range [][]*store.Object{c.CAs, c.CRLs, leaves} {
		for i, o := range list {
			if i%1024 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			parse := store.ParseCertificate
			if o.Kind == store.CRL {
				parse = store.ParseCRL
			}
			again, err := parse(o.DER)
			if err != nil {
				return fmt.Errorf("corpus: parsing %s again: %w", o.Label, err)
			}
			list[i] = again
		}
	}
	return nil
}

// interleave reorders cas (the concatenation of the families' certificates)
// randomly while keeping each family's certificates in their order.
func interleave(cas []*store.Object, fams []*family, r *rand.Rand) {
	slots := make([]int, 0, len(cas))
	for fi, fam := range fams {
		for range min(len(fam.certs), len(cas)-len(slots)) {
			slots = append(slots, fi)
		}
	}
	r.Shuffle(len(slots), func(i, j int) { slots[i], slots[j] = slots[j], slots[i] })
	next := make([]int, len(fams))
	for i, fi := range slots {
		cas[i] = fams[fi].certs[next[fi]]
		next[fi]++
	}
}

func caSpec(name, issuer pkix.Name, key, signer ed25519.PrivateKey, serial int64, nb, na time.Time) certgen.Cert {
	return certgen.Cert{
		Subject: name, Issuer: issuer,
		PublicKey: key.Public(), Signer: signer,
		Serial: serial, NotBefore: nb, NotAfter: na,
		IsCA: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		AuthorityKeyID: certgen.KeyID(signer.Public()),
	}
}

func genFamily(seed uint64, f, nfam int, at time.Time) (*family, error) {
	r := rand.New(rand.NewPCG(seed, uint64(f)<<1))
	name := familyName(seed, f)
	fam := &family{names: []pkix.Name{name}}
	year := 365 * 24 * time.Hour
	valid := func() (time.Time, time.Time) {
		return at.Add(-time.Duration(1+r.IntN(5)) * year), at.Add(time.Duration(1+r.IntN(10)) * year)
	}
	expired := func() (time.Time, time.Time) {
		return at.Add(-10 * year), at.Add(-time.Duration(1+r.IntN(365)) * 24 * time.Hour)
	}
	serial := int64(f)*16 + 1
	var specs []certgen.Cert
	k0 := familyKey(seed, f, 0)
	fam.keys = append(fam.keys, k0)
	switch p := r.IntN(100); {
	case p < 70: // one valid self-signed root
		nb, na := valid()
		specs = append(specs, caSpec(name, name, k0, k0, serial, nb, na))
	case p < 80: // expired: the lookup falls back to the latest notAfter
		nb, na := expired()
		specs = append(specs, caSpec(name, name, k0, k0, serial, nb, na))
	case p < 90: // re-keyed: old key expired, new key valid, maybe respelled
		nb, na := expired()
		specs = append(specs, caSpec(name, name, k0, k0, serial, nb, na))
		k1 := familyKey(seed, f, 1)
		fam.keys = append(fam.keys, k1)
		n1 := name
		if r.IntN(2) == 0 {
			n1 = respell(name, r)
			fam.names = append(fam.names, n1)
		}
		nb, na = valid()
		specs = append(specs, caSpec(n1, n1, k1, k1, serial+1, nb, na))
	case p < 97: // cross-signed: same key under another family's root too
		g := (f + 1 + r.IntN(max(nfam-1, 1))) % nfam
		other := familyName(seed, g)
		first, second := valid, valid
		if r.IntN(2) == 0 {
			first = expired // the first candidate fails, the second answers
		}
		nb, na := first()
		specs = append(specs, caSpec(name, name, k0, k0, serial, nb, na))
		nb, na = second()
		specs = append(specs, caSpec(name, other, k0, familyKey(seed, g, 0), serial+1, nb, na))
	default: // a decoy under the same name that may not sign certificates
		nb, na := valid()
		decoy := caSpec(name, name, k0, k0, serial, nb, na)
		decoy.KeyUsage = x509.KeyUsageDigitalSignature
		specs = append(specs, decoy)
		nb, na = valid()
		specs = append(specs, caSpec(name, name, k0, k0, serial+1, nb, na))
	}
	for _, s := range specs {
		o, err := build(s.DER, store.ParseCertificate)
		if err != nil {
			return nil, fmt.Errorf("corpus: CA family %d: %w", f, err)
		}
		fam.certs = append(fam.certs, o)
	}
	crl := certgen.CRL{
		Issuer: name, IssuerKeyID: certgen.KeyID(k0.Public()), Signer: k0,
		Number: 1, ThisUpdate: at.Add(-24 * time.Hour), NextUpdate: at.Add(7 * 24 * time.Hour),
		Revoked: []int64{int64(f)*1000 + 7},
	}
	var err error
	if fam.crl, err = build(crl.DER, store.ParseCRL); err != nil {
		return nil, fmt.Errorf("corpus: CRL of family %d: %w", f, err)
	}
	return fam, nil
}

// leafKeys is how many distinct leaf keys a corpus uses: a leaf's own key
// plays no part in issuer lookup, and deriving one per leaf would be a fifth
// of generation time.
const leafKeys = 64

func leafSpec(i int, issuer pkix.Name, signer ed25519.PrivateKey, at time.Time, seed uint64) certgen.Cert {
	key := certgen.Key(fmt.Sprintf("%d/leaf/%d", seed, i%leafKeys))
	return certgen.Cert{
		Subject:   pkix.Name{CommonName: fmt.Sprintf("host%d.example.test", i), Organization: []string{"Example Customers"}},
		Issuer:    issuer,
		PublicKey: key.Public(), Signer: signer,
		Serial: int64(i) + 1, NotBefore: at.Add(-30 * 24 * time.Hour), NotAfter: at.Add(300 * 24 * time.Hour),
		KeyUsage:       x509.KeyUsageDigitalSignature,
		AuthorityKeyID: certgen.KeyID(signer.Public()),
	}
}

// issueHits draws again, from the families kept whole, each hit whose
// issuer the corpus lacks: the last family is cut to fit the spec's CAs,
// and a leaf drawn from it may name a key or spelling only a dropped
// certificate had. Every other leaf is left as drawn, so a corpus that
// needed no second draw is the same as before there was one.
func (c *Corpus) issueHits(hits []*store.Object, whole []*family, seed uint64, at time.Time) error {
	if len(whole) == 0 {
		return nil // one family, cut: no whole one to draw from
	}
	c.indexCAs()
	for i, l := range hits {
		for try := 1; ; try++ {
			if _, ok := c.Expected(l); ok || try > maxRedraws {
				break
			}
			var err error
			if l, err = drawLeaf(seed, i, try, whole, at); err != nil {
				return err
			}
			hits[i] = l
		}
	}
	return nil
}

// maxRedraws bounds issueHits' draws of one leaf; every whole family
// issues, so the first nearly always does.
const maxRedraws = 8

func genLeaf(seed uint64, i int, fams []*family, at time.Time) (*store.Object, error) {
	return drawLeaf(seed, i, 0, fams, at)
}

// drawLeaf is leaf i's draw number try (0 the first) among fams.
func drawLeaf(seed uint64, i, try int, fams []*family, at time.Time) (*store.Object, error) {
	r := rand.New(rand.NewPCG(seed, uint64(i)<<1|0x1eaf<<32|uint64(try)<<56))
	fam := fams[r.IntN(len(fams))]
	name := fam.names[r.IntN(len(fam.names))]
	key := fam.keys[r.IntN(len(fam.keys))]
	return build(leafSpec(i, name, key, at, seed).DER, store.ParseCertificate)
}

func genMiss(seed uint64, i int, at time.Time) (*store.Object, error) {
	absent := pkix.Name{Organization: []string{"Nowhere Trust"}, CommonName: fmt.Sprintf("Absent Issuing CA %d", i)}
	key := certgen.Key(fmt.Sprintf("%d/absent/%d", seed, i))
	return build(leafSpec(i, absent, key, at, seed).DER, store.ParseCertificate)
}

func build(der func() ([]byte, error), parse func([]byte) (*store.Object, error)) (*store.Object, error) {
	b, err := der()
	if err != nil {
		return nil, err
	}
	return parse(b)
}

// parallel runs fn(0..n-1) on every core and returns the first error; once
// ctx is done, no further fn starts.
func parallel(ctx context.Context, n int, fn func(i int) error) error {
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return fn(i)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// reportEvery calls report every period from another goroutine until the
// returned stop is called.
func reportEvery(period time.Duration, report func()) (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				report()
			case <-done:
				return
			}
		}
	}()
	return func() { close(done) }
}
