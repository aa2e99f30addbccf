package site_test

import (
	"fmt"
	"testing"

	"github.com/sluice-project/sluice/site"
)

// TestLearner learns two hosts whose pages come interleaved: each gets the
// model of its own pages, a page is a member up to the last page learned,
// and a host over MaxPages is learned from its first pages only.
func TestLearner(t *testing.T) {
	l := site.NewLearner(site.LearnOptions{MaxPages: 4})
	seq := uint64(0)
	for i := range 12 {
		host := "a.example"
		if i%3 == 2 {
			host = "b.example"
		}
		seq++
		l.Add(host, seq, article(t, i))
	}
	l.Skip("a.example") // a page not even parsed: over the cap
	ms := l.Models()
	want := site.LearnStats{Hosts: 2, Pages: 8, HostsOverCap: 1, PagesOverCap: 5}
	if got := ms.Stats(); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
	m, member := ms.Lookup("a.example", 5) // the fourth page of a.example: seq 1, 2, 4, 5
	if m == nil || m.Pages() != 4 || !member {
		t.Fatalf("a.example: model %v of %d pages, member %v", m != nil, m.Pages(), member)
	}
	if _, member := ms.Lookup("a.example", 7); member {
		t.Error("a.example's fifth page is a member")
	}
	p := article(t, 20)
	keepAll(p)
	if d, _ := m.Apply(p, false); d != len(template) {
		t.Errorf("a page not learned: %d blocks dropped, want %d", d, len(template))
	}
	if m, _ := ms.Lookup("c.example", 1); m != nil {
		t.Error("a host never added has a model")
	}
}

// TestLearnerBounded adds the pages of many hosts and of one large host to
// a Learner with a small memory bound: the tables stay under it, the
// hosts with the fewest pages are dropped first (counted), the large host
// keeps its model, and the same pages give the same models.
func TestLearnerBounded(t *testing.T) {
	const maxBytes = 64 << 10
	learn := func() *site.Models {
		l := site.NewLearner(site.LearnOptions{MaxPages: 50, MaxBytes: maxBytes})
		seq := uint64(0)
		for i := range 400 {
			seq++
			l.Add(fmt.Sprintf("h%03d.example", i), seq, article(t, i%26))
			if i%4 == 0 {
				seq++
				l.Add("big.example", seq, article(t, i%26))
			}
			if l.Bytes() > maxBytes {
				t.Fatalf("after %d pages: %d bytes held, over %d", i, l.Bytes(), maxBytes)
			}
		}
		return l.Models()
	}
	ms := learn()
	st := ms.Stats()
	if st.HostsDropped == 0 || st.Hosts+st.HostsDropped != 401 || st.PagesOverCap != 50 || st.HostsOverCap != 1 {
		t.Errorf("stats %+v: want hosts dropped, 401 hosts in all, 50 pages of one host over the cap", st)
	}
	if m, _ := ms.Lookup("big.example", 1); m == nil || m.Pages() != 50 {
		t.Errorf("big.example: no model of its first 50 pages")
	}
	if again := learn().Stats(); again != st {
		t.Errorf("a second run: %+v, the first %+v", again, st)
	}
}
