package crf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"strings"
)

// The model file format, version 1. All integers are unsigned LEB128
// varints ("uvarint") unless said otherwise; a string is its length then its
// bytes.
//
//	magic      "SLCRF"
//	version    uvarint (1)
//	labels     uvarint count, then that many strings
//	template   string, in the syntax of ParseTemplate
//	attributes uvarint count, then that many strings (attribute ids 2, 3, ...)
//	unigrams   for each attribute id (0, 1, then those listed): uvarint count,
//	           then the template unigram line of each of its features as the
//	           gap from the previous one (the first from -1) minus 1, so lines
//	           strictly increase
//	pairs      for each conjunction line: uvarint count, then for each
//	           feature the gap of its first attribute id from the previous
//	           feature's (the first from 0) and its second attribute id;
//	           features strictly increase by (first, second)
//	weights    float32 little-endian, features × labels, in feature order
//	bigram     with a "B" line only: float32 little-endian, labels × labels
//	           transitions (from × to), then labels start, labels end weights
//	checksum   CRC-32 (IEEE) of everything before it, 4 bytes little-endian
//
// Attribute ids 0 and 1 stand for the positions before the start and after
// the end of a sequence.
const (
	magic         = "SLCRF"
	formatVersion = 1
	maxModelSize  = 1 << 30
)

// MarshalBinary encodes the model in its versioned binary format.
func (m *Model) MarshalBinary() ([]byte, error) {
	var b []byte
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = append(b, magic...)
	b = binary.AppendUvarint(b, formatVersion)
	b = binary.AppendUvarint(b, uint64(len(m.labels)))
	for _, l := range m.labels {
		str(l)
	}
	str(m.fs.tmpl.String())
	b = binary.AppendUvarint(b, uint64(len(m.fs.names)))
	for _, n := range m.fs.names {
		str(n)
	}
	for a := range m.fs.nAttrs() {
		list := m.fs.uniTmpl[m.fs.uniStart[a]:m.fs.uniStart[a+1]]
		b = binary.AppendUvarint(b, uint64(len(list)))
		prev := -1
		for _, u := range list {
			b = binary.AppendUvarint(b, uint64(int(u)-prev-1))
			prev = int(u)
		}
	}
	for _, list := range m.fs.pairFeats {
		b = binary.AppendUvarint(b, uint64(len(list)))
		prev := int32(0)
		for _, ab := range list {
			b = binary.AppendUvarint(b, uint64(ab[0]-prev))
			b = binary.AppendUvarint(b, uint64(ab[1]))
			prev = ab[0]
		}
	}
	for _, v := range m.w {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	for _, v := range m.bw {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
	if len(b) > maxModelSize {
		return nil, fmt.Errorf("crf: model is %d bytes; the format's limit is %d", len(b), maxModelSize)
	}
	return b, nil
}

// Save writes the model to w in its binary format.
func (m *Model) Save(w io.Writer) error {
	b, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Load reads a model written by [Model.Save].
func Load(r io.Reader) (*Model, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxModelSize+1))
	if err != nil {
		return nil, fmt.Errorf("crf: reading model: %w", err)
	}
	return Unmarshal(data)
}

// Unmarshal decodes a model written by [Model.MarshalBinary] or
// [Model.Save]. A truncated or corrupt model gives an error; every size in
// the input is checked against the input's length before anything is
// allocated, so a small corrupt input cannot ask for much memory. The model
// does not keep a reference to data.
func Unmarshal(data []byte) (*Model, error) {
	m, err := unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("crf: model file: %w", err)
	}
	return m, nil
}

var errTruncated = errors.New("truncated")

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errTruncated
		if n < 0 {
			d.err = errors.New("malformed varint")
		}
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a count of items taking at least minBytes each.
func (d *decoder) count(what string, minBytes int) int {
	v := d.uvarint()
	if d.err == nil && v > uint64(len(d.b)/minBytes) {
		d.err = fmt.Errorf("%s count %d exceeds the remaining %d bytes", what, v, len(d.b))
		return 0
	}
	return int(v)
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.b) {
		d.err = errTruncated
		return nil
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *decoder) str(what string) string {
	return string(d.bytes(d.count(what+" length", 1)))
}

func (d *decoder) float32s(n int) []float32 {
	raw := d.bytes(4 * n)
	if d.err != nil {
		return nil
	}
	out := make([]float32, n)
	for i := range out {
		v := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			d.err = errors.New("non-finite weight")
			return nil
		}
		out[i] = v
	}
	return out
}

func unmarshal(data []byte) (*Model, error) {
	dec, err := openModel(data)
	if err != nil {
		return nil, err
	}
	d := &dec
	labels, err := d.labels()
	if err != nil {
		return nil, err
	}
	text := d.str("template")
	if d.err != nil {
		return nil, d.err
	}
	tmpl, err := ParseTemplate(text)
	if err != nil {
		return nil, err
	}
	fs, err := d.attributes(tmpl, len(labels))
	if err != nil {
		return nil, err
	}
	if err := d.unigramFeatures(&fs); err != nil {
		return nil, err
	}
	nPair, err := d.pairFeatures(&fs)
	if err != nil {
		return nil, err
	}
	w, bw, err := d.weights(len(fs.uniTmpl)+nPair, len(labels), tmpl.Bigram)
	if err != nil {
		return nil, err
	}
	fs.build()
	return newModel(fs, labels, w, bw), nil
}

// openModel checks the magic, the format version and the checksum of data,
// and returns a decoder of what follows the version. A malformed version
// number is left in the decoder's error, for the first read to report.
func openModel(data []byte) (decoder, error) {
	if !bytes.HasPrefix(data, []byte(magic)) {
		return decoder{}, errors.New(`not a sluice CRF model (no "SLCRF" magic)`)
	}
	if len(data) < len(magic)+1+4 {
		return decoder{}, errTruncated
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	d := decoder{b: body[len(magic):]}
	if v := d.uvarint(); d.err == nil && v != formatVersion {
		return decoder{}, fmt.Errorf("format version %d; this program reads version %d", v, formatVersion)
	}
	if crc32.ChecksumIEEE(body) != sum {
		return decoder{}, errors.New("checksum mismatch (corrupt or truncated file)")
	}
	return d, nil
}

// labels reads the label names, which must be 1..MaxLabels and distinct.
func (d *decoder) labels() ([]string, error) {
	L := d.count("label", 1)
	if d.err == nil && (L == 0 || L > MaxLabels) {
		return nil, fmt.Errorf("%d labels; want 1..%d", L, MaxLabels)
	}
	labels := make([]string, L)
	for i := range labels {
		labels[i] = d.str("label")
		for _, l := range labels[:i] {
			if l == labels[i] && d.err == nil {
				return nil, fmt.Errorf("label %q is listed twice", l)
			}
		}
	}
	return labels, nil
}

// attributes reads the attribute names into a new feature set of template
// tmpl over L labels. The names share one allocation.
func (d *decoder) attributes(tmpl Template, L int) (featureSet, error) {
	nAttr := d.count("attribute", 1)
	if d.err == nil && nAttr+firstAttr > maxAttrs {
		return featureSet{}, fmt.Errorf("%d attributes; the limit is %d", nAttr, maxAttrs-firstAttr)
	}
	fs := featureSet{tmpl: tmpl, nLabels: L, names: make([]string, nAttr), index: make(map[string]int32, nAttr)}
	var all strings.Builder
	lens := make([]int, nAttr)
	for i := range nAttr {
		s := d.bytes(d.count("attribute name length", 1))
		lens[i] = len(s)
		all.Write(s)
	}
	if d.err != nil {
		return featureSet{}, d.err
	}
	names := all.String()
	for i, n := range lens {
		name := names[:n]
		names = names[n:]
		if _, dup := fs.index[name]; dup {
			return featureSet{}, fmt.Errorf("attribute %q is listed twice", name)
		}
		fs.names[i] = name
		fs.index[name] = int32(i + firstAttr)
	}
	return fs, nil
}

// unigramFeatures reads the unigram features of every attribute id into
// fs.uniTmpl and fs.uniStart.
func (d *decoder) unigramFeatures(fs *featureSet) error {
	nAttr := len(fs.names)
	nU := len(fs.tmpl.Unigrams)
	fs.uniStart = make([]int32, 1, nAttr+firstAttr+1)
	for a := range nAttr + firstAttr {
		k := d.count("feature", 1)
		if k > nU {
			return fmt.Errorf("attribute %d: %d unigram features but %d unigram lines", a, k, nU)
		}
		prev := -1
		for range k {
			u := prev + 1 + int(min(d.uvarint(), maxUnigrams))
			if d.err != nil {
				return d.err
			}
			if u >= nU {
				return fmt.Errorf("attribute %d: unigram line %d out of range", a, u)
			}
			fs.uniTmpl = append(fs.uniTmpl, uint16(u))
			prev = u
		}
		fs.uniStart = append(fs.uniStart, int32(len(fs.uniTmpl)))
	}
	return nil
}

// pairFeatures reads the features of every conjunction line into
// fs.pairFeats and returns how many there are.
func (d *decoder) pairFeatures(fs *featureSet) (int, error) {
	limit := uint64(len(fs.names) + firstAttr)
	n := 0
	fs.pairFeats = make([][][2]int32, len(fs.tmpl.Pairs))
	for p := range fs.pairFeats {
		k := d.count("feature", 2)
		list := make([][2]int32, 0, k)
		prevA, prevB := int64(0), int64(-1)
		for range k {
			da := d.uvarint()
			b := d.uvarint()
			if d.err != nil {
				return 0, d.err
			}
			if da >= limit || b >= limit {
				return 0, fmt.Errorf("conjunction line %d: attribute id out of range", p)
			}
			a := prevA + int64(da)
			if a >= int64(limit) || (da == 0 && int64(b) <= prevB) {
				return 0, fmt.Errorf("conjunction line %d: features out of order or out of range", p)
			}
			list = append(list, [2]int32{int32(a), int32(b)})
			prevA, prevB = a, int64(b)
		}
		fs.pairFeats[p] = list
		n += k
	}
	return n, d.err
}

// weights reads the nFeat × L feature weights and, for a bigram template,
// the transition, start and end weights, which must end the input.
func (d *decoder) weights(nFeat, L int, bigram bool) (w, bw []float32, err error) {
	nw := len(d.b) / 4
	if nFeat > nw/L {
		return nil, nil, fmt.Errorf("%d features × %d labels of weights exceed the remaining %d bytes", nFeat, L, len(d.b))
	}
	w = d.float32s(nFeat * L)
	if bigram {
		if L*L+2*L > len(d.b)/4 {
			return nil, nil, errTruncated
		}
		bw = d.float32s(L*L + 2*L)
	}
	if d.err != nil {
		return nil, nil, d.err
	}
	if len(d.b) != 0 {
		return nil, nil, fmt.Errorf("%d unexpected bytes after the weights", len(d.b))
	}
	return w, bw, nil
}
