// Package htmltree is sluice's compact DOM: an HTML5 tree built from
// golang.org/x/net/html's Tokenizer into one slice of nodes linked by int32
// indices, with text and attribute values as spans of the input instead of
// copies. It gives the tree html.Parse (scripting disabled, as ingest
// parses) gives, at a fraction of the cost: no heap node per element, no
// string per attribute or text.
//
// # Layout
//
// Tree.Nodes holds every node, the document first (NodeID 0); a node links
// to its parent, first and last child and siblings by NodeID (Nil for
// none). An element has an atom (Tree.Name gives the name of one without),
// a namespace and a range of the tree's attribute slice. Strings (text,
// attribute keys and values, names of elements without an atom) are spans
// of the input where the input holds the decoded value, and of one side
// buffer otherwise (entities, CR LF, NUL, upper-case names, text merged
// from several tokens). Node.Raw is the span of a node's token(s) in the
// input, which sluice reports for blocks.
//
// Accessors return strings that share the tree's memory (unsafe.String);
// the builder never changes the bytes behind a string once written, so they
// stay valid until the Tree is rebuilt by its Builder (see Tree). Walk,
// Next, Children and All visit nodes without recursion or allocation.
//
// # What it implements
//
// The tree-construction stage of the HTML standard as html.Parse (x/net
// v0.62) implements it, with its divergences from the spec (cells and head
// in "reset the insertion mode", no "in select" mode: <select> parsed in
// body by the 2025 rules, <search> not special, no implied end tags in
// "any other end tag"): every insertion mode, implied end tags (p, li,
// dt/dd, td/th/tr, thead/tbody/tfoot, option/optgroup, rb/rp/rt/rtc,
// headings closing headings), implied html/head/body and the head elements
// met in body, the form element pointer, table foster parenting (text and
// elements misplaced in a table go before it), the list of active
// formatting elements with its Noah's Ark clause and reconstruction, the
// adoption agency algorithm with its bounds (outer loop 8, inner loop 3),
// raw-text and RCDATA elements (script, style, textarea, title, xmp,
// iframe, noembed, noframes, plaintext; noscript parsed as markup, as with
// scripting disabled), void elements, frameset, quirks mode from the
// doctype (which decides whether <table> closes an open <p>), and foreign
// content (<svg>, <math>) with its breakout tags and integration points.
//
// # Reading tokens
//
// The tokenizer reads comments, doctypes, raw text with escapes and
// whatever needs decoding in a tag; the builder reads the rest itself, by
// the tokenizer's rules (package internal/htmlscan holds them): plain text
// and tags, which are most of a page's tokens (fast.go), and the text of
// scripts and styles (rawskip.go). Both readings give the same tree
// (TestRawSkipSharedPages, on every shared page; FuzzRawSkip).
//
// # What it does not do
//
//   - Template contents are children of the <template> element (as
//     html.Parse has them), not a separate document fragment.
//   - Foreign content keeps lower-case names: SVG camel case (foreignObject,
//     viewBox) and MathML/XLink attribute adjustments are not applied, and
//     attributes carry no namespace.
//   - A doctype node's text is what the tokenizer gives (name and
//     identifiers together), not parsed into name, public and system.
//   - No limited-quirks mode (it changes nothing in tree building); the
//     quirks test uses the spec's public-identifier families, shortened to
//     prefixes.
//   - No fragment parsing (ParseFragment's context element).
//   - Depth: at most MaxDepth (512) elements are open at once; a start tag
//     past that is dropped with its end tag and its content goes to the
//     element below (html.Parse refuses such input; ingest then flattens
//     the excess tags). The list of active formatting elements holds at
//     most 512 entries, the oldest dropped first, and reconstruction stops
//     at MaxDepth.
//   - Inputs are cut at MaxInput (1 GiB), with a warning: spans are 32-bit.
//
// docs/htmltree.md lists the measured deviations from html.Parse on the
// shared data sets and the benchmark figures.
package htmltree
