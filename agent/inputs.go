package agent

// Inputs returns the values of a domain file's inputs as an agent's world
// has them now.
//
// Deprecated: use agentfile.Inputs, the same function type, next to
// agentfile.Configure, which reads it. Building an agent from a file's
// kind moved to package agent/agentfile so that the runtime does not link
// the domain-file loader.
type Inputs = func(a *Agent) []float64
