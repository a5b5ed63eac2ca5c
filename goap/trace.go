package goap

// Reason says what became of one action at one expansion.
type Reason uint8

const (
	// Generated: the action produced a successor that was added to the open
	// list (or, with HMax, proved a dead end).
	Generated Reason = iota
	// NotCheaper: the successor was already known by a path at most as
	// dear (and, under a depth limit, at most as deep).
	NotCheaper
	// PreconditionsUnmet: the action does not apply in this state.
	PreconditionsUnmet
	// NotCapable: the agent's profile does not allow the action.
	NotCapable
	// NoOp: the action's effects change nothing here.
	NoOp
	// TooDeep: the successor would be past the depth limit.
	TooDeep
	// Irrelevant (backward): none of the action's effects serves a fact of
	// the partial state.
	Irrelevant
	// Conflicts (backward): an effect undoes a fact the partial state needs.
	Conflicts
	// Inconsistent (backward): the action's preconditions contradict the
	// facts it leaves untouched.
	Inconsistent
)

var reasonText = [...]string{
	Generated:          "generated",
	NotCheaper:         "not cheaper",
	PreconditionsUnmet: "preconditions unmet",
	NotCapable:         "not capable",
	NoOp:               "no-op",
	TooDeep:            "over the depth limit",
	Irrelevant:         "serves no needed fact",
	Conflicts:          "undoes a needed fact",
	Inconsistent:       "preconditions conflict",
}

func (r Reason) String() string {
	if int(r) < len(reasonText) {
		return reasonText[r]
	}
	return "reason(?)"
}

// Trace records a search: every node it created, every expansion in order,
// and what became of every action at each expansion. Pass one in Options to
// fill it; it is reset by each search and reuses its storage. It is what
// `ploy trace` prints and the viewer plays.
type Trace struct {
	Domain *Domain
	Search Search
	Goal   int32 // node that met the goal, or -1
	// GoalName is the goal searched for.
	GoalName   string
	Status     Status
	Bound      Bound // the limit that ended the search, when Status is LimitReached
	Cost       float64
	Nodes      []TraceNode
	Expansions []TraceExpansion
	Edges      []TraceEdge
	words      []uint64 // node i's key: words[i*width : (i+1)*width]
	width      int
}

// TraceNode is a search node: a state (forward) or partial state (backward)
// reached by Action from Parent at cost G, with estimate H.
type TraceNode struct {
	Parent int32
	Action ActionID
	G, H   float64
	Depth  int32
}

// F returns the node's f = g + h.
func (n TraceNode) F() float64 { return n.G + n.H }

// TraceExpansion is one expansion: Node was taken from the open list and
// Edges[FirstEdge:EndEdge] say what each action did there, in action order.
type TraceExpansion struct {
	Node               int32
	FirstEdge, EndEdge int32
}

// TraceEdge is one action at one expansion: its fate and, when Generated,
// the node it made.
type TraceEdge struct {
	Action ActionID
	Reason Reason
	Node   int32 // -1 unless Reason is Generated
}

func (t *Trace) reset(d *Domain, s Search, goal *Goal) {
	t.Domain = d
	t.Search = s
	t.Goal = -1
	t.GoalName = goal.name
	t.Status, t.Bound = NoPlan, NoBound
	t.Cost = 0
	t.Nodes = t.Nodes[:0]
	t.Expansions = t.Expansions[:0]
	t.Edges = t.Edges[:0]
	t.words = t.words[:0]
	t.width = d.words
	if s == Backward {
		t.width = 2 * d.words
	}
}

func (t *Trace) addNode(key []uint64, parent int32, a ActionID, g, h float64, depth int32) {
	t.Nodes = append(t.Nodes, TraceNode{Parent: parent, Action: a, G: g, H: h, Depth: depth})
	t.words = append(reserve(t.words, t.width), key[:t.width]...)
}

func (t *Trace) beginExpansion(node int32) {
	n := int32(len(t.Edges))
	t.Expansions = append(t.Expansions, TraceExpansion{Node: node, FirstEdge: n, EndEdge: n})
}

func (t *Trace) addEdge(a ActionID, r Reason, node int32) {
	t.Edges = append(t.Edges, TraceEdge{Action: a, Reason: r, Node: node})
	t.Expansions[len(t.Expansions)-1].EndEdge++
}

// State returns the state of node i of a forward search.
func (t *Trace) State(i int32) State {
	w := t.Domain.words
	return State{words: t.words[int(i)*w : int(i+1)*w : int(i+1)*w]}
}

// Partial returns the partial state (the facts still needed) of node i of a
// backward search.
func (t *Trace) Partial(i int32) Condition {
	w := t.Domain.words
	base := int(i) * 2 * w
	return Condition{mask: t.words[base : base+w : base+w], value: t.words[base+w : base+2*w : base+2*w]}
}

// FormatNode writes node i's state by name: the facts that hold (forward),
// or the facts still needed, ! marking one needed false (backward).
func (t *Trace) FormatNode(i int32) string {
	if t.Search == Backward {
		return t.Domain.FormatCondition(t.Partial(i))
	}
	return t.Domain.FormatState(t.State(i))
}

// Path returns the nodes from the root to the goal node, or nil if no plan
// was found.
func (t *Trace) Path() []int32 {
	if t.Goal < 0 {
		return nil
	}
	var path []int32
	for i := t.Goal; i >= 0; i = t.Nodes[i].Parent {
		path = append(path, i)
	}
	for a, b := 0, len(path)-1; a < b; a, b = a+1, b-1 {
		path[a], path[b] = path[b], path[a]
	}
	return path
}
