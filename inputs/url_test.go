package inputs

import "testing"

func TestURLRel(t *testing.T) {
	for in, want := range map[string]string{
		"https://Example.org":                 "example.org/index",
		"https://example.org/":                "example.org/index",
		"http://example.org/news/a.html?x=1":  "example.org/news/a.html",
		"https://example.org/news/":           "example.org/news/index",
		"https://example.org/a/../../etc/pwd": "example.org/a/etc/pwd",
		"https://example.org:8080/a b/%2e%2e": "example.org_8080/a_b",
		"https://user:pw@example.org/x":       "example.org/x",
	} {
		if got := URLRel(in); got != want {
			t.Errorf("URLRel(%q) = %q, want %q", in, got, want)
		}
	}
	if IsURL("page.html") || !IsURL("HTTPS://x") || IsURL("ftp://x") {
		t.Error("IsURL")
	}
}

// TestExpandURLs: addresses are pages to fetch only when the walker is
// told so; otherwise they are missing files.
func TestExpandURLs(t *testing.T) {
	srcs, errs := Walker{URLs: true}.Expand([]string{"https://example.org/a"})
	if len(errs) != 0 || len(srcs) != 1 || srcs[0].URL != "https://example.org/a" || srcs[0].Path != "" || srcs[0].Rel != "example.org/a" {
		t.Errorf("with URLs: %+v, %v", srcs, errs)
	}
	if srcs, errs := (Walker{}).Expand([]string{"https://example.org/a"}); len(srcs) != 0 || len(errs) != 1 {
		t.Errorf("without URLs: %+v, %v", srcs, errs)
	}
}
