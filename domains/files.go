package domains

import "embed"

// Files holds the shipped domain files, embedded in every binary that
// imports this package: battlemage.yaml and soldier.yaml (state-space
// files, facts:), survivor.yaml and shopkeeper.yaml (engine-model files,
// keys:, the same domains as Survivor and Shopkeeper), and colony.yaml
// (an engine-model file with three agent kinds, examples/colony's).
//
//go:embed *.yaml
var Files embed.FS

// Default is the file used wherever a command takes an optional domain.
const Default = "battlemage.yaml"
