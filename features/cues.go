package features

import (
	"iter"
	"slices"

	"github.com/sluice-project/sluice/page"
)

// cueTable lists the class/id cues, each with the tokens that stand for it.
// A token matches a cue exactly or, for alternatives of four letters or
// more, by prefix ("commentlist" is comment).
var cueTable = []struct {
	cue  string
	alts []string
}{
	{"nav", []string{"nav", "navigation", "navbar", "navi", "topnav", "subnav"}},
	{"menu", []string{"menu", "menus", "menubar", "dropdown"}},
	{"header", []string{"header", "masthead", "topbar"}},
	{"footer", []string{"footer", "colophon"}},
	{"sidebar", []string{"sidebar", "side", "aside", "rail", "sidenav"}},
	{"comment", []string{"comment", "comments", "disqus", "reply", "replies", "discussion"}},
	{"share", []string{"share", "sharing", "sharer", "addthis"}},
	{"social", []string{"social", "facebook", "twitter"}},
	{"related", []string{"related", "recommended", "recommend", "similar"}},
	{"breadcrumb", []string{"breadcrumb", "breadcrumbs", "crumb", "crumbs"}},
	{"cookie", []string{"cookie", "cookies", "consent", "gdpr"}},
	{"banner", []string{"banner"}},
	{"ad", []string{"ad", "ads", "advert", "adverts", "advertisement", "adsense", "sponsor", "sponsored", "dfp", "leaderboard", "adslot"}},
	{"promo", []string{"promo", "promotion", "teaser"}},
	{"widget", []string{"widget", "widgets"}},
	{"login", []string{"login", "signin", "signup", "register", "account"}},
	{"search", []string{"search", "searchform"}},
	{"tag", []string{"tag", "tags", "tagcloud", "keywords"}},
	{"author", []string{"author", "authors"}},
	{"byline", []string{"byline"}},
	{"date", []string{"date", "time", "timestamp", "published", "pubdate", "dateline"}},
	{"meta", []string{"meta", "metadata"}},
	{"caption", []string{"caption", "figcaption", "credit", "credits"}},
	{"article", []string{"article", "articles"}},
	{"content", []string{"content", "contents"}},
	{"main", []string{"main"}},
	{"post", []string{"post", "posts"}},
	{"entry", []string{"entry", "entries"}},
	{"body", []string{"body"}},
	{"text", []string{"text", "copy"}},
	{"story", []string{"story", "stories"}},
	{"title", []string{"title", "headline", "heading"}},
	{"pager", []string{"pagination", "pager", "paging", "pagenav"}},
	{"subscribe", []string{"subscribe", "newsletter", "subscription"}},
	{"popup", []string{"popup", "modal", "overlay", "lightbox"}},
	{"hidden", []string{"hidden", "hide", "invisible"}},
	{"legal", []string{"copyright", "legal", "disclaimer", "privacy", "terms"}},
	{"links", []string{"links", "linklist", "blogroll", "sitemap"}},
	{"logo", []string{"logo", "brand", "branding"}},
	{"toolbar", []string{"toolbar", "tools", "utility"}},
	{"lead", []string{"lead", "intro", "summary", "abstract", "excerpt", "standfirst"}},
	{"carousel", []string{"carousel", "slider", "slideshow", "slick", "swiper", "marquee", "ticker"}},
	{"product", []string{"product", "products", "sku", "pdp", "plp"}},
	{"price", []string{"price", "prices", "pricing", "cart", "basket", "checkout"}},
	{"review", []string{"review", "reviews", "rating", "ratings", "stars", "testimonial", "testimonials"}},
	{"card", []string{"card", "cards", "tile", "tiles", "grid"}},
	{"alert", []string{"alert", "alerts", "notice", "announcement", "notification", "toast"}},
	{"thread", []string{"thread", "topic", "forum", "question", "answer", "answers"}},
}

var (
	cueIndex = func() map[string]uint8 {
		m := map[string]uint8{}
		for i, c := range cueTable {
			for _, a := range c.alts {
				m[a] = uint8(i)
			}
		}
		return m
	}()
	cueAttrs  = cueNames("cls=")
	cue0Attrs = cueNames("cls0=")
)

func cueNames(prefix string) []string {
	names := make([]string, len(cueTable))
	for i, c := range cueTable {
		names[i] = prefix + c.cue
	}
	return names
}

// classNodes yields the nearest four elements around node n (n itself
// first, then its ancestors) that have a class or an id.
func classNodes(p *page.Page, n int32) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		seen := 0
		for m := n; m >= 0 && int(m) < len(p.Nodes) && seen < 4; {
			nd := &p.Nodes[m]
			if nd.Class != "" || nd.ID != "" {
				seen++
				if !yield(m) {
					return
				}
			}
			if nd.Parent >= m {
				return // not a tree in pre-order: stop rather than loop
			}
			m = nd.Parent
		}
	}
}

// classCues returns the cues of the nearest four elements around node n
// that have a class or an id, and those of the innermost one with any cue.
func (s *scratch) classCues(p *page.Page, n int32) (all, inner uint64) {
	for m := range classNodes(p, n) {
		memo := &s.nodes[m]
		if memo.done&doneCues == 0 {
			nd := &p.Nodes[m]
			memo.cues = cues(nd.Class, &s.tok) | cues(nd.ID, &s.tok)
			memo.done |= doneCues
		}
		if inner == 0 {
			inner = memo.cues
		}
		all |= memo.cues
	}
	return all, inner
}

// cues returns the set of cues that the tokens of a class or id value
// match (classTokens, buf its buffer).
func cues(v string, buf *tokenBuf) uint64 {
	var set uint64
	classTokens(v, buf, func(tok []byte) { set |= matchCue(tok) })
	return set
}

// tokenBuf holds a class or id token while classTokens passes it on: the
// caller's, so that a call allocates nothing (a buffer of classTokens' own
// would escape to the heap through fn).
type tokenBuf [24]byte

// classTokens calls fn with each token of a class or id value: the value
// split into lower-case runs of ASCII letters at anything else (digits
// included) and at lower-to-upper case changes ("mainContent",
// "post-body_2"); runs longer than 24 letters are skipped. tok is buf's,
// only valid during the call.
func classTokens(v string, buf *tokenBuf, fn func(tok []byte)) {
	n, long := 0, false
	flush := func() {
		if n > 0 && !long {
			fn(buf[:n])
		}
		n, long = 0, false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z':
			if i > 0 && v[i-1] >= 'a' && v[i-1] <= 'z' {
				flush()
			}
			c += 'a' - 'A'
		default:
			flush()
			continue
		}
		if n == len(buf) {
			long = true
			continue
		}
		buf[n] = c
		n++
	}
	flush()
}

func matchCue(tok []byte) uint64 {
	if i, ok := cueIndex[string(tok)]; ok {
		return 1 << i
	}
	if len(tok) > 4 && tok[0]-'a' < 26 {
		for _, p := range cuePrefixes[tok[0]-'a'] {
			if len(p.alt) < len(tok) && string(tok[:len(p.alt)]) == p.alt {
				return 1 << p.cue
			}
		}
	}
	return 0
}

// cuePrefixes lists, by first letter, the cue alternatives of four letters
// or more, longest first, for matching them as prefixes.
var cuePrefixes = func() (t [26][]cuePrefix) {
	for i, c := range cueTable {
		for _, a := range c.alts {
			if len(a) >= 4 {
				t[a[0]-'a'] = append(t[a[0]-'a'], cuePrefix{a, uint8(i)})
			}
		}
	}
	for k := range t {
		slices.SortStableFunc(t[k], func(a, b cuePrefix) int { return len(b.alt) - len(a.alt) })
	}
	return t
}()

type cuePrefix struct {
	alt string
	cue uint8
}
