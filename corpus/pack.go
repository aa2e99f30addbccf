package corpus

import (
	"bytes"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// packer compresses one page's output into a self-contained unit (a gzip
// member, a zstd frame) appended to dst. Each renderer has its own.
type packer interface {
	pack(dst, src []byte) ([]byte, error)
}

func newPacker(format string) packer {
	if format == FormatJSONLZstd {
		return &zstdPacker{}
	}
	return &gzipPacker{}
}

type gzipPacker struct {
	buf bytes.Buffer
	w   *gzip.Writer
}

func (g *gzipPacker) pack(dst, src []byte) ([]byte, error) {
	g.buf.Reset()
	if g.w == nil {
		g.w = gzip.NewWriter(&g.buf)
	} else {
		g.w.Reset(&g.buf)
	}
	if _, err := g.w.Write(src); err != nil {
		return nil, err
	}
	if err := g.w.Close(); err != nil {
		return nil, err
	}
	return append(dst, g.buf.Bytes()...), nil
}

type zstdPacker struct {
	enc *zstd.Encoder
}

func (z *zstdPacker) pack(dst, src []byte) ([]byte, error) {
	if z.enc == nil {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
		if err != nil {
			return nil, err
		}
		z.enc = enc
	}
	return z.enc.EncodeAll(src, dst), nil
}
