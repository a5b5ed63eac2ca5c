// Command battlemage plans the GOAP lesson's battle mage from its default
// state: the plan for Kill, with its cost and how much the search explored.
package main

import (
	"fmt"
	"os"

	"github.com/ploy-ai/ploy/domains"
	"github.com/ploy-ai/ploy/goap"
)

func main() {
	d, err := goap.NewDomain(domains.BattleMage())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	p := goap.NewPlanner(d)
	for _, goal := range d.Goals() {
		res, err := p.Plan(nil, d.Initial(), goal, goap.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%s from %s: %s, cost %g, %d expanded, %d generated\n", goal.Name(), d.FormatState(d.Initial()), goap.StatusName(res.Status, res.Bound), res.Cost, res.Expanded, res.Generated)
		for i, a := range res.Plan {
			fmt.Printf("  %d. %s\n", i+1, d.ActionName(a))
		}
	}
}
