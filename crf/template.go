package crf

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxOffset is the largest distance, in positions, that a template may look
// before or after the current position.
const MaxOffset = 8

// Template limits. They keep a model file, even a corrupt one, from asking for
// an unreasonable amount of work per position.
const (
	maxUnigrams = 256 // unigram template lines
	maxPairs    = 32  // conjunction template lines (two bits each in a uint64 mask)
	maxKeys     = 256 // keys in one term
)

// Unigram is one unigram template: for each attribute found Offset positions
// away from the current one, it defines one feature per label. If Keys is
// empty every attribute qualifies; otherwise only attributes whose key (the
// part of the name before the first "=", or the whole name if it has none) is
// one of Keys.
type Unigram struct {
	Offset int
	Keys   []string
}

// Pair is a conjunction template: one feature per label for each combination
// of an attribute selected by A and an attribute selected by B. Its value is
// the product of the two attribute values.
type Pair struct {
	A, B Unigram
}

// Template says which features a model has. Its text form, read by
// [ParseTemplate] and written by [Template.String], is described in the
// package documentation.
type Template struct {
	// Unigrams are the attribute-at-offset feature templates.
	Unigrams []Unigram
	// Pairs are the conjunction templates.
	Pairs []Pair
	// Bigram adds label transition weights (label before × label after) and
	// start and end weights (first and last label of a sequence).
	Bigram bool
}

// ParseTemplate reads a template in the line-based syntax described in the
// package documentation. Errors name the line and say what is wrong.
func ParseTemplate(text string) (Template, error) {
	var t Template
	seen := map[string]int{}
	for i, line := range strings.Split(text, "\n") {
		lineNo := i + 1
		if j := strings.IndexByte(line, '#'); j >= 0 {
			line = line[:j]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		fail := func(format string, args ...any) (Template, error) {
			return Template{}, fmt.Errorf("crf: template line %d %q: %s", lineNo, line, fmt.Sprintf(format, args...))
		}
		var canon []string
		if line == "B" {
			t.Bigram = true
			canon = []string{"B"}
		} else {
			terms := strings.Split(line, "&")
			switch len(terms) {
			case 1:
				lo, hi, keys, err := parseTerm(strings.TrimSpace(terms[0]))
				if err != nil {
					return fail("%v", err)
				}
				for o := lo; o <= hi; o++ {
					u := Unigram{Offset: o, Keys: keys}
					t.Unigrams = append(t.Unigrams, u)
					canon = append(canon, u.String())
				}
			case 2:
				var us [2]Unigram
				for k, term := range terms {
					lo, hi, keys, err := parseTerm(strings.TrimSpace(term))
					if err != nil {
						return fail("%v", err)
					}
					if lo != hi {
						return fail("a conjunction term takes one offset, not a range")
					}
					us[k] = Unigram{Offset: lo, Keys: keys}
				}
				p := Pair{A: us[0], B: us[1]}
				t.Pairs = append(t.Pairs, p)
				canon = append(canon, p.String())
			default:
				return fail("a conjunction joins exactly two terms with \"&\"")
			}
		}
		for _, c := range canon {
			if c == "B" {
				continue
			}
			if prev, ok := seen[c]; ok {
				return fail("%s repeats line %d; remove one of them", c, prev)
			}
			seen[c] = lineNo
		}
	}
	if err := t.validate(); err != nil {
		return Template{}, err
	}
	return t, nil
}

// parseTerm reads "U[lo]", "U[lo..hi]", optionally followed by ":k1,k2".
func parseTerm(s string) (lo, hi int, keys []string, err error) {
	rest, ok := strings.CutPrefix(s, "U[")
	if !ok {
		return 0, 0, nil, errors.New(`expected "B" or a term like "U[-1]" or "U[0]:tag,lq"`)
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return 0, 0, nil, errors.New(`missing "]" after the offset`)
	}
	offs, rest := rest[:end], rest[end+1:]
	a, b, isRange := strings.Cut(offs, "..")
	if lo, err = strconv.Atoi(strings.TrimSpace(a)); err != nil {
		return 0, 0, nil, fmt.Errorf("offset %q is not an integer", a)
	}
	hi = lo
	if isRange {
		if hi, err = strconv.Atoi(strings.TrimSpace(b)); err != nil {
			return 0, 0, nil, fmt.Errorf("offset %q is not an integer", b)
		}
		if hi < lo {
			return 0, 0, nil, fmt.Errorf("range %d..%d is empty; write the smaller offset first", lo, hi)
		}
	}
	if lo < -MaxOffset || hi > MaxOffset {
		return 0, 0, nil, fmt.Errorf("offsets must lie in -%d..%d", MaxOffset, MaxOffset)
	}
	if rest == "" {
		return lo, hi, nil, nil
	}
	list, ok := strings.CutPrefix(rest, ":")
	if !ok {
		return 0, 0, nil, fmt.Errorf(`unexpected %q after "]"; keys follow a ":"`, rest)
	}
	for _, k := range strings.Split(list, ",") {
		if err := checkKey(k); err != nil {
			return 0, 0, nil, err
		}
		keys = append(keys, k)
	}
	return lo, hi, keys, nil
}

func checkKey(k string) error {
	switch {
	case k == "":
		return errors.New("empty key in the key list")
	case strings.ContainsAny(k, "= \t\r\n&#,:[]"):
		return fmt.Errorf("key %q: a key is the part of an attribute name before \"=\" and cannot contain spaces or any of = & # , : [ ]", k)
	}
	return nil
}

// validate checks a template built in Go or parsed from text.
func (t Template) validate() error {
	if len(t.Unigrams) == 0 && len(t.Pairs) == 0 && !t.Bigram {
		return errors.New("crf: template defines no features")
	}
	if len(t.Unigrams) > maxUnigrams {
		return fmt.Errorf("crf: template has %d unigram lines; the limit is %d", len(t.Unigrams), maxUnigrams)
	}
	if len(t.Pairs) > maxPairs {
		return fmt.Errorf("crf: template has %d conjunction lines; the limit is %d", len(t.Pairs), maxPairs)
	}
	check := func(u Unigram) error {
		if u.Offset < -MaxOffset || u.Offset > MaxOffset {
			return fmt.Errorf("crf: template %s: offsets must lie in -%d..%d", u, MaxOffset, MaxOffset)
		}
		if len(u.Keys) > maxKeys {
			return fmt.Errorf("crf: template %s: more than %d keys", u, maxKeys)
		}
		for _, k := range u.Keys {
			if err := checkKey(k); err != nil {
				return fmt.Errorf("crf: template %s: %v", u, err)
			}
		}
		return nil
	}
	seen := map[string]bool{}
	for _, u := range t.Unigrams {
		if err := check(u); err != nil {
			return err
		}
		if seen[u.String()] {
			return fmt.Errorf("crf: template line %s appears twice", u)
		}
		seen[u.String()] = true
	}
	for _, p := range t.Pairs {
		if err := check(p.A); err != nil {
			return err
		}
		if err := check(p.B); err != nil {
			return err
		}
		if seen[p.String()] {
			return fmt.Errorf("crf: template line %s appears twice", p)
		}
		seen[p.String()] = true
	}
	return nil
}

// String returns the template in its text form, one line per unigram and
// conjunction, and "B" last if Bigram is set. ParseTemplate reads it back.
func (t Template) String() string {
	var b strings.Builder
	for _, u := range t.Unigrams {
		b.WriteString(u.String())
		b.WriteByte('\n')
	}
	for _, p := range t.Pairs {
		b.WriteString(p.String())
		b.WriteByte('\n')
	}
	if t.Bigram {
		b.WriteString("B\n")
	}
	return b.String()
}

// String returns the unigram in template syntax, such as "U[-1]:tag,lq".
func (u Unigram) String() string {
	s := "U[" + strconv.Itoa(u.Offset) + "]"
	if len(u.Keys) > 0 {
		s += ":" + strings.Join(u.Keys, ",")
	}
	return s
}

// String returns the conjunction in template syntax, such as
// "U[-1]:split & U[0]:tag".
func (p Pair) String() string { return p.A.String() + " & " + p.B.String() }

// attrKey returns the key of an attribute name: the text before the first
// "=", or the whole name.
func attrKey(name string) string {
	if i := strings.IndexByte(name, '='); i >= 0 {
		return name[:i]
	}
	return name
}

// selects reports whether the unigram's key filter admits an attribute key.
func (u Unigram) selects(key string) bool {
	if len(u.Keys) == 0 {
		return true
	}
	for _, k := range u.Keys {
		if k == key {
			return true
		}
	}
	return false
}

// span returns the most negative and most positive offsets used.
func (t Template) span() (before, after int) {
	upd := func(o int) {
		before = max(before, -o)
		after = max(after, o)
	}
	for _, u := range t.Unigrams {
		upd(u.Offset)
	}
	for _, p := range t.Pairs {
		upd(p.A.Offset)
		upd(p.B.Offset)
	}
	return before, after
}
