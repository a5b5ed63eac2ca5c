package pddl

import (
	"fmt"
	"io"
	"os"
)

// ReadFile reads a PDDL file of at most MaxSize bytes: a larger one is
// refused with an ErrorList naming it, after reading no more than
// MaxSize+1 bytes of it (it may be a pipe that never ends).
func ReadFile(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	src, err := io.ReadAll(io.LimitReader(fh, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxSize {
		return nil, ErrorList{{File: path, Msg: fmt.Sprintf("the file is more than the limit of %d bytes", MaxSize)}}
	}
	return src, nil
}

// ReadPair reads, parses and checks a domain file and a problem file: the
// first error, of reading, parsing or checking, stops it.
func ReadPair(domainPath, problemPath string) (*Domain, *Problem, error) {
	src, err := ReadFile(domainPath)
	if err != nil {
		return nil, nil, err
	}
	d, err := ParseDomain(domainPath, src)
	if err != nil {
		return nil, nil, err
	}
	if src, err = ReadFile(problemPath); err != nil {
		return nil, nil, err
	}
	p, err := ParseProblem(problemPath, src)
	if err != nil {
		return nil, nil, err
	}
	if err := p.Check(d); err != nil {
		return nil, nil, err
	}
	return d, p, nil
}
