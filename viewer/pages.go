package viewer

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"strconv"

	"github.com/ploy-ai/ploy/domains"
)

//go:embed pages
var pages embed.FS

var indexPage = template.Must(template.ParseFS(pages, "pages/index.html"))

// domainJSON describes an offered domain for a page to build its controls
// from.
type domainJSON struct {
	Name string `json:"name"`
	// Kind is "state-space" (facts:) or "engine-model" (keys:).
	Kind    string   `json:"kind"`
	Shipped bool     `json:"shipped"`
	Goals   []string `json:"goals"`
	// Facts, for a state-space domain, and Initial, the facts true in
	// its initial state.
	Facts   []string `json:"facts,omitempty"`
	Initial []string `json:"initial,omitempty"`
	HTN     bool     `json:"htn"`
}

func (s *Server) describe(name string) domainJSON {
	f := s.files[name]
	out := domainJSON{Name: name, Kind: "state-space", Shipped: !s.started[name], Goals: []string{}}
	if f.EngineModel() {
		out.Kind = "engine-model"
		for _, g := range f.ResolverSpec.Goals {
			out.Goals = append(out.Goals, g.Name)
		}
		return out
	}
	for _, g := range f.GOAP.Goals() {
		out.Goals = append(out.Goals, g.Name())
	}
	out.Facts = f.GOAP.Facts()
	out.Initial = []string{}
	initial := f.GOAP.Initial()
	for _, name := range out.Facts {
		if fact, ok := f.GOAP.Fact(name); ok && initial.Has(fact) {
			out.Initial = append(out.Initial, name)
		}
	}
	out.HTN = f.HTN != nil
	return out
}

// serveDomains answers GET /api/v1/domains: {"domains": [...]}.
func (s *Server) serveDomains(w http.ResponseWriter, r *http.Request) {
	list := struct {
		Domains []domainJSON `json:"domains"`
	}{}
	for _, name := range s.names {
		list.Domains = append(list.Domains, s.describe(name))
	}
	b, err := line(list)
	if err != nil {
		fail(w, err.(*apiError))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

// serveIndex is the placeholder page: the domains offered and the API.
func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	var data struct {
		Domains []domainJSON
		Default string
	}
	for _, name := range s.names {
		data.Domains = append(data.Domains, s.describe(name))
	}
	data.Default = domains.Default
	var buf bytes.Buffer
	if err := indexPage.Execute(&buf, data); err != nil {
		fail(w, &apiError{Status: http.StatusInternalServerError, Message: err.Error()})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Write(buf.Bytes())
}
