package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sluice-project/sluice/warc"
)

// crawlDate is the WARC-Date of the first record.
var crawlDate = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// pair is a planted copy and its original, by target URI, with the
// Jaccard similarity of their texts' shingles as written (body text only,
// the templates left out).
type pair struct {
	Copy       string  `json:"copy"`
	Original   string  `json:"original"`
	CopyID     string  `json:"copy_id"`
	OriginalID string  `json:"original_id"`
	SameHost   bool    `json:"same_host"`
	Jaccard    float64 `json:"jaccard"`
}

// manifest is what the generator wrote: the ground truth the measurement
// checks against. It is crawl/manifest.json.
type manifest struct {
	Config        Config           `json:"config"`
	Files         []string         `json:"files"`
	Records       int64            `json:"records"` // every WARC record written
	ByType        map[string]int64 `json:"records_by_type"`
	Responses     int              `json:"responses"`
	NoURI         int              `json:"responses_without_uri"`
	DupIDs        int              `json:"duplicate_ids"`
	Hosts         int              `json:"hosts"`
	SourcesUsed   int              `json:"shared_pages_used"`
	SourcesReused int              `json:"records_reusing_a_page"`
	Bytes         int64            `json:"bytes"`
	URIs          []string         `json:"uris"` // the responses' target URIs
	Pairs         []pair           `json:"pairs"`
}

// write writes the crawl into dir: cfg.Files archives, each a warcinfo
// record, then its share of the records in crawl order, a request record
// before each response that has a target URI.
func (p *plan) write(dir string) (*manifest, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	m := &manifest{Config: p.cfg, ByType: map[string]int64{}, Responses: len(p.slots), NoURI: p.cfg.NoURI,
		DupIDs: p.cfg.DupIDs, Hosts: len(p.hosts), SourcesUsed: p.sources, SourcesReused: p.reused}
	jac := make([]float64, len(p.slots))
	counts := make([]map[string]int64, p.cfg.Files)
	errs := make([]error, p.cfg.Files)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for f := range p.cfg.Files {
		m.Files = append(m.Files, filepath.Join(dir, fmt.Sprintf("crawl-%05d.warc.gz", f)))
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			counts[f], errs[f] = p.writeFile(m.Files[f], f, jac)
		})
	}
	wg.Wait()
	for f, err := range errs {
		if err != nil {
			return nil, err
		}
		for t, n := range counts[f] {
			m.ByType[t] += n
			m.Records += n
		}
		st, err := os.Stat(m.Files[f])
		if err != nil {
			return nil, err
		}
		m.Bytes += st.Size()
	}
	for _, s := range p.slots {
		if s.uri != "" {
			m.URIs = append(m.URIs, s.uri)
		}
	}
	for _, cp := range p.pairs() {
		c, o := p.slots[cp[0]], p.slots[cp[1]]
		m.Pairs = append(m.Pairs, pair{Copy: c.uri, Original: o.uri, CopyID: c.id, OriginalID: o.id, SameHost: c.host == o.host, Jaccard: jac[cp[0]]})
	}
	return m, nil
}

// writeFile writes archive f and returns its records by type.
func (p *plan) writeFile(path string, f int, jac []float64) (map[string]int64, error) {
	file, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(file, 1<<20)
	w := warc.NewWriter(bw, true)
	counts := map[string]int64{}
	if _, err := w.WriteWarcinfo(filepath.Base(path), warc.Header{{Name: "software", Value: "sluice crawlbench"}}); err != nil {
		file.Close()
		return nil, err
	}
	counts[warc.TypeWarcinfo]++
	for i := f; i < len(p.order); i += p.cfg.Files {
		for _, rec := range p.records(p.order[i], i, jac) {
			if err := w.WriteRecord(rec); err != nil {
				file.Close()
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			counts[rec.Type]++
		}
	}
	if err := bw.Flush(); err != nil {
		file.Close()
		return nil, err
	}
	return counts, file.Close()
}

// records returns slot i's records, the n-th of the crawl: a request (when
// it has a target URI) and the response.
func (p *plan) records(i, n int, jac []float64) []*warc.Record {
	s := &p.slots[i]
	page := p.render(i, jac)
	date := crawlDate.Add(time.Duration(n) * time.Second)
	resp := &warc.Record{Type: warc.TypeResponse, TargetURI: s.uri, Date: date,
		Content: fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(page), page)}
	resp.Header.Set(warc.FieldRecordID, s.id)
	resp.Header.Set(warc.FieldContentType, "application/http; msgtype=response")
	if s.uri == "" {
		return []*warc.Record{resp}
	}
	h := p.hosts[s.host]
	req := &warc.Record{Type: warc.TypeRequest, TargetURI: s.uri, Date: date,
		Content: fmt.Appendf(nil, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: sluice-crawlbench\r\n\r\n", s.path, h.name)}
	req.Header.Set(warc.FieldRecordID, recordID(rand.New(rand.NewPCG(s.seed, 3))))
	req.Header.Set(warc.FieldContentType, "application/http; msgtype=request")
	req.Header.Set("WARC-Concurrent-To", s.id)
	return []*warc.Record{req, resp}
}

// render returns slot i's page: its host's template around the text of its
// shared page, changed as edit.go says. For a planted copy it also sets
// jac[i], the similarity of its text to its original's.
func (p *plan) render(i int, jac []float64) string {
	s := &p.slots[i]
	r := rand.New(rand.NewPCG(s.seed, 2))
	var texts []string
	if s.copyOf < 0 {
		texts = s.src.texts(r, p.cfg.Replace)
	} else {
		o := &p.slots[s.copyOf]
		texts = o.src.texts(rand.New(rand.NewPCG(o.seed, 2)), p.cfg.Replace)
		before := slices.Clone(texts)
		s.src.edit(texts, r, copyEdits(s.src.units))
		jac[i] = jaccard(s.src.shingles(before), s.src.shingles(texts))
	}
	h := p.hosts[s.host]
	day := crawlDate.AddDate(0, 0, -r.IntN(2000))
	dateline := "Published " + day.Format("2 January 2006")
	if h.zh {
		dateline = "发布时间：" + day.Format("2006-01-02")
	}
	var b strings.Builder
	h.render(&b, r, s.src.title, dateline, s.src.bodyHTML(texts))
	return b.String()
}
