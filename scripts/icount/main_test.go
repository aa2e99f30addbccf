package main

import (
	"strings"
	"testing"
)

func TestInstructions(t *testing.T) {
	summary := "==11214== \n==11214== I   refs:      7,753,856,193\n"
	n, err := instructions(summary)
	if err != nil || n != 7753856193 {
		t.Fatalf("instructions = %d, %v; want 7753856193", n, err)
	}
	if _, err := instructions("==1== ERROR SUMMARY: 0 errors\n"); err == nil || !strings.Contains(err.Error(), "no instruction count") {
		t.Fatalf("a summary without a count: error %v, want one saying so", err)
	}
}

func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 1381653457: "1,381,653,457", -1234567: "-1,234,567"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRunRefusesBadArguments(t *testing.T) {
	if err := run("CleanArena$", ".", 4, false, nil); err == nil || !strings.Contains(err.Error(), "no revision") {
		t.Errorf("no revisions: error %v, want one saying none was given", err)
	}
	if err := run("CleanArena$", ".", 0, false, []string{"."}); err == nil || !strings.Contains(err.Error(), "-passes") {
		t.Errorf("-passes 0: error %v, want one naming the flag", err)
	}
}
