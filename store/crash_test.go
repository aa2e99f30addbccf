package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// crashChildEnv, when set, makes the test binary the writing child of
// TestCrashLosesNothingAcknowledged: it writes to the store at that path
// until it is killed.
const crashChildEnv = "SLUICE_STORE_CRASH_CHILD"

// TestMain runs the child of the crash test when asked to.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashChildEnv); path != "" {
		os.Exit(crashChild(path))
	}
	os.Exit(m.Run())
}

// crashChild writes in a loop, each write its own transaction: a new
// version of a filter set and a new evaluation run with its progress,
// printing "set VERSION" and "run ID" once each write has returned.
func crashChild(path string) int {
	db, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx := context.Background()
	// Texts of a few pages each, so that a kill often lands mid-write.
	filler := strings.Repeat("# padding to make the write span pages\n", 400)
	out := bufio.NewWriter(os.Stdout)
	for i := 1; ; i++ {
		fs, _, err := db.PutFilterSet(ctx, "crash", "toml", fmt.Sprintf("version = 1\nname = \"crash\"\n# save %d\n%s", i, filler))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintf(out, "set %d\n", fs.Version)
		out.Flush()
		r, err := db.CreateRun(ctx, "crash", fs.Version, "/data")
		if err == nil {
			err = db.StartRun(ctx, r.ID, i)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Fprintf(out, "run %d %d\n", r.ID, i)
		out.Flush()
	}
}

// TestCrashLosesNothingAcknowledged kills a child process that writes to
// the store (SIGKILL, at a moment of the test's choosing, several times),
// then checks that the file opens, passes SQLite's integrity check, and
// holds every write the child had reported done.
func TestCrashLosesNothingAcknowledged(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	for round, after := range []int{5, 23, 61} {
		sets, runs := runAndKill(t, path, after)
		db, err := Open(path)
		if err != nil {
			t.Fatalf("round %d: the file does not open after the kill: %v", round, err)
		}
		ctx := context.Background()
		if err := db.Check(ctx); err != nil {
			t.Errorf("round %d: %v", round, err)
		}
		for _, v := range sets {
			if _, err := db.FilterSetVersion(ctx, "crash", v); err != nil {
				t.Errorf("round %d: acknowledged filter set version %d: %v", round, v, err)
			}
		}
		for id, total := range runs {
			r, err := db.Run(ctx, id)
			if err != nil || r.Status != RunRunning || r.Total != total {
				t.Errorf("round %d: acknowledged run %d (total %d): %+v, %v", round, id, total, r, err)
			}
		}
		t.Logf("round %d: %d set versions and %d runs acknowledged, all there", round, len(sets), len(runs))
		db.Close()
	}
}

// runAndKill starts the writing child on path, kills it with SIGKILL once
// it has acknowledged at least after writes, and returns what it had
// acknowledged: filter set versions, and runs with their totals.
func runAndKill(t *testing.T, path string, after int) (sets []int, runs map[int64]int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	runs = map[int64]int{}
	sc := bufio.NewScanner(stdout)
	killed := false
	deadline := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "set":
			v, _ := strconv.Atoi(f[1])
			sets = append(sets, v)
		case len(f) == 3 && f[0] == "run":
			id, _ := strconv.ParseInt(f[1], 10, 64)
			total, _ := strconv.Atoi(f[2])
			runs[id] = total
		default:
			t.Fatalf("child wrote %q", sc.Text())
		}
		if !killed && len(sets)+len(runs) >= after {
			// What the child prints from here on, before it dies, was
			// acknowledged too: the scan goes on to the end of the pipe.
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
		}
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !killed || !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child did not die of SIGKILL: %v\n%s", err, stderr.String())
	}
	return sets, runs
}
