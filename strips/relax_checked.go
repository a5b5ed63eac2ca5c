//go:build race

package strips

// Bounds-checked views, for builds with the race detector: see
// relax_view.go.

type i32v struct{ s []int32 }

func view32(s []int32) i32v { return i32v{s} }

func (v i32v) at(i int32) int32 { return v.s[i] }

func (v i32v) set(i, x int32) { v.s[i] = x }

type opView struct{ s []opState }

func viewOps(s []opState) opView { return opView{s} }

func (v opView) at(i int32) *opState { return &v.s[i] }

type edgeView struct{ s []opEdges }

func viewEdges(s []opEdges) edgeView { return edgeView{s} }

func (v edgeView) at(i int32) *opEdges { return &v.s[i] }

type factView struct{ s []factState }

func viewFacts(s []factState) factView { return factView{s} }

func (v factView) at(i int32) *factState { return &v.s[i] }
