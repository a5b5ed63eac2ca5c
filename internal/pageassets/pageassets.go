// Package pageassets holds what ploy's two web pages share, `ploy serve`'s
// figures (package viewer) and the live inspector's page (package
// inspect): the stylesheet, the helpers every script uses (common.js, on
// window.ploy), the icon, the layered graph drawing (graph.js) and the
// vendored layout it uses (dagre.min.js, docs/viewer.md says where it
// comes from). Both servers serve them at /NAME from this one copy, so
// the pages look and behave alike.
package pageassets

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strconv"
)

//go:embed style.css common.js graph.js icon.svg dagre.min.js
var shared embed.FS

// Security lets a page load only its server's own scripts, styles and
// API: no inline script, nothing from elsewhere.
const Security = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Types are the content types of the pages' static files, by extension.
var Types = map[string]string{
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".png":  "image/png",
	".svg":  "image/svg+xml",
	".html": "text/html; charset=utf-8",
}

// Asset is a static file a page loads, served at "/" + Name.
type Asset struct {
	Name        string
	ContentType string
	Body        []byte
}

// Shared returns the shared files.
func Shared() []Asset { return Read(shared, ".") }

// Read returns the files of dir in fsys but index.html (a page's own
// template), each with its content type; a file of an extension Types
// lacks panics, at start: it is embedded, so a test sees it.
func Read(fsys fs.FS, dir string) []Asset {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		panic("pageassets: " + err.Error())
	}
	var out []Asset
	for _, e := range entries {
		if e.IsDir() || e.Name() == "index.html" || path.Ext(e.Name()) == ".go" {
			continue
		}
		contentType, ok := Types[path.Ext(e.Name())]
		if !ok {
			panic("pageassets: no content type for " + path.Join(dir, e.Name()))
		}
		body, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			panic("pageassets: " + err.Error())
		}
		out = append(out, Asset{Name: e.Name(), ContentType: contentType, Body: body})
	}
	return out
}

// Write answers a GET of the asset. Embedded in the binary, an asset is
// the same until the binary is rebuilt: a browser asks again each load,
// cheaply.
func (a Asset) Write(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Length", strconv.Itoa(len(a.Body)))
	w.Write(a.Body)
}

// WritePage answers a page's HTML with the Content-Security-Policy that
// lets it run only its server's own scripts.
func WritePage(w http.ResponseWriter, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", Security)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}
