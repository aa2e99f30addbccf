package filterset

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// doc is a file read into generic values (map[string]any, []any, string,
// float64 or int64, bool, nil, and TOML's dates) with the position of
// every key and value, by path (the keys joined by pathSep).
type doc struct {
	data []byte
	root map[string]any
	keys map[string]Pos
	vals map[string]Pos
}

const pathSep = "\x1f"

func join(parts ...string) string { return strings.Join(parts, pathSep) }

// key returns the position of the key at path, or of the nearest enclosing
// key that has one.
func (d *doc) key(path string) Pos {
	for {
		if p, ok := d.keys[path]; ok {
			return p
		}
		i := strings.LastIndex(path, pathSep)
		if i < 0 {
			return Pos{Line: 1, Col: 1}
		}
		path = path[:i]
	}
}

// val returns the position of the value at path, or of its key when the
// value has none of its own.
func (d *doc) val(path string) Pos {
	if p, ok := d.vals[path]; ok {
		return p
	}
	return d.key(path)
}

// maxDepth bounds the nesting of a file: a filter set is three levels deep.
const maxDepth = 32

// readJSON reads a JSON file, with positions computed from the decoder's
// offsets. Duplicate keys are errors, as unknown fields are later.
func readJSON(data []byte) (*doc, error) {
	d := &doc{data: data, keys: map[string]Pos{}, vals: map[string]Pos{}}
	w := jsonWalker{doc: d, dec: json.NewDecoder(bytes.NewReader(data))}
	w.dec.UseNumber()
	v, err := w.value("", 0)
	if err != nil {
		return nil, err
	}
	if _, err := w.dec.Token(); err != io.EOF {
		return nil, w.errorAt(w.start(), "unexpected data after the top-level object")
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, w.errorAt(posAt(data, 0), "a filter set is a JSON object: {\"version\": 1, \"name\": ...}")
	}
	d.root = root
	return d, nil
}

type jsonWalker struct {
	*doc
	dec *json.Decoder
}

func (w *jsonWalker) errorAt(at Pos, msg string) error {
	return ErrorList{{Pos: at, Msg: msg}}
}

// start is the position of the next token: after the white space, colons
// and commas that follow the decoder's offset.
func (w *jsonWalker) start() Pos {
	off := int(w.dec.InputOffset())
	for off < len(w.data) && strings.IndexByte(" \t\r\n:,", w.data[off]) >= 0 {
		off++
	}
	return posAt(w.data, off)
}

// syntax turns a decoder error into an error at its position.
func (w *jsonWalker) syntax(err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// The offset counts the bytes before the offending one.
		return w.errorAt(posAt(w.data, int(se.Offset)), "JSON syntax: "+strings.TrimPrefix(se.Error(), "json: "))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return w.errorAt(posAt(w.data, len(w.data)), "JSON syntax: unexpected end of file")
	}
	return w.errorAt(w.start(), "JSON: "+err.Error())
}

func (w *jsonWalker) value(path string, depth int) (any, error) {
	at := w.start()
	tok, err := w.dec.Token()
	if err != nil {
		return nil, w.syntax(err)
	}
	w.vals[path] = at
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return nil, w.errorAt(at, "nested too deep")
		}
		if t == '{' {
			return w.object(path, depth)
		}
		return w.array(path, depth)
	case json.Number:
		x, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsInf(x, 0) {
			return nil, w.errorAt(at, "number "+string(t)+" is out of range")
		}
		return x, nil
	}
	return tok, nil // string, bool or nil
}

func (w *jsonWalker) object(path string, depth int) (any, error) {
	m := map[string]any{}
	for w.dec.More() {
		at := w.start()
		tok, err := w.dec.Token()
		if err != nil {
			return nil, w.syntax(err)
		}
		k, _ := tok.(string) // the decoder allows only strings here
		if _, dup := m[k]; dup {
			return nil, w.errorAt(at, "duplicate key "+strconv.Quote(k))
		}
		kp := k
		if path != "" {
			kp = path + pathSep + k
		}
		w.keys[kp] = at
		if m[k], err = w.value(kp, depth+1); err != nil {
			return nil, err
		}
	}
	if _, err := w.dec.Token(); err != nil { // the closing brace
		return nil, w.syntax(err)
	}
	return m, nil
}

func (w *jsonWalker) array(path string, depth int) (any, error) {
	var list []any
	for w.dec.More() {
		v, err := w.value(path+pathSep+strconv.Itoa(len(list)), depth+1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	if _, err := w.dec.Token(); err != nil { // the closing bracket
		return nil, w.syntax(err)
	}
	return list, nil
}

// readTOML reads a TOML file: go-toml decodes the values (and reports
// syntax errors and redefined keys with their position); its parser then
// gives the position of every key and value.
func readTOML(data []byte) (*doc, error) {
	d := &doc{data: data, keys: map[string]Pos{}, vals: map[string]Pos{}}
	if err := toml.Unmarshal(data, &d.root); err != nil {
		var de *toml.DecodeError
		at := Pos{Line: 1, Col: 1}
		if errors.As(err, &de) {
			line, col := de.Position()
			at = lineCol(data, line, col)
		}
		return nil, ErrorList{{Pos: at, Msg: "TOML syntax: " + strings.TrimPrefix(err.Error(), "toml: ")}}
	}
	if d.root == nil {
		d.root = map[string]any{}
	}
	var p unstable.Parser
	p.Reset(data)
	var prefix []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			prefix = d.tomlKey(&p, nil, e.Key())
		case unstable.KeyValue:
			d.tomlKeyValue(&p, prefix, e)
		}
	}
	return d, nil
}

// tomlKey records the positions of the parts of a dotted key below prefix
// (the first definition of each wins) and returns the full key.
func (d *doc) tomlKey(p *unstable.Parser, prefix []string, it unstable.Iterator) []string {
	parts := append([]string(nil), prefix...)
	for it.Next() {
		k := it.Node()
		parts = append(parts, string(k.Data))
		if path := join(parts...); d.keys[path] == (Pos{}) {
			d.keys[path] = posAt(d.data, int(p.Shape(k.Raw).Start.Offset))
		}
	}
	return parts
}

func (d *doc) tomlKeyValue(p *unstable.Parser, prefix []string, e *unstable.Node) {
	parts := d.tomlKey(p, prefix, e.Key())
	v := e.Value()
	if v.Raw.Length > 0 {
		d.vals[join(parts...)] = posAt(d.data, int(v.Raw.Offset))
	}
	if v.Kind == unstable.InlineTable {
		for it := v.Children(); it.Next(); {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				d.tomlKeyValue(p, parts, c)
			}
		}
	}
}

// lineCol turns go-toml's line and byte column into a Pos.
func lineCol(data []byte, line, col int) Pos {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
	}
	return posAt(data, min(off+max(col-1, 0), len(data)))
}
