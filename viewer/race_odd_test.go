//go:build race

package viewer_test

// oddRaceEnabled: the race detector multiplies memory use, so a peak
// resident figure means nothing under it.
const oddRaceEnabled = true
