package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in the test scripts")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sluice": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the command-line scenarios in testdata/script (txtar
// files: commands, their expected output and the input files they use).
// go test ./cmd/sluice -update rewrites the expected outputs.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			// The example page of the README, for the scripts that use it.
			data, err := os.ReadFile("../../testdata/example.html")
			if err != nil {
				return err
			}
			if err := os.WriteFile(e.WorkDir+"/example.html", data, 0o644); err != nil {
				return err
			}
			// A binary file (a PNG header), which txtar cannot hold.
			png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00")
			if err := os.WriteFile(e.WorkDir+"/binary.bin", png, 0o644); err != nil {
				return err
			}
			// The example page gzipped, whole and cut short.
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write(data)
			zw.Close()
			if err := os.WriteFile(e.WorkDir+"/example.html.gz", gz.Bytes(), 0o644); err != nil {
				return err
			}
			return os.WriteFile(e.WorkDir+"/cut.html.gz", gz.Bytes()[:gz.Len()*2/3], 0o644)
		},
	})
}
