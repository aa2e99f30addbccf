package htmltree

// SetRawSkip turns off (or back on) the builder's own reading of script
// and style text (rawskip.go), so that tests can compare the two.
func SetRawSkip(b *Builder, on bool) { b.noRawSkip = !on }
