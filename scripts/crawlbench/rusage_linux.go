package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// peakRSS is the process's peak resident set size in bytes (Linux gives
// ru_maxrss in KiB).
//
// On Linux the figure has a floor: os/exec starts the child with
// CLONE_VM, so at its exec the kernel counts the peak of this process's
// memory as the child's (ru_maxrss survives execve). The benchmark
// therefore generates the crawl in a process of its own, and resets this
// process's peak before each step (parentFloor).
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return -1
}

// parentFloor resets this process's peak resident set to its current one
// (/proc/self/clear_refs, "5") and returns it in bytes: the least peak a
// child started now can show. -1 when the system does not say.
func parentFloor() int64 {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for line := range bytes.Lines(status) {
		if v, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			f := bytes.Fields(v)
			if len(f) == 2 && string(f[1]) == "kB" {
				if n, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
					return n * 1024
				}
			}
		}
	}
	return -1
}
