//go:build !race

package htn_test

const raceEnabled = false
