package viewer

import (
	"fmt"
	"net/http"

	"github.com/ploy-ai/ploy/internal/report"
)

// answerFits refuses, before it is written, an answer that would pass
// Config.MaxAnswer bytes: those that grow with a plan's length and its
// names (a plan, a decomposition, an explanation). what names the answer
// ("the plan"), field is the request's field to lower, and lower says
// what to do.
func (s *Server) answerFits(v any, what, field, lower string) error {
	if size := report.JSONSize(v, s.cfg.MaxAnswer); size > s.cfg.MaxAnswer {
		return &apiError{Status: http.StatusUnprocessableEntity, Field: field, Message: fmt.Sprintf(
			"%s is more than %d bytes of JSON, the most the server answers: %s", what, s.cfg.MaxAnswer, lower)}
	}
	return nil
}

// answer is v as one line of JSON, refused before it is made when it
// would pass Config.MaxAnswer bytes (see answerFits and report.JSONSize).
func (s *Server) answer(v any, what, field, lower string) ([]byte, error) {
	if err := s.answerFits(v, what, field, lower); err != nil {
		return nil, err
	}
	return line(v)
}
