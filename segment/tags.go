package segment

import "golang.org/x/net/html/atom"

// inline reports whether an element is phrasing content that does not end
// a text block (Victor splits on every tag; sluice keeps inline markup
// inside a block and records it as InnerTags instead).
func inline(a atom.Atom) bool {
	switch a {
	case atom.A, atom.Abbr, atom.Acronym, atom.B, atom.Bdi, atom.Bdo, atom.Big,
		atom.Cite, atom.Code, atom.Data, atom.Del, atom.Dfn, atom.Em, atom.Font,
		atom.I, atom.Img, atom.Ins, atom.Kbd, atom.Label, atom.Mark, atom.Nobr,
		atom.Q, atom.S, atom.Samp, atom.Small, atom.Span, atom.Strike,
		atom.Strong, atom.Sub, atom.Sup, atom.Time, atom.Tt, atom.U, atom.Var,
		atom.Wbr, atom.Blink, atom.Output, atom.Ruby, atom.Rt, atom.Rp,
		atom.Meter, atom.Progress:
		return true
	}
	return false
}

// structural reports whether an element is one of WC Cleaner's structure
// tags: the block-level elements that split content into logical units
// (thesis, section 2.5). Their count is the denominator of node density.
func structural(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Td, atom.Th, atom.Tr, atom.Table, atom.Tbody,
		atom.Thead, atom.Tfoot, atom.Ul, atom.Ol, atom.Li, atom.Dl, atom.Dt,
		atom.Dd, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Br,
		atom.Hr, atom.Blockquote, atom.Pre, atom.Form, atom.Section,
		atom.Article, atom.Header, atom.Footer, atom.Nav, atom.Aside,
		atom.Main, atom.Address, atom.Fieldset, atom.Figure, atom.Figcaption,
		atom.Center, atom.Caption, atom.Menu, atom.Details, atom.Summary,
		atom.Frame, atom.Frameset, atom.Body:
		return true
	}
	return false
}

// divGroup reports whether an element starts a Victor div group (extended
// to the HTML5 sectioning elements).
func divGroup(a atom.Atom) bool {
	switch a {
	case atom.Div, atom.Section, atom.Article, atom.Main, atom.Aside, atom.Nav,
		atom.Header, atom.Footer, atom.Form, atom.Body, atom.Center, atom.Details,
		atom.Figure, atom.Blockquote, atom.Fieldset:
		return true
	}
	return false
}
