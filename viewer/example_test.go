package viewer_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/ploy-ai/ploy/viewer"
)

// A program mounts the server in its own: here, one request to the plan
// endpoint, answered with the bytes of `ploy plan --goal Kill --json`.
func ExampleNew() {
	srv, err := viewer.New(viewer.Config{})
	if err != nil {
		panic(err)
	}
	r := httptest.NewRequest(http.MethodPost, "/api/v1/plan", strings.NewReader(`{"goal": "Kill"}`))
	r.Header.Set("Content-Type", "application/json") // required: see docs/api.md
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	fmt.Print(w.Code, " ", w.Body)
	// Output: 200 {"status":"found","plan":["Approach","TakeCover","Recharge","CastBolt"],"cost":7,"expanded":11,"generated":36}
}
