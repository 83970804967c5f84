package lublin_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gangsim/gangsim/workload/lublin"
)

// BenchmarkGenerator measures streaming generation, one job per iteration,
// and reports jobs per second.
func BenchmarkGenerator(b *testing.B) {
	for _, mix := range []lublin.Mix{lublin.BatchAndInteractive, lublin.Combined} {
		b.Run(mix.String(), func(b *testing.B) {
			g := lublin.New(lublin.Config{Mix: mix}, rand.New(rand.NewPCG(1, 2)))
			b.ReportAllocs()
			b.ResetTimer()
			var sum int64
			for range b.N {
				j, _ := g.Read()
				sum += int64(j.AllocProcs)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
			if sum == 0 {
				b.Fatal("no jobs")
			}
		})
	}
}
