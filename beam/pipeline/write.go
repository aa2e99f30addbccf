package pipeline

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn2x0[string, func(int, string)](&shardFn{})
	register.Emitter2[int, string]()
	register.Function1x2[int, int, bool](shardMarker)
	register.Emitter2[int, bool]()
	register.DoFn4x1[context.Context, int, func(*string) bool, func(*bool) bool, error](&writeShardFn{})
	register.Iter1[string]()
	register.Iter1[bool]()
}

// WriteSharded writes the strings of lines, one per line, to shards files:
// ShardName(prefix, suffix, i, shards) for i from 0 to shards-1, such as
// out/pages-00003-of-00016.jsonl. A suffix ending in ".gz" compresses the
// files with gzip. Every shard file is written, an empty one included, so
// that a reader can check that it has all of them. Lines go to shards by a
// hash of their content; their order within a shard is unspecified.
//
// It exists because textio.Write of the Go SDK (v2.77) writes a single
// file, through one GroupByKey with a fixed key: one worker writes the
// whole output. Here there is one key per shard, so that shards are
// written in parallel. Like textio.Write, a shard is written whole by one
// call and overwritten when the runner retries it; on GCS an object only
// appears when it is complete.
func WriteSharded(s beam.Scope, prefix, suffix string, shards int, lines beam.PCollection) {
	s = s.Scope("WriteSharded")
	filesystem.ValidateScheme(prefix)
	if shards < 1 {
		shards = 1
	}
	keyed := beam.ParDo(s, &shardFn{Shards: shards}, lines)
	all := make([]int, shards)
	for i := range all {
		all[i] = i
	}
	// One marker per shard, so that a shard with no line is written too.
	markers := beam.ParDo(s, shardMarker, beam.CreateList(s, all))
	grouped := beam.CoGroupByKey(s, keyed, markers)
	beam.ParDo0(s, &writeShardFn{Prefix: prefix, Suffix: suffix, Shards: shards}, grouped)
}

// ShardName returns the name of shard i of n: prefix, "-", i and n on at
// least five digits, and suffix.
func ShardName(prefix, suffix string, i, n int) string {
	w := max(5, len(strconv.Itoa(n)))
	return fmt.Sprintf("%s-%0*d-of-%0*d%s", prefix, w, i, w, n, suffix)
}

// shardFn keys each line by its shard: a hash of the line, so that a retry
// sends a line to the same shard.
type shardFn struct {
	Shards int
}

func (fn *shardFn) ProcessElement(line string, emit func(int, string)) {
	h := fnv.New32a()
	io.WriteString(h, line)
	emit(int(h.Sum32()%uint32(fn.Shards)), line)
}

func shardMarker(i int) (int, bool) { return i, true }

// writeShardFn writes one shard file.
type writeShardFn struct {
	Prefix, Suffix string
	Shards         int
}

func (fn *writeShardFn) ProcessElement(ctx context.Context, shard int, lines func(*string) bool, _ func(*bool) bool) (err error) {
	name := ShardName(fn.Prefix, fn.Suffix, shard, fn.Shards)
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	f, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("%s: %w", name, cerr)
		}
	}()
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(fn.Suffix, ".gz") {
		zw = gzip.NewWriter(f)
		w = zw
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var line string
	for lines(&line) {
		bw.WriteString(line)
		if err := bw.WriteByte('\n'); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}
