package sluice

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The house rules of docs/architecture.md, checked over the module's source
// (the beam module aside): a package imports only packages of a lower rank
// in packageRank, which lists every package; no package holds more than
// maxPackageLines lines of non-test code; no function outside tests is
// longer than maxFuncLines lines.
const (
	maxPackageLines = 3500
	maxFuncLines    = 80
)

// packageRank is the order of the pipeline (docs/architecture.md): data
// structures and algorithms first, then the stages in the order a page
// goes through them, evaluation, training and the tools last.
var packageRank = map[string]int{
	"internal/htmlscan": -2, "internal/mix": -2, "internal/ascii": -2, "internal/freelist": -2, "htmltree": -1, "page": 0, "dom": 0, "textunit": 0, "internal/atomicfile": 0, "internal/grow": 0, "internal/lower": 0, "internal/expectf1": 0, "internal/progress": 0, "parallel": 0, "gbdt": 0, "warc": 0, "crf/lbfgs": 0,
	"bullet": 0, "textpattern": 0, "charsetguess": 0, "crf": 1, "cuetable": 1, "langid": 1, "fingerprint": 1, "ingest": 1, "inputs": 1, "store": 1,
	"segment": 2, "internal/outdir": 2, "crawlsort": 2, "metadata": 2, "filter": 2, "structure": 2, "jobs": 2, "xhtml": 2,
	"features": 3, "site": 3, "internal/pagetest": 3, "internal/annotation": 3, "tables": 3,
	"label": 4, "parsertext": 4,
	"render": 5, "score": 5, "dataset": 5,
	"":         6,
	"evaluate": 7, "corpus": 7, "filterset": 7, "proxy": 7, "tableset": 7,
	"train": 8, "server": 8,
	"projects": 9, "workbench": 9,
	"cmd/sluice": 10, "scripts/linkgrammar/lgbench": 10, "scripts/pagetypes": 10, "scripts/metabench": 10, "scripts/langidbench": 10, "scripts/crawlbench": 10, "scripts/replay": 10, "scripts/cipher": 10, "scripts/icount": 10,
}

// modulePath is the import path of the module.
const modulePath = "github.com/sluice-project/sluice"

// sourcePackage is what TestLayout reads of one package.
type sourcePackage struct {
	lines   int             // lines of non-test code
	imports map[string]bool // the module's packages it imports (tests aside)
	long    []string        // functions over maxFuncLines: "file:line name (N lines)"
}

func TestLayout(t *testing.T) {
	pkgs := readSourcePackages(t)
	for dir, p := range pkgs {
		rank, ok := packageRank[dir]
		if !ok {
			t.Errorf("package %q is not in packageRank (layout_test.go): give it its place in the pipeline, and in docs/architecture.md", dir)
			continue
		}
		if p.lines > maxPackageLines {
			t.Errorf("package %q has %d lines of non-test code, more than %d: split it along a stage", dir, p.lines, maxPackageLines)
		}
		for imp := range p.imports {
			if r, ok := packageRank[imp]; ok && r >= rank {
				t.Errorf("package %q (rank %d) imports %q (rank %d): a package imports only packages before it in the pipeline", dir, rank, imp, r)
			}
		}
		for _, f := range p.long {
			t.Errorf("%s: longer than %d lines: split it into named steps", f, maxFuncLines)
		}
	}
}

// readSourcePackages parses the Go files below the module root, by
// directory relative to it.
func readSourcePackages(t *testing.T) map[string]*sourcePackage {
	t.Helper()
	pkgs := map[string]*sourcePackage{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (d.Name() == "testdata" || d.Name() == "beam" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if dir == "." {
			dir = ""
		}
		p := pkgs[dir]
		if p == nil {
			p = &sourcePackage{imports: map[string]bool{}}
			pkgs[dir] = p
		}
		p.lines += bytes.Count(src, []byte("\n"))
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == modulePath {
				p.imports[""] = true
			} else if rest, ok := strings.CutPrefix(path, modulePath+"/"); ok {
				p.imports[rest] = true
			}
		}
		p.long = append(p.long, longFuncs(fset, f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// longFuncs lists the functions of f longer than maxFuncLines.
func longFuncs(fset *token.FileSet, f *ast.File) []string {
	var long []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
		if n := end.Line - start.Line + 1; n > maxFuncLines {
			long = append(long, start.Filename+":"+strconv.Itoa(start.Line)+" "+fd.Name.Name+" ("+strconv.Itoa(n)+" lines)")
		}
	}
	slices.Sort(long)
	return long
}

// TestCleaningPathDeps: a program that only cleans pages (package sluice)
// links no optimiser and no x/tools (issue 23): training's L-BFGS lives in
// crf/lbfgs, which only training imports.
func TestCleaningPathDeps(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool:", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "gonum.org/v1/gonum/optimize") || strings.HasPrefix(dep, "golang.org/x/tools") || dep == modulePath+"/crf/lbfgs" || dep == modulePath+"/train" {
			t.Errorf("package sluice depends on %s", dep)
		}
	}
}
