"""Medians over processes of perftools' x509storeissuer run as a perfrun cell
beside the real store set up as it sets its own (openssl-paths), the plain
real store and two models: python3 medians.py DIR [CERTS [LIBS]], for the
files DIR/*-LIB-*.txt or, without LIBS, DIR/*.txt as one library."""
import sys, glob, statistics as st

def parse(path):
    cells, aside = {}, False
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('quarantined:'):
            aside = line.split(':', 1)[1].strip() not in ('', 'no')
            continue
        if not line.startswith('Benchmark') or aside:
            continue
        f = line.split()
        vals = {f[i + 1]: float(f[i]) for i in range(2, len(f) - 1, 2)}
        cells.setdefault(f[0][len('Benchmark'):], []).append(vals)
    return cells

def med(c, name, unit):
    v = [r[unit] for r in c.get(name, []) if unit in r]
    return st.median(v) if v else None

def spread(c, name, unit):
    """relative sd of a cell's rounds in one process"""
    v = [r[unit] for r in c.get(name, []) if unit in r]
    return st.stdev(v) / st.mean(v) if len(v) > 1 else None

def main():
    folder = sys.argv[1]
    certs = sys.argv[2] if len(sys.argv) > 2 else '1024'
    libs = sys.argv[3].split(',') if len(sys.argv) > 3 else ['3.0', '4.0']
    for lib in libs:
        procs = [parse(p) for p in sorted(glob.glob(f'{folder}/*-{lib}-*.txt' if lib else f'{folder}/*.txt'))]
        print(f'== libcrypto {lib}: {len(procs)} processes; ns/call, median over processes [each process]')
        for impl in ['sorted', 'hashmap', 'openssl', 'openssl-paths', 'x509storeissuer']:
            row = []
            for t in (1, 2):
                v = [med(c, f'Issuer/impl={impl}/certs={certs}/hit=0/threads={t}', 'ns/call') for c in procs]
                if None in v:
                    break
                row.append(f't{t} {st.median(v):9.1f} {[round(x, 1) for x in v]}')
            if not row:
                continue
            print(f'{impl:16s}', ' | '.join(row))
        for t in (1, 2):
            if any(med(c, f'Issuer/impl=x509storeissuer/certs={certs}/hit=0/threads={t}', 'ns/call') is None for c in procs):
                continue
            r = [med(c, f'Issuer/impl=x509storeissuer/certs={certs}/hit=0/threads={t}', 'ns/call') /
                 med(c, f'Issuer/impl=openssl-paths/certs={certs}/hit=0/threads={t}', 'ns/call') for c in procs]
            n = [spread(c, f'Control/threads={t}', 'ns/op') for c in procs]
            print(f'x509storeissuer / openssl-paths at {t} thread(s): median {st.median(r):.3f} {[round(x, 3) for x in r]}; '
                  f'control round-to-round sd {st.median(n) * 100:.1f}% {[round(x * 100, 1) for x in n]}')
            if t > 1:
                # The tool's figure is threads x run time / all calls; perfrun's
                # ns/call is the mean of each worker's time per call, larger when
                # the workers are unequal. ns/op is wall / all calls for both.
                a = [med(c, f'Issuer/impl=x509storeissuer/certs={certs}/hit=0/threads={t}', 'ns/op') /
                     med(c, f'Issuer/impl=openssl-paths/certs={certs}/hit=0/threads={t}', 'ns/op') for c in procs]
                w = [med(c, f'Issuer/impl=openssl-paths/certs={certs}/hit=0/threads={t}', 'worker-min/max') for c in procs]
                print(f'  by ns/op (wall / all calls for both): median {st.median(a):.3f} {[round(x, 3) for x in a]}; '
                      f"openssl-paths' worker-min/max {[round(x, 2) if x else None for x in w]}")
        if any(med(c, 'Control/threads=2', 'ops/s') is None for c in procs):
            continue
        p2 = [med(c, 'Control/threads=2', 'ops/s') / med(c, 'Control/threads=1', 'ops/s') for c in procs]
        print(f'control p(2) median {st.median(p2):.2f} {[round(x, 2) for x in p2]}')


if __name__ == '__main__':
    main()
