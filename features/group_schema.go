package features

import "github.com/sluice-project/sluice/crf"

// Schema: the kind of page its markup declares (page.Meta.Types: schema.org
// types in JSON-LD and microdata, og:type), the same for every block of the
// page. "kind=K" for each kind declared, product, article, forum (a
// thread or a question and its answers), list (an item list, a collection
// or search results), faq or other; "kind.none" when the page declares
// no schema.org type; "og=T" for og:type article, product, website or
// other. The same review, comment or related-items block is content on
// one kind of page and boilerplate on another (docs/page-types.md); these
// let the trees weigh the other evidence by the kind of page, in every
// language, as the vocabularies are the markup's.
const Schema Group = "schema"

// schemaKinds maps the schema.org types that say what a page is to its
// kind; other types (BreadcrumbList, Organization, WebSite...) say
// nothing of the page and give kind=other only when no type gives a kind.
var schemaKinds = map[string]uint8{
	"product": kindProduct, "productgroup": kindProduct, "productmodel": kindProduct,
	"individualproduct": kindProduct, "offer": kindProduct, "aggregateoffer": kindProduct,
	"car": kindProduct, "vehicle": kindProduct,
	"article": kindArticle, "newsarticle": kindArticle, "blogposting": kindArticle,
	"reportagenewsarticle": kindArticle, "analysisnewsarticle": kindArticle,
	"opinionnewsarticle": kindArticle, "backgroundnewsarticle": kindArticle,
	"reviewnewsarticle": kindArticle, "techarticle": kindArticle, "scholarlyarticle": kindArticle,
	"liveblogposting": kindArticle, "report": kindArticle,
	"discussionforumposting": kindForum, "qapage": kindForum, "question": kindForum,
	"socialmediaposting": kindForum,
	"itemlist":           kindList, "collectionpage": kindList, "searchresultspage": kindList,
	"offercatalog": kindList,
	"faqpage":      kindFAQ,
}

const (
	kindProduct = 1 << iota
	kindArticle
	kindForum
	kindList
	kindFAQ
	kindOther
)

var kindNames = [...]string{"kind=product", "kind=article", "kind=forum", "kind=list", "kind=faq", "kind=other"}

// schemaAttrs returns the page's Schema attributes.
func schemaAttrs(types []string, dst []string) []string {
	var kinds uint8
	og := ""
	for _, t := range types {
		if len(t) > 3 && t[:3] == "og:" {
			switch t[3:] {
			case "article", "product", "website":
				og = "og=" + t[3:]
			default:
				og = "og=other"
			}
			continue
		}
		kinds |= schemaKinds[t]
		if schemaKinds[t] == 0 {
			kinds |= kindOther
		}
	}
	if kinds&^kindOther != 0 {
		kinds &^= kindOther
	}
	for k, name := range kindNames {
		if kinds&(1<<k) != 0 {
			dst = append(dst, name)
		}
	}
	if kinds == 0 {
		dst = append(dst, "kind.none")
	}
	if og != "" {
		dst = append(dst, og)
	}
	return dst
}

var schemaGroup = groupSpec{
	group: Schema,
	keys:  []string{"kind", "kind.none", "og"},
	size:  [2]int{2, len(kindNames) + 1},
	page: func(s *scratch, _ []*Bucket) {
		s.kinds = schemaAttrs(s.p.Meta.Types, s.kinds[:0])
	},
	emit: func(_ *Extractor, s *scratch, _ int, _ []*Bucket, dst []crf.Attr) []crf.Attr {
		for _, k := range s.kinds {
			dst = append(dst, crf.Attr{Name: k})
		}
		return dst
	},
}
