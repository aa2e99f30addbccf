//go:build !linux

package main

import "os"

// peakRSS is -1: ru_maxrss is in KiB on Linux only (bytes on macOS, absent
// on Windows), and the benchmark's figures are Linux's.
func peakRSS(*os.ProcessState) int64 { return -1 }

// parentFloor is -1: see rusage_linux.go.
func parentFloor() int64 { return -1 }
