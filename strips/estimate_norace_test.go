//go:build !race

package strips

const raceEnabled = false
