package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Config says what crawl to generate.
type Config struct {
	Records  int     `json:"records"`   // response records
	Hosts    int     `json:"hosts"`     // hosts they are spread over
	Files    int     `json:"files"`     // .warc.gz files they are interleaved over
	Planted  int     `json:"planted"`   // planted near-duplicate copies
	SameHost float64 `json:"same_host"` // share of the copies on their original's host
	NoURI    int     `json:"no_uri"`    // response records without WARC-Target-URI
	DupIDs   int     `json:"dup_ids"`   // response records reusing another's WARC-Record-ID
	Replace  float64 `json:"replace"`   // share of each record's units replaced (see edit.go)
	MinWords float64 `json:"min_words"` // least word-equivalents of a planted original's text
	Seed     uint64  `json:"seed"`
}

// slot is one response record of the crawl, as planned.
type slot struct {
	host   int
	src    *source
	uri    string // "" for a record without target URI
	path   string
	id     string
	seed   uint64
	copyOf int // the slot this one is a planted copy of, or -1
	orig   bool
}

// plan is the whole crawl before it is written.
type plan struct {
	cfg     Config
	hosts   []*host
	slots   []slot
	order   []int // slots in crawl order; slot order[i] goes to file i % Files
	reused  int   // records whose shared page an earlier record used too
	sources int   // distinct shared pages used
}

// newPlan assigns hosts, shared pages, planted copies, missing URIs and
// duplicate record IDs.
func newPlan(cfg Config, srcs []*source) (*plan, error) {
	if cfg.Hosts < 1 || cfg.Records < cfg.Hosts || cfg.Files < 1 {
		return nil, fmt.Errorf("need at least one host, one file and as many records as hosts (%d records, %d hosts, %d files)", cfg.Records, cfg.Hosts, cfg.Files)
	}
	if 2*cfg.Planted+cfg.NoURI+cfg.DupIDs > cfg.Records/2 {
		return nil, fmt.Errorf("%d planted copies, %d records without URI and %d duplicate IDs are too many for %d records", cfg.Planted, cfg.NoURI, cfg.DupIDs, cfg.Records)
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 1))
	p := &plan{cfg: cfg}
	en, zh := splitSources(srcs)
	zhHosts := 0
	if len(zh) > 0 {
		zhHosts = max(1, cfg.Hosts*len(zh)/len(srcs))
	}
	for i := range cfg.Hosts {
		p.hosts = append(p.hosts, newHost(r, i, hostName(r, i), chinese(i, cfg.Hosts, zhHosts)))
	}
	p.fillSlots(r, en, zh)
	if err := p.plant(r); err != nil {
		return nil, err
	}
	p.markBadInput(r)
	p.order = r.Perm(len(p.slots))
	return p, nil
}

// chinese says whether host i of n is one of the zh hosts, spread evenly.
func chinese(i, n, zh int) bool {
	switch {
	case zh == 0:
		return false
	case zh >= n:
		return true
	}
	step := n / zh
	return i%step == 1%step && i/step < zh
}

func splitSources(srcs []*source) (en, zh []*source) {
	for _, s := range srcs {
		if s.zh {
			zh = append(zh, s)
		} else {
			en = append(en, s)
		}
	}
	return en, zh
}

// hostName is host i's address: mostly names, some internationalised
// names (in Unicode) and some IP addresses, IPv6 among them.
func hostName(r *rand.Rand, i int) string {
	switch i % 100 {
	case 7:
		if i%200 == 7 {
			return fmt.Sprintf("bücher-%04d.example", i)
		}
		return fmt.Sprintf("新闻-%04d.example", i)
	case 13:
		if i%200 == 13 {
			return fmt.Sprintf("[2001:db8::%x]", i)
		}
		return fmt.Sprintf("198.51.%d.%d", 100+i/25600, 1+i/100%250)
	}
	return fmt.Sprintf("%s%s-%04d.example", enWords[r.IntN(len(enWords))], enWords[r.IntN(len(enWords))], i)
}

// hostSizes spreads n records over h hosts: a few each, the rest as 1/rank
// (a few large hosts, a long tail).
func hostSizes(n, h int) []int {
	base := min(3, n/h)
	sizes := make([]int, h)
	var w float64
	for i := range h {
		w += 1 / float64(i+1)
	}
	left := n - base*h
	extra := left
	for i := range sizes {
		k := int(float64(extra) / float64(i+1) / w)
		sizes[i] = base + k
		left -= k
	}
	for i := 0; left > 0; i = (i + 1) % h {
		sizes[i]++
		left--
	}
	return sizes
}

// fillSlots gives each host its records, each with the next shared page of
// its language (pages cycled in a shuffled order, so that reuse is even).
func (p *plan) fillSlots(r *rand.Rand, en, zh []*source) {
	next := map[bool]int{}
	pools := map[bool][]*source{false: en, true: zh}
	for _, pool := range [][]*source{en, zh} { // in this order: the crawl depends on the seed only
		r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	}
	used := map[*source]bool{}
	for hi, n := range hostSizes(p.cfg.Records, p.cfg.Hosts) {
		h := p.hosts[hi]
		pool := pools[h.zh]
		if len(pool) == 0 {
			pool = pools[!h.zh]
		}
		for k := range n {
			src := pool[next[h.zh]%len(pool)]
			next[h.zh]++
			if used[src] {
				p.reused++
			}
			used[src] = true
			sec := slug(h.sections[k%len(h.sections)])
			path := fmt.Sprintf("/%s/%d-%s.html", sec, k, slug(firstWords(src.title, 4)))
			p.slots = append(p.slots, slot{host: hi, src: src, path: path, uri: "http://" + h.name + path,
				id: recordID(r), seed: r.Uint64(), copyOf: -1})
		}
	}
	p.sources = len(used)
}

func recordID(r *rand.Rand) string {
	return fmt.Sprintf("<urn:uuid:%08x-%04x-4%03x-8%03x-%012x>", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xfff, r.Uint32()&0xfff, r.Uint64()&0xffffffffffff)
}

// plant makes cfg.Planted slots copies of others: an original with enough
// text, then a copy slot on the same host (the first SameHost share of
// the copies, where the host has another slot) or on another host of the
// same language.
func (p *plan) plant(r *rand.Rand) error {
	byHost := make([][]int, len(p.hosts))
	for i, s := range p.slots {
		byHost[s.host] = append(byHost[s.host], i)
	}
	free := func(i int) bool { return !p.slots[i].orig && p.slots[i].copyOf < 0 }
	same := int(float64(p.cfg.Planted) * p.cfg.SameHost)
	for k, tries := 0, 0; k < p.cfg.Planted; tries++ {
		if tries > 100*p.cfg.Planted+1000 {
			return fmt.Errorf("could plant only %d of %d copies: too few records with %.0f words", k, p.cfg.Planted, p.cfg.MinWords)
		}
		o := r.IntN(len(p.slots))
		if !free(o) || p.slots[o].src.weight < p.cfg.MinWords {
			continue
		}
		oh := p.slots[o].host
		var c int
		if k < same && len(byHost[oh]) > 1 {
			c = byHost[oh][r.IntN(len(byHost[oh]))]
		} else {
			c = r.IntN(len(p.slots))
			if p.slots[c].host == oh || p.hosts[p.slots[c].host].zh != p.hosts[oh].zh {
				continue
			}
		}
		if c == o || !free(c) {
			continue
		}
		p.slots[o].orig = true
		p.slots[c].copyOf = o
		p.slots[c].src = p.slots[o].src
		k++
	}
	return nil
}

// markBadInput drops the target URI of cfg.NoURI records and gives
// cfg.DupIDs records the record ID of another, all outside the planted
// pairs.
func (p *plan) markBadInput(r *rand.Rand) {
	var plain []int
	for i, s := range p.slots {
		if !s.orig && s.copyOf < 0 {
			plain = append(plain, i)
		}
	}
	r.Shuffle(len(plain), func(i, j int) { plain[i], plain[j] = plain[j], plain[i] })
	for _, i := range plain[:p.cfg.NoURI] {
		p.slots[i].uri = ""
	}
	for k, i := range plain[p.cfg.NoURI : p.cfg.NoURI+p.cfg.DupIDs] {
		p.slots[i].id = p.slots[plain[len(plain)-1-k]].id
	}
}

// pairs returns the planted (copy, original) slot pairs, by copy.
func (p *plan) pairs() [][2]int {
	var out [][2]int
	for i, s := range p.slots {
		if s.copyOf >= 0 {
			out = append(out, [2]int{i, s.copyOf})
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int { return a[0] - b[0] })
	return out
}

func firstWords(s string, n int) string {
	var w []rune
	words := 0
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			w = append(w, c)
		case c >= 'A' && c <= 'Z':
			w = append(w, c+'a'-'A')
		case len(w) > 0 && w[len(w)-1] != ' ':
			words++
			if words >= n {
				return string(w)
			}
			w = append(w, ' ')
		}
	}
	if t := strings.TrimSpace(string(w)); t != "" {
		return t
	}
	return "page"
}
