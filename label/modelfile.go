package label

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/gbdt"
)

// Model files. A model file starts with modelMagic6, then the feature
// configuration (its length, a little-endian uint32, then JSON), whose
// Stages list the labeller's stages in order; then its two cue tables
// (Config.Cues and Config.TextCues, left out of the JSON), length-prefixed
// alike (cuetables.go); then, for each stage with a trained part (trees,
// crf, stack, context), that part, length-prefixed alike, in the order of
// the list. modelMagic5 is the same without the tables' part: its tables,
// when it has them, are in the JSON, which takes several times longer to
// read (tens of thousands of entries, read at every start of the program).
//
// Files written before stages were listed load as the labeller they
// describe (see loadLegacy): modelMagic1 is one CRF (the configuration,
// then the CRF, not prefixed); modelMagic2 two (the configuration, the
// first CRF length-prefixed, the second); modelMagic3 adds boosted trees
// (the configuration, the trees' part length-prefixed, the first CRF
// length-prefixed, the second CRF or nothing); modelMagic4 is
// modelMagic3 with context trees after the trees inside the trees' part.
const (
	modelMagic1 = "SLUICEM1"
	modelMagic2 = "SLUICEM2"
	modelMagic3 = "SLUICEM3"
	modelMagic4 = "SLUICEM4"
	modelMagic5 = "SLUICEM5"
	modelMagic6 = "SLUICEM6"
)

// MarshalBinary encodes the labeller as a model file.
func (l *Labeller) MarshalBinary() ([]byte, error) {
	c := l.cfg
	c.Cues, c.TextCues = nil, nil
	cfg, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteString(modelMagic6)
	writePrefixed(&buf, cfg)
	f := l.Features()
	writePrefixed(&buf, appendCueTables(nil, f.Cues, f.TextCues))
	for _, st := range l.stages {
		m, ok := st.(marshaler)
		if !ok {
			continue
		}
		part, err := m.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("label: stage %s: %w", st.Name(), err)
		}
		writePrefixed(&buf, part)
	}
	return buf.Bytes(), nil
}

// writePrefixed writes data's length, a little-endian uint32, then data.
func writePrefixed(buf *bytes.Buffer, data []byte) {
	binary.Write(buf, binary.LittleEndian, uint32(len(data)))
	buf.Write(data)
}

// Save writes the model file to w.
func (l *Labeller) Save(w io.Writer) error {
	data, err := l.MarshalBinary()
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// Load reads a model file written by Save, or by an earlier version of
// sluice.
func Load(data []byte) (*Labeller, error) {
	var magic string
	if len(data) >= len(modelMagic5)+4 {
		magic = string(data[:len(modelMagic5)])
	}
	known := []string{modelMagic1, modelMagic2, modelMagic3, modelMagic4, modelMagic5, modelMagic6}
	if !slices.Contains(known, magic) {
		if strings.HasPrefix(magic, "SLUICEM") {
			return nil, fmt.Errorf("label: the model file's layout %s is not one this sluice reads (SLUICEM1 to SLUICEM6): it was written by another version; use that version, or train the model again with this one", magic)
		}
		return nil, errors.New("label: not a sluice model file (it should start with SLUICEM1 to SLUICEM6; train one with sluice train)")
	}
	data = data[len(magic):]
	var cfg FeatureConfig
	data, err := jsonPart(data, &cfg, "feature configuration")
	if err != nil {
		return nil, err
	}
	switch magic {
	case modelMagic6:
		part, rest, ok := lengthPrefixed(data)
		if !ok {
			return nil, errors.New("label: model file truncated in its cue tables")
		}
		// A copy: the labeller keeps reading it (Features), and the
		// caller may reuse data.
		if cfg.CueSource, cfg.TextCueSource, err = cueSources(bytes.Clone(part)); err != nil {
			return nil, err
		}
		data = rest
	case modelMagic5:
	default:
		return loadLegacy(magic, cfg, data)
	}
	if err := CheckStages(cfg.Stages); err != nil {
		return nil, fmt.Errorf("label: model file: %w", err)
	}
	stages := make([]Stage, len(cfg.Stages))
	for i, name := range cfg.Stages {
		k, _ := stageKindOf(name)
		if k.read == nil {
			stages[i] = k.make()
			continue
		}
		part, rest, ok := lengthPrefixed(data)
		if !ok {
			return nil, fmt.Errorf("label: model file truncated in its %s stage", name)
		}
		st, err := k.read(part)
		if err != nil {
			return nil, err
		}
		stages[i], data = st, rest
	}
	if len(data) > 0 {
		return nil, fmt.Errorf("label: model file has %d bytes after its last stage", len(data))
	}
	return New(cfg, stages...)
}

// loadLegacy reads the rest of a model file of the layouts before
// modelMagic5, whose configuration is cfg, as the stages those layouts
// ran: the trees, the CRF or two, the context trees or else (with trees)
// the blend, then smoothing and the content region.
func loadLegacy(magic string, cfg FeatureConfig, data []byte) (*Labeller, error) {
	var stages []Stage
	var ctxTrees []byte
	if magic == modelMagic3 || magic == modelMagic4 {
		part, rest, ok := lengthPrefixed(data)
		if !ok {
			return nil, errors.New("label: model file truncated in its boosted trees")
		}
		if magic == modelMagic4 {
			// The trees' part holds the spec, the trees length-prefixed,
			// then the context trees.
			spec, trees, ok := lengthPrefixed(part)
			var tr []byte
			if ok {
				tr, ctxTrees, ok = lengthPrefixed(trees)
			}
			if !ok {
				return nil, errors.New("label: model file truncated in its boosted trees")
			}
			part = append(prefixed(spec), tr...)
		}
		trees, err := readTrees(part)
		if err != nil {
			return nil, err
		}
		stages, data = append(stages, trees), rest
	}
	if magic == modelMagic1 {
		m, err := crf.Unmarshal(data)
		if err != nil {
			return nil, err
		}
		return New(cfg, CRFStage{m}, SmoothStage{}, RegionStage{})
	}
	first, data, ok := lengthPrefixed(data)
	if !ok {
		return nil, errors.New("label: model file truncated in its first stage")
	}
	m1, err := crf.Unmarshal(first)
	if err != nil {
		return nil, fmt.Errorf("label: first stage: %w", err)
	}
	stages = append(stages, CRFStage{m1})
	if magic == modelMagic2 || len(data) > 0 || !cfg.Off[features.Stack] {
		if len(data) == 0 {
			return nil, errors.New("label: model file truncated: its configuration has two stages but the file holds one")
		}
		m2, err := crf.Unmarshal(data)
		if err != nil {
			return nil, fmt.Errorf("label: second stage: %w", err)
		}
		stages = append(stages, StackStage{m2})
	}
	switch {
	case ctxTrees != nil:
		st, err := readContext(ctxTrees)
		if err != nil {
			return nil, err
		}
		stages = append(stages, st)
	case magic == modelMagic3:
		stages = append(stages, BlendStage{})
	}
	return New(cfg, append(stages, SmoothStage{}, RegionStage{})...)
}

// jsonPart decodes the length-prefixed JSON at the start of data into v
// and returns what follows it; what names the part in errors.
func jsonPart(data []byte, v any, what string) (rest []byte, err error) {
	part, rest, ok := lengthPrefixed(data)
	if !ok {
		return nil, fmt.Errorf("label: model file truncated in its %s", what)
	}
	if err := json.Unmarshal(part, v); err != nil {
		return nil, fmt.Errorf("label: model %s: %w", what, err)
	}
	return rest, nil
}

// prefixed returns data after its length, as writePrefixed writes it.
func prefixed(data []byte) []byte {
	var buf bytes.Buffer
	writePrefixed(&buf, data)
	return buf.Bytes()
}

// lengthPrefixed splits data after a little-endian uint32 length and that
// many bytes.
func lengthPrefixed(data []byte) (part, rest []byte, ok bool) {
	if len(data) < 4 {
		return nil, nil, false
	}
	n := binary.LittleEndian.Uint32(data)
	data = data[4:]
	if uint64(n) > uint64(len(data)) {
		return nil, nil, false
	}
	return data[:n], data[n:], true
}

// readCRF reads the crf stage's part of a model file.
func readCRF(data []byte) (Stage, error) {
	m, err := crf.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("label: crf stage: %w", err)
	}
	return CRFStage{m}, nil
}

// readStack reads the stack stage's part of a model file.
func readStack(data []byte) (Stage, error) {
	m, err := crf.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("label: stack stage: %w", err)
	}
	return StackStage{m}, nil
}

// readContext reads the context stage's part of a model file.
func readContext(data []byte) (Stage, error) {
	m, err := gbdt.Unmarshal(data)
	if err != nil {
		return nil, fmt.Errorf("label: context trees: %w", err)
	}
	return NewContextStage(m)
}
