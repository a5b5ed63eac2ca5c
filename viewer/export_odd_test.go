package viewer

import (
	"net/http"
	"sort"
	"strings"
)

// PostRoutes lists the server's POST endpoints under /api/, for the tests
// that must cover each one.
func (s *Server) PostRoutes() []string {
	var out []string
	for path, rt := range s.routes {
		if rt.method == http.MethodPost && strings.HasPrefix(path, "/api/") {
			out = append(out, path)
		}
	}
	sort.Strings(out)
	return out
}
