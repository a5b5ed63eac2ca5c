// Package domain loads domain files: YAML documents that describe a GOAP
// domain (facts, initial state, actions, goals) and optionally an HTN over
// it. Every problem is reported at once, each as FILE:LINE:COL: message.
package domain

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
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

// File is a loaded, validated domain file.
type File struct {
	Path   string
	Source []byte
	// Spec and HTNSpec are what the file says; HTNSpec is nil when the file
	// has no htn section.
	Spec    goap.Spec
	HTNSpec *htn.Spec
	GOAP    *goap.Domain
	HTN     *htn.Domain
	// Sensed are the facts the file's sensed key lists: facts the world
	// changes at run time, not only actions. Lint takes both their values
	// as reachable.
	Sensed []goap.Fact
	// Agents are the agent kinds of the file's agents: section, in its
	// order (docs/agents.md).
	Agents []*Agent
	// EngineAgents are an engine-model file's agent kinds.
	EngineAgents []*EngineAgent
	// Inputs are the numbers the world supplies to the agents (inputs:).
	Inputs []Input
	// Resolver, ResolverSpec and World are set for an engine-model file
	// (one with keys: instead of facts:), and Spec, GOAP, HTN and Sensed
	// are then empty: the file is for package resolver, not goap.
	Resolver     *resolver.Domain
	ResolverSpec resolver.Spec
	World        World
	pos          map[string]Pos
}

// Pos returns the position of the part of the file at path, in the form of
// goap.SpecError paths ("actions[2].cost", "htn.tasks[0].methods[1]"), or
// of the nearest enclosing part that has one.
func (f *File) Pos(path string) Pos { return lookup(f.pos, path) }

func lookup(pos map[string]Pos, path string) Pos {
	for path != "" {
		if p, ok := pos[path]; ok {
			return p
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return Pos{Line: 1, Col: 1}
}

// Load reads and parses the domain file at path.
func Load(path string) (*File, error) {
	src, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// ReadFile reads a domain file through a reader that stops one byte past
// MaxFileSize, whatever the file is: a regular file, a device such as
// /dev/zero, a pipe. A longer file is refused.
func ReadFile(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return ReadFrom(path, fh)
}

// ReadFrom reads a domain file named name from r (standard input, say),
// refusing one longer than MaxFileSize without reading past it.
func ReadFrom(name string, r io.Reader) ([]byte, error) {
	src, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		return nil, ErrorList{tooLarge(name)}
	}
	return src, nil
}

func tooLarge(name string) *Error {
	return &Error{File: name, Msg: fmt.Sprintf("file is larger than %d MiB (%d bytes), the most a domain file may have", MaxFileSize>>20, MaxFileSize)}
}

// Limits that keep a hostile or broken file from exhausting the loader.
// A domain file needs a handful of nesting levels and some kilobytes. The
// YAML parser's time and memory grow with the square of the nesting depth,
// and its memory by some hundreds of bytes per token, so both are checked
// on the parser's own tokens before it builds anything.
const (
	MaxFileSize = 8 << 20
	MaxNesting  = 64
	MaxTokens   = 1 << 19
	MaxErrors   = 100 // errors reported per file; the rest are counted
	// MaxAgents bounds a file's agent kinds: each compiles a profile as
	// large as the domain's actions, so the bound keeps a file's cost
	// linear in its size. Games have a handful.
	MaxAgents = 256
)

// byteOrderMark is the UTF-8 encoding of U+FEFF, which some editors put at
// the start of a file.
const byteOrderMark = "\xef\xbb\xbf"

// Parse parses src as the domain file named path. On failure the error is
// an ErrorList holding every problem found, sorted by position (at most
// MaxErrors of them, the last saying how many more there were).
func Parse(path string, src []byte) (*File, error) {
	text := strings.TrimPrefix(string(src), byteOrderMark)
	l := &loader{path: path, pos: map[string]Pos{}, lines: strings.Split(text, "\n"), standIn: map[string]bool{}, skip: map[string]bool{}}
	f := &File{Path: path, Source: src, pos: l.pos}
	if len(src) > MaxFileSize {
		l.errs = append(l.errs, tooLarge(path))
		return nil, l.errs
	}
	if !utf8.ValidString(text) {
		// YAML is Unicode text; the parser would quietly turn the bad
		// bytes into U+FFFD, and names would differ from what is written.
		l.errorAt(invalidUTF8(text), "invalid UTF-8: a domain file is UTF-8 text")
		return nil, l.errs
	}
	if n := tokenBound(text); n > MaxTokens {
		l.errorAt(Pos{Line: 1, Col: 1}, "too many YAML tokens (names, values, punctuation): about %d, where a domain file may have %d", n, MaxTokens)
		return nil, l.errs
	}
	tokens, ok := l.tokenize(text)
	if !ok {
		return nil, l.errs
	}
	if ok := l.parse(tokens); ok && l.engine {
		l.buildEngine(f)
	} else if ok {
		f.Spec = l.spec
		f.HTNSpec = l.htn
		l.build(f)
	}
	if len(l.errs) > 0 {
		return nil, capErrors(sortErrors(l.errs))
	}
	return f, nil
}

// capErrors keeps the first MaxErrors errors and says how many were cut.
func capErrors(l ErrorList) ErrorList {
	if len(l) <= MaxErrors {
		return l
	}
	more := len(l) - MaxErrors
	last := l[MaxErrors-1]
	l = l[:MaxErrors:MaxErrors]
	return append(l, &Error{File: last.File, Pos: last.Pos, Msg: fmt.Sprintf("too many errors: %d more not shown", more)})
}

// tokenBound returns a cheap upper bound on the number of tokens the YAML
// scanner makes of text. The scanner hands back a whole block of tokens
// at once (all of a long list in one call), some hundreds of bytes each,
// so their number must be known before it runs. Every token starts either
// a run of non-blank bytes or at or just after a punctuation byte within
// one (an indicator such as [ or :, a document marker); counting a run
// once and each punctuation byte twice over-counts, never under-counts
// (FuzzNesting checks it), and names and numbers count once.
func tokenBound(text string) int {
	n, inWord := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
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
	errs  ErrorList
	pos   map[string]Pos
	spec  goap.Spec
	htn   *htn.Spec
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
			l.errorAt(p, "yaml: %s%s", se.Message, hint)
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

func (l *loader) document(body ast.Node) {
	entries := l.mapping(body, "a domain file")
	if entries == nil && !isNull(l.unwrap(body)) {
		return
	}
	if keys, ok := hasField(entries, "keys"); ok {
		if facts, both := hasField(entries, "facts"); both {
			l.errorf(laterKey(keys, facts), "a file has facts: (the state-space planner's boolean facts) or keys: (the engine model's world keys), not both: keep one, and write a second file for the other model")
			return
		}
		l.engineDocument(entries)
		return
	}
	f := l.fields(entries, "the domain", "name", "facts", "initial", "sensed", "actions", "goals", "htn", "inputs", "agents")
	top := Pos{Line: 1, Col: 1}
	if len(entries) > 0 {
		top = position(entries[0].Key)
	}
	if mv, ok := f["name"]; ok {
		l.spec.Name, _ = l.name(mv.Value, "name")
	} else {
		l.errorAt(top, "missing key \"name\"")
	}
	if mv, ok := f["facts"]; ok {
		for i, item := range l.sequence(mv.Value, "facts") {
			path := fmt.Sprintf("facts[%d]", i)
			l.pos[path] = position(item)
			name, _ := l.name(item, "a fact name")
			l.spec.Facts = append(l.spec.Facts, name)
		}
	} else {
		l.errorAt(top, "missing key \"facts\"")
	}
	if mv, ok := f["initial"]; ok {
		l.spec.Initial = l.facts("initial", mv.Value)
	}
	if mv, ok := f["sensed"]; ok {
		for i, item := range l.sequence(mv.Value, "sensed") {
			l.pos[fmt.Sprintf("sensed[%d]", i)] = position(item)
			name, _ := l.name(item, "a sensed fact")
			l.sensed = append(l.sensed, name)
		}
	}
	if mv, ok := f["actions"]; ok {
		for i, item := range l.sequence(mv.Value, "actions") {
			l.action(i, item)
		}
	}
	if mv, ok := f["goals"]; ok {
		l.pos["goals"] = position(mv.Key)
		for i, item := range l.sequence(mv.Value, "goals") {
			l.goal(i, item)
		}
	}
	if mv, ok := f["htn"]; ok {
		l.htnSection(mv)
	}
	if mv, ok := f["inputs"]; ok {
		l.inputsSection(mv) // before the agents, which test them
	}
	if mv, ok := f["agents"]; ok {
		l.agentsSection(mv)
	}
}

// laterKey returns whichever of two keys comes later in the file.
func laterKey(a, b *ast.MappingValueNode) ast.Node {
	pa, pb := position(a.Key), position(b.Key)
	if pb.Line > pa.Line || pb.Line == pa.Line && pb.Col > pa.Col {
		return b.Key
	}
	return a.Key
}

// factWord names what a fact map's entries are, by the map's last key.
func factWord(path string) string {
	if strings.HasPrefix(path, "agents[") && strings.HasSuffix(path, "].when") {
		return "agent condition"
	}
	switch path[strings.LastIndexByte(path, '.')+1:] {
	case "initial":
		return "initial fact"
	case "preconditions":
		return "precondition"
	case "effects":
		return "effect"
	case "when":
		return "cost rule fact"
	}
	return "condition"
}

// facts reads a mapping of fact names to true or false.
func (l *loader) facts(path string, n ast.Node) map[string]bool {
	l.pos[path] = position(n)
	out := map[string]bool{}
	l.factMaps = append(l.factMaps, factMap{path, out})
	for _, mv := range l.mapping(n, path) {
		k := keyName(mv.Key)
		l.pos[path+"."+k] = position(mv.Key)
		v := l.unwrap(mv.Value)
		b, ok := v.(*ast.BoolNode)
		if tagOf(mv.Value) == "!!str" {
			ok = false // "!!str true" is the text true, not the boolean
		}
		if !ok {
			if parent, nested := nestedKey(path, k, v); nested {
				l.errorf(mv.Key, "%s: is indented under %s:, so it reads as a %s named %s; indent it like %s: to make it the %s's own key", k, parent, factWord(path), quote(k), parent, owner(path))
				continue
			}
			l.errorf(valueOrKey(mv), "%s %s must be true or false, not %s", factWord(path), quote(k), describe(v))
			continue
		}
		out[k] = b.Value
	}
	return out
}

// nestedKey reports whether the entry k of the fact map at path, whose
// value v is no boolean, is a key of the map's owner indented one level
// too deep (effects: under preconditions:), and names the map's key.
func nestedKey(path, k string, v ast.Node) (string, bool) {
	parent := path[strings.LastIndexByte(path, '.')+1:]
	var siblings []string
	switch {
	case strings.HasPrefix(path, "actions[") && (parent == "preconditions" || parent == "effects"):
		siblings = []string{"name", "preconditions", "effects", "cost"}
	case strings.HasPrefix(path, "goals["):
		siblings = []string{"name", "conditions"}
	case strings.HasPrefix(path, "htn."):
		siblings = []string{"name", "conditions", "subtasks"}
	}
	if _, isBool := v.(*ast.BoolNode); isBool {
		return "", false
	}
	for _, s := range siblings {
		if s == k && s != parent {
			return parent, true
		}
	}
	return "", false
}

// owner names what the fact map at path belongs to.
func owner(path string) string {
	switch {
	case strings.HasPrefix(path, "actions["):
		return "action"
	case strings.HasPrefix(path, "goals["):
		return "goal"
	}
	return "method"
}

func valueOrKey(mv *ast.MappingValueNode) ast.Node {
	if isNull(mv.Value) {
		return mv.Key
	}
	return mv.Value
}

func (l *loader) action(i int, item ast.Node) {
	path := fmt.Sprintf("actions[%d]", i)
	l.pos[path] = position(item)
	if !l.isMapping(item, path, "an action") {
		l.spec.Actions = append(l.spec.Actions, goap.ActionSpec{Cost: goap.Const(1)})
		return
	}
	f := l.fields(l.mapping(item, "an action"), "an action", "name", "preconditions", "effects", "cost")
	a := goap.ActionSpec{Name: l.itemName(f, item, path, "action")}
	if mv, ok := f["preconditions"]; ok {
		a.Preconditions = l.facts(path+".preconditions", mv.Value)
	}
	if mv, ok := f["effects"]; ok {
		a.Effects = l.facts(path+".effects", mv.Value)
	}
	if mv, ok := f["cost"]; ok {
		a.Cost = l.cost(path+".cost", mv.Value, i)
	} else {
		if a.Name != "" {
			l.errorf(item, "action %s has no cost; give it one, such as cost: 1 (or a list of rules ending with a default, such as cost: [{when: {in_cover: true}, cost: 1}, {cost: 4}])", quote(a.Name))
		} else {
			l.errorf(item, "action has no cost; give it one, such as cost: 1")
		}
		a.Cost = goap.Const(1)
	}
	l.spec.Actions = append(l.spec.Actions, a)
}

// number reads a numeric scalar; ok is false (and the error reported) if n
// is not one.
func (l *loader) number(n ast.Node, what string) (float64, bool) {
	tag := tagOf(n)
	n = l.unwrap(n)
	if tag == "!!str" {
		l.errorf(n, "%s must be a number, not the text %s", what, describe(n))
		return 0, false
	}
	switch v := n.(type) {
	case *ast.StringNode:
		// The parser leaves some plain numbers as text (1e308, and
		// integers past 64 bits): YAML 1.2 reads them as numbers.
		if v.GetToken().Type != token.StringType {
			break // quoted: text
		}
		x, err := strconv.ParseFloat(v.Value, 64)
		if err == nil {
			return x, true
		}
		if errors.Is(err, strconv.ErrRange) && math.IsInf(x, 0) {
			l.errorf(n, "%s %s is out of range: %s", what, quote(v.Value), rangeRule(what))
			return 0, false
		}
	case *ast.IntegerNode:
		switch x := v.Value.(type) {
		case int64:
			return float64(x), true
		case uint64:
			return float64(x), true
		}
	case *ast.FloatNode:
		return v.Value, true
	case *ast.InfinityNode:
		return v.Value, true
	case *ast.NanNode:
		return math.NaN(), true
	}
	l.errorf(n, "%s must be a number, not %s", what, describe(n))
	return 0, false
}

// cost reads a cost: a number, or a list of {when, cost} rules ending with
// a default {cost}. An invalid cost is replaced by a stand-in so that the
// rest of the file can still be checked.
func (l *loader) cost(path string, n ast.Node, action int) goap.Cost {
	l.pos[path] = position(n)
	if seq, ok := l.unwrap(n).(*ast.SequenceNode); ok {
		var rules []goap.CostRule
		def, hasDefault := 0.0, false
		for j, item := range seq.Values {
			rp := fmt.Sprintf("%s[%d]", path, j)
			l.pos[rp] = position(item)
			f := l.fields(l.mapping(item, "a cost rule"), "a cost rule", "when", "cost")
			c := 1.0
			if mv, ok := f["cost"]; ok {
				l.pos[rp+".cost"] = position(mv.Value)
				c, _ = l.number(mv.Value, "cost")
			} else {
				l.errorf(item, "cost rule has no cost; give it one, such as {when: {in_cover: true}, cost: 1}")
			}
			mv, hasWhen := f["when"]
			switch {
			case !hasWhen && j < len(seq.Values)-1:
				l.errorf(item, "only the last cost rule may omit when: it is the default")
			case !hasWhen:
				def, hasDefault = c, true
			default:
				rules = append(rules, goap.CostRule{When: l.facts(rp+".when", mv.Value), Cost: c})
			}
		}
		if !hasDefault {
			l.errorf(seq, "cost rule list has no default: end it with a rule without when, such as {cost: 4}")
			l.markBadCost(action)
			return goap.Const(1)
		}
		return goap.Rules(def, rules...)
	}
	c, ok := l.number(n, "cost")
	if !ok {
		l.markBadCost(action)
		return goap.Const(1)
	}
	return goap.Const(c)
}

func (l *loader) markBadCost(action int) {
	if action < 0 {
		return
	}
	if l.badCost == nil {
		l.badCost = map[int]bool{}
	}
	l.badCost[action] = true
}

func (l *loader) goal(i int, item ast.Node) {
	path := fmt.Sprintf("goals[%d]", i)
	l.pos[path] = position(item)
	if !l.isMapping(item, path, "a goal") {
		l.spec.Goals = append(l.spec.Goals, goap.GoalSpec{})
		return
	}
	f := l.fields(l.mapping(item, "a goal"), "a goal", "name", "conditions")
	g := goap.GoalSpec{Name: l.itemName(f, item, path, "goal")}
	if mv, ok := f["conditions"]; ok {
		g.Conditions = l.facts(path+".conditions", mv.Value)
	}
	l.spec.Goals = append(l.spec.Goals, g)
}

func (l *loader) htnSection(section *ast.MappingValueNode) {
	l.pos["htn"] = position(section.Key)
	h := &htn.Spec{}
	l.htn = h
	f := l.fields(l.mapping(section.Value, "htn"), "htn", "root", "tasks")
	if mv, ok := f["root"]; ok {
		l.pos["htn.root"] = position(mv.Value)
		h.Root, _ = l.name(mv.Value, "htn root")
	} else {
		l.errorf(section.Key, "htn has no root")
	}
	mv, ok := f["tasks"]
	if !ok {
		return
	}
	for i, item := range l.sequence(mv.Value, "htn tasks") {
		path := fmt.Sprintf("htn.tasks[%d]", i)
		l.pos[path] = position(item)
		tf := l.fields(l.mapping(item, "a task"), "a task", "name", "methods")
		ts := htn.TaskSpec{Name: l.itemName(tf, item, path, "task")}
		if mv, ok := tf["methods"]; ok {
			l.pos[path+".methods"] = position(mv.Key)
			for j, m := range l.sequence(mv.Value, "methods") {
				ts.Methods = append(ts.Methods, l.method(fmt.Sprintf("%s.methods[%d]", path, j), m))
			}
		}
		h.Tasks = append(h.Tasks, ts)
	}
}

func (l *loader) method(path string, item ast.Node) htn.MethodSpec {
	l.pos[path] = position(item)
	f := l.fields(l.mapping(item, "a method"), "a method", "name", "conditions", "subtasks")
	m := htn.MethodSpec{Name: l.itemName(f, item, path, "method")}
	if mv, ok := f["conditions"]; ok {
		// Method conditions are checked by htn with paths relative to the
		// method ("conditions.x"): record them under both forms.
		m.Conditions = l.facts(path+".conditions", mv.Value)
	}
	if mv, ok := f["subtasks"]; ok {
		for k, s := range l.sequence(mv.Value, "subtasks") {
			l.pos[fmt.Sprintf("%s.subtasks[%d]", path, k)] = position(s)
			name, _ := l.name(s, "a subtask")
			m.Subtasks = append(m.Subtasks, name)
		}
	}
	return m
}

// build compiles the specs, mapping the planners' errors to positions. If
// the GOAP part is invalid, the HTN is still checked against a repaired
// copy, so that the file's errors are reported all at once.
func (l *loader) build(f *File) {
	l.dropUnknownFacts()
	g, err := goap.NewDomain(l.spec)
	if err != nil {
		var es goap.SpecErrors
		if errors.As(err, &es) {
			for _, e := range es {
				if l.costStandIn(e.Path) || l.isBroken(e.Path) || l.unknown[e.Path] {
					continue
				}
				l.errorAt(lookup(l.pos, e.Path), "%s", e.Msg)
			}
		}
		g, err = goap.NewDomain(repaired(l.spec))
		if err != nil {
			return // cannot happen: repaired drops whatever NewDomain rejects
		}
	}
	var h *htn.Domain
	if l.htn != nil {
		h, err = htn.NewDomain(g, *l.htn)
		var es htn.Errors
		if errors.As(err, &es) {
			for _, e := range es {
				if !l.isBroken(e.Path) && !l.unknown[e.Path] {
					l.errorAt(lookup(l.pos, e.Path), "%s", e.Msg)
				}
			}
		}
	}
	f.GOAP, f.HTN = g, h
	f.Sensed = l.resolveSensed(g)
	f.Agents = l.buildAgents(g, h)
	f.Inputs = l.inputs
}

// dropUnknownFacts reports each fact named in a fact map but not declared,
// and takes it out of the map, so that the planners, which would report
// it again with their own suggestion, never see it.
func (l *loader) dropUnknownFacts() {
	declared := make(map[string]bool, len(l.spec.Facts))
	for _, f := range l.spec.Facts {
		declared[f] = true
	}
	l.unknown = map[string]bool{}
	for _, fm := range l.factMaps {
		for _, name := range slices.Sorted(maps.Keys(fm.m)) {
			if declared[name] {
				continue
			}
			path := fm.path + "." + name
			l.errorAt(lookup(l.pos, path), "%s", l.unknownFact(name))
			// The map's own path too: goap would judge the map
			// without the name ("a rule with no condition").
			l.unknown[path], l.unknown[fm.path] = true, true
			delete(fm.m, name)
		}
	}
}

// unknownFact says that name is no declared fact, with the closest one if
// there is one, or else the first few facts there are.
func (l *loader) unknownFact(name string) string {
	msg := "unknown fact " + quote(name)
	if l.suggested >= maxSuggestions {
		return msg
	}
	l.suggested++
	if s := suggest.Closest(name, l.spec.Facts); s != "" {
		return msg + fmt.Sprintf("; did you mean %s?", quote(s))
	}
	const listed = 10
	facts := l.spec.Facts
	if len(facts) == 0 {
		return msg + "; the file declares no facts"
	}
	var sb strings.Builder
	for i, f := range facts[:min(len(facts), listed)] {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(quote(f))
	}
	if len(facts) > listed {
		fmt.Fprintf(&sb, " and %d more", len(facts)-listed)
	}
	return msg + "; declare it under facts, or use a declared one: " + sb.String()
}

// resolveSensed resolves the sensed key's names, reporting unknown and
// repeated ones.
func (l *loader) resolveSensed(g *goap.Domain) []goap.Fact {
	var out []goap.Fact
	seen := map[goap.Fact]bool{}
	for i, name := range l.sensed {
		pos := l.pos[fmt.Sprintf("sensed[%d]", i)]
		if name == "" {
			continue // reported as empty
		}
		fact, ok := g.Fact(name)
		switch {
		case !ok:
			l.errorAt(pos, "%s", l.unknownFact(name))
		case seen[fact]:
			l.errorAt(pos, "fact %q is already listed in sensed", name)
		default:
			seen[fact] = true
			out = append(out, fact)
		}
	}
	return out
}

// isBroken reports whether path is, or is inside, an item already reported.
func (l *loader) isBroken(path string) bool {
	for _, b := range l.broken {
		if path == b || strings.HasPrefix(path, b+".") || strings.HasPrefix(path, b+"[") {
			return true
		}
	}
	return false
}

// costStandIn reports whether a goap error is about a cost the loader
// already rejected and replaced.
func (l *loader) costStandIn(path string) bool {
	for a := range l.badCost {
		if strings.HasPrefix(path, fmt.Sprintf("actions[%d].cost", a)) {
			return true
		}
	}
	return false
}

// repaired returns a copy of spec with whatever goap.NewDomain would reject
// taken out: duplicate and empty names, unknown facts, invalid costs.
func repaired(spec goap.Spec) goap.Spec {
	out := goap.Spec{Name: spec.Name}
	known := map[string]bool{}
	for _, f := range spec.Facts {
		if f != "" && !strings.ContainsAny(f, " \t\n,") && !known[f] {
			known[f] = true
			out.Facts = append(out.Facts, f)
		}
	}
	keep := func(m map[string]bool) map[string]bool {
		r := map[string]bool{}
		for k, v := range m {
			if known[k] {
				r[k] = v
			}
		}
		return r
	}
	out.Initial = keep(spec.Initial)
	seen := map[string]bool{}
	for _, a := range spec.Actions {
		if a.Name == "" || seen[a.Name] {
			continue
		}
		seen[a.Name] = true
		out.Actions = append(out.Actions, goap.ActionSpec{Name: a.Name, Preconditions: keep(a.Preconditions), Effects: keep(a.Effects), Cost: goap.Const(1)})
	}
	seen = map[string]bool{}
	for _, g := range spec.Goals {
		if g.Name == "" || seen[g.Name] {
			continue
		}
		seen[g.Name] = true
		out.Goals = append(out.Goals, goap.GoalSpec{Name: g.Name, Conditions: keep(g.Conditions)})
	}
	return out
}
