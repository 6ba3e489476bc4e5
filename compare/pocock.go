package compare

import (
	"math"
	"sync"

	moremath "github.com/aclements/go-moremath/stats"
)

var pocockCache sync.Map // [2]float64{alpha, looks} -> level

// PocockLevel is the one-sided level each of looks equally spaced looks
// tests at so that the chance of any false claim over all looks stays
// alpha (Pocock's boundary): with two looks at alpha 0.05 about 0.0304,
// with four about 0.0194. The looks' statistics are those of one Brownian
// motion seen at times 1..looks, so the boundary c solves
// P(max_k S_k/√k > c) = alpha for S_k a sum of k standard normals. No
// library computes that probability; it is computed here by carrying the
// density of S_k below the boundary from look to look on a grid
// (Armitage, McPherson and Rowe's recursion), and c found by bisection.
func PocockLevel(alpha float64, looks int) float64 {
	if looks <= 1 {
		return alpha
	}
	key := [2]float64{alpha, float64(looks)}
	if v, ok := pocockCache.Load(key); ok {
		return v.(float64)
	}
	lo, hi := 0.0, 6.0
	for range 30 {
		mid := (lo + hi) / 2
		if 1-stayBelow(mid, looks) > alpha {
			lo = mid
		} else {
			hi = mid
		}
	}
	level := 1 - moremath.StdNormal.CDF((lo+hi)/2)
	pocockCache.Store(key, level)
	return level
}

// stayBelow is P(S_k ≤ c√k for every k ≤ looks).
func stayBelow(c float64, looks int) float64 {
	const n = 300 // grid intervals per look
	phi := moremath.StdNormal.PDF
	grid := func(k int) (x, w []float64) {
		b := c * math.Sqrt(float64(k))
		a := -9 * math.Sqrt(float64(k))
		h := (b - a) / n
		x, w = make([]float64, n+1), make([]float64, n+1)
		for i := range x {
			x[i], w[i] = a+float64(i)*h, h
		}
		w[0], w[n] = h/2, h/2 // trapezoid
		return x, w
	}
	x, w := grid(1)
	f := make([]float64, len(x))
	for i := range x {
		f[i] = phi(x[i])
	}
	for k := 2; k <= looks; k++ {
		y, wy := grid(k)
		g := make([]float64, len(y))
		for j := range y {
			var sum float64
			for i := range x {
				sum += w[i] * f[i] * phi(y[j]-x[i])
			}
			g[j] = sum
		}
		x, w, f = y, wy, g
	}
	var p float64
	for i := range x {
		p += w[i] * f[i]
	}
	return p
}
