package inspect

import (
	"net"
	"testing"
	"time"
)

// TestServerHasTimeouts: the server Serve starts cuts off a client that
// is slow to send its request or to take the answer, so that one stalled
// connection cannot be held open forever.
func TestServerHasTimeouts(t *testing.T) {
	in := New(Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- in.Serve(ln) }()
	for in.server.Load() == nil {
		select {
		case err := <-served:
			t.Fatalf("Serve: %v", err)
		default:
			time.Sleep(time.Millisecond)
		}
	}
	hs := in.server.Load()
	if hs.ReadHeaderTimeout <= 0 || hs.ReadTimeout <= 0 || hs.WriteTimeout <= 0 || hs.IdleTimeout <= 0 {
		t.Errorf("timeouts: read header %v, read %v, write %v, idle %v; want all set", hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout)
	}
	in.Close()
	ln.Close()
	<-served
}
