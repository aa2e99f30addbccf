package main

import (
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
)

// Each host wraps its pages' content in a template of its own: a masthead
// with the site's name and tagline, a menu, a breadcrumb, a side box of
// related links and a footer of boilerplate sentences and links. The link
// texts, class names and sentences are drawn per host from the word lists
// below, so that what repeats is different on every host; a page varies
// its breadcrumb section and the related links it shows, as real
// templates do.

var enWords = strings.Fields(`garden river market harbour valley north south
	city county weekly daily morning evening review journal record herald
	tribune courier digest notes letters guide field stone bridge lantern
	compass anchor signal beacon summit meadow forest island coast harbor
	station square avenue corner street district local global national
	science health money travel food music books film sport weather energy
	climate schools housing transport policy culture history design craft
	kitchen cycling running sailing climbing photography gardening coffee
	wine cheese bread pottery poetry chess radio cinema theatre painting
	software hardware network security privacy open public civic community
	family parents students teachers readers members volunteers neighbours
	builders makers farmers growers walkers riders writers editors
	archive events projects reports stories features interviews columns
	podcasts newsletters videos galleries tutorials recipes reviews maps`)

var enVerbs = strings.Fields(`covers follows explains reports collects tracks
	reviews maps celebrates questions publishes curates`)

var zhWords = strings.Fields(`新闻 财经 科技 体育 娱乐 健康 教育 旅游 汽车 房产
	文化 历史 美食 时尚 读书 军事 国际 社会 法治 环保 天气 音乐 电影 游戏
	城市 乡村 市场 股票 基金 银行 保险 创业 数码 手机 家居 母婴 养生 图片
	视频 专题 评论 访谈 博客 论坛 社区 问答 生活 服务 政策 公告 招聘 合作`)

var enPatterns = []string{
	"%[1]s %[3]s %[4]s and %[5]s for %[6]s who care about the %[7]s.",
	"Sign up for the %[1]s %[4]s letter and get %[5]s and %[6]s every week.",
	"All %[4]s on %[1]s are written by %[6]s and checked by our %[7]s desk.",
	"%[1]s is supported by its %[6]s: become one of them and keep our %[5]s free.",
	"Material on %[1]s may not be reproduced without permission of the %[7]s team.",
	"Questions about %[4]s or %[5]s? Write to the %[1]s %[7]s office.",
}

var zhPatterns = []string{
	"%[1]s致力于为读者提供最新的%[4]s和%[5]s资讯。",
	"本站所有%[4]s内容均由%[1]s编辑部审核，未经许可不得转载。",
	"欢迎订阅%[1]s%[5]s周报，每周获取%[6]s精选。",
	"如对%[4]s或%[5]s有任何疑问，请联系%[1]s%[7]s中心。",
	"%[1]s版权所有，%[6]s频道保留一切权利。",
}

// host is a site of the crawl with its template.
type host struct {
	name     string // as in the URIs: a name (Unicode for an IDN), an IPv4 address or [IPv6]
	zh       bool
	site     string // the site's name as shown
	cls      string // the prefix of its class names
	tagline  string
	menu     []string
	sections []string
	related  []string
	side     string
	boiler   []string
	footer   []string
}

// newHost draws host i's template; name is its address.
func newHost(r *rand.Rand, i int, name string, zh bool) *host {
	h := &host{name: name, zh: zh}
	words, pats := enWords, enPatterns
	if zh {
		words, pats = zhWords, zhPatterns
	}
	pick := func() string { return words[r.IntN(len(words))] }
	phrase := func(n int) string {
		w := make([]string, n)
		for k := range w {
			w[k] = pick()
		}
		if zh {
			return strings.Join(w, "")
		}
		return title(strings.Join(w, " "))
	}
	h.site = phrase(2)
	h.cls = fmt.Sprintf("%s%d", strings.ToLower(enWords[r.IntN(len(enWords))][:3]), i)
	sentence := func() string {
		args := []any{h.site, "", enVerbs[r.IntN(len(enVerbs))], pick(), pick(), pick(), pick()}
		return fmt.Sprintf(pats[r.IntN(len(pats))], args...)
	}
	h.tagline = sentence()
	for range 8 {
		h.menu = append(h.menu, phrase(1+r.IntN(2)))
	}
	h.sections = h.menu[:4]
	for range 12 {
		h.related = append(h.related, phrase(3+r.IntN(4)))
	}
	h.side = phrase(2)
	for range 3 {
		h.boiler = append(h.boiler, sentence())
	}
	for range 6 {
		h.footer = append(h.footer, phrase(1+r.IntN(2)))
	}
	return h
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func slug(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, " ", "-"))
}

// render writes a page of h: the template around body (already HTML).
// section picks the breadcrumb, related the side box's links (drawn by r).
func (h *host) render(b *strings.Builder, r *rand.Rand, pageTitle, dateline, body string) {
	e := html.EscapeString
	lang := "en"
	if h.zh {
		lang = "zh"
	}
	fmt.Fprintf(b, "<!DOCTYPE html>\n<html lang=%q><head><meta charset=\"utf-8\"><title>%s | %s</title>"+
		"<link rel=\"stylesheet\" href=\"/%s/site.css\"></head>\n<body class=\"%s-page\">\n", lang, e(pageTitle), e(h.site), h.cls, h.cls)
	fmt.Fprintf(b, "<header class=\"%s-masthead\"><a class=\"%s-logo\" href=\"/\">%s</a><p class=\"%s-tagline\">%s</p>\n<nav class=\"%s-menu\"><ul>",
		h.cls, h.cls, e(h.site), h.cls, e(h.tagline), h.cls)
	for _, m := range h.menu {
		fmt.Fprintf(b, "<li><a href=\"/%s/\">%s</a></li>", e(slug(m)), e(m))
	}
	sec := h.sections[r.IntN(len(h.sections))]
	fmt.Fprintf(b, "</ul></nav></header>\n<div class=\"%s-crumbs\"><a href=\"/\">%s</a> › <a href=\"/%s/\">%s</a></div>\n<main class=\"%s-content\">\n",
		h.cls, e(h.site), e(slug(sec)), e(sec), h.cls)
	if dateline != "" {
		fmt.Fprintf(b, "<p class=\"%s-dateline\">%s</p>\n", h.cls, e(dateline))
	}
	b.WriteString(body)
	fmt.Fprintf(b, "\n</main>\n<aside class=\"%s-side\"><h3>%s</h3><ul>", h.cls, e(h.side))
	for _, k := range r.Perm(len(h.related))[:5] {
		fmt.Fprintf(b, "<li><a href=\"/%s/%s.html\">%s</a></li>", e(slug(sec)), e(slug(h.related[k])), e(h.related[k]))
	}
	fmt.Fprintf(b, "</ul><p>%s</p></aside>\n<footer class=\"%s-foot\">", e(h.boiler[0]), h.cls)
	for _, s := range h.boiler[1:] {
		fmt.Fprintf(b, "<p>%s</p>", e(s))
	}
	fmt.Fprintf(b, "<p>© 2024 %s</p><ul>", e(h.site))
	for _, f := range h.footer {
		fmt.Fprintf(b, "<li><a href=\"/about/%s\">%s</a></li>", e(slug(f)), e(f))
	}
	b.WriteString("</ul></footer>\n</body></html>\n")
}
