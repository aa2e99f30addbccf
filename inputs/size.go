package inputs

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a size in bytes with an optional K, M or G suffix (KiB,
// MiB, GiB; "B", "iB" and lower case accepted), as the size flags of the
// commands take it ("16M", "512K", "1048576").
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	switch {
	case strings.HasSuffix(t, "K"):
		mult, t = 1<<10, t[:len(t)-1]
	case strings.HasSuffix(t, "M"):
		mult, t = 1<<20, t[:len(t)-1]
	case strings.HasSuffix(t, "G"):
		mult, t = 1<<30, t[:len(t)-1]
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size such as 16M, 512K or 1048576", s)
	}
	return int64(n * float64(mult)), nil
}
