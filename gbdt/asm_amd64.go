//go:build amd64 && !purego

package gbdt

import "golang.org/x/sys/cpu"

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

// haveWide is whether the machine has the wide walk's instructions
// (AVX-512 F and BW, and the system keeps their registers; BMI1's ANDN).
var haveWide = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasBMI1

// gather64 gathers, for 64 rows of x (row r from x[rowOff[r]]), the n
// columns of feat, nan and max (see columns.gather) into vals column by
// column, 64 values a column.
//
//go:noescape
func gather64(feat *int32, nan, max *float32, n uintptr, x *float32, rowOff *int32, vals *float32)

// ways64 sets ways[L], for each level L of a tree of depth d (col and
// thr its splits in heap order), to the rows of vals (gather64's) going
// right at that level: bit r when row r's value in the column of the
// split it is at is above the split's threshold. at is scratch of
// 2^(d+1)+1 values.
//
//go:noescape
func ways64(col *uint32, thr *float32, d uintptr, vals *float32, ways, at *uint64)

// leaves64 adds to out[r], for the 64 rows, the leaf of a tree of depth d
// that row r's ways (bit r of bits[0] to bits[d−1]) lead to.
//
//go:noescape
func leaves64(bits *uint64, d uintptr, leaves *float64, out *float64)
