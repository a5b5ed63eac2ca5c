//go:build !race

package strips

import "unsafe"

// The explorations' inner loops read and write their arrays through
// views: a pointer to an array's first element, indexed without bounds
// checks. The checks, and the slices' lengths and capacities the loops
// kept in registers for them, cost LM-cut about a third of its
// instructions and most of its spills.
// The indices are the relaxation's own fact and operator numbers, in range
// by construction; builds with the race detector, as the tests run in CI,
// use relax_checked.go's bounds-checked views instead.

// i32v is a view of an []int32.
type i32v struct{ p unsafe.Pointer }

func view32(s []int32) i32v { return i32v{unsafe.Pointer(unsafe.SliceData(s))} }

func (v i32v) at(i int32) int32 { return *(*int32)(unsafe.Add(v.p, uintptr(i)*4)) }

func (v i32v) set(i, x int32) { *(*int32)(unsafe.Add(v.p, uintptr(i)*4)) = x }

// opView is a view of an []opState.
type opView struct{ p unsafe.Pointer }

func viewOps(s []opState) opView { return opView{unsafe.Pointer(unsafe.SliceData(s))} }

func (v opView) at(i int32) *opState {
	return (*opState)(unsafe.Add(v.p, uintptr(i)*unsafe.Sizeof(opState{})))
}

// edgeView is a view of an []opEdges.
type edgeView struct{ p unsafe.Pointer }

func viewEdges(s []opEdges) edgeView { return edgeView{unsafe.Pointer(unsafe.SliceData(s))} }

func (v edgeView) at(i int32) *opEdges {
	return (*opEdges)(unsafe.Add(v.p, uintptr(i)*unsafe.Sizeof(opEdges{})))
}

// factView is a view of a []factState.
type factView struct{ p unsafe.Pointer }

func viewFacts(s []factState) factView { return factView{unsafe.Pointer(unsafe.SliceData(s))} }

func (v factView) at(i int32) *factState {
	return (*factState)(unsafe.Add(v.p, uintptr(i)*unsafe.Sizeof(factState{})))
}
