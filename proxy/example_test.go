package proxy_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/proxy"
)

// A proxy cleaning pages with a filter pipeline, in front of a test
// server on loopback (hence AllowPrivate; leave it off in front of the
// web). A server mounts it as its handler, with the server's own
// ReadHeaderTimeout and IdleTimeout for slow clients.
func ExampleNew() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><body><ul><li><a href="/">Home</a></li></ul>
<p>The river starts high in the mountains, where the snow melts every spring and feeds a hundred small streams.</p></body></html>`)
	}))
	defer site.Close()

	c, err := sluice.New(sluice.Options{Filter: "lqf>targetnode"})
	if err != nil {
		log.Fatal(err)
	}
	p, err := proxy.New(proxy.Config{
		Cleaner:      c,
		FilterSet:    "lqf>targetnode",
		InspectURL:   "http://127.0.0.1:8080/inspect?url={url}&set={set}",
		AllowPrivate: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	srv := httptest.NewServer(p)
	defer srv.Close()

	pu, _ := url.Parse(srv.URL)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	resp, err := client.Get(site.URL + "/river")
	if err != nil {
		log.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("Sluice-Filter-Set"))
	fmt.Println(strings.Contains(string(body), `id="sluice-bar"`), strings.Contains(string(body), "Home"))
	// Output:
	// 200 lqf>targetnode
	// true false
}
