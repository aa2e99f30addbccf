package proxy

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// DefaultUserAgent is the User-Agent of Fetch when none is given: it names
// sluice, so that a site can tell who fetched.
const DefaultUserAgent = "sluice (+https://github.com/sluice-project/sluice)"

// Page is a page fetched by Fetch.
type Page struct {
	Body        []byte
	ContentType string // the response's Content-Type: its charset decides the decoding
	URL         string // the address after redirects
}

// StatusError is the error of Fetch for an answer other than 200 OK.
type StatusError struct {
	URL    string // redacted
	Status string
	Code   int
}

func (e *StatusError) Error() string { return fmt.Sprintf("%s answered %s", e.URL, e.Status) }

// Fetch gets one page with client (see NewFetchClient, whose rules and
// limits apply), asking for HTML. userAgent "" means DefaultUserAgent.
// Errors: a *StatusError for an answer other than 200, a *Refusal
// (errors.As) for a destination the rules refuse, ErrFetchTooLarge
// (errors.Is) past the body limit, the client's timeout, or a bad address.
func Fetch(ctx context.Context, client *http.Client, target, userAgent string) (*Page, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http:// or https:// address", target)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", target, err)
	}
	if userAgent == "" {
		userAgent = DefaultUserAgent
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{URL: u.Redacted(), Status: resp.Status, Code: resp.StatusCode}
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &Page{Body: body, ContentType: resp.Header.Get("Content-Type"), URL: resp.Request.URL.String()}, nil
}
