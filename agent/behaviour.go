package agent

// Status is an action behaviour's state after a tick, in behaviour-tree
// words.
type Status uint8

const (
	Running Status = iota // still working: tick again
	Success               // done
	Failure               // could not be done
)

func (s Status) String() string {
	switch s {
	case Running:
		return "running"
	case Success:
		return "success"
	}
	return "failure"
}

// Behaviour is the game's code for one action: started when a step begins,
// ticked until it succeeds or fails, and stopped when it ends or the plan is
// dropped, so that a running action can clean up.
type Behaviour interface {
	Start(a *Agent)
	Tick(a *Agent) Status
	Stop(a *Agent)
}

// Funcs adapts functions to a Behaviour; nil functions do nothing, and a
// nil TickFunc succeeds at once.
type Funcs = FuncsFor[*Agent]

// FuncsFor adapts functions to the behaviour of an agent seen as A: Funcs
// for an *Agent's Behaviour, ResolverFuncs for a *ResolverAgent's
// ResolverBehaviour. Nil functions do nothing, and a nil TickFunc succeeds
// at once.
type FuncsFor[A any] struct {
	StartFunc func(a A)
	TickFunc  func(a A) Status
	StopFunc  func(a A)
}

// Start calls StartFunc, if set.
func (f FuncsFor[A]) Start(a A) {
	if f.StartFunc != nil {
		f.StartFunc(a)
	}
}

// Tick calls TickFunc, or succeeds if it is not set.
func (f FuncsFor[A]) Tick(a A) Status {
	if f.TickFunc == nil {
		return Success
	}
	return f.TickFunc(a)
}

// Stop calls StopFunc, if set.
func (f FuncsFor[A]) Stop(a A) {
	if f.StopFunc != nil {
		f.StopFunc(a)
	}
}

// ResolverBehaviour is the game's code for one action of a resolver
// agent, as Behaviour is for a GOAP agent's: started when the action
// starts (for MoveThenPerform, on arrival), ticked until it succeeds or
// fails, and stopped when it ends or the chain is dropped.
type ResolverBehaviour interface {
	Start(a *ResolverAgent)
	Tick(a *ResolverAgent) Status
	Stop(a *ResolverAgent)
}

// ResolverFuncs adapts functions to a ResolverBehaviour, as Funcs does to
// a Behaviour.
type ResolverFuncs = FuncsFor[*ResolverAgent]

// resolverBehaviour runs a ResolverBehaviour as the runtime's Behaviour.
type resolverBehaviour struct{ b ResolverBehaviour }

func (r *resolverBehaviour) Start(a *Agent)       { r.b.Start((*ResolverAgent)(a)) }
func (r *resolverBehaviour) Tick(a *Agent) Status { return r.b.Tick((*ResolverAgent)(a)) }
func (r *resolverBehaviour) Stop(a *Agent)        { r.b.Stop((*ResolverAgent)(a)) }
