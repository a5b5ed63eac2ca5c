package webguard

import (
	"net"
	"net/http/httptest"
	"testing"
)

func TestCrossSite(t *testing.T) {
	for _, c := range []struct {
		name, method string
		header       map[string]string
		refused      bool
	}{
		{"a program sends neither header", "POST", nil, false},
		{"the server's own page", "POST", map[string]string{"Origin": "http://127.0.0.1:6060", "Sec-Fetch-Site": "same-origin"}, false},
		{"another site's page", "POST", map[string]string{"Sec-Fetch-Site": "cross-site"}, true},
		{"another port of the same host", "POST", map[string]string{"Origin": "http://127.0.0.1:8080", "Sec-Fetch-Site": "same-site"}, true},
		{"a null origin", "POST", map[string]string{"Origin": "null"}, true},
		{"a navigation from elsewhere", "GET", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}, false},
		{"a cross-site fetch of a GET", "GET", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"}, true},
	} {
		r := httptest.NewRequest(c.method, "http://127.0.0.1:6060/api/v1/agents", nil)
		r.Host = "127.0.0.1:6060"
		for k, v := range c.header {
			r.Header.Set(k, v)
		}
		if got := CrossSite(r) != ""; got != c.refused {
			t.Errorf("%s: refused %v, want %v (%q)", c.name, got, c.refused, CrossSite(r))
		}
	}
}

func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost:1": true, "LOCALHOST": true, "127.0.0.1:6060": true, "127.9.9.9": true, "[::1]:80": true,
		"example.com:6060": false, "10.0.0.1:6060": false, "[::]:80": false, "": false, "localhost.evil.com": false,
	} {
		if got := LoopbackHost(host); got != want {
			t.Errorf("LoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestListensOnLoopback(t *testing.T) {
	if !ListensOnLoopback(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}) || ListensOnLoopback(&net.TCPAddr{IP: net.IPv4zero}) {
		t.Error("127.0.0.1 is the loopback and 0.0.0.0 is every interface")
	}
}

func TestJSONBody(t *testing.T) {
	for ct, ok := range map[string]bool{
		"application/json": true, "application/json; charset=utf-8": true,
		"": false, "text/plain": false, "application/x-www-form-urlencoded": false, "multipart/form-data; boundary=x": false,
	} {
		if got := JSONBody(ct) == ""; got != ok {
			t.Errorf("JSONBody(%q) accepted %v, want %v", ct, got, ok)
		}
	}
}
