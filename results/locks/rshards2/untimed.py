# Marks every window of a recording set aside, as a runner too busy to
# keep any would: ab -replay of the copy then decides by the counts and
# the prediction alone.
#   python3 untimed.py REPORT/windows.csv OUT/windows.csv
# (copy the report's other .csv files beside OUT/windows.csv first)
import csv, sys

src, dst = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(src)))
with open(dst, "w", newline="") as out:
    w = csv.DictWriter(out, fieldnames=rows[0].keys())
    w.writeheader()
    for r in rows:
        r["aside"] = "a worker waited for a CPU"
        w.writerow(r)
