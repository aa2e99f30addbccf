package server_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/sluice-project/sluice/server"
)

// A server's handler mounted in a test server; a later part adds its own
// route, which gets the request id, logs, metrics and JSON errors.
func Example() {
	srv, err := server.New(server.Config{
		Defaults: server.Defaults{Format: "markdown"},
		Logger:   slog.New(slog.DiscardHandler),
		Routes: []server.Route{{Method: "GET", Path: "/v1/hello/{name}", Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "hello %s\n", r.PathValue("name"))
		})}},
	})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	page := `<html><body><h1>Sluice gates</h1><p>A sluice gate controls the flow of water in a channel, raised or lowered by hand or by a motor.</p></body></html>`
	resp, err := http.Post(ts.URL+"/v1/clean", "text/html", strings.NewReader(page))
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Print(resp.Status, "\n", string(body))

	resp, err = http.Get(ts.URL + "/v1/hello/world")
	if err != nil {
		panic(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Print(string(body))

	resp, err = http.Post(ts.URL+"/v1/clean?format=pdf", "text/html", strings.NewReader(page))
	if err != nil {
		panic(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Print(resp.Status, "\n", strings.Split(string(body), `,"request_id"`)[0], "\n")
	// Output:
	// 200 OK
	// # Sluice gates
	//
	// A sluice gate controls the flow of water in a channel, raised or lowered by hand or by a motor.
	// hello world
	// 400 Bad Request
	// {"error":{"code":"unknown_format","message":"unknown format \"pdf\"","valid":["cleaneval","text","markdown","json","html","parser","xml","tei"]
}
