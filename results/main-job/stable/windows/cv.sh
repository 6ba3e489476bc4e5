#!/usr/bin/env bash
# Each cell's spread over the windows a results file kept: the standard
# deviation of ns/call over its mean, and how many windows were kept.
#   bash results/main-job/stable/windows/cv.sh RESULTS...
for f in "$@"; do
	awk -v F="$(basename "$f" .txt)" '
		/^quarantined:/ { q = ($2 == "no") }
		/^Benchmark/ && q {
			for (i = 2; i < NF; i++) if ($(i + 1) == "ns/call") v = $i
			s[$1] += v; ss[$1] += v * v; c[$1]++
		}
		END {
			line = F
			for (k in s) {
				m = s[k] / c[k]; sd = c[k] > 1 ? sqrt((ss[k] - c[k] * m * m) / (c[k] - 1)) : 0
				n = split(k, a, "/"); name = a[2] "/" a[n]; gsub(/impl=|threads=/, "", name)
				line = line sprintf("  %s %.1f%% (%d)", name, 100 * sd / m, c[k])
			}
			print line
		}' "$f"
done
