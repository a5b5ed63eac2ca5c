//go:build !race

package goap_test

const raceEnabled = false
