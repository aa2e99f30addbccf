package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// step is one run of the sluice binary, measured.
type step struct {
	Name    string   `json:"name"`
	Args    []string `json:"args"`
	Seconds float64  `json:"seconds"` // wall time
	CPU     float64  `json:"cpu_seconds"`
	PeakRSS int64    `json:"peak_rss_bytes"` // -1 where the system does not say
	// Floor is the benchmark's own resident set when it started the step:
	// PeakRSS cannot be below it (see peakRSS).
	Floor int64 `json:"peak_rss_floor_bytes"`
	Exit  int   `json:"exit"`
}

// runStep runs bin with args, standard output and error into files named
// after the step in dir, and measures it.
func runStep(dir, name, bin string, args ...string) (*step, error) {
	out, err := os.Create(fmt.Sprintf("%s/%s.stdout", dir, name))
	if err != nil {
		return nil, err
	}
	defer out.Close()
	errf, err := os.Create(fmt.Sprintf("%s/%s.stderr", dir, name))
	if err != nil {
		return nil, err
	}
	defer errf.Close()
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, errf
	fmt.Fprintf(os.Stderr, "crawlbench: %s %s\n", bin, strings.Join(args, " "))
	floor := parentFloor()
	start := time.Now()
	runErr := cmd.Run()
	st := &step{Name: name, Args: args, Seconds: time.Since(start).Seconds(), Exit: -1, Floor: floor}
	if cmd.ProcessState == nil {
		return nil, fmt.Errorf("%s: %w", name, runErr)
	}
	ps := cmd.ProcessState
	st.Exit = ps.ExitCode()
	st.CPU = (ps.UserTime() + ps.SystemTime()).Seconds()
	st.PeakRSS = peakRSS(ps)
	return st, nil
}
