package viewer_test

import (
	"net/http/httptest"
	"os"
	"testing"

	"github.com/ploy-ai/ploy/viewer"
)

func TestZZDumpIndex(t *testing.T) {
	s, _ := viewer.New(viewer.Config{})
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	os.WriteFile(os.Getenv("DUMP"), w.Body.Bytes(), 0o644)
}
