package render

import (
	"bufio"
	"errors"
	"io"
)

func newTestWriter(w io.Writer) *bufio.Writer { return bufio.NewWriter(w) }

var errFail = errors.New("write failed")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFail }
