package viewer

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"

	"github.com/ploy-ai/ploy/arena"
	"github.com/ploy-ai/ploy/domain"
	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/internal/pageassets"
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
	// Personalities, for a state-space domain: the kinds of agent
	// registered for it (package domains), figure 6's.
	Personalities []personalityJSON `json:"personalities,omitempty"`
	// Keys and World, for an engine-model domain: its keys and the
	// file's snapshot, figure 8's editor.
	Keys  []engineKeyJSON  `json:"keys,omitempty"`
	World *engineWorldJSON `json:"world,omitempty"`
	// Agents, for an engine-model domain that has some: its agent
	// kinds, figure 8's kind picker.
	Agents []engineKindJSON `json:"agents,omitempty"`
}

func (s *Server) describe(name string) domainJSON {
	return describeFile(name, s.files[name], !s.started[name])
}

// describeFile describes f, offered as name.
func describeFile(name string, f *domain.File, shipped bool) domainJSON {
	out := domainJSON{Name: name, Kind: "state-space", Shipped: shipped, Goals: []string{}}
	if f.EngineModel() {
		out.Kind = "engine-model"
		for _, g := range f.ResolverSpec.Goals {
			out.Goals = append(out.Goals, g.Name)
		}
		out.Keys, out.World = describeEngine(f)
		out.Agents = describeEngineKinds(f)
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
	out.Personalities = describePersonalities(f)
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
	writeBody(w, "application/json", b)
}

// describeSource answers POST /api/v1/domain: the description GET
// /api/v1/domains gives an offered domain, for a domain named in the body
// or pasted into it, so that a page can build its controls for a pasted
// domain; a source with errors gets them with their positions.
func (s *Server) describeSource(body []byte) ([]byte, error) {
	q, f, err := s.loadBody(body)
	if err != nil {
		return nil, err
	}
	name := q.Domain
	switch {
	case q.Source != "":
		name = sourceName
	case s.only != nil:
		name = s.only.Path
	case name == "":
		name = domains.Default
	case s.files[name] == nil:
		name += ".yaml" // load found it by its short name
	}
	return line(describeFile(name, f, q.Source == "" && !s.started[name]))
}

// assetRoutes returns a GET route for each file the page loads: the
// shared ones (package pageassets: the stylesheet, common.js, the icon,
// dagre) and the figures' own scripts in the embedded pages directory,
// each at /NAME.
func assetRoutes() map[string]route {
	routes := map[string]route{}
	own, err := fs.Sub(pages, "pages")
	if err != nil {
		panic("viewer: " + err.Error())
	}
	for _, a := range append(pageassets.Shared(), pageassets.Read(own, ".")...) {
		if _, twice := routes["/"+a.Name]; twice {
			panic("viewer: pages/" + a.Name + " is also a shared asset (package pageassets)")
		}
		routes["/"+a.Name] = route{http.MethodGet, func(s *Server, w http.ResponseWriter, r *http.Request) { a.Write(w) }}
	}
	return routes
}

// serveIndex is the web app's page: figure 1, the planner, with the
// domains offered and the API.
func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	page, err := s.renderIndex(false)
	if err != nil {
		fail(w, &apiError{Status: http.StatusInternalServerError, Message: err.Error()})
		return
	}
	pageassets.WritePage(w, page)
}

// indexData is what the page's template is filled with.
type indexData struct {
	Domains []domainJSON
	Default string
	// ArenaKinds and MaxFights are figure 7's choices.
	ArenaKinds []string
	MaxFights  int
	// Root is what every asset's address starts with: "/" for the
	// server's page, served at its root, and "" for the static site's,
	// whose addresses are relative so that it works under any path.
	Root string
	// Static marks the static site's page (Site): it loads the
	// WebAssembly program and the script that answers the API with it,
	// and carries its Content-Security-Policy, Security, in a meta
	// element, a static host sending no header of ploy's.
	Static   bool
	Security string
}

// renderIndex is the page, for the server (static false) or the static
// site.
func (s *Server) renderIndex(static bool) ([]byte, error) {
	data := indexData{Default: domains.Default, Root: "/", Static: static}
	if static {
		data.Root, data.Security = "", siteSecurity
	}
	for _, name := range s.names {
		data.Domains = append(data.Domains, s.describe(name))
	}
	// The default domain's kinds: its file's agents.
	kinds, err := arena.KindsOf(s.files[domains.Default])
	if err != nil {
		kinds = arena.Kinds
	}
	for _, k := range kinds {
		data.ArenaKinds = append(data.ArenaKinds, k.Name)
	}
	data.MaxFights = s.cfg.MaxFights
	var buf bytes.Buffer
	if err := indexPage.Execute(&buf, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
