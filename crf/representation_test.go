package crf

import (
	"math/rand/v2"
	"testing"
)

// This file holds the measurement behind the choice of a feature
// dictionary over feature hashing (see the package documentation): the
// same page scored both ways. Hashing here is FNV-1a 64 of the attribute
// name, computed once per attribute occurrence, mixed arithmetically with
// the template line into one of 2^20 buckets of L float32 weights.

const hashBits = 20

func fnv1a(s string) (h, key uint64) {
	h = 14695981039346656037
	key = 0
	for i := 0; i < len(s); i++ {
		if s[i] == '=' && key == 0 {
			key = h // the hash of the key is the state at the first "="
		}
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	if key == 0 {
		key = h
	}
	return h, key
}

func bucket(h uint64, line int) int {
	h ^= uint64(line+1) * 0x9E3779B97F4A7C15
	h *= 0xff51afd7ed558ccd
	return int(h >> (64 - hashBits))
}

type hashedPage struct {
	start []int32
	h     []uint64
	key   []uint64
}

func hashPage(page [][]Attr, hp *hashedPage) {
	hp.start = append(hp.start[:0], 0)
	hp.h, hp.key = hp.h[:0], hp.key[:0]
	for _, attrs := range page {
		for _, a := range attrs {
			h, k := fnv1a(a.Name)
			hp.h = append(hp.h, h)
			hp.key = append(hp.key, k)
		}
		hp.start = append(hp.start, int32(len(hp.h)))
	}
}

// hashedEmission is emission with hashed features: the same templates, key
// filters compared by key hash, one bucket per (line, attribute).
func hashedEmission(tmpl Template, keyHashes [][]uint64, hp *hashedPage, table []float32, L int, e []float64) {
	n := len(hp.start) - 1
	clear(e)
	sentinel := []uint64{1}
	for t := range n {
		es := e[t*L : t*L+L]
		for u, ut := range tmpl.Unigrams {
			s := t + ut.Offset
			hs, ks := sentinel, sentinel
			if s >= 0 && s < n {
				hs, ks = hp.h[hp.start[s]:hp.start[s+1]], hp.key[hp.start[s]:hp.start[s+1]]
			}
			for i, h := range hs {
				if len(keyHashes[u]) > 0 {
					found := false
					for _, kh := range keyHashes[u] {
						found = found || kh == ks[i]
					}
					if !found {
						continue
					}
				}
				b := bucket(h, u) * L
				row := table[b : b+L]
				for y := range es {
					es[y] += float64(row[y])
				}
			}
		}
	}
}

func BenchmarkRepresentation(b *testing.B) {
	m, page := benchSetup()
	L := len(m.labels)
	var r resolved
	e := make([]float64, len(page)*L)
	b.Run("dict/lookup", func(b *testing.B) {
		for b.Loop() {
			m.fs.resolve(page, &r)
		}
	})
	b.Run("dict/sum", func(b *testing.B) {
		for b.Loop() {
			m.fs.emission(&r, len(page), m.w, e)
		}
	})
	var hp hashedPage
	b.Run("hash/lookup", func(b *testing.B) {
		for b.Loop() {
			hashPage(page, &hp)
		}
	})
	rng := rand.New(rand.NewPCG(1, 1))
	table := make([]float32, (1<<hashBits)*L)
	for i := range table {
		table[i] = float32(rng.NormFloat64())
	}
	keyHashes := make([][]uint64, len(pageTemplate.Unigrams))
	for u, ut := range pageTemplate.Unigrams {
		for _, k := range ut.Keys {
			_, kh := fnv1a(k + "=")
			keyHashes[u] = append(keyHashes[u], kh)
		}
	}
	tmpl := pageTemplate
	tmpl.Pairs = nil // the dictionary's one conjunction per position costs about 5% more
	b.Run("hash/sum", func(b *testing.B) {
		for b.Loop() {
			hashedEmission(tmpl, keyHashes, &hp, table, L, e)
		}
	})
	data, _ := m.MarshalBinary()
	nonzero := m.fs.nFeat // at most one bucket per feature
	b.Logf("dictionary model file: %d features, %d bytes; hashed: %d bytes dense, ≥%d bytes sparse (bucket index + weights per used bucket)",
		m.fs.nFeat, len(data), len(table)*4, nonzero*(4+4*L))
}
