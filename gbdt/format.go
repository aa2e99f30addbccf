package gbdt

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
)

// The model file format, version 1, all numbers little-endian:
//
//	magic     "SLGBDT1\n"
//	version   uint32 (1)
//	features  uint32, at least 1
//	trees     uint32
//	base      float64, the score before the first tree
//	each tree:
//	  nodes   uint32, at least 1, then the nodes, the root first:
//	  leaf    byte 0, float64 value
//	  split   byte 1 (missing values go right) or 2 (left), uint32
//	          feature, float32 threshold (values <= it go left), uint32
//	          left child, uint32 right child; children are indices in
//	          the tree, after the node's own
//	checksum  CRC-32 (Castagnoli) of everything before it, uint32
//
// Every node but the root is the child of exactly one node.
const (
	magic         = "SLGBDT1\n"
	formatVersion = 1
	headerSize    = len(magic) + 4 + 4 + 4 + 8
	leafSize      = 1 + 8
	splitSize     = 1 + 4 + 4 + 4 + 4
)

// Node kinds in the file.
const (
	kindLeaf         = 0
	kindMissingRight = 1
	kindMissingLeft  = 2
)

// castagnoli is the table of the file checksum, read only.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MarshalBinary encodes the model in its compact versioned binary format,
// which Unmarshal reads.
func (m *Model) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, headerSize+len(m.roots)*4+len(m.nodes)*splitSize+4)
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, formatVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(m.features))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.roots)))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.base))
	for t, root := range m.roots {
		end := int32(len(m.nodes))
		if t+1 < len(m.roots) {
			end = m.roots[t+1]
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(end-root))
		for _, n := range m.nodes[root:end] {
			if n.feature < 0 {
				b = append(b, kindLeaf)
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(n.value))
				continue
			}
			kind := byte(kindMissingRight)
			if n.defLeft {
				kind = kindMissingLeft
			}
			b = append(b, kind)
			b = binary.LittleEndian.AppendUint32(b, uint32(n.feature))
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(n.threshold))
			b = binary.LittleEndian.AppendUint32(b, uint32(n.left-root))
			b = binary.LittleEndian.AppendUint32(b, uint32(n.right-root))
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// Unmarshal decodes a model written by MarshalBinary. It checks everything
// (magic, version, checksum, lengths, feature indices, that children follow
// their parents within a tree, trees at most MaxDepth deep, finite values)
// and returns an error naming
// what is wrong; it never panics on corrupt or truncated data.
func Unmarshal(data []byte) (*Model, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("gbdt: not a model file: it does not start with %q", magic)
	}
	if len(data) < headerSize+4 {
		return nil, fmt.Errorf("gbdt: model file truncated: %d bytes, want at least %d", len(data), headerSize+4)
	}
	if v := binary.LittleEndian.Uint32(data[len(magic):]); v != formatVersion {
		return nil, fmt.Errorf("gbdt: model file version %d, want %d", v, formatVersion)
	}
	body := data[:len(data)-4]
	if want, got := binary.LittleEndian.Uint32(data[len(data)-4:]), crc32.Checksum(body, castagnoli); want != got {
		return nil, fmt.Errorf("gbdt: model file checksum %08x, want %08x: the file is corrupt or truncated", got, want)
	}
	d := decoder{b: body, off: len(magic) + 4}
	features := d.uint32()
	trees := d.uint32()
	base := math.Float64frombits(d.uint64())
	if features == 0 || features > math.MaxInt32 {
		return nil, fmt.Errorf("gbdt: model file has %d features, want 1 to %d", features, math.MaxInt32)
	}
	if math.IsNaN(base) || math.IsInf(base, 0) {
		return nil, fmt.Errorf("gbdt: model file base score is %v, want a finite number", base)
	}
	if room := uint32(d.left() / (4 + leafSize)); trees > room {
		return nil, fmt.Errorf("gbdt: model file has %d trees, but room for at most %d", trees, room)
	}
	m := &Model{features: int(features), base: base}
	// Every tree is a full binary tree (checked), of 2k+1 nodes in
	// 26k+13 bytes and its count: the nodes are at most a thirteenth of
	// the bytes left, and one more a tree. Sized so, the model's arrays
	// do not grow tree by tree.
	m.nodes = make([]node, 0, d.left()/13+int(trees))
	m.roots = make([]int32, 0, trees)
	m.heap = make([]heapTree, 0, trees)
	for t := range int(trees) {
		if err := d.tree(m, t); err != nil {
			return nil, err
		}
	}
	if d.left() != 0 {
		return nil, fmt.Errorf("gbdt: model file has %d bytes after the last tree", d.left())
	}
	return m, nil
}

// decoder reads the body of a model file.
type decoder struct {
	b   []byte
	off int
	// A tree's nodes, which of them are children and their depths,
	// reused from tree to tree.
	nodes   []node
	parents []uint8
	depth   []int32
}

// left returns the number of bytes not yet read.
func (d *decoder) left() int { return len(d.b) - d.off }

// Callers check left before reading.
func (d *decoder) byte() byte {
	v := d.b[d.off]
	d.off++
	return v
}

func (d *decoder) uint32() uint32 {
	v := binary.LittleEndian.Uint32(d.b[d.off:])
	d.off += 4
	return v
}

func (d *decoder) uint64() uint64 {
	v := binary.LittleEndian.Uint64(d.b[d.off:])
	d.off += 8
	return v
}

// tree decodes tree t and appends it to m.
func (d *decoder) tree(m *Model, t int) error {
	if d.left() < 4 {
		return fmt.Errorf("gbdt: model file truncated before tree %d", t)
	}
	count := d.uint32()
	if count == 0 {
		return fmt.Errorf("gbdt: model file tree %d has no nodes", t)
	}
	if count > uint32(d.left()/leafSize) || len(m.nodes)+int(count) > math.MaxInt32 {
		return fmt.Errorf("gbdt: model file tree %d has %d nodes, but room for at most %d", t, count, d.left()/leafSize)
	}
	nodes := slices.Grow(d.nodes[:0], int(count))
	parents := slices.Grow(d.parents[:0], int(count))[:count]
	clear(parents)
	d.depth = slices.Grow(d.depth[:0], int(count))[:count]
	defer func() { d.nodes, d.parents = nodes, parents }()
	for i := range int(count) {
		where := func() string { return fmt.Sprintf("gbdt: model file tree %d node %d", t, i) }
		if d.left() < 1 {
			return fmt.Errorf("%s: truncated", where())
		}
		switch kind := d.byte(); kind {
		case kindLeaf:
			if d.left() < leafSize-1 {
				return fmt.Errorf("%s: truncated", where())
			}
			v := math.Float64frombits(d.uint64())
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s: leaf value %v, want a finite number", where(), v)
			}
			nodes = append(nodes, node{feature: -1, value: v})
		case kindMissingRight, kindMissingLeft:
			if d.left() < splitSize-1 {
				return fmt.Errorf("%s: truncated", where())
			}
			f, thr, l, r := d.uint32(), math.Float32frombits(d.uint32()), d.uint32(), d.uint32()
			switch {
			case f >= uint32(m.features):
				return fmt.Errorf("%s: feature %d, want below the %d features", where(), f, m.features)
			case thr != thr:
				return fmt.Errorf("%s: threshold is NaN", where())
			case l <= uint32(i) || l >= count || r <= uint32(i) || r >= count:
				return fmt.Errorf("%s: children %d and %d, want indices after %d and below the tree's %d nodes", where(), l, r, i, count)
			case l == r:
				return fmt.Errorf("%s: both children are node %d", where(), l)
			case parents[l] > 0 || parents[r] > 0:
				return fmt.Errorf("%s: a child (%d or %d) already has a parent", where(), l, r)
			}
			parents[l], parents[r] = 1, 1
			nodes = append(nodes, node{
				threshold: thr, feature: int32(f), defLeft: kind == kindMissingLeft,
				left: int32(l), right: int32(r),
			})
		default:
			return fmt.Errorf("%s: kind %d, want 0 (leaf), 1 or 2 (split)", where(), kind)
		}
	}
	for i := 1; i < int(count); i++ {
		if parents[i] == 0 {
			return fmt.Errorf("gbdt: model file tree %d node %d is nobody's child", t, i)
		}
	}
	depth := depthInto(nodes, d.depth)
	if depth > MaxDepth {
		return fmt.Errorf("gbdt: model file tree %d is %d deep, want at most %d", t, depth, MaxDepth)
	}
	m.addTree(nodes, depth)
	return nil
}
