//go:build !amd64 || purego

package gbdt

// haveWalk4 is false where there is no assembly walk: walkRows walks every
// row in Go.
const haveWalk4 = false

func walk4(col *uint32, thr *float32, x *float32, stride, d, groups uintptr, leaves *float64, ns uintptr, out *float64) {
	panic("gbdt: walk4 without the assembly walk")
}
