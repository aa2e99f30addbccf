package filter

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct{ expr, name string }{
		{"bte", "bte"},
		{"  dsc ", "dsc"},
		{"BTE", "bte"},
		{"dsc>bte", "dsc>bte"},
		{"dsc > ttr > bte", "dsc>ttr>bte"},
		{"3*dsc", "3*dsc"},
		{"dsc>dsc>dsc", "3*dsc"},
		{"1*dsc", "dsc"},
		{"2*(dsc>bte)", "dsc>bte>dsc>bte"},
		{"3*(2*dsc)", "6*dsc"},
		{"8*(9*Bte)", "72*bte"},
		{"256*bte", "256*bte"},
		{"(dsc>bte)>ttr", "dsc>bte>ttr"},
		{"((bte))", "bte"},
		{"union(dsc,bte,ttr)", "union(dsc,bte,ttr)"},
		{"union(dsc)", "dsc"},
		{"union(dsc, union(bte, ttr))", "union(dsc,bte,ttr)"},
		{"inter(dsc>bte, density)", "inter(dsc>bte,density)"},
		{"inter(union(dsc,bte),ttr)", "inter(union(dsc,bte),ttr)"},
		{"vote(dsc,bte,ttr)", "vote(dsc,bte,ttr;2)"},
		{"vote(dsc,bte,ttr:2;2)", "vote(dsc,bte,ttr:2;2)"},
		{"vote(dsc:1,bte:1.0,ttr:2.50 ; 2.0)", "vote(dsc,bte,ttr:2.5;2)"},
		{"vote(dsc,bte,ttr:2)", "vote(dsc,bte,ttr:2;3)"},
		{"vote(dsc:0.5,bte)", "vote(dsc:0.5,bte;0.75)"},
		{"vote(dsc>bte:2, ttr; 1)", "vote(dsc>bte:2,ttr;1)"},
		{"2*vote(dsc,bte,ttr)>density", "2*vote(dsc,bte,ttr;2)>density"},
	} {
		f, err := Parse(c.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.expr, err)
			continue
		}
		if f.Name() != c.name {
			t.Errorf("Parse(%q).Name() = %q, want %q", c.expr, f.Name(), c.name)
		}
		g, err := Parse(f.Name())
		if err != nil || g.Name() != f.Name() {
			t.Errorf("Parse(%q) = %v, %v: canonical name does not round-trip", f.Name(), g, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ expr, err string }{
		{"lqf>>bte", `filter expression "lqf>>bte": column 5: expected a filter name, got ">"`},
		{"", `filter expression "": column 1: expected a filter name, got end of expression`},
		{"bte>", `filter expression "bte>": column 5: expected a filter name, got end of expression`},
		{"bte dsc", `filter expression "bte dsc": column 5: expected ">" or end of expression, got name "dsc"`},
		{"nosuch", `filter expression "nosuch": column 1: unknown filter "nosuch" (known: `},
		{"bte>nosuch", `column 5: unknown filter "nosuch"`},
		{"3dsc", `column 2: expected "*" after the repetition count 3, got name "dsc"`},
		{"0*dsc", `column 1: repetition count must be a whole number from 1 to 256, got "0"`},
		{"257*dsc", `column 1: repetition count must be a whole number from 1 to 256, got "257"`},
		{"2.5*dsc", `column 1: repetition count must be a whole number from 1 to 256, got "2.5"`},
		{"union", `column 6: expected "(" after "union", got end of expression`},
		{"union()", `column 7: expected a filter name, got ")"`},
		{"union(dsc bte)", `column 11: expected ">", "," or ")", got name "bte"`},
		{"union(dsc,", `column 11: expected a filter name, got end of expression`},
		{"vote(dsc:x)", `column 10: expected a number (the vote weight), got name "x"`},
		{"vote(dsc;)", `column 10: expected a number (the vote threshold), got ")"`},
		{"vote(dsc;1,bte)", `column 11: expected ")" after the vote threshold, got ","`},
		{"vote(dsc bte)", `column 10: expected ">", ":", ",", ";" or ")", got name "bte"`},
		{"vote(dsc:99999999999)", `column 10: vote weight 99999999999 is out of range (at most 1000000000)`},
		{"(bte", `column 5: expected ">" or ")", got end of expression`},
		{"bte)", `column 4: expected ">" or end of expression, got ")"`},
		{"bte&dsc", `column 4: expected ">" or end of expression, got "&"`},
		{"été>ß", `column 1: unknown filter "été"`},
		{"\u00a0\u00a0bte&", `column 6: expected ">" or end of expression, got "&"`},
		{"bte>…", `column 5: expected a filter name, got "…"`},
		{"16*(17*bte)", `column 4: expression too large: more than 256 filters`},
		{strings.Repeat("(", 70) + "bte" + strings.Repeat(")", 70), `column 65: expression nested more than 64 deep`},
	} {
		_, err := Parse(c.expr)
		if err == nil {
			t.Errorf("Parse(%q): no error, want %s", c.expr, c.err)
			continue
		}
		if !strings.Contains(err.Error(), c.err) {
			t.Errorf("Parse(%q):\n got %s\nwant %s", c.expr, err, c.err)
		}
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Expr != c.expr || pe.Column < 1 {
			t.Errorf("Parse(%q): error %#v is not a *ParseError with a column", c.expr, err)
		}
	}
}

func TestParsedFiltersScore(t *testing.T) {
	// A parsed expression scores like the same combination built in Go.
	p, _ := fxArticle()
	for _, c := range []struct {
		expr string
		f    Filter
	}{
		{"dsc>bte", Serial(NewDSC(), BTE{})},
		{"union(dsc,ttr)", Union(NewDSC(), NewTTR())},
		{"vote(dsc,bte,density:2;2)", Vote([]float64{1, 1, 2}, 2, NewDSC(), BTE{}, NewDensity())},
	} {
		f, err := Parse(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		got, want := Run(f, p), Run(c.f, p)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: block %d %v, want %v", c.expr, i, got[i], want[i])
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"bte", "lqf>bte", "3*dsc", "union(dsc,bte,accb)", "inter(a,b)",
		"vote(dsc,bte,accb:2;2)", "vote(dsc:0.5,bte)", "(dsc>bte)>ttr", "2*(dsc>bte)",
		"lqf>>bte", "vote(dsc;1,bte)", "été", "0*x", "union(dsc,", "((((bte))))",
	} {
		f.Add(s)
	}
	p, _ := fxArticle()
	out := make([]float64, len(p.Blocks))
	f.Fuzz(func(t *testing.T, expr string) {
		g, err := Parse(expr)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Column < 1 || pe.Column > len([]rune(expr))+1 {
				t.Fatalf("Parse(%q): bad error %v", expr, err)
			}
			return
		}
		name := g.Name()
		h, err := Parse(name)
		if err != nil {
			t.Fatalf("Parse(%q) ok with name %q, which does not parse: %v", expr, name, err)
		}
		if h.Name() != name {
			t.Fatalf("Parse(%q).Name() = %q, reparsed as %q", expr, name, h.Name())
		}
		if len(expr) < 200 {
			g.Score(p, nil, out)
			for i, s := range out {
				if math.IsNaN(s) || s < 0 || s > 1 {
					t.Fatalf("%s: block %d scored %v", name, i, s)
				}
			}
		}
	})
}
