package pddl

import (
	"strings"
	"unicode/utf8"
)

type tokenKind uint8

const (
	tokName     tokenKind = iota // a name: truck, at-robby
	tokVariable                  // ?x
	tokKeyword                   // :action
	tokNumber                    // 5, 1.5, -2
	tokSymbol                    // - = < > <= >= + * /
)

// node is an s-expression: a list, or an atom (a token). Names, variables
// and keywords are lower-cased, as PDDL is case-insensitive.
type node struct {
	pos    Pos
	end    Pos // a list's closing parenthesis
	isList bool
	list   []*node
	kind   tokenKind
	text   string
}

func (n *node) describe() string {
	if n.isList {
		if len(n.list) > 0 && !n.list[0].isList {
			return "(" + n.list[0].text + " ...)"
		}
		return "a list"
	}
	switch n.kind {
	case tokNumber:
		return "number " + n.text
	case tokVariable:
		return "variable " + n.text
	case tokKeyword:
		return "keyword " + n.text
	}
	return n.text
}

// read turns src into its top-level s-expressions. It is one pass over the
// input, without recursion; it stops at the first structural error
// (unbalanced parentheses, nesting over MaxDepth), and reports every bad
// token.
func read(src []byte, errs *errors) []*node {
	root := &node{isList: true}
	stack := []*node{root}
	line, col := 1, 1
	bad := false
	tokens := 0
	names := map[string]string{}
	for i := 0; i < len(src); {
		c := src[i]
		pos := Pos{line, col}
		if c == '(' || c == ')' || !isDelimiter(c) {
			if tokens++; tokens > MaxTokens {
				errs.add(pos, "more than %d tokens (names, numbers and parentheses) in the file", MaxTokens)
				return nil
			}
		}
		switch {
		case c == '\n':
			line, col = line+1, 1
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			col++
			i++
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '(':
			if len(stack) > MaxDepth {
				errs.add(pos, "parentheses nested deeper than %d levels", MaxDepth)
				return nil
			}
			n := &node{pos: pos, isList: true}
			top := stack[len(stack)-1]
			top.list = append(top.list, n)
			stack = append(stack, n)
			col++
			i++
		case c == ')':
			if len(stack) == 1 {
				errs.add(pos, `unexpected ")" with no "(" to close`)
				return nil
			}
			stack[len(stack)-1].end = pos
			stack = stack[:len(stack)-1]
			col++
			i++
		default:
			// A "?" starts a new token even with no space before it:
			// every zenotravel problem has (aircraft?a), and the
			// reference planners read it as (aircraft ?a).
			j := i + 1
			for j < len(src) && !isDelimiter(src[j]) && src[j] != '?' {
				j++
			}
			text, seen := names[string(src[i:j])]
			if !seen {
				text = string(src[i:j])
			}
			n, msg, at := classify(text)
			if msg != "" {
				bad = true
				errs.add(Pos{line, col + utf8.RuneCountInString(text[:at])}, "%s", msg)
			} else {
				n.pos = pos
				if !seen {
					// Names repeat: one string each saves most of the
					// token text's memory.
					names[text] = n.text
				}
				top := stack[len(stack)-1]
				top.list = append(top.list, n)
			}
			col += utf8.RuneCount(src[i:j])
			i = j
		}
	}
	if len(stack) > 1 {
		open := stack[len(stack)-1]
		errs.add(open.pos, `unclosed "(": missing ")" before the end of the file`)
		return nil
	}
	if bad {
		return nil
	}
	return root.list
}

func isDelimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', '(', ')', ';':
		return true
	}
	return false
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// classify makes a token's node, or says what is wrong with it and at
// which byte.
func classify(text string) (n *node, msg string, at int) {
	switch text {
	case "-", "=", "<", ">", "<=", ">=", "+", "*", "/":
		return &node{kind: tokSymbol, text: text}, "", 0
	}
	c := text[0]
	switch {
	case c == '?' || c == ':':
		kind, what := tokVariable, "variable"
		if c == ':' {
			kind, what = tokKeyword, "keyword"
		}
		if len(text) == 1 || !isLetter(text[1]) {
			return nil, "a " + what + " needs a name starting with a letter after " + quote(text[:1]) + ", got " + quote(text), 0
		}
		if k := badNameByte(text[1:]); k >= 0 {
			return nil, "unexpected character " + quoteRune(text[1+k:]) + " in " + what + " " + quote(text), 1 + k
		}
		return &node{kind: kind, text: strings.ToLower(text)}, "", 0
	case isDigit(c) || c == '.' || (len(text) > 1 && (c == '-' || c == '+') && (isDigit(text[1]) || text[1] == '.')):
		if !isNumber(text) {
			return nil, "malformed number " + quote(text), 0
		}
		return &node{kind: tokNumber, text: text}, "", 0
	case isLetter(c):
		if k := badNameByte(text); k >= 0 {
			return nil, "unexpected character " + quoteRune(text[k:]) + " in name " + quote(text), k
		}
		return &node{kind: tokName, text: strings.ToLower(text)}, "", 0
	}
	return nil, "unexpected character " + quoteRune(text), 0
}

// badNameByte is the index of the first byte of s that cannot be in a
// name, or -1.
func badNameByte(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '-' && c != '_' {
			return i
		}
	}
	return -1
}

// isNumber accepts an optional sign, digits, and an optional fraction.
func isNumber(s string) bool {
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case isDigit(s[i]):
			digits++
		case s[i] == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}
