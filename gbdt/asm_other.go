//go:build !amd64 || purego

package gbdt

// haveAsm is false where there is no assembly: walkRows and gather do all
// the work in Go.
const haveAsm = false

func walk4(col *uint32, thr *float32, x *float32, stride, d, groups uintptr, leaves *float64, ns uintptr, out *float64) {
	panic("gbdt: walk4 without assembly")
}

func gather4(feat *int32, nan, max *float32, groups uintptr, x, out *float32) {
	panic("gbdt: gather4 without assembly")
}
