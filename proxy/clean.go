package proxy

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/xhtml"
)

// page is what cleaning one response needs besides the response.
type page struct {
	cleaner *sluice.Cleaner
	set     string // the filter set's name, for the bar
}

// choose returns the cleaner of r and its name (nil: do not clean).
func (p *Proxy) choose(r *http.Request) (*sluice.Cleaner, string) {
	if p.cfg.Choose != nil {
		return p.cfg.Choose(r)
	}
	return p.cfg.Cleaner, p.cfg.FilterSet
}

// cleanable reports whether resp is an HTML page the proxy cleans: a 200
// (or 203) answer with a body to a request other than HEAD, typed
// text/html, in an encoding the proxy decodes. Partial content, errors,
// redirects and everything else pass through.
func cleanable(r *http.Request, resp *http.Response) bool {
	if r.Method == http.MethodHead || resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNonAuthoritativeInfo {
		return false
	}
	mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != "text/html" {
		return false
	}
	switch contentEncoding(resp.Header) {
	case "", "identity", "gzip", "x-gzip":
		return true
	}
	return false
}

// contentEncoding is the response's Content-Encoding, lower case ("" when
// there is none).
func contentEncoding(h http.Header) string {
	return strings.ToLower(strings.TrimSpace(h.Get("Content-Encoding")))
}

// serveCleaned answers with the cleaned page of resp. The body is read
// whole, up to MaxCleanBody (after gzip decoding): a larger body passes
// through unchanged, and so does one that does not clean (binary data
// labelled text/html, a failure in the cleaner), with a Sluice-Proxy
// header saying why.
func (p *Proxy) serveCleaned(ctx context.Context, w http.ResponseWriter, r *http.Request, resp *http.Response, pg page) {
	limit := p.cfg.MaxCleanBody
	if resp.ContentLength > limit {
		p.passThrough(w, resp, nil, "the page is larger than the proxy's cleaning limit")
		return
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		p.upstreamError(w, r, fmt.Errorf("reading the page: %w", err), false)
		return
	}
	if int64(len(raw)) > limit {
		p.passThrough(w, resp, raw, "the page is larger than the proxy's cleaning limit")
		return
	}
	data := raw
	if enc := contentEncoding(resp.Header); enc == "gzip" || enc == "x-gzip" {
		if data, err = gunzip(raw, limit); err != nil {
			p.passThrough(w, resp, raw, err.Error())
			return
		}
	}
	out, err := p.cleanPage(ctx, r, resp, data, pg)
	if err != nil {
		p.passThrough(w, resp, raw, err.Error())
		return
	}
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = v
	}
	for _, k := range changedByCleaning {
		h.Del(k)
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(out)))
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
	h.Set("Sluice-Filter-Set", pg.set)
	w.WriteHeader(resp.StatusCode)
	w.Write(out)
}

// changedByCleaning are the response fields that describe the original
// body and no longer hold for the cleaned one.
var changedByCleaning = []string{
	"Content-Encoding", "Content-Length", "Content-Range", "Accept-Ranges", "ETag", "Content-MD5",
	"Digest", "Content-Digest", "Repr-Digest", "Content-Security-Policy", "Content-Security-Policy-Report-Only",
}

// gunzip decodes a gzip body of at most limit decoded bytes.
func gunzip(raw []byte, limit int64) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("bad gzip body: %v", err)
	}
	data, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("bad gzip body: %v", err)
	}
	if int64(len(data)) > limit {
		return nil, errors.New("the decoded page is larger than the proxy's cleaning limit")
	}
	return data, nil
}

// cleanPage cleans data, the body of resp, and writes its kept content as
// XHTML (xhtml.Normalize) with the bar. A panic in the cleaner is an error here: the page passes through
// and the proxy stays up.
func (p *Proxy) cleanPage(ctx context.Context, r *http.Request, resp *http.Response, data []byte, pg page) (out []byte, err error) {
	defer func() {
		if v := recover(); v != nil {
			p.log.Error("proxy: the cleaner panicked", "url", r.URL.Redacted(), "panic", v)
			out, err = nil, fmt.Errorf("the cleaner failed: %v", v)
		}
	}()
	select {
	case p.cleaning <- struct{}{}:
		defer func() { <-p.cleaning }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if b := p.cfg.Budget; b != nil {
		cost := sluice.CleanCost(len(data))
		if err := b.Acquire(ctx, cost); err != nil {
			return nil, err
		}
		defer b.Release(cost)
	}
	pageURL := *r.URL
	pageURL.User = nil
	res, err := pg.cleaner.Clean(ctx, sluice.Input{Data: data, ContentType: resp.Header.Get("Content-Type"), URL: pageURL.String()})
	if err != nil {
		return nil, err
	}
	// The kept content with its original markup (headings, lists, tables,
	// links, emphasis), as well-formed XHTML: what sluice normalize --clean
	// writes, and what CombinE's proxy returns.
	var buf bytes.Buffer
	buf.Grow(len(data) / 4)
	if _, err := xhtml.Normalize(&buf, data, xhtml.Options{ContentType: resp.Header.Get("Content-Type"), Content: res.Page}); err != nil {
		return nil, err
	}
	return p.withBar(buf.Bytes(), pageURL.String(), pg.set, !res.Empty()), nil
}

// withBar puts the bar at the top of the body of doc, a page written by
// xhtml.Normalize (whose title is escaped, so the first "<body>" is the
// body's start tag).
func (p *Proxy) withBar(doc []byte, pageURL, set string, kept bool) []byte {
	i := bytes.Index(doc, []byte("<body>"))
	if i < 0 {
		return doc
	}
	i += len("<body>")
	bar := p.bar(pageURL, set, kept)
	out := make([]byte, 0, len(doc)+len(bar))
	out = append(out, doc[:i]...)
	out = append(out, bar...)
	return append(out, doc[i:]...)
}

// bar is the note at the top of a cleaned page: the filter set, that
// nothing was kept when nothing was (a page with no main content, the
// shell of one a script fills in), and a link to the page in the
// inspector when Config.InspectURL is set.
func (p *Proxy) bar(pageURL, set string, kept bool) string {
	var b strings.Builder
	b.WriteString(`<div id="sluice-bar" role="note" style="font:14px/1.4 system-ui,sans-serif;background:#fff8dc;color:#222;border-bottom:1px solid #b8a45a;padding:6px 10px;margin:0 0 1em">`)
	b.WriteString(`Cleaned by sluice with the filter set <strong>`)
	b.WriteString(html.EscapeString(set))
	b.WriteString(`</strong>`)
	if !kept {
		b.WriteString(` · nothing kept: no main content was found on this page`)
	}
	if p.cfg.InspectURL != "" {
		link := strings.NewReplacer("{url}", url.QueryEscape(pageURL), "{set}", url.QueryEscape(set)).Replace(p.cfg.InspectURL)
		b.WriteString(` · <a href="`)
		b.WriteString(html.EscapeString(link))
		b.WriteString(`">inspect what was removed</a>`)
	}
	b.WriteString("</div>\n")
	return b.String()
}
