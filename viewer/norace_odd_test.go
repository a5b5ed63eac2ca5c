//go:build !race

package viewer_test

const oddRaceEnabled = false
