package viewer

import (
	_ "embed"
	"io/fs"

	"github.com/ploy-ai/ploy/internal/pageassets"
)

// siteScript is the static site's own script (site/site.js): it loads
// ploy.wasm and answers the page's requests of the API with it.
//
//go:embed site/site.js
var siteScript []byte

// siteSecurity is the static site's Content-Security-Policy, given in a
// meta element: the server's (pageassets.Security) with WebAssembly
// allowed to compile ('wasm-unsafe-eval', which allows no JavaScript
// eval), and without frame-ancestors, which a meta element cannot give
// (Chromium says so in the console).
const siteSecurity = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'"

// SiteFile is a file of the static site Site describes: its name in the
// site's directory and its bytes.
type SiteFile struct {
	Name string
	Body []byte
}

// Site returns the figures as a static site (`ploy site`,
// docs/viewer.md): index.html, the page the server serves at / but with
// every address relative, so that the site works under any path; every
// asset the page loads; and site.js, which answers the page's requests of
// the API in the browser, with no server, through the WebAssembly build
// of ploy (bindings/wasm, whose siteStream serves a Server's ServeHTTP).
// The caller adds that build, ploy.wasm, and the wasm_exec.js of the Go
// that built it: a site works with the WebAssembly build of the same ploy.
func (s *Server) Site() ([]SiteFile, error) {
	page, err := s.renderIndex(true)
	if err != nil {
		return nil, err
	}
	files := []SiteFile{{Name: "index.html", Body: page}, {Name: "site.js", Body: siteScript}}
	own, err := fs.Sub(pages, "pages")
	if err != nil {
		return nil, err
	}
	for _, a := range append(pageassets.Shared(), pageassets.Read(own, ".")...) {
		files = append(files, SiteFile{Name: a.Name, Body: a.Body})
	}
	return files, nil
}
