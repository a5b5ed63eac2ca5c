package search_test

import (
	"errors"
	"fmt"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/search"
)

// A search stopped by a limit reads the same in every planner: Status
// LimitReached, a Bound naming the limit, and an error that matches
// search.ErrLimit and holds a *search.LimitError.
func Example() {
	d, _ := goap.NewDomain(domains.BattleMage())
	res, err := goap.NewPlanner(d).Plan(nil, d.Initial(), d.Goal("Kill"), goap.Options{Limits: search.Limits{Budget: 2}, Heuristic: goap.Blind})
	fmt.Println(res.Status, res.Bound)

	var le *search.LimitError
	if errors.Is(err, search.ErrLimit) && errors.As(err, &le) {
		fmt.Printf("%s stopped planning %q at a %s of %d\n", le.Planner, le.Goal, le.Bound, le.Limit)
	}
	// Output:
	// limit_reached budget
	// goap stopped planning "Kill" at a budget of 2
}
