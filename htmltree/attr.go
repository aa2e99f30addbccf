package htmltree

import "golang.org/x/net/html/atom"

// attribute is one attribute in Tree.attrs.
type attribute struct {
	key, val str
	atom     atom.Atom // the key's atom, or 0
}

// Attribute is an attribute of an element, its strings valid as the
// tree's (see Tree).
type Attribute struct {
	Key, Val string
	// KeyAtom is the atom of Key, or 0.
	KeyAtom atom.Atom
}

// NumAttr returns the number of attributes of node n.
func (t *Tree) NumAttr(n NodeID) int {
	if t.Nodes[n].Type != ElementNode {
		return 0
	}
	return int(t.Nodes[n].nattr)
}

// AttrAt returns the i-th attribute of element n, in source order
// (duplicates dropped, as the tokenizer does).
func (t *Tree) AttrAt(n NodeID, i int) Attribute {
	a := &t.attrs[int(t.Nodes[n].attr)+i]
	return Attribute{Key: t.string(a.key), Val: t.string(a.val), KeyAtom: a.atom}
}

// Attr returns the value of element n's attribute key (lower case) and
// whether it has one.
func (t *Tree) Attr(n NodeID, key string) (string, bool) {
	nd := &t.Nodes[n]
	if nd.Type != ElementNode {
		return "", false
	}
	for _, a := range t.attrs[nd.attr : nd.attr+nd.nattr] {
		if int(a.key.n) == len(key) && t.string(a.key) == key {
			return t.string(a.val), true
		}
	}
	return "", false
}

// AttrAtom is Attr for a key that has an atom (atom.Class, atom.Id,
// atom.Href, ...), comparing atoms only.
func (t *Tree) AttrAtom(n NodeID, key atom.Atom) (string, bool) {
	nd := &t.Nodes[n]
	if nd.Type != ElementNode {
		return "", false
	}
	for _, a := range t.attrs[nd.attr : nd.attr+nd.nattr] {
		if a.atom == key {
			return t.string(a.val), true
		}
	}
	return "", false
}

// AttrValue is Attr without the second result: "" when n has no such
// attribute.
func (t *Tree) AttrValue(n NodeID, key string) string {
	v, _ := t.Attr(n, key)
	return v
}
