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

// haveWide is false where there is no assembly: Margins walks the trees.
const haveWide = false

func gather64(feat *int32, nan, max *float32, n uintptr, x *float32, rowOff *int32, vals *float32) {
	panic("gbdt: gather64 without assembly")
}

func ways64(col *uint32, thr *float32, d uintptr, vals *float32, ways, at *uint64) {
	panic("gbdt: ways64 without assembly")
}

func leaves64(bits *uint64, d uintptr, leaves *float64, out *float64) {
	panic("gbdt: leaves64 without assembly")
}
