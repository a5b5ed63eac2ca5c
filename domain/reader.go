package domain

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/scanner"
	"github.com/goccy/go-yaml/token"

	"github.com/ploy-ai/ploy/goap"
	"github.com/ploy-ai/ploy/htn"
	"github.com/ploy-ai/ploy/internal/suggest"
	"github.com/ploy-ai/ploy/resolver"
)

// tokenBound returns a cheap upper bound on the number of tokens the YAML
// scanner makes of text. The scanner hands back a whole block of tokens
// at once (all of a long list in one call), some hundreds of bytes each,
// so their number must be known before it runs. Every token starts either
// a run of non-blank bytes or at or just after a punctuation byte within
// one (an indicator such as [ or :, a document marker); counting a run
// once, each punctuation byte twice and each tab once over-counts, never
// under-counts (FuzzNesting checks it), and names and numbers count once.
func tokenBound(text string) int {
	n, inWord := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\t':
			// A tab in a line's indentation is a token of its own to the
			// scanner (an invalid one), each of several, after a space
			// too, even within a block scalar ("|\n 0\n \t\t" makes
			// one token of "|", then one of the scalar up to the first
			// tab, then one for each tab after it).
			n++
			inWord = false
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			inWord = false
			continue
		case !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c >= 0x80):
			n += 2
		}
		if !inWord {
			n++
			inWord = true
		}
	}
	return n
}

// invalidUTF8 returns the position of the first byte of text that is not
// UTF-8.
func invalidUTF8(text string) Pos {
	p := Pos{Line: 1, Col: 1}
	for i, r := range text {
		if r == utf8.RuneError && !strings.HasPrefix(text[i:], "\uFFFD") {
			break
		}
		if r == '\n' {
			p.Line, p.Col = p.Line+1, 1
		} else {
			p.Col++
		}
	}
	return p
}

// tokenize splits text into the YAML parser's own tokens, measuring the
// nesting as it goes, and stops at the first token nested deeper than
// MaxNesting or past MaxTokens. Measuring on the parser's tokens, not on a
// guess at them, means no quote, comment or scalar can hide a bracket
// from the check, or make one out of text.
//
// Nesting is flow nesting ([ and {) plus block nesting: in block context a
// node nests under the nodes before it that start at a smaller column, so
// the block depth is the height of a stack of start columns, each node
// that starts a line, or follows a "- " or "? " on it, popping the columns
// at or right of its own. The parser's depth is at most about twice this
// measure (a key and its list may share a column), which FuzzNesting
// checks.
func (l *loader) tokenize(text string) (token.Tokens, bool) {
	var sc scanner.Scanner
	sc.Init(text)
	var tokens token.Tokens
	var columns []int // start columns of the open block nodes
	flow, lastLine := 0, 0
	var prev token.Type
	for {
		got, err := sc.Scan()
		if err == io.EOF {
			break
		}
		for _, tk := range got {
			if tk == nil || tk.Position == nil {
				continue
			}
			p := Pos{Line: tk.Position.Line, Col: tk.Position.Column}
			if len(tokens) == MaxTokens {
				l.errorAt(p, "more than %d YAML tokens (names, values, punctuation); a domain file needs far fewer", MaxTokens)
				return nil, false
			}
			tokens.Add(tk)
			switch tk.Type {
			case token.CommentType:
				continue // the parser wants them; nesting does not
			case token.DocumentHeaderType, token.DocumentEndType:
				columns, flow = columns[:0], 0
			case token.SequenceStartType, token.MappingStartType:
				flow++
			case token.SequenceEndType, token.MappingEndType:
				flow = max(flow-1, 0)
			}
			startsNode := p.Line != lastLine || prev == token.SequenceEntryType || prev == token.MappingKeyType
			if flow == 0 && startsNode {
				for len(columns) > 0 && columns[len(columns)-1] >= p.Col {
					columns = columns[:len(columns)-1]
				}
				columns = append(columns, p.Col)
			}
			l.depth = max(l.depth, len(columns)+flow)
			if len(columns)+flow > MaxNesting {
				l.errorAt(p, "nesting deeper than %d levels; a domain file needs a handful", MaxNesting)
				return nil, false
			}
			lastLine, prev = p.Line, tk.Type
		}
	}
	return tokens, true
}

type loader struct {
	path  string
	lines []string
	// tabbed caches, for pastTabs, the last line looked at as runes, or
	// nil when it has no tab: errors come in the file's order, many on one
	// line (a flow mapping of thousands of keys on a single line), and
	// converting that line for each would make reporting them quadratic.
	tabbedLine int
	tabbed     []rune
	errs       ErrorList
	pos        map[string]Pos
	spec       goap.Spec
	htn        *htn.Spec
	// badCost marks actions whose cost the loader rejected: their cost in
	// the spec is a stand-in, so goap's verdict on it is not reported.
	badCost map[int]bool
	// broken holds the paths of items that were not mappings at all: they
	// stand in the spec only to keep later indices right, and goap's and
	// htn's verdicts on them would repeat what was already said.
	broken       []string
	sensed       []string // the sensed key's names, sensed[i] at path "sensed[i]"
	agents       []*agentSpec
	engineAgents []*engineAgentSpec
	// inputs: the file's, by name too; pending, the agents' conditions
	// whose facts become goals once the domain is built.
	inputs     []Input
	inputIndex map[string]int
	pending    []*conditionFacts
	// factMaps are every fact map read, by path, so that unknown facts
	// are found and reported here, each once, before the planners see
	// them.
	factMaps []factMap
	unknown  map[string]bool // paths of the unknown facts reported
	// suggested counts the did-you-mean lookups made: each costs a pass
	// over the facts, so only the first maxSuggestions get one, which
	// keeps a file of many misspellings linear.
	suggested int
	depth     int // the deepest nesting tokenize measured

	// The engine model's (engine.go): set once the file has keys:.
	engine   bool
	rspec    resolver.Spec
	world    World
	kinds    map[string]resolver.Kind
	keyNames []string // in declaration order, for suggestions
	// standIn holds the resolver paths whose value the loader rejected
	// and replaced; skip, the condition lists it shortened. The resolver's
	// verdicts on them would repeat what was said.
	standIn map[string]bool
	skip    map[string]bool
	// mistyped holds the keys declared with a type other than bool or
	// int: that error is said once, at the type, and the key's uses are
	// not reported again as unknown keys.
	mistyped map[string]bool
}

type factMap struct {
	path string
	m    map[string]bool
}

// maxSuggestions is the number of unknown names that get a did-you-mean;
// no more errors than that are shown.
const maxSuggestions = MaxErrors

// isMapping reports whether n is a mapping (or null), reporting it if not
// and marking path broken.
func (l *loader) isMapping(n ast.Node, path, what string) bool {
	switch l.unwrap(n).(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.NullNode, nil:
		return true
	}
	l.errorf(n, "%s must be a mapping, not %s", what, describe(l.unwrap(n)))
	l.broken = append(l.broken, path)
	return false
}

func position(n ast.Node) Pos {
	if n == nil {
		return Pos{Line: 1, Col: 1}
	}
	// A block mapping's token is its first colon: point at its first key,
	// where a person sees the mapping begin.
	switch m := n.(type) {
	case *ast.MappingValueNode:
		return position(m.Key)
	case *ast.MappingNode:
		if !m.IsFlowStyle && len(m.Values) > 0 {
			return position(m.Values[0].Key)
		}
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return Pos{Line: 1, Col: 1}
	}
	return Pos{Line: tk.Position.Line, Col: tk.Position.Column}
}

func (l *loader) errorAt(p Pos, format string, args ...any) {
	l.errorAtExactly(l.pastTabs(p), format, args...)
}

// errorAtExactly reports at p even when p is a tab (a syntax error about
// the tab).
func (l *loader) errorAtExactly(p Pos, format string, args ...any) {
	// The parser can place a token one past the end of the file; point at
	// the end of the last line instead.
	if p.Line > len(l.lines) {
		p.Line = max(len(l.lines), 1)
		p.Col = len(l.lines[p.Line-1]) + 1
	}
	p.Line, p.Col = max(p.Line, 1), max(p.Col, 1)
	l.errs = append(l.errs, &Error{File: l.path, Pos: p, Msg: fmt.Sprintf(format, args...)})
}

func (l *loader) errorf(n ast.Node, format string, args ...any) {
	l.errorAt(position(n), format, args...)
}

// pastTabs moves p from a tab to the first character after the blanks it
// begins: the YAML scanner places a value written after a tab
// (target:<TAB>woods) at that tab, where a person looks for the value. A
// tab followed by nothing or a comment, where the value is empty, stays.
func (l *loader) pastTabs(p Pos) Pos {
	if p.Line < 1 || p.Line > len(l.lines) {
		return p
	}
	if l.tabbedLine != p.Line {
		l.tabbedLine, l.tabbed = p.Line, nil
		if line := l.lines[p.Line-1]; strings.IndexByte(line, '\t') >= 0 {
			l.tabbed = []rune(strings.TrimRight(line, "\r"))
		}
	}
	runes := l.tabbed // nil: no tab on the line, so none to move past
	i := p.Col - 1
	if i < 0 || i >= len(runes) || runes[i] != '\t' {
		return p
	}
	for i < len(runes) && (runes[i] == '\t' || runes[i] == ' ') {
		i++
	}
	if i == len(runes) || runes[i] == '#' {
		return p
	}
	return Pos{Line: p.Line, Col: i + 1}
}

func (l *loader) parse(tokens token.Tokens) bool {
	file, err := parser.Parse(tokens, 0)
	if err != nil {
		var se *yaml.SyntaxError
		if errors.As(err, &se) && se.Token != nil && se.Token.Position != nil {
			p := Pos{Line: se.Token.Position.Line, Col: se.Token.Position.Column}
			var hint string
			switch {
			case strings.Contains(se.Message, "already defined"):
				// The parser found the key, so neither a bracket nor
				// the indentation is in doubt.
				hint = ": a key appears once in a mapping"
			case strings.Contains(se.Message, "invalid header option"):
				// A bare > in a flow mapping too: "{warmth: >= 50}".
				hint = l.comparisonHint(p.Line)
			}
			if hint == "" {
				hint = openFlowHint(tokens, p)
			}
			if hint == "" {
				hint = l.indentHint(p.Line)
			}
			l.errorAtExactly(p, "yaml: %s%s", se.Message, hint) // it may be about the tab itself
		} else {
			l.errorAt(Pos{Line: 1, Col: 1}, "yaml: %s", firstLine(err.Error()))
		}
		return false
	}
	var docs []*ast.DocumentNode
	for _, d := range file.Docs {
		if d.Body != nil {
			docs = append(docs, d)
		}
	}
	switch {
	case len(docs) == 0:
		l.errorAt(Pos{Line: 1, Col: 1}, "empty file: a domain has at least name and facts")
		return false
	case len(docs) > 1:
		l.errorf(docs[1].Body, "one domain per file: this is a second YAML document")
		return false
	}
	l.document(docs[0].Body)
	return true
}

// openFlowHint names the innermost [ or { still open before position p,
// if any: an error inside a flow collection is most often its missing
// bracket or comma, which the parser reports where it gave up.
func openFlowHint(tokens token.Tokens, p Pos) string {
	var open []*token.Token
	for _, tk := range tokens {
		tp := tk.Position
		if tp.Line > p.Line || tp.Line == p.Line && tp.Column >= p.Col {
			break
		}
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			open = append(open, tk)
		case token.SequenceEndType, token.MappingEndType:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		}
	}
	if len(open) == 0 {
		return ""
	}
	tk := open[len(open)-1]
	closer := "]"
	if tk.Type == token.MappingStartType {
		closer = "}"
	}
	return fmt.Sprintf(" (the %s opened on line %d, column %d is not closed with %s, or a comma is missing)", tk.Value, tk.Position.Line, tk.Position.Column, closer)
}

// comparisonHint explains the error YAML gives for an unquoted ">= 50"
// on line n: a bare > starts a folded block scalar.
func (l *loader) comparisonHint(n int) string {
	if n < 1 || n > len(l.lines) || !strings.Contains(l.lines[n-1], ": >") {
		return ""
	}
	return " (a comparison such as >= 50 must be quoted, \">= 50\": YAML reads a bare > as the start of a folded block)"
}

// indentHint guesses what a YAML syntax error on line n is about: most
// are indentation slips, and the parser names neither the slip nor the
// line that caused it.
func (l *loader) indentHint(n int) string {
	if n < 1 || n > len(l.lines) {
		return ""
	}
	line := strings.TrimRight(l.lines[n-1], "\r")
	body := strings.TrimLeft(line, " ")
	if strings.HasPrefix(body, "\t") {
		return fmt.Sprintf(" (line %d is indented with a tab; YAML indents with spaces only)", n)
	}
	p := n - 1 // the line above that holds something
	for ; p >= 1; p-- {
		t := strings.TrimSpace(l.lines[p-1])
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
	}
	if p < 1 || body == "" {
		return fmt.Sprintf(" (check the indentation of line %d)", n)
	}
	above := strings.TrimRight(l.lines[p-1], " \r")
	if i := strings.Index(above, " #"); i >= 0 {
		above = strings.TrimRight(above[:i], " ")
	}
	in, inAbove := len(line)-len(body), len(above)-len(strings.TrimLeft(above, " "))
	switch {
	case in > inAbove && !strings.HasSuffix(above, ":") && !strings.HasSuffix(above, "-"):
		return fmt.Sprintf(" (line %d is indented more than line %d, which opens no block: line it up with line %d, or under the key it belongs to)", n, p, p)
	case in < inAbove:
		return fmt.Sprintf(" (line %d is indented less than line %d: check that it lines up with a key above it)", n, p)
	}
	return fmt.Sprintf(" (check the indentation of line %d against line %d)", n, p)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// unwrap looks through tags and anchors; aliases are refused, since a
// designer's file rarely needs them and they hide where a value came from.
func (l *loader) unwrap(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.TagNode:
			n = v.Value
		case *ast.AnchorNode:
			n = v.Value
		case *ast.AliasNode:
			l.errorf(v, "aliases (*name) are not supported in domain files")
			return nil
		default:
			return n
		}
	}
}

// tagOf returns the tag written on n ("!!str"), looking through anchors,
// or "".
func tagOf(n ast.Node) string {
	for {
		switch v := n.(type) {
		case *ast.TagNode:
			return v.Start.Value
		case *ast.AnchorNode:
			n = v.Value
		default:
			return ""
		}
	}
}

func isNull(n ast.Node) bool {
	_, ok := n.(*ast.NullNode)
	return n == nil || ok
}

// mapping returns n's entries, or reports that it is not a mapping. A null
// value is an empty mapping.
func (l *loader) mapping(n ast.Node, what string) []*ast.MappingValueNode {
	n = l.unwrap(n)
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return nil
	case *ast.MappingNode:
		return v.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{v}
	}
	l.errorf(n, "%s must be a mapping, not %s", what, describe(n))
	return nil
}

// sequence returns n's items, or reports that it is not a sequence.
func (l *loader) sequence(n ast.Node, what string) []ast.Node {
	n = l.unwrap(n)
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return nil
	case *ast.SequenceNode:
		return v.Values
	}
	l.errorf(n, "%s must be a list, not %s", what, describe(n))
	return nil
}

func describe(n ast.Node) string {
	switch v := n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.StringNode:
		return quote(v.Value)
	case *ast.NullNode, nil:
		return "empty"
	}
	return quote(n.GetToken().Value)
}

// unprintable returns the first character of s that has no place in a
// name, escaped, and true: invalid UTF-8, a control character (NUL, a
// terminal escape) or an invisible format character (a bidirectional
// override). Such names would print as something else, or as nothing.
func unprintable(s string) (string, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && len(s[i:]) > 0 && !strings.HasPrefix(s[i:], "\uFFFD"):
			return fmt.Sprintf("invalid UTF-8 (byte %#x)", s[i]), true
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			return "the character " + strconv.QuoteRune(r), true
		}
	}
	return "", false
}

// quote quotes a name for a message, escaping what is not printable and
// cutting it past maxQuoted runes, so that a hostile name neither drives
// the terminal nor floods it.
func quote(s string) string {
	const maxQuoted = 64
	n := 0
	for i := range s {
		if n == maxQuoted {
			return strconv.Quote(s[:i]) + "…"
		}
		n++
	}
	return strconv.Quote(s)
}

func keyName(k ast.MapKeyNode) string {
	if tk := k.GetToken(); tk != nil {
		return tk.Value
	}
	return k.String()
}

// fields checks the keys of a mapping against the allowed ones, reporting
// unknown keys with a suggestion, and returns the known ones' values.
func (l *loader) fields(entries []*ast.MappingValueNode, what string, allowed ...string) map[string]*ast.MappingValueNode {
	out := make(map[string]*ast.MappingValueNode, len(entries))
	for _, mv := range entries {
		k := keyName(mv.Key)
		known := false
		for _, a := range allowed {
			if a == k {
				known = true
			}
		}
		if !known {
			msg := fmt.Sprintf("unknown key %s in %s", quote(k), what)
			if s := suggest.Closest(k, allowed); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += "; allowed: " + strings.Join(allowed, ", ")
			}
			switch {
			case k == "<<":
				msg = fmt.Sprintf("a YAML merge key (<<) in %s: the loader does not merge mappings, so write the keys out; allowed: %s", what, strings.Join(allowed, ", "))
			case !l.engine && what == "an action" && (k == "target" || k == "stopping_distance" || k == "move"):
				msg += "; " + k + " is for engine-model files (keys: instead of facts:), resolved by ploy resolve"
			case l.engine && k == "inputs" && what == engineDocumentWhat:
				msg = engineInputsAdvice
			}
			l.errorf(mv.Key, "%s", msg)
			continue
		}
		out[k] = mv
	}
	return out
}

// name reads a required string scalar.
func (l *loader) name(n ast.Node, what string) (string, bool) {
	n = l.unwrap(n)
	switch v := n.(type) {
	case *ast.StringNode:
		if v.Value == "" {
			l.errorf(n, "%s is empty", what)
			return "", false
		}
		if bad, ok := unprintable(v.Value); ok {
			l.errorf(n, "%s %s holds %s; names are printable text", what, quote(v.Value), bad)
			return v.Value, false // kept, so that it is not reported as missing too
		}
		return v.Value, true
	case nil, *ast.NullNode:
		l.errorf(n, "%s is empty", what)
		return "", false
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
		l.errorf(n, "%s must be a name, not %s", what, describe(n))
		return "", false
	}
	// A bare number or boolean used as a name: take its text.
	return n.GetToken().Value, true
}

// itemName reads the required name of an item (an action, a goal, a task,
// a method) from its fields, recording its position; a missing name is
// reported once, and the item's path marked so that the planners' "empty
// name" is not reported again.
func (l *loader) itemName(f map[string]*ast.MappingValueNode, item ast.Node, path, what string) string {
	mv, ok := f["name"]
	if !ok {
		l.errorf(item, "%s has no name", what)
		l.broken = append(l.broken, path+".name")
		return ""
	}
	l.pos[path+".name"] = position(mv.Value)
	name, _ := l.name(mv.Value, what+" name")
	if name == "" {
		l.broken = append(l.broken, path+".name") // said: empty, or no name
	}
	return name
}
