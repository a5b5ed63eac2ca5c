// Command ploy plans, explains and checks game-AI domains: run `ploy help`.
package main

import (
	"os"

	"github.com/ploy-ai/ploy/cmd/ploy/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
