package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/label"
)

// thresholdFlag is a decision threshold given on the command line: a
// number above 0 and at most 1, "ef" for the page-adaptive expected-F1
// rule (label.ExpectedF1), or 0 for the default.
type thresholdFlag float64

func (t *thresholdFlag) String() string { return label.FormatThreshold(float64(*t)) }

func (t *thresholdFlag) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "ef", "expected-f1":
		*t = label.ExpectedF1
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 1 {
		return fmt.Errorf("%q: want a number between 0 and 1, or ef (expected F1)", s)
	}
	*t = thresholdFlag(v)
	return nil
}
