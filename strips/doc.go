// Package strips plans optimally in ground STRIPS tasks: facts, operators
// with positive and negative preconditions, add and delete effects and
// whole-number costs (zero included), and a goal of literals. It is the
// search behind ploy's PDDL import (package pddl grounds a domain and a
// problem into a Task), and the one to use for tasks of thousands of
// operators and millions of states, where goap's game-sized planner, built
// for many small replans a frame, is not.
package strips
