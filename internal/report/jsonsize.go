package report

import (
	"encoding"
	"reflect"
	"strings"
	"unicode/utf8"
)

// An answer that lists a plan or a decomposition holds each step's name:
// a plan may repeat one action tens of thousands of times and a name may
// be most of a small file, so a 100 KB file can ask for gigabytes of
// JSON. Such answers are held, before they are written, as values that
// point at the domain's names (a few words a step, bounded by the budget
// or the step cap), and their JSON is counted from those values (JSONSize),
// stopping as soon as the count passes the bound: the server and the
// commands refuse an answer past their bound before a byte of it is made.

// JSONSize is an upper bound on the bytes of v as json.Marshal writes it,
// counted only as far as limit: past it, it returns a number above limit
// and stops. It counts every string with its quotes and escapes, and a
// number as the longest it can print as.
func JSONSize(v any, limit int) int {
	c := sizeCounter{limit: limit}
	c.value(reflect.ValueOf(v))
	return c.n
}

type sizeCounter struct {
	n, limit int
}

func (c *sizeCounter) over() bool { return c.n > c.limit }

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

func (c *sizeCounter) value(v reflect.Value) {
	if c.over() {
		return
	}
	if !v.IsValid() {
		c.n += len("null")
		return
	}
	if v.CanInterface() && v.Type().Implements(textMarshaler) && (v.Kind() != reflect.Pointer || !v.IsNil()) {
		b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err == nil {
			c.n += jsonStringSize(string(b))
			return
		}
	}
	switch v.Kind() {
	case reflect.String:
		c.n += jsonStringSize(v.String())
	case reflect.Bool:
		c.n += len("false")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		c.n += len("-9223372036854775808")
	case reflect.Float32, reflect.Float64:
		c.n += len("-1.2345678901234567e-308")
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			c.n += len("null")
			return
		}
		c.value(v.Elem())
	case reflect.Slice, reflect.Array:
		c.n += len("[]")
		for i := range v.Len() {
			if c.over() {
				return
			}
			c.n += len(",")
			c.value(v.Index(i))
		}
	case reflect.Map:
		c.n += len("{}")
		for it := v.MapRange(); it.Next(); {
			if c.over() {
				return
			}
			c.n += len(`,:`)
			c.value(it.Key())
			c.value(it.Value())
		}
	case reflect.Struct:
		c.n += len("{}")
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			c.n += jsonStringSize(name) + len(",:")
			c.value(v.Field(i))
		}
	default:
		// no such field in an answer; counted as a long string
		c.n += len("-1.2345678901234567e-308")
	}
}

// jsonStringSize is the bytes of s as a JSON string: its quotes, a
// control character or one of <>& as \u00XX, a quote or backslash
// escaped, and a byte of an invalid sequence as the three of U+FFFD. Line
// and paragraph separators (escaped as six bytes from three) are counted
// at three a byte.
func jsonStringSize(s string) int {
	n := len(`""`)
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b < 0x20 || b == '<' || b == '>' || b == '&':
			n += len(`\u0000`)
		case b == '"' || b == '\\':
			n += 2
		case b < utf8.RuneSelf:
			n++
		default:
			n += 3
		}
	}
	return n
}
