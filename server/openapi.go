package server

import (
	_ "embed"
	"net/http"
	"strconv"
)

// openAPI is the API's OpenAPI 3 description, served at /v1/openapi.json.
// Later routes add their paths to the file.
//
//go:embed openapi.json
var openAPI []byte

// serveOpenAPI answers the OpenAPI description.
func serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(openAPI)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(openAPI)
	}
}
