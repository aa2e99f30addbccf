package crawlsort

import (
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/sluice-project/sluice/inputs"
)

// Discover turns the arguments into the archives to sort: a file as given,
// a directory walked (inputs.Walker, leaving out the output directory out)
// for the files with an archive ending (.warc, .warc.gz, .arc, .arc.gz) in
// lexical order. An argument that does not exist, or a directory without
// archives, is an error naming it.
func Discover(args []string, out string) ([]string, error) {
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			paths = append(paths, a)
			continue
		}
		n := len(paths)
		var werr error
		w := inputs.Walker{Exclude: out, OnError: func(err error) { werr = err }}
		w.Walk(a, func(p string, d fs.DirEntry) bool {
			if inputs.IsArchive(d.Name()) {
				paths = append(paths, p)
			}
			return true
		})
		if werr != nil {
			return nil, werr
		}
		if len(paths) == n {
			return nil, fmt.Errorf("%s: no files ending in %s in this directory", a, strings.Join(inputs.ArchiveEndings, ", "))
		}
	}
	return paths, nil
}
