package main

import (
	"regexp"
	"slices"
	"strings"
)

// The kinds, in the order classify tries them: the first rule that holds
// names the block's kind.
var kindOrder = []string{
	"modal/dialog/drawer", "machine strings (ids, hashes)", "image alt text", "cookie/consent/newsletter", "code/preformatted", "breadcrumb", "review/rating", "comment/post meta line",
	"comment body", "data table", "key/value (dl, label: value)", "related/carousel",
	"header/footer/nav/aside", "teaser item (repeated structure)", "price/button/short label",
	"link-heavy", "other short (<=5 words)", "quoted text (testimonial)", "other prose",
}

var (
	quoted      = regexp.MustCompile(`^\s*["“„«]`)
	cueModal    = regexp.MustCompile(`modal|dialog|popup|pop-up|drawer|lightbox|overlay|takeover`)
	cueConsent  = regexp.MustCompile(`cookie|consent|gdpr|onetrust|\bot-`)
	cueDialog   = regexp.MustCompile(`modal|dialog`)
	cueCookie   = regexp.MustCompile(`cookie|consent|gdpr|onetrust|\bot-|newsletter|subscri|signup|sign-up`)
	textCookie  = regexp.MustCompile(`(?i)\bcookies?\b|newsletter|subscribe|sign up for`)
	cueCrumb    = regexp.MustCompile(`crumb`)
	cueReview   = regexp.MustCompile(`review|rating|testimonial|stars?\b|feedback`)
	cueComment  = regexp.MustCompile(`comment|reply|replies|post-?meta|postinfo|post-info|author|byline|avatar|user-?info|signature|postprofile|usertext|message-?info`)
	textMeta    = regexp.MustCompile(`(?i)\b(reply|quote|joined|posts?:|ago|likes?|report|share|permalink|posted|member since|registered)\b|\d{1,2}[:/.]\d{2}|\b(19|20)\d\d\b`)
	keyValue    = regexp.MustCompile(`^[^:]{1,40}:\s*\S`)
	cueRelated  = regexp.MustCompile(`related|recommend|similar|upsell|up-sell|cross-?sell|carousel|slider|swiper|slick|also-?(bought|viewed|like)|you-may`)
	cueFrame    = regexp.MustCompile(`footer|header|\bnav|menu|sidebar|masthead`)
	textPrice   = regexp.MustCompile(`[$€£¥₹]|\b(usd|eur|gbp)\b|\d`)
	frameTags   = []string{"footer", "header", "nav", "aside"}
	controlTags = []string{"button", "label", "select", "option", "form"}
)

// classify names the kind of a block by observable rules.
func classify(b *blockInfo) string {
	f := &b.f
	short := f.words <= 12
	hasTag := func(tags ...string) bool {
		return slices.ContainsFunc(f.tags, func(t string) bool { return slices.Contains(tags, t) })
	}
	switch {
	case f.modal:
		return kindOrder[0]
	case machine(b.text):
		return kindOrder[1]
	case f.alt:
		return kindOrder[2]
	case cueCookie.MatchString(f.cue) || f.words <= 40 && textCookie.MatchString(b.text):
		return kindOrder[3]
	case f.pre:
		return kindOrder[4]
	case cueCrumb.MatchString(f.cue):
		return kindOrder[5]
	case cueReview.MatchString(f.cue):
		return kindOrder[6]
	case short && (cueComment.MatchString(f.cue) || textMeta.MatchString(b.text) && f.rep >= minRep):
		return kindOrder[7]
	case cueComment.MatchString(f.cue):
		return kindOrder[8]
	case f.dataTable:
		return kindOrder[9]
	case hasTag("dl", "dt", "dd") || short && keyValue.MatchString(b.text):
		return kindOrder[10]
	case cueRelated.MatchString(f.cue):
		return kindOrder[11]
	case hasTag(frameTags...) || cueFrame.MatchString(f.cue):
		return kindOrder[12]
	case f.rep >= minRep && f.itemWords <= 60:
		return kindOrder[13]
	case f.words <= 4 && (textPrice.MatchString(b.text) || hasTag(controlTags...)):
		return kindOrder[14]
	case f.linkDens >= 0.5:
		return kindOrder[15]
	case f.words <= 5:
		return kindOrder[16]
	case quoted.MatchString(b.text):
		return kindOrder[17]
	}
	return kindOrder[18]
}

// rule is a naive removal rule: drop every kept block it holds for.
type rule struct {
	name string
	drop func(*blockInfo) bool
}

var rules = []rule{
	{"repeated item: >=3 same-signature siblings, item <=60 words", func(b *blockInfo) bool {
		return b.f.rep >= 3 && b.f.itemWords <= 60
	}},
	{"repeated item: >=5 siblings, item <=40 words", func(b *blockInfo) bool {
		return b.f.rep >= 5 && b.f.itemWords <= 40
	}},
	{"repeated item: >=3 siblings, item <=60 words, link density >=0.3", func(b *blockInfo) bool {
		return b.f.rep >= 3 && b.f.itemWords <= 60 && b.f.linkDens >= 0.3
	}},
	{"repeated item (>=3, <=60 words) outside the page's largest repeated group", func(b *blockInfo) bool {
		return b.f.rep >= 3 && b.f.itemWords <= 60 && !b.f.mainGroup
	}},
	{"same, link density >=0.3", func(b *blockInfo) bool {
		return b.f.rep >= 3 && b.f.itemWords <= 60 && !b.f.mainGroup && b.f.linkDens >= 0.3
	}},
	{"region: outside the deepest element with 80% of the kept words", func(b *blockInfo) bool { return b.f.outside80 }},
	{"region: outside the deepest element with 60% of the kept words", func(b *blockInfo) bool { return b.f.outside60 }},
	{"data table cell (tables.Classify = data)", func(b *blockInfo) bool { return b.f.dataTable }},
	{"data table cell, block <=6 words", func(b *blockInfo) bool { return b.f.dataTable && b.f.words <= 6 }},
	{"review/rating cue", func(b *blockInfo) bool { return cueReview.MatchString(b.f.cue) }},
	{"comment cue", func(b *blockInfo) bool { return cueComment.MatchString(b.f.cue) }},
	{"related/carousel cue", func(b *blockInfo) bool { return cueRelated.MatchString(b.f.cue) }},
	{"header/footer/nav/aside tag or cue", func(b *blockInfo) bool {
		return slices.ContainsFunc(b.f.tags, func(t string) bool { return slices.Contains(frameTags, t) }) ||
			cueFrame.MatchString(b.f.cue)
	}},
	{"cookie/consent/newsletter cue or text", func(b *blockInfo) bool {
		return cueCookie.MatchString(b.f.cue) || b.f.words <= 40 && textCookie.MatchString(b.text)
	}},
	{"modal/dialog/drawer ancestor", func(b *blockInfo) bool { return b.f.modal }},
	{"machine strings (ids, hashes)", func(b *blockInfo) bool { return machine(b.text) }},
	{"image alt text block", func(b *blockInfo) bool { return b.f.alt }},
	{"quoted text (testimonial)", func(b *blockInfo) bool { return quoted.MatchString(b.text) }},
	{"code/preformatted", func(b *blockInfo) bool { return b.f.pre }},
	{"breadcrumb cue", func(b *blockInfo) bool { return cueCrumb.MatchString(b.f.cue) }},
	{"short block (<=4 words) with price/digit or form control", func(b *blockInfo) bool {
		return b.kind == kindOrder[14]
	}},
	{"link density >=0.5 (any length)", func(b *blockInfo) bool { return b.f.linkDens >= 0.5 }},
	{"modal or dialog cue only (narrow)", func(b *blockInfo) bool { return b.f.dialog }},
	{"dialog cue, the dialog holding under half the kept words", func(b *blockInfo) bool {
		return b.f.dialog && b.f.dialogShare < 0.5
	}},
	{"consent cue only (cookie, consent, gdpr, onetrust, ot-)", func(b *blockInfo) bool { return cueConsent.MatchString(b.f.cue) }},
	{"combined: minority dialog, consent cue, alt-only, machine strings", func(b *blockInfo) bool {
		return b.f.dialog && b.f.dialogShare < 0.5 || cueConsent.MatchString(b.f.cue) || b.f.alt || machine(b.text)
	}},
	{"combined, without the dialog cue", func(b *blockInfo) bool {
		return cueConsent.MatchString(b.f.cue) || b.f.alt || machine(b.text)
	}},
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// machine reports whether most of the text is in long runs of letters
// and digits mixed (uuids, hashes, tracking ids): at least 60% of its
// characters in words of 20 or more characters holding a digit.
func machine(s string) bool {
	long, all := 0, 0
	for _, w := range strings.Fields(s) {
		all += len(w)
		if len(w) >= 20 && strings.ContainsAny(w, "0123456789") {
			long += len(w)
		}
	}
	return all > 0 && 10*long >= 6*all
}
