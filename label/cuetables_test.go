package label

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// A model file keeps its cue tables in their own part and reads them back
// as they were; a file of the layout before (the tables in the JSON)
// still loads, to the same tables; a damaged part is an error, not a
// panic.
func TestCueTablesInModelFile(t *testing.T) {
	cfg := DefaultFeatureConfig()
	cfg.Cues = map[string]float32{"nav": -1.25, "article": 0.5, "文章": 0.75, "x": 0}
	cfg.TextCues = map[string]float32{"cookies": -2, "reply": -0.5, "相关": -1}
	lab := trainCRF(t, []example{trainPage(t, 0), trainPage(t, 1)}, cfg, 5)
	data, err := lab.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte(modelMagic6)) || bytes.Contains(data, []byte(`"cookies"`)) {
		t.Fatalf("the tables should be in a part of their own, after %s", modelMagic6)
	}
	back, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.cfg.Cues != nil || back.cfg.TextCues != nil {
		t.Errorf("the tables were read into maps at loading")
	}
	if f := back.Features(); !maps.Equal(f.Cues, cfg.Cues) || !maps.Equal(f.TextCues, cfg.TextCues) {
		t.Errorf("tables read back: %v %v", f.Cues, f.TextCues)
	}
	// Read in place, they give the labeller the values of the maps.
	p := trainPage(t, 2).Page
	want, err := lab.Marginals(p, MainStyle)
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.Marginals(p, MainStyle)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("marginals of the loaded labeller differ from the trained one's")
	}
	again, err := back.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("written again: %d bytes (%v), want the same %d", len(again), err, len(data))
	}

	// The layout before: the same file with the tables in the JSON.
	js, err := json.Marshal(lab.cfg)
	if err != nil {
		t.Fatal(err)
	}
	var old bytes.Buffer
	old.WriteString(modelMagic5)
	writePrefixed(&old, js)
	_, rest, _ := lengthPrefixed(data[len(modelMagic6):]) // the configuration
	_, rest, _ = lengthPrefixed(rest)                     // the tables
	old.Write(rest)
	legacy, err := Load(old.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if f := legacy.Features(); !maps.Equal(f.Cues, cfg.Cues) || !maps.Equal(f.TextCues, cfg.TextCues) {
		t.Errorf("tables of a %s file: %v %v", modelMagic5, f.Cues, f.TextCues)
	}

	// Without tables: nil maps, as the JSON's omitempty gave.
	plain := trainCRF(t, []example{trainPage(t, 0), trainPage(t, 1)}, DefaultFeatureConfig(), 5)
	pd, _ := plain.MarshalBinary()
	if pl, err := Load(pd); err != nil || pl.Features().Cues != nil || pl.Features().TextCues != nil {
		t.Errorf("no tables: %v, %v %v", err, pl.Features().Cues, pl.Features().TextCues)
	}

	for _, part := range [][]byte{nil, {1, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0, 3, 'a', 'b'}, {0, 0, 0, 0, 0, 0, 0, 0, 9},
		{255, 255, 255, 255, 0, 0, 0, 0}, {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0, 0, 0, 0}} {
		if _, _, err := readCueTables(part); err == nil {
			t.Errorf("readCueTables(%v) succeeded", part)
		}
	}
	for n := len(modelMagic6); n < len(data); n += 7 {
		Load(data[:n]) // must not panic
	}
}

// readCueTables reads the part appendCueTables wrote into maps, as a
// loaded labeller's Features gives them.
func readCueTables(b []byte) (cues, text map[string]float32, err error) {
	c, tx, err := cueSources(b)
	if err != nil {
		return nil, nil, err
	}
	return sourceMap(c), sourceMap(tx), nil
}

// FuzzReadCueTables: any bytes give tables or an error, never a panic, and
// what reads back writes and reads again to the same tables.
func FuzzReadCueTables(f *testing.F) {
	f.Add(appendCueTables(nil, map[string]float32{"nav": -1, "文章": 0.5}, map[string]float32{"reply": -0.25}))
	f.Add(appendCueTables(nil, nil, nil))
	f.Add([]byte{1, 0, 0, 0, 200, 1, 'a'})
	f.Fuzz(func(t *testing.T, b []byte) {
		cues, text, err := readCueTables(b)
		if err != nil {
			return
		}
		c2, t2, err := readCueTables(appendCueTables(nil, cues, text))
		if err != nil || !maps.Equal(c2, cues) || !maps.Equal(t2, text) {
			t.Fatalf("written again: %v; %v %v, want %v %v", err, c2, t2, cues, text)
		}
	})
}
