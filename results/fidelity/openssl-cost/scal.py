import re,sys,glob,statistics,collections
# 1->2-thread throughput scaling per cell (median ns/op at 1 over at 2, kept samples), per file; then the median over files
def cells(f):
    d=collections.defaultdict(list); q=False
    for l in open(f):
        if l.startswith('quarantined:'): q = not l.strip().endswith(' no')
        m=re.match(r'BenchmarkIssuer/(\S+)/threads=(\d+) \d+ ([\d.e+]+) ns/op',l)
        if m and not q: d[(m.group(1),int(m.group(2)))].append(float(m.group(3)))
    return d
pat=sys.argv[1]
per=collections.defaultdict(list); call=collections.defaultdict(list)
for f in sorted(glob.glob(pat)):
    d=cells(f)
    for (name,t),v in d.items():
        if t==1 and (name,2) in d:
            per[name].append(statistics.median(v)/statistics.median(d[(name,2)]))
            call[name].append(statistics.median(v))
for n in sorted(per):
    print(f"{n:55s} scaling {statistics.median(per[n]):.2f} ({', '.join('%.2f'%x for x in per[n])})  1-thread ns/op {statistics.median(call[n]):.0f}")
