// Command icount counts the instructions one pass of a benchmark takes,
// for one or more revisions of the repository, with valgrind's cachegrind.
// A timed benchmark on a shared machine moves by ±10% from run to run,
// more than most single changes to the hot path; an instruction count does
// not move with the machine's load, so it can judge a change of 1%.
//
// Each revision is built as a test binary (in a temporary git worktree; "."
// is the working tree as it is) and run twice under cachegrind, with
// -benchtime 1x and with 1+passes x. The benchmarks run one pass before
// the clock and then b.Loop's passes in one call, so the difference of the
// two counts, over passes, is the cost of one pass, without the test
// binary's start, the model's loading and the first pass. The collector is
// off (GOGC=off) unless -gc: its share varies from run to run by about
// ±0.5% of the count. valgrind has no AVX-512, so code that takes another
// path where the machine has it (gbdt's wide walk) is counted on the path
// it takes without: time such a change instead.
//
// Usage, from the repository root:
//
//	go run ./scripts/icount 70c3221 .                        # a revision against the working tree
//	go run ./scripts/icount -bench 'HTMLParse' HEAD           # the floor Clean is measured against
//	go run ./scripts/icount -pkg ./gbdt -bench 'Margins/tree' HEAD~1 HEAD
//	SLUICE_BENCH_SET=wcxb-dev go run ./scripts/icount -passes 1 .
//
// The binaries run in the package's directory of the working tree, so that
// the shared data is found where the tests look for it. Needs valgrind
// (apt-get install -y valgrind) and git.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The flags.
var (
	benchFlag  = flag.String("bench", "CleanArena$", "the benchmark to count (a -test.bench pattern matching one benchmark)")
	pkgFlag    = flag.String("pkg", ".", "the package holding it")
	passesFlag = flag.Int("passes", 4, "passes counted, beyond the first")
	gcFlag     = flag.Bool("gc", false, "leave the collector on")
)

func main() {
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: go run ./scripts/icount [flags] REV...\n\n"+
			"Counts the instructions a pass of a benchmark takes at each git revision\n"+
			"(\".\": the working tree), with valgrind's cachegrind, and prints them\n"+
			"with the change against the first. Example: go run ./scripts/icount HEAD~1 .\n\nFlags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(*benchFlag, *pkgFlag, *passesFlag, *gcFlag, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "icount:", err)
		os.Exit(1)
	}
}

func run(bench, pkg string, passes int, gc bool, revs []string) error {
	switch {
	case len(revs) == 0:
		return errors.New("no revision given; give one or more, such as HEAD~1 and . (the working tree)")
	case passes < 1:
		return fmt.Errorf("-passes %d: want 1 or more", passes)
	}
	if _, err := exec.LookPath("valgrind"); err != nil {
		return errors.New("valgrind not found: install it (apt-get install -y valgrind)")
	}
	root, err := output("", "git", "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "icount-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var first int64
	fmt.Printf("%-12s %18s %10s   (%s in %s, %d passes, collector %s)\n", "revision", "instructions/pass", "change", bench, pkg, passes, onOff(gc))
	for i, rev := range revs {
		bin := filepath.Join(tmp, fmt.Sprintf("b%d.test", i))
		if err := build(root, tmp, rev, pkg, bin); err != nil {
			return fmt.Errorf("%s: %v", rev, err)
		}
		dir := filepath.Join(root, pkg)
		one, err := count(bin, dir, bench, 1, gc)
		if err != nil {
			return fmt.Errorf("%s: %v", rev, err)
		}
		more, err := count(bin, dir, bench, 1+passes, gc)
		if err != nil {
			return fmt.Errorf("%s: %v", rev, err)
		}
		per := (more - one) / int64(passes)
		change := ""
		if i == 0 {
			first = per
		} else if first > 0 {
			change = fmt.Sprintf("%+.2f%%", 100*float64(per-first)/float64(first))
		}
		fmt.Printf("%-12s %18s %10s\n", rev, group(per), change)
	}
	return nil
}

// build makes the test binary of pkg at rev: in the working tree for ".",
// else in a worktree of rev under tmp, removed after.
func build(root, tmp, rev, pkg, bin string) error {
	src := root
	if rev != "." {
		src = filepath.Join(tmp, "src")
		if _, err := output(root, "git", "worktree", "add", "--detach", src, rev); err != nil {
			return err
		}
		defer output(root, "git", "worktree", "remove", "--force", src)
	}
	_, err := output(src, "go", "test", "-c", "-o", bin, pkg)
	return err
}

// count runs the benchmark at benchtime n under cachegrind and returns the
// instructions it read.
func count(bin, dir, bench string, n int, gc bool) (int64, error) {
	cmd := exec.Command("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
		bin, "-test.run", "^$", "-test.bench", bench, "-test.benchtime", fmt.Sprintf("%dx", n), "-test.cpu", "1")
	cmd.Dir = dir
	// One thread of Go code, and no preemption signals, which valgrind's
	// tools handle badly.
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1")
	if !gc {
		cmd.Env = append(cmd.Env, "GOGC=off")
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("valgrind %s: %v\n%s%s", filepath.Base(bin), err, tail(stdout.String()), tail(stderr.String()))
	}
	switch out := stdout.String(); {
	case strings.Contains(out, "--- SKIP"):
		return 0, fmt.Errorf("the benchmark was skipped (is the shared data there? SLUICE_DATA names its folder)\n%s", tail(out))
	case !strings.Contains(out, "\nBenchmark") && !strings.HasPrefix(out, "Benchmark"):
		return 0, fmt.Errorf("no benchmark matched %q\n%s", bench, tail(out))
	}
	return instructions(stderr.String())
}

var irefs = regexp.MustCompile(`I\s+refs:\s+([0-9,]+)`)

// instructions reads the count of cachegrind's summary ("I refs: 1,234").
func instructions(summary string) (int64, error) {
	m := irefs.FindStringSubmatch(summary)
	if m == nil {
		return 0, fmt.Errorf("no instruction count in cachegrind's output:\n%s", tail(summary))
	}
	return strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64)
}

// output runs a command in dir and returns its standard output, trimmed.
func output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// tail is the last lines of s, for an error message.
func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 8 {
		lines = lines[len(lines)-8:]
	}
	return strings.Join(lines, "\n")
}

// group writes n with thousands separated by commas.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
