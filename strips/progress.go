package strips

// Progress is a search's report of how far it has got, for a person
// watching a long search (`ploy plan` prints it on a terminal, as the
// competitions' planners print their f layers). It is made when the
// search expands its first state of a new f layer, and every
// ProgressEvery expansions within one: by counts, never by the clock, so
// that a search calls it the same way on every run.
type Progress struct {
	// Heuristic is the estimator of the search reporting; in a Portfolio
	// each of its two searches reports.
	Heuristic Heuristic
	// F is the highest f (g + h) expanded so far: every plan cheaper than
	// F has been ruled out when the estimator is consistent.
	F int64
	// NewLayer says the report is for the first expansion at F.
	NewLayer bool
	// Expanded, Generated and Evaluated count as Result's do; Bytes is the
	// memory the search holds.
	Expanded, Generated, Evaluated, Bytes int64
}

// ProgressEvery is how many expansions apart Options.Progress is called
// within one f layer.
const ProgressEvery = 1 << 16

// progress calls Options.Progress, if set, for an expansion at f.
func (s *Searcher) progress(f int64) {
	res := &s.res
	newLayer := f > s.progressF
	if !newLayer && res.Expanded%ProgressEvery != 0 {
		return
	}
	s.progressF = max(s.progressF, f)
	s.opt.Progress(Progress{Heuristic: s.opt.Heuristic, F: s.progressF, NewLayer: newLayer,
		Expanded: res.Expanded, Generated: res.Generated, Evaluated: res.Evaluated, Bytes: s.bytes()})
}
