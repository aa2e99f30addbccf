//go:build amd64 && !purego

package gbdt

// haveWalk4 is whether walk4 is the assembly walk (walk_amd64.s): a step
// there is five instructions a row, against about thirteen for the
// compiler's code of walkRows, which keeps the walks' splits on the stack.
const haveWalk4 = true

// walk4 is walkRows for groups×4 rows from x, each row stride bytes:
// four walks side by side of d steps from split 0 of the tree whose
// splits are col and thr, adding leaves[i−ns] to each row's out. Its
// arguments are walkRows' checked slices (see there); groups is at least
// 1 and d at least 1.
//
//go:noescape
func walk4(col *uint32, thr *float32, x *float32, stride, d, groups uintptr, leaves *float64, ns uintptr, out *float64)
