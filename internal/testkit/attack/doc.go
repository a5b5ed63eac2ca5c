// Package attack holds the resource-attack suite: hostile and careless
// inputs fed to the ploy command as a subprocess, each with a bound on its
// wall time and peak memory. The package has no code of its own; see
// attack_test.go.
package attack
