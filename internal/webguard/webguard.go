// Package webguard holds the request checks ploy's two web servers share,
// `ploy serve`'s (package viewer) and the live inspector's (package
// inspect): who may send a request (not another site's page, not a name
// rebound to the loopback) and what a POST's body must say it is. Each
// check returns the message of its refusal, or "" to let the request
// through; the servers answer it in their own error format.
package webguard

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// CrossSite refuses a request a page of another site sent: one whose
// Origin is not the server's own (scheme, host and port as the Host header
// names them), or whose Sec-Fetch-Site is cross-site. The browser sends
// both on its own, and a page cannot forge them; a program (curl, a game's
// tools) sends neither and is not concerned. A page of the same site on
// another port (same-site: another local server) is refused by its Origin,
// which browsers send on every POST and every cross-origin fetch. Only a
// top-level navigation (a link from elsewhere to the app's page, a GET) is
// let through whatever its site: it reads nothing back for the page that
// made it. The answer to a refusal is 403.
func CrossSite(r *http.Request) string {
	navigation := (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.Header.Get("Sec-Fetch-Mode") == "navigate"
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" && !navigation {
		return "a cross-site request (Sec-Fetch-Site: cross-site): the server answers its own pages and programs, not other sites' pages"
	}
	if origin, ok := r.Header["Origin"]; ok && !SameOrigin(origin, r.Host) {
		return fmt.Sprintf("a request from another origin (%s): the server answers its own pages and programs, not other sites' pages", strings.Join(origin, ", "))
	}
	return ""
}

// SameOrigin reports whether an Origin header names the server at host:
// one http or https origin whose host and port are the Host header's.
// "null" (a sandboxed frame, a file, a redirect) is no site's.
func SameOrigin(origin []string, host string) bool {
	if len(origin) != 1 {
		return false
	}
	u, err := url.Parse(origin[0])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.User != nil {
		return false
	}
	return strings.EqualFold(u.Host, host)
}

// LoopbackHost reports whether a Host header names the loopback
// (localhost, 127.0.0.0/8, ::1). A server that listens on the loopback
// refuses requests to any other name: a page whose own name an attacker
// has pointed at 127.0.0.1 (DNS rebinding) then cannot use it.
func LoopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ListensOnLoopback reports whether a listener's address is a loopback
// one: what counts is the address listened on, not the text that named
// it (a host name resolving to 127.0.0.1 is listened on at that address).
func ListensOnLoopback(a net.Addr) bool {
	tcp, ok := a.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// JSONBody refuses a POST body that does not say it is JSON, or says
// nothing: a browser sends a cross-site form, text/plain, Blob,
// ArrayBuffer or sendBeacon POST without asking, the last three with no
// content type at all; a JSON content type makes it ask first, and the
// server never says yes. The answer to a refusal is 415.
func JSONBody(contentType string) string {
	if contentType == "" {
		return "the body must be application/json, and say so: Content-Type: application/json"
	}
	if mt, _, err := mime.ParseMediaType(contentType); err != nil || mt != "application/json" {
		return fmt.Sprintf("the body must be application/json, not %q", contentType)
	}
	return ""
}
