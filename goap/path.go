package goap

// appendPath appends the actions on the path from the search's root to
// node i, following the nodes' parent links, in plan order: a forward
// search's links run from the goal back to the start, so they are reversed;
// a backward search's run from the start toward the goal, in plan order
// already.
func appendPath[N any, P interface {
	*N
	link() (int32, ActionID)
}](dst []ActionID, nodes []N, i int32, backward bool) []ActionID {
	start := len(dst)
	for {
		parent, a := P(&nodes[i]).link()
		if a == NoAction {
			break
		}
		dst, i = append(dst, a), parent
	}
	if !backward {
		reverse(dst[start:])
	}
	return dst
}

func reverse(s []ActionID) {
	for a, b := 0, len(s)-1; a < b; a, b = a+1, b-1 {
		s[a], s[b] = s[b], s[a]
	}
}
