package goap

// ForceGeneral makes p use the general forward search even where the
// small-domain one applies, so that tests can compare the two.
func ForceGeneral(p *Planner, on bool) { p.forceGeneral = on }

// SetDelayedLimit sets how many entries the delayed-duplicate search may queue
// before it hands over to the eager one.
func SetDelayedLimit(p *Planner, n int) { p.delayed.limit = n }

// SearchPath names the search paths p's last search took.
func SearchPath(p *Planner) string { return p.path }
