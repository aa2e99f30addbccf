//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sluice-project/sluice/dataset"
)

// readmeLine is a line of one of the README's sh blocks, with its number.
type readmeLine struct {
	n    int
	text string
}

// readmeBlocks returns the README's sh blocks, each as its lines.
func readmeBlocks(readme string) [][]readmeLine {
	var blocks [][]readmeLine
	var cur []readmeLine
	in := false
	for i, line := range strings.Split(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in, cur = true, nil
		case strings.HasPrefix(line, "```") && in:
			in = false
			blocks = append(blocks, cur)
		case in && strings.TrimSpace(line) != "":
			cur = append(cur, readmeLine{i + 1, line})
		}
	}
	return blocks
}

// readmeBefore gives, for the README lines that begin so, what a reader
// has run before them: the earlier run bench --compare compares with, the
// sorted crawl the near-duplicate example reads, the annotations of
// myset (the "Annotating pages" section, after the training one). Everything else a line
// needs is in readmeFixtures or made by the lines above it in its block.
var readmeBefore = map[string]string{
	"sluice bench --sets wcxb-dev":                       `sluice bench --sets wcxb-dev --filter 'lqf>targetnode,lqf>bte' --json old.json`,
	"sluice corpus -o out/ --near-dup 0.8 --near-dup-wi": `sluice sort -o sorted/ crawls/`,
	"sluice train --data ./myset,":                       `sluice annotate myset`,
}

// TestREADMERunsAsWritten runs every line of the README's sh blocks with
// bash, as written, and asks each to succeed. The lines of a block run in
// order in one folder holding readmeFixtures (a block of corpus or tables
// examples, which each stand alone and write the same outputs, gets a fresh
// folder a line), with sluice (this test binary) on the PATH, EDITOR=true,
// and:
//   - SLUICE_DATA and ../shared/data: a small data folder, 8 pages of
//     cleaneval-dev and of wcxb-dev copied from the shared data, so that
//     the training and benchmark examples take seconds (the tables
//     examples get the shared data itself: their labels name its pages);
//   - https://example.com/: an HTTPS server on loopback, reached through a
//     CONNECT proxy that HTTPS_PROXY names, with its certificate trusted
//     through SSL_CERT_FILE and CURL_CA_BUNDLE;
//   - "sluice serve" runs in the background until the end of its block,
//     whose curl lines talk to it on 127.0.0.1:8080;
//   - "go" lines run in the repository (go install into a folder of the
//     test's); "go test ./..." is the command that runs this test, and is
//     the one line not run.
//
// Without the shared data the lines that need it are logged, not failed.
func TestREADMERunsAsWritten(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every README example: not in -short")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the README's lines with")
	}
	t.Chdir(filepath.Join("..", ".."))
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	env, shared := readmeEnv(t)
	ran := 0
	for _, block := range readmeBlocks(string(readme)) {
		ran += runReadmeBlock(t, repo, block, env, shared)
	}
	t.Logf("%d README lines ran as written", ran)
}

// runReadmeBlock runs the lines of one sh block and returns how many ran.
func runReadmeBlock(t *testing.T, repo string, block []readmeLine, env []string, shared string) int {
	perLine := len(block) > 0 && (strings.HasPrefix(block[0].text, "sluice corpus") || strings.HasPrefix(block[0].text, "sluice tables"))
	var dir string
	var stop func()
	defer func() {
		if stop != nil {
			stop()
		}
	}()
	ran := 0
	for i, l := range block {
		if dir == "" || perLine && i > 0 {
			dir = readmeWorkDir(t, repo, env)
		}
		lineEnv := env
		if strings.HasPrefix(l.text, "sluice tables") && shared != "" {
			lineEnv = append(append([]string(nil), env...), dataset.EnvData+"="+shared)
		}
		switch {
		case strings.HasPrefix(l.text, "go test "):
			t.Logf("README:%d not run: the test command, which runs this test", l.n)
			continue
		case strings.HasPrefix(l.text, "sluice serve"):
			stop = startReadmeServe(t, l, dir, lineEnv)
			ran++
			continue
		}
		cwd := dir
		if strings.HasPrefix(l.text, "go ") {
			cwd = repo
		}
		for prefix, before := range readmeBefore {
			if strings.HasPrefix(l.text, prefix) {
				if out, err := runReadmeLine(cwd, before, lineEnv); err != nil {
					t.Errorf("README:%d: the run before it, %s: %v\n%s", l.n, before, err, out)
				}
			}
		}
		out, err := runReadmeLine(cwd, l.text, lineEnv)
		switch {
		case err != nil && shared == "" && readmeNeedsData(l.text):
			t.Logf("README:%d not run without the shared data: %s", l.n, l.text)
		case err != nil:
			t.Errorf("README:%d: %s\n  %v\n%s", l.n, l.text, err, out)
		default:
			ran++
		}
	}
	return ran
}

// readmeNeedsData reports whether a README line reads the data folder.
func readmeNeedsData(line string) bool {
	for _, s := range []string{"sluice train", "sluice bench", "sluice eval", "sluice tables", "shared/data"} {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

// runReadmeLine runs one line with bash in dir, a pipeline failing when
// any of its commands does, within three minutes, and returns the tail
// of what it wrote.
func runReadmeLine(dir, line string, env []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", "set -o pipefail\n"+line)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader("")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	s := out.String()
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s, err
}

// readmeWorkDir makes a folder ROOT/work holding readmeFixtures, with
// ROOT/shared/data the small data folder SLUICE_DATA names (when there is
// one), so that ../shared/data reads as it does from the repository.
func readmeWorkDir(t *testing.T, repo string, env []string) string {
	root := t.TempDir()
	dir := filepath.Join(root, "work")
	readmeFixtures(t, repo, dir)
	data := "" // the last SLUICE_DATA of env, the one the commands see
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, dataset.EnvData+"="); ok {
			data = v
		}
	}
	if data != "" {
		if err := os.MkdirAll(filepath.Join(root, "shared"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(data, filepath.Join(root, "shared", "data")); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// startReadmeServe starts the README's "sluice serve" line in the
// background and waits until 127.0.0.1:8080 answers; the function it
// returns stops it.
func startReadmeServe(t *testing.T, l readmeLine, dir string, env []string) func() {
	if c, err := net.DialTimeout("tcp", "127.0.0.1:8080", time.Second); err == nil {
		c.Close()
		t.Errorf("README:%d: 127.0.0.1:8080 is taken before %q starts", l.n, l.text)
		return nil
	}
	cmd := exec.Command("bash", "-c", l.text)
	cmd.Dir, cmd.Env = dir, env
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get("http://127.0.0.1:8080/"); err == nil {
			resp.Body.Close()
			return stop
		}
	}
	stop()
	t.Errorf("README:%d: %q did not answer on 127.0.0.1:8080 within 30 s\n%s", l.n, l.text, logs.String())
	return nil
}

// readmeEnv returns the environment of the README's lines (see
// TestREADMERunsAsWritten) and the shared data folder ("" without it).
func readmeEnv(t *testing.T) (env []string, shared string) {
	tmp := t.TempDir()
	env = append(os.Environ(), "EDITOR=true", "GOBIN="+filepath.Join(tmp, "bin"), "NO_PROXY=127.0.0.1,localhost,::1", "no_proxy=127.0.0.1,localhost,::1")
	if root, err := dataset.Root(); err == nil {
		if shared, err = filepath.Abs(root); err != nil {
			t.Fatal(err)
		}
		small := filepath.Join(tmp, "data")
		copySmallData(t, shared, small)
		env = append(env, dataset.EnvData+"="+small)
	}
	proxyURL, caFile := exampleComServer(t, tmp)
	return append(env, "HTTPS_PROXY="+proxyURL, "https_proxy="+proxyURL, "SSL_CERT_FILE="+caFile, "CURL_CA_BUNDLE="+caFile), shared
}

// copySmallData copies the first 8 pages of cleaneval-dev and wcxb-dev,
// with their gold, from the shared data folder to dst.
func copySmallData(t *testing.T, shared, dst string) {
	for _, set := range []string{"cleaneval-dev", "wcxb-dev"} {
		for _, sub := range []string{"html", "gold"} {
			names, err := os.ReadDir(filepath.Join(shared, set, sub))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dst, set, sub), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, e := range names {
				id, _, _ := strings.Cut(e.Name(), ".")
				if n, err := strconv.Atoi(id); err != nil || n < 1 || n > 8 {
					continue
				}
				data, err := os.ReadFile(filepath.Join(shared, set, sub, e.Name()))
				if err == nil {
					err = os.WriteFile(filepath.Join(dst, set, sub, e.Name()), data, 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// exampleComServer serves testdata/example.html at every path of
// https://example.com/ for the README's fetching lines: an HTTPS server on
// loopback (httptest's certificate names example.com), and an HTTP proxy
// that CONNECTs every host to it. It returns the proxy's URL and a file
// holding the certificate to trust.
func exampleComServer(t *testing.T, tmp string) (proxyURL, caFile string) {
	page, err := os.ReadFile(filepath.Join("testdata", "example.html"))
	if err != nil {
		t.Fatal(err)
	}
	site := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	t.Cleanup(site.Close)
	upstream := site.Listener.Addr().String()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		up, err := net.Dial("tcp", upstream)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer up.Close()
		w.WriteHeader(http.StatusOK)
		down, rw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer down.Close()
		go func() {
			io.Copy(up, rw) // the client's bytes, those buffered first
			up.(*net.TCPConn).CloseWrite()
		}()
		io.Copy(down, up)
	}))
	t.Cleanup(proxy.Close)
	caFile = filepath.Join(tmp, "example-com.pem")
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: site.Certificate().Raw})
	if err := os.WriteFile(caFile, cert, 0o644); err != nil {
		t.Fatal(err)
	}
	return proxy.URL, caFile
}
