package filter

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of the expression language, so that an expression from the command
// line or a configuration file cannot build an unbounded filter.
const (
	maxLeaves = 256       // most filter instances in one expression
	maxRepeat = maxLeaves // largest n in n*f (a canonical name may write 8*(9*f) as 72*f)
	maxDepth  = 64        // deepest nesting of parentheses and calls
	maxNumber = 1e9       // largest vote weight or threshold
)

// ParseError is the error Parse returns: where in the expression the problem
// is and what was expected there.
type ParseError struct {
	Expr   string // the expression as given
	Column int    // 1-based, in characters
	Msg    string // what was expected and what was found
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("filter expression %q: column %d: %s", e.Expr, e.Column, e.Msg)
}

// Parse builds a filter from a pipeline expression:
//
//	expr   = term { ">" term }                      serial: each term runs on what the previous kept
//	term   = [ count "*" ] factor                   count*f is f>f>...>f, count times (1 to 256)
//	factor = name                                   a registered filter (see Names)
//	       | "union" "(" expr { "," expr } ")"      kept when any keeps (max of scores)
//	       | "inter" "(" expr { "," expr } ")"      kept when all keep (min of scores)
//	       | "vote" "(" voter { "," voter } [ ";" number ] ")"
//	       | "(" expr ")"
//	voter  = expr [ ":" number ]                    the weight, 1 when left out
//	name   = letter { letter | digit | "-" | "_" }
//	number = digit { digit } [ "." digit { digit } ]
//
// The vote threshold defaults to a majority of the total weight (see
// Majority). White space between tokens is ignored, and a name not
// registered as written is tried in lower case. Examples: "lqf>bte" (CombinE's
// LQF_BTE), "3*dsc" (3XDSC), "union(dsc,bte,accb-r40)" (MIX1),
// "vote(dsc,bte,accb-r40:2;2)" (MIX4).
//
// The Name of the filter returned is the expression in canonical form: no
// spaces or redundant parentheses, serial chains and nested unions or
// intersections flattened, runs of one filter written n*f, vote thresholds
// always written. Parsing a canonical name gives back the same name. Errors
// are *ParseError values.
func Parse(expr string) (Filter, error) {
	return (&parser{src: expr}).parse()
}

// parse parses the whole expression.
func (ps *parser) parse() (Filter, error) {
	ps.next()
	f, _, err := ps.serial()
	if err != nil {
		return nil, err
	}
	if ps.tok.kind != tokEOF {
		return nil, ps.errorf(ps.tok, "expected \">\" or end of expression, got %s", ps.tok)
	}
	return f, nil
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokName
	tokNumber
	tokPunct // one of > ( ) , : ; *
	tokBad   // any other character
)

type token struct {
	kind tokKind
	text string
	pos  int // byte offset in the expression
}

func (t token) String() string {
	if t.kind == tokEOF {
		return "end of expression"
	}
	if t.kind == tokName {
		return "name " + strconv.Quote(t.text)
	}
	return strconv.Quote(t.text)
}

func (t token) is(punct string) bool { return t.kind == tokPunct && t.text == punct }

type parser struct {
	src   string
	off   int // byte offset after tok
	tok   token
	depth int
	// params are the parameters of the filters by registered name (see
	// ParseWith), and used the names the expression uses.
	params map[string]Params
	used   map[string]bool
}

func (ps *parser) errorf(at token, format string, args ...any) error {
	return &ParseError{
		Expr:   ps.src,
		Column: 1 + utf8.RuneCountInString(ps.src[:at.pos]),
		Msg:    fmt.Sprintf(format, args...),
	}
}

// next reads the next token into ps.tok.
func (ps *parser) next() {
	s := ps.src
	i := ps.off
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		ps.tok, ps.off = token{kind: tokEOF, pos: i}, i
		return
	}
	start := i
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case unicode.IsLetter(r):
		i += n
		for i < len(s) {
			r, n = utf8.DecodeRuneInString(s[i:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' {
				break
			}
			i += n
		}
		ps.tok = token{kind: tokName, text: s[start:i], pos: start}
	case '0' <= r && r <= '9':
		i = digits(s, i)
		if i+1 < len(s) && s[i] == '.' && '0' <= s[i+1] && s[i+1] <= '9' {
			i = digits(s, i+1)
		}
		ps.tok = token{kind: tokNumber, text: s[start:i], pos: start}
	case strings.ContainsRune(">(),:;*", r):
		i += n
		ps.tok = token{kind: tokPunct, text: s[start:i], pos: start}
	default:
		i += n
		ps.tok = token{kind: tokBad, text: s[start:i], pos: start}
	}
	ps.off = i
}

func digits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// serial parses expr; it returns the filter and the number of filter
// instances in it.
func (ps *parser) serial() (Filter, int, error) {
	f, n, err := ps.term()
	if err != nil {
		return nil, 0, err
	}
	if !ps.tok.is(">") {
		return f, n, nil
	}
	fs := []Filter{f}
	for ps.tok.is(">") {
		ps.next()
		at := ps.tok
		g, m, err := ps.term()
		if err != nil {
			return nil, 0, err
		}
		if n += m; n > maxLeaves {
			return nil, 0, ps.errorf(at, "expression too large: more than %d filters", maxLeaves)
		}
		fs = append(fs, g)
	}
	return Serial(fs...), n, nil
}

func (ps *parser) term() (Filter, int, error) {
	if ps.tok.kind != tokNumber {
		return ps.factor()
	}
	countTok := ps.tok
	count, err := strconv.Atoi(countTok.text)
	if err != nil || count < 1 || count > maxRepeat {
		return nil, 0, ps.errorf(countTok, "repetition count must be a whole number from 1 to %d, got %q", maxRepeat, countTok.text)
	}
	ps.next()
	if !ps.tok.is("*") {
		return nil, 0, ps.errorf(ps.tok, "expected \"*\" after the repetition count %s, got %s", countTok.text, ps.tok)
	}
	ps.next()
	at := ps.tok
	f, n, err := ps.factor()
	if err != nil {
		return nil, 0, err
	}
	if n*count > maxLeaves {
		return nil, 0, ps.errorf(at, "expression too large: more than %d filters", maxLeaves)
	}
	fs := make([]Filter, count)
	for i := range fs {
		fs[i] = f // filters keep no per-page state: one instance serves every stage
	}
	return Serial(fs...), n * count, nil
}

func (ps *parser) factor() (Filter, int, error) {
	t := ps.tok
	switch {
	case t.is("("):
		if err := ps.enter(t); err != nil {
			return nil, 0, err
		}
		ps.next()
		f, n, err := ps.serial()
		if err != nil {
			return nil, 0, err
		}
		if !ps.tok.is(")") {
			return nil, 0, ps.errorf(ps.tok, "expected \">\" or \")\", got %s", ps.tok)
		}
		ps.depth--
		ps.next()
		return f, n, nil
	case t.kind == tokName:
		ps.next()
		switch t.text {
		case "union", "inter", "vote":
			if !ps.tok.is("(") {
				return nil, 0, ps.errorf(ps.tok, "expected \"(\" after %q, got %s", t.text, ps.tok)
			}
			if err := ps.enter(t); err != nil {
				return nil, 0, err
			}
			ps.next()
			var (
				f   Filter
				n   int
				err error
			)
			if t.text == "vote" {
				f, n, err = ps.voteArgs()
			} else {
				f, n, err = ps.parallelArgs(t.text == "union")
			}
			if err != nil {
				return nil, 0, err
			}
			ps.depth--
			return f, n, nil
		}
		f, err := ps.lookup(t)
		return f, 1, err
	default:
		return nil, 0, ps.errorf(t, "expected a filter name, got %s", t)
	}
}

func (ps *parser) enter(at token) error {
	ps.depth++
	if ps.depth > maxDepth {
		return ps.errorf(at, "expression nested more than %d deep", maxDepth)
	}
	return nil
}

// argument parses one argument of union, inter or vote and adds its number
// of filters to *n, which may not pass maxLeaves.
func (ps *parser) argument(n *int) (Filter, error) {
	at := ps.tok
	f, m, err := ps.serial()
	if err != nil {
		return nil, err
	}
	if *n += m; *n > maxLeaves {
		return nil, ps.errorf(at, "expression too large: more than %d filters", maxLeaves)
	}
	return f, nil
}

// parallelArgs parses the arguments of union or inter after the "(".
func (ps *parser) parallelArgs(isUnion bool) (Filter, int, error) {
	var (
		fs []Filter
		n  int
	)
	for {
		f, err := ps.argument(&n)
		if err != nil {
			return nil, 0, err
		}
		fs = append(fs, f)
		switch {
		case ps.tok.is(","):
			ps.next()
			continue
		case ps.tok.is(")"):
			ps.next()
			if isUnion {
				return Union(fs...), n, nil
			}
			return Intersection(fs...), n, nil
		}
		return nil, 0, ps.errorf(ps.tok, "expected \">\", \",\" or \")\", got %s", ps.tok)
	}
}

// voteArgs parses the arguments of vote after the "(".
func (ps *parser) voteArgs() (Filter, int, error) {
	var (
		fs      []Filter
		weights []float64
		n       int
	)
	for {
		f, err := ps.argument(&n)
		if err != nil {
			return nil, 0, err
		}
		w := 1.0
		if ps.tok.is(":") {
			ps.next()
			if w, err = ps.number("weight"); err != nil {
				return nil, 0, err
			}
		}
		fs = append(fs, f)
		weights = append(weights, w)
		switch {
		case ps.tok.is(","):
			ps.next()
			continue
		case ps.tok.is(";"):
			ps.next()
			t, err := ps.number("threshold")
			if err != nil {
				return nil, 0, err
			}
			if !ps.tok.is(")") {
				return nil, 0, ps.errorf(ps.tok, "expected \")\" after the vote threshold, got %s", ps.tok)
			}
			ps.next()
			return Vote(weights, t, fs...), n, nil
		case ps.tok.is(")"):
			ps.next()
			return Vote(weights, Majority(weights), fs...), n, nil
		}
		return nil, 0, ps.errorf(ps.tok, "expected \">\", \":\", \",\", \";\" or \")\", got %s", ps.tok)
	}
}

// number reads a vote weight or threshold.
func (ps *parser) number(what string) (float64, error) {
	t := ps.tok
	if t.kind != tokNumber {
		return 0, ps.errorf(t, "expected a number (the vote %s), got %s", what, t)
	}
	x, err := strconv.ParseFloat(t.text, 64)
	if err != nil || !validNumber(x) || x > maxNumber {
		return 0, ps.errorf(t, "vote %s %s is out of range (at most %s)", what, t.text, formatNumber(maxNumber))
	}
	ps.next()
	return x, nil
}

// lookup instantiates the registered filter named by t.
func (ps *parser) lookup(t token) (Filter, error) {
	name, ok := canonical(t.text)
	if !ok {
		return nil, ps.errorf(t, "unknown filter %q (known: %s)", t.text, strings.Join(Names(), ", "))
	}
	if ps.used != nil {
		ps.used[name] = true
	}
	f, err := LookupWith(name, ps.params[name])
	if err != nil {
		return nil, err // ParseWith checked the parameters: not reached
	}
	if f.Name() != name {
		// Keep the canonical name parseable: a leaf is named as registered.
		f = renamed{Filter: f, name: name}
	}
	return f, nil
}

// renamed gives a filter the name it was registered under.
type renamed struct {
	Filter
	name string
}

func (r renamed) Name() string { return r.name }
