//go:build amd64 && !purego

package gbdt

// haveAsm is whether walk4 and gather4 are in assembly (walk_amd64.s,
// gather_amd64.s).
const haveAsm = true

// walk4 is walkRows for groups×4 rows from x, each row stride bytes:
// four walks side by side of d steps from split 0 of the tree whose
// splits are col and thr, adding leaves[i−ns] to each row's out. Its
// arguments are walkRows' checked slices (see there); groups is at least
// 1 and d at least 1. A step is five instructions a row, against about
// thirteen for the compiler's code of walkRows, which keeps the walks'
// splits on the stack.
//
//go:noescape
func walk4(col *uint32, thr *float32, x *float32, stride, d, groups uintptr, leaves *float64, ns uintptr, out *float64)

// gather4 is the loop of columns.gather for the first groups×4 columns of
// one row x: out[k] is x[feat[k]], nan[k] when that is NaN, max[k] when
// it is above max[k]. It takes four columns at a time: four loads from
// the row, then the comparisons, the minimum and the choice for all four
// at once, where the compiler's code branches on every value.
//
//go:noescape
func gather4(feat *int32, nan, max *float32, groups uintptr, x, out *float32)
