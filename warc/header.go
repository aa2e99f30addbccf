package warc

import "strings"

// Field is one named field of a WARC record header, as it appeared in the
// file (name spelling kept, value with surrounding white space removed).
type Field struct {
	Name  string
	Value string
}

// Header holds the named fields of a record in file order. Lookups ignore the
// case of names, as the WARC specification says field names are
// case-insensitive.
type Header []Field

// Get returns the value of the first field called name, or "".
func (h Header) Get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Has reports whether a field called name is present (possibly empty).
func (h Header) Has(name string) bool {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}

// Values returns the values of all fields called name, in order.
func (h Header) Values(name string) []string {
	var vs []string
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// Set gives the first field called name the value and removes any other
// field of that name; it appends the field if there is none.
func (h *Header) Set(name, value string) {
	found := false
	out := (*h)[:0]
	for _, f := range *h {
		if strings.EqualFold(f.Name, name) {
			if found {
				continue
			}
			found = true
			f.Value = value
		}
		out = append(out, f)
	}
	if !found {
		out = append(out, Field{name, value})
	}
	*h = out
}

// Add appends a field, keeping fields of the same name.
func (h *Header) Add(name, value string) { *h = append(*h, Field{name, value}) }

// Del removes every field called name.
func (h *Header) Del(name string) {
	out := (*h)[:0]
	for _, f := range *h {
		if !strings.EqualFold(f.Name, name) {
			out = append(out, f)
		}
	}
	*h = out
}

// Clone returns a copy of h that shares nothing with it.
func (h Header) Clone() Header {
	if h == nil {
		return nil
	}
	return append(Header(nil), h...)
}
