package strips

import "testing"

// BenchmarkBlindCounter expands every state of a 20-bit counter, 2^20 of
// them, with blind A*: the search's own speed, no estimate to speak of.
func BenchmarkBlindCounter(b *testing.B) {
	s, err := NewSearcher(counterTask(20))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var res Result
	for b.Loop() {
		res, _ = s.Search(Options{Heuristic: Blind})
	}
	b.ReportMetric(float64(res.Expanded)*float64(b.N)/b.Elapsed().Seconds(), "expanded/s")
}
