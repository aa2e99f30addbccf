package htmltree

import "iter"

// Walk visits the subtree of root in document order, calling fn twice for
// each element and the document (entering true before its children, false
// after them) and once, entering, for other nodes. When fn returns false on
// entering a node, Walk skips its children (and its exit call). Walk does
// not recurse and does not allocate.
func (t *Tree) Walk(root NodeID, fn func(n NodeID, entering bool) bool) {
	ns := t.Nodes
	n := root
	for {
		descend := fn(n, true)
		if descend && ns[n].FirstChild != Nil {
			n = ns[n].FirstChild
			continue
		}
		if descend && hasExit(ns[n].Type) {
			fn(n, false)
		}
		for n != root && ns[n].NextSibling == Nil {
			n = ns[n].Parent
			fn(n, false)
		}
		if n == root {
			return
		}
		n = ns[n].NextSibling
	}
}

func hasExit(t NodeType) bool { return t == ElementNode || t == DocumentNode }

// Next returns the node after n in document order within the subtree of
// root, or Nil: a cursor for loops that need no exit calls
// (for n := root; n != Nil; n = t.Next(root, n)).
func (t *Tree) Next(root, n NodeID) NodeID {
	ns := t.Nodes
	if c := ns[n].FirstChild; c != Nil {
		return c
	}
	return t.NextSkip(root, n)
}

// NextSkip is Next without n's descendants.
func (t *Tree) NextSkip(root, n NodeID) NodeID {
	ns := t.Nodes
	for n != root {
		if s := ns[n].NextSibling; s != Nil {
			return s
		}
		n = ns[n].Parent
	}
	return Nil
}

// Children returns the children of n, in order.
func (t *Tree) Children(n NodeID) iter.Seq[NodeID] {
	return func(yield func(NodeID) bool) {
		for c := t.Nodes[n].FirstChild; c != Nil; c = t.Nodes[c].NextSibling {
			if !yield(c) {
				return
			}
		}
	}
}

// All returns the nodes of the subtree of root in document order, root
// first.
func (t *Tree) All(root NodeID) iter.Seq[NodeID] {
	return func(yield func(NodeID) bool) {
		for n := root; n != Nil; n = t.Next(root, n) {
			if !yield(n) {
				return
			}
		}
	}
}

// Depth returns the number of ancestors of n (0 for the document).
func (t *Tree) Depth(n NodeID) int {
	d := 0
	for p := t.Nodes[n].Parent; p != Nil; p = t.Nodes[p].Parent {
		d++
	}
	return d
}
