package htmltree

// SetRawSkip turns off (or back on) the builder's own reading of script
// and style text (rawskip.go), so that tests can compare the two.
func SetRawSkip(b *Builder, on bool) { b.noRawSkip = !on }

// SetFast turns the builder's own reading of plain tokens on or off.
func SetFast(b *Builder, on bool) { b.noFast = !on }
