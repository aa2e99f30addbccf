package proxy

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestFetchClient: the fetch client applies the destination rules at dial
// time (by IP, by a name resolving to a private address, after a redirect),
// lifts the liftable ones with AllowPrivate, and bounds the body and the time.
func TestFetchClient(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			io.WriteString(w, testPage)
		case "/big":
			w.Write([]byte(strings.Repeat("a", 3000))) // chunked: no length declared
			w.(http.Flusher).Flush()
			w.Write([]byte(strings.Repeat("b", 3000)))
		case "/declared":
			w.Header().Set("Content-Length", "6000")
			w.Write([]byte(strings.Repeat("c", 6000)))
		case "/to-private":
			http.Redirect(w, r, "http://intranet.test/", http.StatusFound)
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}
	}))
	defer up.Close()
	res := resolver("intranet.test=192.168.0.10")
	strict := NewFetchClient(FetchOptions{Resolver: res})
	for _, target := range []string{up.URL + "/page", "http://10.0.0.1/", "http://169.254.169.254/latest/", "http://intranet.test/"} {
		_, err := strict.Get(target)
		var ref *Refusal
		if !errors.As(err, &ref) {
			t.Errorf("strict client, %s: %v, want a refusal", target, err)
		}
	}
	loop := netip.MustParsePrefix("127.0.0.1/32")
	c := NewFetchClient(FetchOptions{Resolver: res, Allow: []netip.Prefix{loop}, MaxBody: 5000, Timeout: time.Second})
	resp, err := c.Get(up.URL + "/page")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !strings.Contains(string(body), "seven bridges") {
		t.Errorf("allowed upstream: %v, %.100q", err, body)
	}
	var ref *Refusal
	if _, err := c.Get(up.URL + "/to-private"); !errors.As(err, &ref) || ref.Rule != RulePrivate {
		t.Errorf("a redirect to a name resolving to a private address: %v, want a refusal by rule private", err)
	}
	if _, err := c.Get(up.URL + "/declared"); !errors.Is(err, ErrFetchTooLarge) {
		t.Errorf("a declared length over the limit: %v", err)
	}
	if resp, err := c.Get(up.URL + "/big"); err != nil {
		t.Errorf("/big: %v", err)
	} else if _, err := io.ReadAll(resp.Body); !errors.Is(err, ErrFetchTooLarge) {
		t.Errorf("a streamed body over the limit: %v", err)
	}
	var timeout interface{ Timeout() bool }
	if _, err := c.Get(up.URL + "/slow"); !errors.As(err, &timeout) || !timeout.Timeout() {
		t.Errorf("a slow upstream: %v, want a timeout", err)
	}
	if _, err := c.Get("file:///etc/passwd"); !errors.As(err, &ref) || ref.Rule != RuleScheme {
		t.Errorf("file URL: %v", err)
	}
	private := NewFetchClient(FetchOptions{AllowPrivate: true})
	if _, err := private.Get(up.URL + "/page"); err != nil {
		t.Errorf("AllowPrivate lifts loopback: %v", err)
	}
	if _, err := private.Get("http://169.254.169.254/"); !errors.As(err, &ref) || ref.Rule != RuleMetadata {
		t.Errorf("AllowPrivate keeps the metadata rule: %v", err)
	}
}

// TestFetchClientEnvProxy: with EnvProxy the client sends its requests to
// the proxy HTTP_PROXY names, on loopback here, which the destination rules
// would refuse as a destination; a destination written as a private
// address is still refused, before anything is sent.
func TestFetchClientEnvProxy(t *testing.T) {
	var asked []string
	fwd := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.String())
		io.WriteString(w, testPage)
	}))
	defer fwd.Close()
	t.Setenv("HTTP_PROXY", fwd.URL)
	t.Setenv("NO_PROXY", "")
	c := NewFetchClient(FetchOptions{EnvProxy: true, Resolver: resolver("nowhere.test=192.0.2.1")})
	resp, err := c.Get("http://example.com/page")
	if err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "seven bridges") || len(asked) != 1 || asked[0] != "http://example.com/page" {
		t.Errorf("the proxy was asked %q and answered %.60q", asked, body)
	}
	var ref *Refusal
	for _, target := range []string{"http://10.0.0.1/", "http://[::1]:8080/"} {
		if _, err := c.Get(target); !errors.As(err, &ref) {
			t.Errorf("%s through the proxy: %v, want a refusal", target, err)
		}
	}
	if _, err := c.Get("http://localhost:8080/"); err == nil { // not proxied: dialled, and checked, directly
		t.Errorf("localhost: fetched")
	}
	if len(asked) != 1 {
		t.Errorf("refused destinations reached the proxy: %q", asked)
	}
}
