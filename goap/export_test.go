package goap

// ForceGeneral makes p use the general forward search even where the
// small-domain one applies, so that tests can compare the two.
func ForceGeneral(p *Planner, on bool) { p.forceGeneral = on }

// SetDelayedLimit sets how many entries the delayed-duplicate search may queue
// before it hands over to the eager one.
func SetDelayedLimit(p *Planner, n int) { p.delayed.limit = n }

// SearchPath names the search paths p's last search took: one, or a
// delayed search's "then" the one it handed over to.
func SearchPath(p *Planner) string {
	names := []struct {
		path searchPath
		name string
	}{
		{pathDelayedBackward, "delayed.backward"}, {pathDelayedForwardWide, "delayed.forwardWide"},
		{pathDense, "dense"}, {pathHash32, "hash32"}, {pathHash64, "hash64"},
		{pathWord, "word"}, {pathBackward, "backward"}, {pathForward, "forward"},
	}
	out := ""
	for _, n := range names {
		if p.path&n.path != 0 {
			if out != "" {
				out += " then "
			}
			out += n.name
		}
	}
	return out
}

// HashMarks returns the base and top of p's one-word hashed searches'
// marks (hashSearch): the 32-bit one's, then the 64-bit one's.
func HashMarks(p *Planner) (base32, top32, base64, top64 uint32) {
	return p.hash32.base, p.hash32.top, p.hash64.base, p.hash64.top
}

// SetHashTop sets the greatest mark p's hashed searches wrote, so that a
// test can bring them to the point where a table is cleared whole.
func SetHashTop(p *Planner, top uint32) { p.hash32.top, p.hash64.top = top, top }

// HashMarksAbove counts the slots of p's hashed searches whose mark is
// above top.
func HashMarksAbove(p *Planner, top uint32) int {
	n := 0
	for _, s := range p.hash32.slots {
		if s.mark > top {
			n++
		}
	}
	for _, s := range p.hash64.slots {
		if s.mark > top {
			n++
		}
	}
	return n
}
