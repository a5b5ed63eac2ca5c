package inspect

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"

	"github.com/ploy-ai/ploy/internal/pageassets"
)

// The inspector's web page: page/index.html (a template: live or a
// recording) and its script, with the stylesheet, common.js and dagre
// shared with `ploy serve` (package pageassets), each served at /NAME.
//
//go:embed page
var pageFiles embed.FS

var indexPage = template.Must(template.ParseFS(pageFiles, "page/index.html"))

// pageAssets are the files the page loads, by path.
var pageAssets = func() map[string]pageassets.Asset {
	own, err := fs.Sub(pageFiles, "page")
	if err != nil {
		panic("inspect: " + err.Error())
	}
	out := map[string]pageassets.Asset{}
	for _, a := range append(pageassets.Shared(), pageassets.Read(own, ".")...) {
		if _, twice := out["/"+a.Name]; twice {
			panic("inspect: page/" + a.Name + " is also a shared asset (package pageassets)")
		}
		out["/"+a.Name] = a
	}
	return out
}()

// pageData is what the page's template is given: Mode "live" (the
// inspector's API) or "replay" (a recording's decisions, ploy serve
// --replay), and the recording's name.
type pageData struct {
	Mode      string
	Recording string
}

// writeIndex answers GET / with the page.
func writeIndex(w http.ResponseWriter, data pageData) {
	var buf bytes.Buffer
	if err := indexPage.Execute(&buf, data); err != nil {
		fail(w, &apiError{Status: http.StatusInternalServerError, Message: err.Error()})
		return
	}
	pageassets.WritePage(w, buf.Bytes())
}

// addPageRoutes adds the page and its assets to the inspector's routes.
// Serving the page is no request from a client: it does not count as a
// heartbeat (the page's own requests do).
func (in *Inspector) addPageRoutes() {
	in.routes["/"] = route{http.MethodGet, func(_ *Inspector, w http.ResponseWriter, _ *http.Request) {
		writeIndex(w, pageData{Mode: "live"})
	}}
	for path, a := range pageAssets {
		in.routes[path] = route{http.MethodGet, func(_ *Inspector, w http.ResponseWriter, _ *http.Request) { a.Write(w) }}
	}
}
