package htmltree

import "golang.org/x/net/html/atom"

// The list of active formatting elements (12.2.4.3).

// addFormatting inserts a formatting element for the current token and
// adds it to the list of active formatting elements, after removing the
// oldest of three identical ones already there (the "Noah's Ark" clause);
// the list holds at most maxActive entries, the oldest dropped first.
func (b *Builder) addFormatting() {
	n := b.addElement()
	same := 0
	for i := len(b.active) - 1; i >= 0; i-- {
		e := b.active[i]
		if e == marker {
			break
		}
		if b.sameFormatting(e, n) {
			same++
			if same >= 3 {
				b.active = append(b.active[:i], b.active[i+1:]...)
			}
		}
	}
	if len(b.active) >= maxActive {
		for i, e := range b.active {
			if e != marker {
				b.active = append(b.active[:i], b.active[i+1:]...)
				break
			}
		}
	}
	b.active = append(b.active, n)
}

// sameFormatting reports whether elements x and y have the same tag and
// attributes.
func (b *Builder) sameFormatting(x, y NodeID) bool {
	t := &b.tree
	nx, ny := &t.Nodes[x], &t.Nodes[y]
	if nx.Atom != ny.Atom || nx.Namespace != HTML || nx.nattr != ny.nattr {
		return false
	}
	ay := t.attrs[ny.attr : ny.attr+ny.nattr]
	for _, a := range t.attrs[nx.attr : nx.attr+nx.nattr] {
		found := false
		for _, c := range ay {
			if t.string(c.key) == t.string(a.key) {
				found = t.string(c.val) == t.string(a.val)
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// reconstruct reopens the active formatting elements that were closed
// (by a block that ended) before new content goes in, as clones, within
// MaxDepth and the clone budget.
func (b *Builder) reconstruct() {
	n := len(b.active)
	if n == 0 {
		return
	}
	if e := b.active[n-1]; e == marker || b.tree.Nodes[e].open {
		return
	}
	i := n - 1
	for i > 0 {
		e := b.active[i-1]
		if e == marker || b.tree.Nodes[e].open {
			break
		}
		i--
	}
	for ; i < n; i++ {
		if len(b.stack) >= MaxDepth || b.clones >= cloneBudget(len(b.tree.src)) {
			return
		}
		c := b.clone(b.active[i])
		b.insertNode(c)
		b.push(c)
		b.active[i] = c
	}
}

func (b *Builder) activeIndex(n NodeID) int { return lastIndex(b.active, n) }

func (b *Builder) removeActive(n NodeID) {
	if i := b.activeIndex(n); i >= 0 {
		b.active = append(b.active[:i], b.active[i+1:]...)
	}
}

// clearActive clears the list up to the last marker.
func (b *Builder) clearActive() {
	for len(b.active) > 0 {
		e := b.active[len(b.active)-1]
		b.active = b.active[:len(b.active)-1]
		if e == marker {
			return
		}
	}
}

// lastActive returns the last active formatting element with the tag a
// after the last marker, or Nil.
func (b *Builder) lastActive(a atom.Atom) NodeID {
	for i := len(b.active) - 1; i >= 0; i-- {
		e := b.active[i]
		if e == marker {
			break
		}
		if b.tree.Nodes[e].Atom == a {
			return e
		}
	}
	return Nil
}
