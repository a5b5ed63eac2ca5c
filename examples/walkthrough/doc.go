// Package walkthrough is docs/walkthrough.md's code: a YAML domain file
// made into agents of a game loop of your own, one step at a time, each
// step a runnable Example (go test ./examples/walkthrough -v). The game is
// a camp of survivors from domains/survivor.yaml: they gather wood, light
// the fire, forage and hunt as the cold and hunger rise.
package walkthrough
