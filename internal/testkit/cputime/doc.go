// Package cputime reads the process's CPU time, for benchmarks that
// report it beside the wall time: on a shared machine the wall time of a
// run swings with the load, its CPU time much less.
package cputime
