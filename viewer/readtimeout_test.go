package viewer_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ploy-ai/ploy/viewer"
)

// TestSlowBodyIsATimeout: a request whose body does not arrive before the
// server's read deadline (ploy serve sets it to --timeout) is answered 503
// with a timeout message, as one whose work takes too long is, not 400 as
// if it were malformed.
func TestSlowBodyIsATimeout(t *testing.T) {
	srv, err := viewer.New(viewer.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv)
	ts.Config.ReadTimeout = 200 * time.Millisecond
	ts.Start()
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"domain": "soldier.yaml", "goal": "KillPlayer"}`
	head := "POST /api/v1/plan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + itoa(len(body)) + "\r\n\r\n"
	if _, err := io.WriteString(conn, head+body[:10]); err != nil {
		t.Fatal(err)
	}
	time.Sleep(600 * time.Millisecond) // the rest never comes in time
	io.WriteString(conn, body[10:])
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufioReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var answer struct {
		Error string `json:"error"`
	}
	b, _ := io.ReadAll(resp.Body)
	json.Unmarshal(b, &answer)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.HasPrefix(answer.Error, "timeout:") {
		t.Fatalf("status %d, %s; want 503 and a timeout", resp.StatusCode, bytes.TrimSpace(b))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func bufioReader(r io.Reader) *bufio.Reader { return bufio.NewReader(r) }
