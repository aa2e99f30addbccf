package label

import (
	"unsafe"

	"github.com/sluice-project/sluice/crf"
)

// attrDict maps an attribute name to what the stages read of it: its
// column in the trees' vector and its id in the CRF's dictionary. A
// labeller's (Labeller.dict) has both, so that the CRF pass looks each of a
// block's attributes up once for the trees and the CRF, where each looked
// it up in a map of its own; a trees stage's own has the columns only.
type attrDict map[string]dictEntry

// dictEntry is what the stages read of one attribute name.
type dictEntry struct {
	crf  int32   // the CRF's attribute id; -1 when the CRF does not know it
	bin  int32   // the column set to val when the attribute has no value; -1 for none
	real int32   // the column set to the attribute's value when it has one (num and real keys); -1 for none
	val  float32 // see bin
}

// noEntry is the entry of a name no stage reads.
var noEntry = dictEntry{crf: -1, bin: -1, real: -1}

// at returns d's entry for name, noEntry when it has none.
func (d attrDict) at(name string) dictEntry {
	if e, ok := d[name]; ok {
		return e
	}
	return noEntry
}

// withCRF returns a copy of the trees' dictionary d with the ids of the
// CRF m's attributes.
func (d attrDict) withCRF(m *crf.Model) attrDict {
	out := make(attrDict, len(d))
	for name, e := range d {
		out[name] = e
	}
	for name, id := range m.Attrs() {
		e := out.at(name)
		e.crf = id
		out[name] = e
	}
	return out
}

// crfValue is the value the CRF gives attribute a: Value, 1 for none.
func crfValue(a crf.Attr) float64 {
	if a.Value == 0 {
		return 1
	}
	return a.Value
}

// resolveInto appends to r the CRF ids and values of attrs, the
// attributes of one block, in order; attributes the CRF does not know are
// left out, as crf.Model.EmitWindow leaves them.
func (d attrDict) resolveInto(r *crf.Resolved, attrs []crf.Attr) {
	for _, a := range attrs {
		if e := d.at(a.Name); e.crf >= 0 {
			r.IDs = append(r.IDs, e.crf)
			r.Vals = append(r.Vals, crfValue(a))
		}
	}
	r.Start = append(r.Start, int32(len(r.IDs)))
}

// dictCache remembers the entries of the attribute names a page's blocks
// carried, by the address of the name's bytes: most names are the
// extractor's own strings (bucket and container names), the same from
// block to block and page to page, so that a lookup is a multiplication
// and a comparison instead of hashing the name. A slot holds its name, so
// the bytes it points at stay alive and cannot become another name's.
type dictCache struct {
	owner *attrDict // the dictionary the entries are of
	slots [dictCacheSlots]dictSlot
}

type dictSlot struct {
	name string
	e    dictEntry
}

// dictCacheBits sizes the cache: a page's blocks carry a few thousand
// distinct names of the extractor's, and at 1,024 slots one lookup in seven
// on the CleanEval pages found its slot taken by another name; at 4,096
// (128 KB, once a worker) one in fifty misses, mostly names made for the
// page, which have no fixed address.
const dictCacheBits = 12

const dictCacheSlots = 1 << dictCacheBits

// at returns (*d)'s entry for name, as d.at does; a nil c looks it up
// in d.
func (c *dictCache) at(d *attrDict, name string) dictEntry {
	if c == nil {
		return d.at(name)
	}
	if c.owner != d {
		c.slots = [dictCacheSlots]dictSlot{}
		c.owner = d
	}
	p := unsafe.StringData(name)
	s := &c.slots[(uint64(uintptr(unsafe.Pointer(p)))*0x9E3779B97F4A7C15)>>(64-dictCacheBits)]
	if unsafe.StringData(s.name) == p && len(s.name) == len(name) && p != nil {
		return s.e
	}
	e := d.at(name)
	s.name, s.e = name, e
	return e
}
