package server

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Route is one endpoint: a method on a path. Later parts of the service
// (filter sets, projects, training) declare theirs as Routes and add them
// with Server.Handle or Config.Routes.
type Route struct {
	// Method is the HTTP method, such as "GET" or "POST". A GET route
	// answers HEAD too.
	Method string
	// Path is a net/http.ServeMux path pattern without a method or host:
	// "/v1/clean", "/v1/filter-sets/{name}" (read the wildcard with
	// r.PathValue). Several routes may share a path with different
	// methods; another method on the path is answered 405 with Allow.
	Path string
	// Management marks a route that reads or changes the server's state
	// (filter sets, projects, training): it requires the token when one is
	// configured, and a server with management routes refuses to listen
	// beyond loopback without one.
	Management bool
	// Handler serves the route. Write errors with WriteError so that they
	// have the API's JSON shape. A panic is recovered into a 500.
	Handler http.Handler
}

// name is how the route is named in logs and metrics: "POST /v1/clean".
func (r Route) name() string { return r.Method + " " + r.Path }

// pathRoutes are the routes on one path, by method.
type pathRoutes struct {
	path    string
	methods map[string]Route
}

// Handle adds a route. It fails on an incomplete route, on a method
// already routed on that path, on a path pattern ServeMux refuses, and
// once the server's Handler was made (Serve makes it).
func (s *Server) Handle(r Route) (err error) {
	r.Method = strings.ToUpper(r.Method)
	switch {
	case r.Method == "" || r.Path == "" || r.Handler == nil:
		return fmt.Errorf("server: route %q: a route needs a method, a path and a handler", r.name())
	case strings.ContainsAny(r.Path, " \t") || !strings.HasPrefix(r.Path, "/"):
		return fmt.Errorf("server: route %q: the path is a pattern starting with / (the method goes in Route.Method)", r.name())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.frozen {
		return fmt.Errorf("server: route %q added after the server started", r.name())
	}
	p := s.paths[r.Path]
	if p == nil {
		p = &pathRoutes{path: r.Path, methods: map[string]Route{}}
		// ServeMux panics on a bad or conflicting pattern: an error here.
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("server: route %q: %v", r.name(), v)
			}
		}()
		s.mux.Handle(r.Path, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { s.dispatch(p, w, req) }))
		s.paths[r.Path] = p
	}
	if _, dup := p.methods[r.Method]; dup {
		return fmt.Errorf("server: route %q is already routed", r.name())
	}
	p.methods[r.Method] = r
	s.mgmt = s.mgmt || r.Management
	return nil
}

// routeNames lists the routes, sorted, for the start-up log.
func (s *Server) routeNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	for _, p := range s.paths {
		for _, r := range p.methods {
			names = append(names, r.name())
		}
	}
	slices.Sort(names)
	return names
}

// dispatch serves a request on path p by its method: 405 with Allow for a
// method not routed there, 401 for a management route without the token.
func (s *Server) dispatch(p *pathRoutes, w http.ResponseWriter, r *http.Request) {
	route, ok := p.methods[r.Method]
	if !ok && r.Method == http.MethodHead {
		route, ok = p.methods[http.MethodGet]
	}
	info := requestInfoFrom(r.Context())
	if !ok {
		info.setRoute(p.path)
		allow := p.allow()
		w.Header().Set("Allow", strings.Join(allow, ", "))
		WriteError(w, r, http.StatusMethodNotAllowed, "method_not_allowed",
			fmt.Sprintf("%s is not allowed on %s; allowed: %s", r.Method, p.path, strings.Join(allow, ", ")), WithValid(allow))
		return
	}
	info.setRoute(route.name())
	if route.Management && !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="sluice"`)
		WriteError(w, r, http.StatusUnauthorized, "unauthorized",
			"this endpoint manages the server and needs the token: send the header \"Authorization: Bearer TOKEN\" (the token of sluice serve --token or $SLUICE_TOKEN)")
		return
	}
	route.Handler.ServeHTTP(w, r)
}

// allow lists the methods routed on p, HEAD with GET, sorted.
func (p *pathRoutes) allow() []string {
	var m []string
	for k := range p.methods {
		m = append(m, k)
	}
	if _, ok := p.methods[http.MethodGet]; ok {
		if _, ok := p.methods[http.MethodHead]; !ok {
			m = append(m, http.MethodHead)
		}
	}
	slices.Sort(m)
	return m
}

// authorized reports whether r may use a management route: there is no
// token, or r carries it as a bearer token (compared in constant time).
func (s *Server) authorized(r *http.Request) bool {
	if s.cfg.Token == "" {
		return true
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(s.cfg.Token)) == 1
}

// notFound answers the paths no route matches.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	requestInfoFrom(r.Context()).setRoute("unmatched")
	WriteError(w, r, http.StatusNotFound, "not_found", fmt.Sprintf("no endpoint at %s; see /v1/openapi.json for the API", r.URL.Path))
}

// builtinRoutes are the routes of the core: cleaning, health, metrics and
// the API description.
func (s *Server) builtinRoutes() []Route {
	routes := []Route{
		{Method: http.MethodPost, Path: "/v1/clean", Handler: http.HandlerFunc(s.serveClean)},
		{Method: http.MethodGet, Path: "/healthz", Handler: http.HandlerFunc(s.serveHealth)},
		{Method: http.MethodGet, Path: "/metrics", Handler: s.metrics.handler()},
		{Method: http.MethodGet, Path: "/v1/openapi.json", Handler: http.HandlerFunc(serveOpenAPI)},
	}
	return append(routes, s.storeRoutes()...)
}

// serveHealth answers that the server is up, with what it is using.
func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, r, http.StatusOK, map[string]any{
		"status":             "ok",
		"in_flight":          s.inflight.count(),
		"memory_budget_used": s.budget.Used(),
		"memory_budget":      s.budget.Size(),
	})
}
