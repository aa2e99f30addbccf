package htmltree

import "golang.org/x/net/html/atom"

// newNode appends an unlinked node of type typ.
func (b *Builder) newNode(typ NodeType) NodeID {
	t := &b.tree
	id := NodeID(len(t.Nodes))
	t.Nodes = append(t.Nodes, Node{Parent: Nil, FirstChild: Nil, LastChild: Nil, PrevSibling: Nil, NextSibling: Nil, Type: typ})
	return id
}

// insertBefore links the unlinked node c as a child of p, before ref, or
// last when ref is Nil.
func (t *Tree) insertBefore(p, c, ref NodeID) {
	ns := t.Nodes
	ns[c].Parent = p
	ns[c].NextSibling = ref
	prev := ns[p].LastChild
	if ref != Nil {
		prev = ns[ref].PrevSibling
		ns[ref].PrevSibling = c
	} else {
		ns[p].LastChild = c
	}
	ns[c].PrevSibling = prev
	if prev != Nil {
		ns[prev].NextSibling = c
	} else {
		ns[p].FirstChild = c
	}
}

// Remove unlinks node n, with its subtree, from its parent; it stays in
// Nodes, unreachable from the document. Removing the document or an
// unlinked node does nothing.
func (t *Tree) Remove(n NodeID) {
	ns := t.Nodes
	p := ns[n].Parent
	if p == Nil {
		return
	}
	prev, next := ns[n].PrevSibling, ns[n].NextSibling
	if prev != Nil {
		ns[prev].NextSibling = next
	} else {
		ns[p].FirstChild = next
	}
	if next != Nil {
		ns[next].PrevSibling = prev
	} else {
		ns[p].LastChild = prev
	}
	ns[n].Parent, ns[n].PrevSibling, ns[n].NextSibling = Nil, Nil, Nil
}

// moveChildren moves the children of src, in order, to the end of dst.
func (t *Tree) moveChildren(dst, src NodeID) {
	ns := t.Nodes
	first := ns[src].FirstChild
	if first == Nil {
		return
	}
	for c := first; c != Nil; c = ns[c].NextSibling {
		ns[c].Parent = dst
	}
	last := ns[src].LastChild
	if tail := ns[dst].LastChild; tail != Nil {
		ns[tail].NextSibling = first
		ns[first].PrevSibling = tail
	} else {
		ns[dst].FirstChild = first
	}
	ns[dst].LastChild = last
	ns[src].FirstChild, ns[src].LastChild = Nil, Nil
}

// place returns where a new node goes: at the end of the current node, or,
// while foster parenting in a table, before the table (12.2.6.1,
// "appropriate place for inserting a node"). Text merges with a text node
// before that place, except, as html.Parse has it, text foster parented
// into a template.
func (b *Builder) place() (parent, before NodeID, merge bool) {
	cur := b.current()
	if !b.fostering {
		return cur, Nil, true
	}
	switch b.tree.Nodes[cur].Atom {
	case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
		parent, before = b.fosterPlace()
		return parent, before, !b.tree.Is(parent, atom.Template) || before != Nil
	}
	return cur, Nil, true
}

// fosterPlace returns the foster parent's place: before the last table
// open, in a template opened after it, or at the end of <html>.
func (b *Builder) fosterPlace() (parent, before NodeID) {
	table, template := -1, -1
	for i := len(b.stack) - 1; i >= 0 && (table < 0 || template < 0); i-- {
		switch b.tree.Nodes[b.stack[i]].Atom {
		case atom.Table:
			if table < 0 {
				table = i
			}
		case atom.Template:
			if template < 0 {
				template = i
			}
		}
	}
	if template >= 0 && (table < 0 || template > table) {
		return b.stack[template], Nil
	}
	if table < 0 {
		return b.stack[0], Nil
	}
	tn := b.stack[table]
	if p := b.tree.Nodes[tn].Parent; p != Nil {
		return p, tn
	}
	return b.stack[table-1], Nil
}

// insertNode links node n at the appropriate place.
func (b *Builder) insertNode(n NodeID) {
	parent, before, _ := b.place()
	b.tree.insertBefore(parent, n, before)
}

// newElement returns a new unlinked element of the current token.
func (b *Builder) newElement() NodeID {
	n := b.newNode(ElementNode)
	nd := &b.tree.Nodes[n]
	nd.Atom = b.tok.atom
	if nd.Atom == 0 {
		nd.data = b.tok.name
	}
	nd.attr, nd.nattr = b.tok.attr, b.tok.nattr
	nd.Raw = b.tok.raw
	return n
}

// addElement inserts an element for the current token and opens it.
func (b *Builder) addElement() NodeID {
	n := b.newElement()
	b.insertNode(n)
	b.push(n)
	return n
}

// addVoid inserts an element for the current token that is closed at
// once.
func (b *Builder) addVoid() NodeID {
	n := b.newElement()
	b.insertNode(n)
	return n
}

// addComment inserts a comment node for the current token under parent,
// or at the appropriate place when parent is Nil.
func (b *Builder) addComment(parent NodeID) {
	n := b.newNode(CommentNode)
	b.tree.Nodes[n].data = b.tok.data
	b.tree.Nodes[n].Raw = b.tok.raw
	if parent == Nil {
		b.insertNode(n)
		return
	}
	b.tree.insertBefore(parent, n, Nil)
}

// clone returns an unlinked copy of element n, sharing its attributes.
func (b *Builder) clone(n NodeID) NodeID {
	c := b.newNode(ElementNode)
	b.clones++
	src := b.tree.Nodes[n]
	nd := &b.tree.Nodes[c]
	nd.Atom, nd.Namespace, nd.data = src.Atom, src.Namespace, src.data
	nd.attr, nd.nattr = src.attr, src.nattr
	return c
}

// mergeAttrs adds to element n the attributes of the current token that
// it lacks (a second <html> or <body> tag).
func (b *Builder) mergeAttrs(n NodeID) {
	if b.tok.nattr == 0 {
		return
	}
	t := &b.tree
	nd := &t.Nodes[n]
	merged := append(b.noAttrs[:0], t.attrs[nd.attr:nd.attr+nd.nattr]...)
	old := len(merged)
	for _, a := range t.attrs[b.tok.attr : b.tok.attr+b.tok.nattr] {
		if !hasKey(t, merged[:old], t.string(a.key)) {
			merged = append(merged, a)
		}
	}
	b.noAttrs = merged[:0]
	if len(merged) == old {
		return
	}
	nd.attr = int32(len(t.attrs))
	nd.nattr = int32(len(merged))
	t.attrs = append(t.attrs, merged...)
}

func hasKey(t *Tree, attrs []attribute, key string) bool {
	for _, a := range attrs {
		if t.string(a.key) == key {
			return true
		}
	}
	return false
}
