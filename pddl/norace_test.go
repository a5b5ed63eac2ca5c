//go:build !race

package pddl_test

const raceEnabled = false
